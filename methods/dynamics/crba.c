/*
 * The composite-rigid-body algorithm in body coordinates (RBDA Table 6.2):
 * composite inertias Ic_i, then for each joint the force columns F = Ic_i S_i
 * carried to every ancestor j, giving M_ji = S_j^T F.  O(N d), d the depth.
 * Needs d->Xup, d->Ic, d->Fs.
 *
 * On a chain every entry of M is written exactly once per call (the
 * output's write floor, nv^2 doubles): column c's related rows (its
 * ancestors and its subtree, M_ji != 0 only there, RBDA sec. 6.2) as
 * computed, the rows in between as zeros.  On a branched tree M is cleared
 * by one memset and then only the related entries are written (both
 * triangles at once).  No mirroring pass either way.
 */
#include <string.h>
#include "rbdiff/dynamics.h"
#include "model/joint.h"
#include "dynamics/turned.h"

/* k when S_i = e_k (a revolute or continuous joint about a coordinate axis), else -1 */
static inline int axis_of(const rbd_model *m, int i)
{
    return rbd_joint_is_rot1(m->joint[i].type) ? m->joint[i].axis_id : -1;
}

/* TURN_U, TURN_W: E^T x where E turns only the plane (u, w) (turned.h) */

/* I_p += X^T I X for such an X (spatial_tpl.h's inertia_to_parent with E^T B E
 * as two plane rotations: 24 multiplications where the congruence takes 54) */
static inline void inertia_add_turned(int k, int u, int w, double c, double s, const double r[3],
                                      const sp_inertia *IB, sp_inertia *Ip)
{
    const double *h = IB->h, *B = IB->Ib;
    double y[3], hA[3], t[9], R[9];
    y[k] = h[k]; y[u] = TURN_U(c, s, h[u], h[w]); y[w] = TURN_W(c, s, h[u], h[w]);
    for (int i = 0; i < 3; i++) hA[i] = y[i] + IB->m * r[i];
    for (int i = 0; i < 3; i++) {                       /* t = B E */
        t[3 * i + k] = B[3 * i + k];
        t[3 * i + u] = TURN_U(c, s, B[3 * i + u], B[3 * i + w]);
        t[3 * i + w] = TURN_W(c, s, B[3 * i + u], B[3 * i + w]);
    }
    for (int j = 0; j < 3; j++) {                       /* R = E^T t */
        R[3 * k + j] = t[3 * k + j];
        R[3 * u + j] = TURN_U(c, s, t[3 * u + j], t[3 * w + j]);
        R[3 * w + j] = TURN_W(c, s, t[3 * u + j], t[3 * w + j]);
    }
    const double ry = sp_dot3(r, y), hr = sp_dot3(hA, r);   /* ax bx = b a^T - (a.b) 1 */
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Ip->Ib[3 * i + j] += R[3 * i + j] - ((y[i] * r[j] - (i == j ? ry : 0)) + (r[i] * hA[j] - (i == j ? hr : 0)));
    Ip->m += IB->m;
    for (int i = 0; i < 3; i++) Ip->h[i] += hA[i];
}

/* I_p += X^T I X for a general X (spatial_tpl.h's inertia_to_parent): with
 * y = E^T h, h_p += y + m r, and Ib_p += E^T Ib E - (y r^T + r y^T + m r r^T)
 * + (2 r.y + m r.r) 1, every term symmetric, so formed for i <= j and added
 * to both triangles (E^T (Ib E) 45 multiplications where the full 3x3
 * congruence takes 54; no temporary inertia, no separate add) */
static inline void inertia_add_general(const sp_xform *X, const sp_inertia *IB, sp_inertia *Ip)
{
    const double *E = X->E, *r = X->r, *B = IB->Ib, *h = IB->h, m = IB->m;
    double y[3], hA[3], t[9];
    for (int i = 0; i < 3; i++) y[i] = E[i] * h[0] + E[3 + i] * h[1] + E[6 + i] * h[2];
    for (int i = 0; i < 3; i++) hA[i] = y[i] + m * r[i];
    for (int a = 0; a < 3; a++)                         /* t = Ib E */
        for (int j = 0; j < 3; j++) t[3 * a + j] = B[3 * a] * E[j] + B[3 * a + 1] * E[3 + j] + B[3 * a + 2] * E[6 + j];
    const double d = sp_dot3(r, y) + sp_dot3(hA, r);    /* ax bx = b a^T - (a.b) 1 */
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            const double x = E[i] * t[j] + E[3 + i] * t[3 + j] + E[6 + i] * t[6 + j] -
                             (y[i] * r[j] + r[i] * hA[j]) + (i == j ? d : 0);
            Ip->Ib[3 * i + j] += x;
            if (j != i) Ip->Ib[3 * j + i] += x;
        }
    Ip->m += m;
    for (int i = 0; i < 3; i++) Ip->h[i] += hA[i];
}

/* F(:, c) = X^T F(:, c) for such an X, c in [c0, c1): n_k, n_u, n_w and
 * f_k, f_u, f_w the rows of the couple and the force in the plane's order */
static void carry_turned(double cq, double sq, double rk, double ru, double rw, int c0, int c1,
                         double *restrict nk, double *restrict nu, double *restrict nw, double *restrict gk,
                         double *restrict gu, double *restrict gw)
{
    for (int c = c0; c < c1; c++) {
        const double au = TURN_U(cq, sq, nu[c], nw[c]), aw = TURN_W(cq, sq, nu[c], nw[c]);
        const double bk = gk[c], bu = TURN_U(cq, sq, gu[c], gw[c]), bw = TURN_W(cq, sq, gu[c], gw[c]);
        nk[c] += ru * bw - rw * bu;                     /* n + r x b, in the cyclic order (k, u, w) */
        nu[c] = au + rw * bk - rk * bw;
        nw[c] = aw + rk * bu - ru * bk;
        gu[c] = bu; gw[c] = bw;
    }
}

/* col[c] = S^T F(:, c), c in [c0, c1) */
static void rows_dot(int c0, int c1, const double S[6], double *restrict col, const double *restrict f0,
                     const double *restrict f1, const double *restrict f2, const double *restrict f3,
                     const double *restrict f4, const double *restrict f5)
{
    for (int c = c0; c < c1; c++)
        col[c] = S[0] * f0[c] + S[1] * f1[c] + S[2] * f2[c] + S[3] * f3[c] + S[4] * f4[c] + S[5] * f5[c];
}

/* F(:, c) = X^T F(:, c) = [E^T n + r x E^T f; E^T f] for c in [c0, c1) */
static void carry_to_parent(const sp_xform *X, int c0, int c1, double *restrict n0, double *restrict n1,
                            double *restrict n2, double *restrict g0, double *restrict g1, double *restrict g2)
{
    const double *E = X->E, *r = X->r;
    for (int c = c0; c < c1; c++) {
        double a0 = E[0] * n0[c] + E[3] * n1[c] + E[6] * n2[c];
        double a1 = E[1] * n0[c] + E[4] * n1[c] + E[7] * n2[c];
        double a2 = E[2] * n0[c] + E[5] * n1[c] + E[8] * n2[c];
        double b0 = E[0] * g0[c] + E[3] * g1[c] + E[6] * g2[c];
        double b1 = E[1] * g0[c] + E[4] * g1[c] + E[7] * g2[c];
        double b2 = E[2] * g0[c] + E[5] * g1[c] + E[8] * g2[c];
        n0[c] = a0 + r[1] * b2 - r[2] * b1;
        n1[c] = a1 + r[2] * b0 - r[0] * b2;
        n2[c] = a2 + r[0] * b1 - r[1] * b0;
        g0[c] = b0; g1[c] = b1; g2[c] = b2;
    }
}

/* Zero the rows of column c above it that are not its ancestors: the gaps
 * between the contiguous ancestor runs [dof_run0[k], k] (rbd_model). */
static void zero_unrelated_above(const rbd_model *m, int c, double *col)
{
    for (int k = c; k >= 0;) {
        const int s = m->dof_run0[k], p = m->dof_parent[s];
        if (s - p > 1) memset(col + p + 1, 0, sizeof(double) * (size_t)(s - p - 1));
        k = p;
    }
}

/* M(r, c) = M(c, r) = src[r] for r in [c, ve): column c and row c at once
 * (one pass: the runs are short, a copy loop's set-up costs more) */
static inline void col_and_row(int c, int ve, size_t ld, const double *restrict src, double *restrict M)
{
    double *restrict col = M + ld * c;
    col[c] = src[c];
    for (int r = c + 1; r < ve; r++) {
        const double x = src[r];
        col[r] = x;
        M[c + ld * r] = x;
    }
}

/* Body j's columns of M from its force columns F(:, w0 .. ve): column
 * c = w0 + l gets M(c .. ve, c) computed; row c gets the same numbers to
 * the right of the diagonal (M(c, c'), c' in the subtree, is M(c', c)).
 * The rows of column c above its own joint's dofs are its ancestors',
 * written when they come (later: leaves first). */
static inline void write_related(const rbd_model *m, int j, int ve, const int unit[6], double *const F[6], double *M)
{
    const int w0 = m->idx_v[j], n = m->nv_of[j];
    const size_t ld = (size_t)m->nv;
    for (int l = 0; l < n; l++) {
        const int c = w0 + l, k = unit[l];
        double *col = M + ld * c;
        if (k >= 0) {
            col_and_row(c, ve, ld, F[k], M);
        } else {
            rows_dot(c, ve, m->S + 6 * c, col, F[0], F[1], F[2], F[3], F[4], F[5]);
            for (int r = c + 1; r < ve; r++) M[c + ld * r] = col[r];
        }
    }
}

/* write_related, and each column's unrelated rows zeroed: M written once */
static void write_columns(const rbd_model *m, int j, int ve, const int unit[6], double *const F[6], double *M)
{
    const int w0 = m->idx_v[j], n = m->nv_of[j], nv = m->nv;
    write_related(m, j, ve, unit, F, M);
    for (int c = w0; c < w0 + n; c++) {
        double *col = M + (size_t)nv * c;
        zero_unrelated_above(m, c, col);
        if (ve < nv) memset(col + ve, 0, sizeof(double) * (size_t)(nv - ve));
    }
}

/* f = Ic e_a: for a < 3 [Ib(:, a); -h x e_a], for a = 3 + k [h x e_k; m e_k]
 * (spatial_tpl.h's inertia_motion with one unit entry), a copy per row */
static inline void force_column_axis(const sp_inertia *Ic, int a, double f[6])
{
    const double *B = Ic->Ib, *h = Ic->h, m = Ic->m;
    switch (a) {
    case 0: f[0] = B[0]; f[1] = B[3]; f[2] = B[6]; f[3] = 0; f[4] = -h[2]; f[5] = h[1]; break;
    case 1: f[0] = B[1]; f[1] = B[4]; f[2] = B[7]; f[3] = h[2]; f[4] = 0; f[5] = -h[0]; break;
    case 2: f[0] = B[2]; f[1] = B[5]; f[2] = B[8]; f[3] = -h[1]; f[4] = h[0]; f[5] = 0; break;
    case 3: f[0] = 0; f[1] = h[2]; f[2] = -h[1]; f[3] = m; f[4] = 0; f[5] = 0; break;
    case 4: f[0] = -h[2]; f[1] = 0; f[2] = h[0]; f[3] = 0; f[4] = m; f[5] = 0; break;
    default: f[0] = h[1]; f[1] = -h[0]; f[2] = 0; f[3] = 0; f[4] = 0; f[5] = m;
    }
}

/* Xup = (E_J, r_tree) of a flat axis body: E_J = rot_k(q)^T (jcalc_rot) */
static inline void xup_axis(int k, int u, int w, double c, double s, const double r[3], sp_xform *X)
{
    for (int e = 0; e < 9; e++) X->E[e] = 0;
    X->E[4 * k] = 1;
    X->E[4 * u] = c; X->E[3 * u + w] = s; X->E[3 * w + u] = -s; X->E[4 * w] = c;
    for (int e = 0; e < 3; e++) X->r[e] = r[e];
}

/* Xup for every body: X_J X_tree; for a flat axis body (axis_flat) X_J's
 * plane rotation with Xtree's r (X_J of a revolute joint has r = 0); for
 * any other joint about e_k rows u, w of E_tree turned (turned.h) */
static void joint_transforms(const rbd_model *m, rbd_data *d, const double *q)
{
    for (int i = 0; i < m->nb; i++) {
        const int k = d->axis_flat[i], a = k >= 0 ? k : axis_of(m, i);
        double c, s;
        if (a >= 0) sp_joint_cos_sin(&m->joint[i], q + m->idx_q[i], &c, &s);
        if (k >= 0) {
            const double *r = m->Xtree[i].r;
            switch (k) {
            case 0: xup_axis(0, 1, 2, c, s, r, &d->Xup[i]); break;
            case 1: xup_axis(1, 2, 0, c, s, r, &d->Xup[i]); break;
            default: xup_axis(2, 0, 1, c, s, r, &d->Xup[i]);
            }
        } else if (a >= 0) {
            turned_xup_rotated(a, c, s, &m->Xtree[i], &d->Xup[i]);
        } else {
            sp_xform XJ;
            sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
            sp_xform_compose(&XJ, &m->Xtree[i], &d->Xup[i]);
        }
        d->Ic[i] = m->inertia[i];
    }
}

/* Table 6.2: I^c_lambda(i) += X^T I^c_i X, leaves first */
static void composite_inertias(const rbd_model *m, rbd_data *d)
{
    for (int i = m->nb - 1; i >= 0; i--) {
        const int p = m->parent[i];
        if (p < 0) continue;
        const sp_xform *X = &d->Xup[i];
        switch (d->axis_flat[i]) {      /* constant plane indices in each copy */
        case 0: inertia_add_turned(0, 1, 2, X->E[4], X->E[5], X->r, &d->Ic[i], &d->Ic[p]); break;
        case 1: inertia_add_turned(1, 2, 0, X->E[8], X->E[6], X->r, &d->Ic[i], &d->Ic[p]); break;
        case 2: inertia_add_turned(2, 0, 1, X->E[0], X->E[1], X->r, &d->Ic[i], &d->Ic[p]); break;
        default: inertia_add_general(X, &d->Ic[i], &d->Ic[p]);
        }
    }
}

/* F(:, w0 .. ve) = Xup_j^T F(:, w0 .. ve) */
static void carry(const rbd_data *d, int j, int w0, int ve, double *const F[6])
{
    const sp_xform *X = &d->Xup[j];
    const double *r = X->r;
    switch (d->axis_flat[j]) {
    case 0: carry_turned(X->E[4], X->E[5], r[0], r[1], r[2], w0, ve, F[0], F[1], F[2], F[3], F[4], F[5]); break;
    case 1: carry_turned(X->E[8], X->E[6], r[1], r[2], r[0], w0, ve, F[1], F[2], F[0], F[4], F[5], F[3]); break;
    case 2: carry_turned(X->E[0], X->E[1], r[2], r[0], r[1], w0, ve, F[2], F[0], F[1], F[5], F[3], F[4]); break;
    default: carry_to_parent(X, w0, ve, F[0], F[1], F[2], F[3], F[4], F[5]);
    }
}

int rbd_crba(const rbd_model *m, rbd_data *d, const double *q, double *M)
{
    if (!m || !d || !q || !M) return rbd_fail(RBD_EINVAL, "rbd_crba: null argument");
    const int nb = m->nb, nv = m->nv;
    joint_transforms(m, d, q);
    composite_inertias(m, d);
    /* Table 6.2's inner loop turned inside out: going from the leaves up, body
     * j sets its own force columns F = Ic_j S_j, takes M(subtree(j), j) =
     * S_j^T F, then carries the whole subtree block F to its parent with one
     * X_j^T.  F is 6 x nv by rows (d->Fs), so each step is a loop over the
     * subtree's columns that vectorises. */
    double *F[6];
    for (int k = 0; k < 6; k++) F[k] = d->Fs + k * (size_t)nv;
    /* A branched tree (the last dof's ancestors are not all the dofs before
     * it: a gap, in depth-first order) has structural zeros in every column
     * below a branch, in as many gaps as the column has ancestor runs: one
     * memset of M, vectorised, then only the related entries, costs less
     * than a memset call per gap (a chain has none, and is written once). */
    const int cleared = nv > 0 && m->dof_run0[nv - 1] != 0;
    if (cleared) memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    for (int j = nb - 1; j >= 0; j--) {
        const int w0 = m->idx_v[j], n = m->nv_of[j];
        const int ve = m->subtree_end_v[j];
        int unit[6];                                    /* rbd_joint_unit_row of each column, once */
        for (int l = 0; l < n; l++) {
            double f[6];
            const int a = unit[l] = rbd_joint_unit_row(&m->joint[j], l);
            if (a >= 0) {
                force_column_axis(&d->Ic[j], a, f);
            } else {
                sp_inertia_motion(&d->Ic[j], m->S + 6 * (w0 + l), f);
            }
            for (int r = 0; r < 6; r++) F[r][w0 + l] = f[r];
        }
        if (cleared) write_related(m, j, ve, unit, F, M);
        else write_columns(m, j, ve, unit, F, M);
        if (m->parent[j] >= 0) carry(d, j, w0, ve, F);
    }
    return RBD_OK;
}
