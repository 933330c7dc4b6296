/*
 * The composite-rigid-body algorithm in body coordinates (RBDA Table 6.2):
 * composite inertias Ic_i, then for each joint the force columns F = Ic_i S_i
 * carried to every ancestor j, giving M_ji = S_j^T F.  O(N d), d the depth.
 * Needs d->Xup, d->Ic, d->Fs.
 */
#include <string.h>
#include "rbdiff/dynamics.h"
#include "model/joint.h"

static inline int is_rz(const rbd_model *m, int i)
{
    return rbd_joint_is_rot1(m->joint[i].type) && m->joint[i].axis_id == 2;
}

/* row[c] = S^T F(:, c), c in [c0, c1) */
static void rows_dot(int c0, int c1, const double S[6], double *restrict row, const double *restrict f0,
                     const double *restrict f1, const double *restrict f2, const double *restrict f3,
                     const double *restrict f4, const double *restrict f5)
{
    for (int c = c0; c < c1; c++)
        row[c] = S[0] * f0[c] + S[1] * f1[c] + S[2] * f2[c] + S[3] * f3[c] + S[4] * f4[c] + S[5] * f5[c];
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

int rbd_crba(const rbd_model *m, rbd_data *d, const double *q, double *M)
{
    if (!m || !d || !q || !M) return rbd_fail(RBD_EINVAL, "rbd_crba: null argument");
    const int nb = m->nb, nv = m->nv;
    for (int i = 0; i < nb; i++) {
        sp_xform XJ;
        sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], &d->Xup[i]);
        d->Ic[i] = m->inertia[i];
    }
    for (int i = nb - 1; i >= 0; i--) {         /* Table 6.2: I^c_lambda(i) += X^T I^c_i X */
        int p = m->parent[i];
        if (p < 0) continue;
        sp_inertia t;
        sp_inertia_to_parent(&d->Xup[i], &d->Ic[i], &t);
        sp_inertia_add(&d->Ic[p], &t);
    }
    memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    /* Table 6.2's inner loop turned inside out: going from the leaves up, body
     * j sets its own force columns F = Ic_j S_j, takes the rows M(j, subtree(j))
     * = S_j^T F, then carries the whole subtree block F to its parent with one
     * X_j^T.  F is 6 x nv by rows (d->Fs), so each step is a loop over the
     * subtree's columns that vectorises; M's rows go to the lower triangle
     * (contiguous) and are mirrored at the end. */
    const size_t ld = (size_t)nv;
    double *F[6];
    for (int k = 0; k < 6; k++) F[k] = d->Fs + k * ld;
    for (int j = nb - 1; j >= 0; j--) {
        const int w0 = m->idx_v[j], n = m->nv_of[j];
        const int ve = m->subtree_end_v[j];
        for (int k = 0; k < n; k++) {
            double f[6];
            if (is_rz(m, j)) {
                const sp_inertia *Ic = &d->Ic[j];   /* Ic e_z = [Ib(:,2); -h x e_z] */
                f[0] = Ic->Ib[2]; f[1] = Ic->Ib[5]; f[2] = Ic->Ib[8];
                f[3] = -Ic->h[1]; f[4] = Ic->h[0]; f[5] = 0;
            } else {
                sp_inertia_motion(&d->Ic[j], m->S + 6 * (w0 + k), f);
            }
            for (int r = 0; r < 6; r++) F[r][w0 + k] = f[r];
        }
        for (int l = 0; l < n; l++) {
            double *row = M + ld * (w0 + l);   /* M(j's dof l, c) at (c, w0 + l) */
            if (is_rz(m, j)) {
                for (int c = w0; c < ve; c++) row[c] = F[2][c];
            } else {
                const double *S = m->S + 6 * (w0 + l);
                rows_dot(w0, ve, S, row, F[0], F[1], F[2], F[3], F[4], F[5]);
            }
        }
        if (m->parent[j] >= 0) carry_to_parent(&d->Xup[j], w0, ve, F[0], F[1], F[2], F[3], F[4], F[5]);
    }
    rbd_sym_from_lower(nv, M);
    return RBD_OK;
}
