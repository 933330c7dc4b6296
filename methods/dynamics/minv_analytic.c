/*
 * M^-1 by Carpentier's analytical inverse of the joint-space inertia matrix
 * (Carpentier 2018; the ABA of RBDA Table 7.1 run on tau = all columns of the
 * identity at qd = 0 without gravity), O(N^2):
 *
 *  - an ABA pass 2 gives IA_i, U_i = IA_i S_i, D_i^-1 (no bias forces;
 *    rbd_minv_analytic_after_aba takes them from a preceding rbd_aba);
 *  - backward, i = N..1: row block i of M^-1 over i's subtree columns is
 *    D_i^-1 (e_i - S_i^T F), F = the 6 x nv bias-force block pA of the
 *    subtree's unit torques; then F += U_i (that row block);
 *  - forward, i = 1..N: row block i over columns j >= i loses
 *    D_i^-1 U_i^T A_lambda(i), and A_i = A_lambda(i) + S_i (row block i),
 *    A = the 6 x nv block of accelerations caused by the unit torques.
 *
 * F and A are kept in ground coordinates, so passing them between parent
 * and child needs no transform: a child's F columns are its own subtree's
 * (disjoint from its siblings'), and A_i is A_lambda(i) plus a rank-n_i
 * term, stored in place when i is its parent's last child (rbd_data.aslot).
 * Each inner step is two length-6 products per column.  Only row i's columns
 * j >= i are formed (they go to column i, i.e. the lower triangle), then
 * copied to the upper triangle.
 */
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "dynamics/aba_tpl.h"
#include "dynamics/turned.h"
#include "model/hot.h"

/* ABA pass 2 without bias forces: Xup_i, IA_i, U_i, D_i^-1 (all in d, as
 * rbd_aba leaves them: they depend on q only).  A flat axis body
 * (rbd_data.axis_flat: a joint about e_k, Xtree without rotation) gets Xup
 * and IA_lambda(i) += Xup^T Ia Xup as plane rotations (turned.h); any other
 * joint about e_k its Xup as rows u, w of E_tree turned and Ia carried with
 * its zero row and column k left out (turned.h's sym6_axis_to_parent). */
static int articulated_inertias(const rbd_model *m, rbd_data *d, const double *q)
{
    const int nb = m->nb;
    for (int i = 0; i < nb; i++) {
        const int k = d->axis_flat[i], a = k >= 0 ? k : sp_aba_axis(m, i);
        double c, s;
        if (a >= 0) sp_joint_cos_sin(&m->joint[i], q + m->idx_q[i], &c, &s);
        if (k >= 0) {
            turned_xup(k, (k + 1) % 3, (k + 2) % 3, c, s, m->Xtree[i].r, &d->Xup[i]);
        } else if (a >= 0) {
            turned_xup_rotated(a, c, s, &m->Xtree[i], &d->Xup[i]);
        } else {
            sp_xform XJ;
            sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
            sp_xform_compose(&XJ, &m->Xtree[i], &d->Xup[i]);
        }
        sp_inertia_to_mat6(&m->inertia[i], d->IA[i]);
    }
    for (int i = nb - 1; i >= 0; i--) {
        const int p = m->parent[i];
        double *Dinv = d->Dinv + 36 * i;
        if (sp_aba_joint_block(m, i, d->IA[i], NULL, NULL, d->U, Dinv, NULL))
            return rbd_fail(RBD_ESINGULAR, "minv (analytic): joint '%s' (body '%s'): S^T IA S is singular at "
                            "this configuration: the mass matrix is singular", m->joint_name[i], m->body_name[i]);
        if (p < 0) continue;
        const sp_xform *X = &d->Xup[i];
        const int k = d->axis_flat[i] < 0 ? sp_aba_axis(m, i) : -1;
        if (k >= 0) {                   /* a joint about e_k under a rotated Xtree: Ia = IA - y U^T formed where read */
            const double *U = d->U[m->idx_v[i]];
            double y[6];
            for (int r = 0; r < 6; r++) y[r] = U[r] * Dinv[0];
            switch (k) {
            case 0: sym6_axis_to_parent(1, 2, X, d->IA[i], y, U, d->IA[p]); break;
            case 1: sym6_axis_to_parent(2, 0, X, d->IA[i], y, U, d->IA[p]); break;
            default: sym6_axis_to_parent(0, 1, X, d->IA[i], y, U, d->IA[p]);
            }
            continue;
        }
        double UD[6][6], Ia[36];
        sp_aba_Ia(m, i, d->IA[i], (const double (*)[6])d->U, Dinv, UD, Ia);
        switch (d->axis_flat[i]) {      /* constant plane indices in each copy */
        case 0: turned_sym6_to_parent(0, 1, 2, X->E[4], X->E[5], X->r, Ia, d->IA[p]); break;
        case 1: turned_sym6_to_parent(1, 2, 0, X->E[8], X->E[6], X->r, Ia, d->IA[p]); break;
        case 2: turned_sym6_to_parent(2, 0, 1, X->E[0], X->E[1], X->r, Ia, d->IA[p]); break;
        default: sp_sym6_to_parent(X, Ia, d->IA[p]);
        }
    }
    return RBD_OK;
}

/* X0_i = Xup_i X0_lambda(i) for a flat axis body: Xup = (rot_k^T, r_tree),
 * so E0_i is E0_lambda(i) with rows u, w turned (turned_xup_tree: 12
 * multiplications where E_up E0 takes 27) and r0_i = r0_lambda(i) +
 * E0_lambda(i)^T r_tree (spatial_tpl.h's xform_compose) */
static inline void ground_flat(int k, const sp_xform *Xup, const sp_xform *X0p, sp_xform *X0)
{
    const double *E = Xup->E, *r = Xup->r, *Ep = X0p->E;
    switch (k) {                        /* (c, s) where turned_xup put them */
    case 0: turned_xup_tree(0, 1, 2, E[4], E[5], X0p, X0); break;
    case 1: turned_xup_tree(1, 2, 0, E[8], E[6], X0p, X0); break;
    default: turned_xup_tree(2, 0, 1, E[0], E[1], X0p, X0);
    }
    for (int j = 0; j < 3; j++) X0->r[j] += Ep[j] * r[0] + Ep[3 + j] * r[1] + Ep[6 + j] * r[2];
}

/* X0_i from Xup, and the ground-frame joint columns 0S = X0^-1 S. */
RBD_HOT static void ground_transforms(const rbd_model *m, rbd_data *d)
{
    for (int i = 0; i < m->nb; i++) {
        const int v0 = m->idx_v[i], p = m->parent[i], ax = sp_aba_axis(m, i);
        const sp_xform *X = &d->X0[i];
        if (p < 0) d->X0[i] = d->Xup[i];
        else if (d->axis_flat[i] >= 0) ground_flat(d->axis_flat[i], &d->Xup[i], &d->X0[p], &d->X0[i]);
        else sp_xform_compose(&d->Xup[i], &d->X0[p], &d->X0[i]);
        if (ax >= 0) {                                  /* X0^-1 e_ax: row ax of E, then r x it */
            double *S = d->S0[v0];
            S[0] = X->E[3 * ax]; S[1] = X->E[3 * ax + 1]; S[2] = X->E[3 * ax + 2];
            sp_cross3(X->r, S, S + 3);
            continue;
        }
        for (int k = 0; k < m->nv_of[i]; k++) {
            const int a = rbd_joint_unit_row(&m->joint[i], k);
            double *S = d->S0[v0 + k];
            if (a < 0) {
                sp_xform_inv_motion(X, m->S + 6 * (v0 + k), S);
            } else if (a < 3) {                         /* X0^-1 [e_a; 0] = [row a of E; r x it] */
                S[0] = X->E[3 * a]; S[1] = X->E[3 * a + 1]; S[2] = X->E[3 * a + 2];
                sp_cross3(X->r, S, S + 3);
            } else {                                    /* X0^-1 [0; e_b] = [0; row b of E] */
                S[0] = S[1] = S[2] = 0;
                S[3] = X->E[3 * (a - 3)]; S[4] = X->E[3 * (a - 3) + 1]; S[5] = X->E[3 * (a - 3) + 2];
            }
        }
    }
}

/* Y = X D^-1 for the n columns X of one joint (6-vectors); always inlined,
 * so that the call with n = 6 (a free-flyer root) is unrolled */
static inline __attribute__((always_inline)) void times_dinv(int n, const double (*X)[6], const double *Dinv,
                                                            double (*Y)[6])
{
    for (int b = 0; b < n; b++)
        for (int r = 0; r < 6; r++) {
            double s = 0;
            for (int k = 0; k < n; k++) s += X[k][r] * Dinv[n * k + b];
            Y[b][r] = s;
        }
}

/* The sweeps' other columns from X0 and S0: 0U = X0^T U, U0 = X0^T (U D^-1),
 * SD0 = 0S D^-1.  A root's 0U and U0 are not formed: the sweeps read them
 * only to pass F to a parent and to take A from one. */
RBD_HOT static void ground_columns(const rbd_model *m, rbd_data *d, const sp_xform *X0)
{
    for (int i = 0; i < m->nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], root = m->parent[i] < 0;
        const double *Dinv = d->Dinv + 36 * i;
        if (n == 1) {                                   /* one dof: U0 = 0U D^-1, X0^T linear */
            const double D = Dinv[0];
            for (int r = 0; r < 6; r++) d->SD0[v0][r] = d->S0[v0][r] * D;
            if (root) continue;
            sp_xform_T_force(&X0[i], d->U[v0], d->UG[v0]);
            for (int r = 0; r < 6; r++) d->U0[v0][r] = d->UG[v0][r] * D;
            continue;
        }
        if (n == 6) times_dinv(6, d->S0 + v0, Dinv, d->SD0 + v0);
        else times_dinv(n, d->S0 + v0, Dinv, d->SD0 + v0);
        if (root) continue;
        for (int k = 0; k < n; k++) sp_xform_T_force(&X0[i], d->U[v0 + k], d->UG[v0 + k]);
        times_dinv(n, d->UG + v0, Dinv, d->U0 + v0);   /* U0 = 0U D^-1 */
    }
}

/* The O(N^2) sweeps for a 1-DOF joint, over columns [j0, j1).  F, A, Ap are
 * the rows of 6 x nv blocks; restrict lets the compiler vectorise over j. */
#define ROWS(x) double *restrict x##0, double *restrict x##1, double *restrict x##2, \
                double *restrict x##3, double *restrict x##4, double *restrict x##5
#define CROWS(x) const double *restrict x##0, const double *restrict x##1, const double *restrict x##2, \
                 const double *restrict x##3, const double *restrict x##4, const double *restrict x##5
#define DOT6(w, x, j) (w[0] * x##0[j] + w[1] * x##1[j] + w[2] * x##2[j] + w[3] * x##3[j] + w[4] * x##4[j] + \
                       w[5] * x##5[j])

/* backward: y = Minv(i, j) = -(0S D^-1)^T F_j; F_j += 0U_i y */
static void back_1dof(int j0, int j1, const double *SD, const double *u, double *restrict row, ROWS(F))
{
    for (int j = j0; j < j1; j++) {
        double y = -DOT6(SD, F, j);
        row[j] = y;
        F0[j] += u[0] * y; F1[j] += u[1] * y; F2[j] += u[2] * y;
        F3[j] += u[3] * y; F4[j] += u[4] * y; F5[j] += u[5] * y;
    }
}

/* backward, a row alone: y = -(0S D^-1)^T F_j (a root's F is never read again) */
static void back_row(int j0, int j1, const double *SD, double *restrict row, CROWS(F))
{
    for (int j = j0; j < j1; j++) {
        double y = 0;
        y -= SD[0] * F0[j]; y -= SD[1] * F1[j]; y -= SD[2] * F2[j];
        y -= SD[3] * F3[j]; y -= SD[4] * F4[j]; y -= SD[5] * F5[j];
        row[j] = y;
    }
}

/* F_j += u y_j, or A_j += S y_j */
static void acc6(int j0, int j1, const double *u, const double *restrict y, ROWS(F))
{
    for (int j = j0; j < j1; j++) {
        F0[j] += u[0] * y[j]; F1[j] += u[1] * y[j]; F2[j] += u[2] * y[j];
        F3[j] += u[3] * y[j]; F4[j] += u[4] * y[j]; F5[j] += u[5] * y[j];
    }
}

/* forward, leaf: Minv(i, j) -= (0U D^-1)^T A_lambda(i),j */
static void fwd_1dof_leaf(int j0, int j1, const double *UD, double *restrict row, CROWS(P))
{
    for (int j = j0; j < j1; j++) row[j] -= DOT6(UD, P, j);
}

/* forward, A_i in a fresh slot: A_i,j = A_lambda(i),j + 0S_i y */
static void fwd_1dof(int j0, int j1, const double *UD, const double *S, double *restrict row, CROWS(P), ROWS(A))
{
    for (int j = j0; j < j1; j++) {
        double y = row[j] - DOT6(UD, P, j);
        row[j] = y;
        A0[j] = P0[j] + S[0] * y; A1[j] = P1[j] + S[1] * y; A2[j] = P2[j] + S[2] * y;
        A3[j] = P3[j] + S[3] * y; A4[j] = P4[j] + S[4] * y; A5[j] = P5[j] + S[5] * y;
    }
}

/* forward, last child: A_i overwrites A_lambda(i) in place */
static void fwd_1dof_inplace(int j0, int j1, const double *UD, const double *S, double *restrict row, ROWS(A))
{
    for (int j = j0; j < j1; j++) {
        double y = row[j] - DOT6(UD, A, j);
        row[j] = y;
        A0[j] += S[0] * y; A1[j] += S[1] * y; A2[j] += S[2] * y;
        A3[j] += S[3] * y; A4[j] += S[4] * y; A5[j] += S[5] * y;
    }
}

/* Minv(v0 + r, v0 + c) = D^-1(r, c), r, c < n (row v0 + r stored as a
 * column); always inlined, so that the call with n = 6 (a free-flyer root)
 * is unrolled */
static inline __attribute__((always_inline)) void own_block(int n, const double *Dinv, size_t ld, double *Mvv)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) Mvv[ld * r + c] = Dinv[n * r + c];
}

/* the 6 rows of a 6 x nv block that starts at X, as arguments */
#define R6(X) (X), (X) + ld, (X) + 2 * ld, (X) + 3 * ld, (X) + 4 * ld, (X) + 5 * ld

/* The O(N^2) sweeps, given ground_columns. */
RBD_HOT void rbd_minv_analytic_sweeps(const rbd_model *m, rbd_data *d, double *Minv)
{
    const int nb = m->nb, nv = m->nv;
    const size_t ld = (size_t)nv;
    double *F = d->Fs;                                         /* the 6 x nv block by rows */
    /* backward pass: Minv(i, subtree(i)) = D^-1 (e_i - 0S^T F); F(:, subtree(i)) += 0U_i Minv(i, .) */
    for (int i = nb - 1; i >= 0; i--) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const int ve = m->subtree_end_v[i];
        const double *Dinv = d->Dinv + 36 * i;
        const double (*U)[6] = (const double (*)[6])d->UG + v0;
        if (n == 1) {
            double *row = Minv + ld * v0;                      /* row v0, stored as a column */
            row[v0] = Dinv[0];
            if (p < 0) {                                       /* a root's F is never read again */
                back_row(v0 + 1, ve, d->SD0[v0], row, R6(F));
                continue;
            }
            for (int k = 0; k < 6; k++) F[ld * k + v0] = d->U0[v0][k];   /* own column: pA = 0 there */
            back_1dof(v0 + 1, ve, d->SD0[v0], U[0], row, R6(F));
            continue;
        }
        if (n == 6) own_block(6, Dinv, ld, Minv + ld * v0 + v0);
        else own_block(n, Dinv, ld, Minv + ld * v0 + v0);
        if (p >= 0)                                            /* own columns: pA = 0 there */
            for (int c = 0; c < n; c++)
                for (int k = 0; k < 6; k++) F[ld * k + v0 + c] = d->U0[v0 + c][k];
        for (int r = 0; r < n; r++)
            back_row(v0 + n, ve, d->SD0[v0 + r], Minv + ld * (v0 + r), R6(F));
        if (p >= 0)
            for (int r = 0; r < n; r++)                        /* after all rows: they read F unchanged */
                acc6(v0 + n, ve, U[r], Minv + ld * (v0 + r), R6(F));
    }
    /* forward pass: Minv(i, j >= i) -= D^-1 0U^T A_lambda(i); A_i = A_lambda(i) + 0S_i Minv(i, .) */
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const int ve = m->subtree_end_v[i];
        const int leaf = m->subtree_end[i] == i + 1;
        double *A = d->A + 6 * (size_t)d->aslot[i] * ld;      /* A_i and A_lambda(i), 6 x nv by rows */
        double *Ap = p >= 0 ? d->A + 6 * (size_t)d->aslot[p] * ld : NULL;
        for (int r = 0; r < n; r++) {                          /* columns after the subtree: no backward term */
            double *row = Minv + ld * (v0 + r);
            for (int j = ve; j < nv; j++) row[j] = 0;
        }
        if (p >= 0 && n == 1) {
            const double *UD = d->U0[v0], *S = d->S0[v0];
            double *row = Minv + ld * v0;
            if (leaf)
                fwd_1dof_leaf(v0, nv, UD, row, R6(Ap));
            else if (A == Ap)
                fwd_1dof_inplace(v0, nv, UD, S, row, R6(A));
            else
                fwd_1dof(v0, nv, UD, S, row, R6(Ap), R6(A));
            continue;
        }
        if (p >= 0)
            for (int r = 0; r < n; r++)
                fwd_1dof_leaf(v0, nv, d->U0[v0 + r], Minv + ld * (v0 + r), R6(Ap));
        if (leaf) continue;
        if (A != Ap)
            for (int k = 0; k < 6; k++)
                for (int j = v0; j < nv; j++) A[ld * k + j] = p >= 0 ? Ap[ld * k + j] : 0;
        for (int r = 0; r < n; r++)
            acc6(v0, nv, d->S0[v0 + r], Minv + ld * (v0 + r), R6(A));
    }
    rbd_sym_from_lower(nv, Minv);
}

#undef R6

int rbd_minv_analytic(const rbd_model *m, rbd_data *d, const double *q, double *Minv)
{
    if (!m || !d || !q || !Minv) return rbd_fail(RBD_EINVAL, "rbd_minv: null argument");
    int rc = articulated_inertias(m, d, q);
    if (rc) return rc;
    ground_transforms(m, d);
    ground_columns(m, d, d->X0);
    rbd_minv_analytic_sweeps(m, d, Minv);
    return RBD_OK;
}

/* The composer's shortcut (derivatives/fd/fd_compose.c): ABA(q, qd, tau) has already run
 * articulated_inertias' pass (its IA, U, D^-1 are independent of qd, tau). */
void rbd_minv_analytic_after_aba(const rbd_model *m, rbd_data *d, double *Minv)
{
    ground_transforms(m, d);
    ground_columns(m, d, d->X0);
    rbd_minv_analytic_sweeps(m, d, Minv);
}
