/*
 * M^-1 by Carpentier's analytical inverse of the joint-space inertia matrix
 * (Carpentier 2018; the ABA of RBDA Table 7.1 run on tau = all columns of the
 * identity at qd = 0 without gravity), O(N^2):
 *
 *  - an ABA pass 2 gives IA_i, U_i = IA_i S_i, D_i^-1 (no bias forces);
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
#include "dynamics.h"
#include "joint.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "aba_tpl.h"

static inline double dot6(const double a[6], const double b[6])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* X0_i, IA_i, D_i^-1 and the ground-frame columns S0, SD0 = 0S D^-1, U0 = 0U D^-1. */
static int articulated_inertias(const rbd_model *m, rbd_data *d, const double *q)
{
    const int nb = m->nb;
    for (int i = 0; i < nb; i++) {
        sp_xform XJ;
        sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], &d->Xup[i]);
        int p = m->parent[i];
        if (p >= 0) sp_xform_compose(&d->Xup[i], &d->X0[p], &d->X0[i]);
        else d->X0[i] = d->Xup[i];
        sp_inertia_to_mat6(&m->inertia[i], d->IA[i]);
    }
    for (int i = nb - 1; i >= 0; i--) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        double *Dinv = d->Dinv + 36 * i;
        if (sp_aba_joint_block(m, i, d->IA[i], NULL, NULL, d->U, Dinv, NULL))
            return rbd_fail(RBD_ESINGULAR, "minv (analytic): joint '%s' (body '%s'): S^T IA S is singular at "
                            "this configuration: the mass matrix is singular", m->joint_name[i], m->body_name[i]);
        double UD[6][6];
        if (p >= 0) {
            double Ia[36];
            sp_aba_Ia(m, i, d->IA[i], (const double (*)[6])d->U, Dinv, UD, Ia);
            sp_sym6_to_parent(&d->Xup[i], Ia, d->IA[p]);
        } else {
            for (int b = 0; b < n; b++)
                for (int r = 0; r < 6; r++) {
                    double s = 0;
                    for (int k = 0; k < n; k++) s += d->U[v0 + k][r] * Dinv[n * k + b];
                    UD[b][r] = s;
                }
        }
        const sp_xform *X0 = &d->X0[i];
        for (int k = 0; k < n; k++) {
            sp_xform_T_force(X0, UD[k], d->U0[v0 + k]);                  /* 0U D^-1 = X0^T U D^-1 */
            sp_xform_inv_motion(X0, m->S + 6 * (v0 + k), d->S0[v0 + k]);
        }
        for (int b = 0; b < n; b++)
            for (int r = 0; r < 6; r++) {
                double s = 0;
                for (int k = 0; k < n; k++) s += d->S0[v0 + k][r] * Dinv[n * k + b];
                d->SD0[v0 + b][r] = s;
            }
    }
    return RBD_OK;
}

int rbd_minv_analytic(const rbd_model *m, rbd_data *d, const double *q, double *Minv)
{
    if (!m || !d || !q || !Minv) return rbd_fail(RBD_EINVAL, "rbd_minv: null argument");
    int rc = articulated_inertias(m, d, q);
    if (rc) return rc;
    const int nb = m->nb, nv = m->nv;
    double (*F)[6] = d->F;
    /* backward pass: Minv(i, subtree(i)) and F (ground frame) */
    for (int i = nb - 1; i >= 0; i--) {
        const int v0 = m->idx_v[i], n = m->nv_of[i];
        const int ve = m->subtree_end[i] < nb ? m->idx_v[m->subtree_end[i]] : nv;
        const double *Dinv = d->Dinv + 36 * i;
        for (int r = 0; r < n; r++) {
            double *row = Minv + (size_t)nv * (v0 + r);       /* row v0+r, stored as a column */
            for (int c = 0; c < n; c++) row[v0 + c] = Dinv[n * r + c];
            const double *SD = d->SD0[v0 + r];
            for (int j = v0 + n; j < ve; j++) row[j] = -dot6(SD, F[j]);
        }
        for (int c = 0; c < n; c++)                            /* own columns: pA = 0 there */
            for (int k = 0; k < 6; k++) F[v0 + c][k] = d->U0[v0 + c][k];
        /* pA_lambda(i) = X^T (pA_i + U_i D_i^-1 u_i): F(:, desc) += 0U_i Minv(i, desc) */
        for (int r = 0; r < n; r++) {
            const double *row = Minv + (size_t)nv * (v0 + r);
            double U[6];
            sp_xform_T_force(&d->X0[i], d->U[v0 + r], U);
            for (int j = v0 + n; j < ve; j++) {
                double y = row[j];
                for (int k = 0; k < 6; k++) F[j][k] += U[k] * y;
            }
        }
    }
    /* forward pass: Minv(i, j >= i) -= D^-1 0U^T A_lambda(i); A_i = A_lambda(i) + 0S_i Minv(i, :) */
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const int ve = m->subtree_end[i] < nb ? m->idx_v[m->subtree_end[i]] : nv;
        const int leaf = m->subtree_end[i] == i + 1;
        double (*A)[6] = d->A + (size_t)nv * d->aslot[i];
        if (p < 0) {
            for (int r = 0; r < n; r++) {
                double *row = Minv + (size_t)nv * (v0 + r);
                for (int j = ve; j < nv; j++) row[j] = 0;
            }
            if (leaf) continue;
            for (int j = v0; j < nv; j++) {
                double *Aj = A[j];
                for (int k = 0; k < 6; k++) Aj[k] = 0;
                for (int r = 0; r < n; r++) {
                    double y = Minv[j + (size_t)nv * (v0 + r)];
                    const double *S = d->S0[v0 + r];
                    for (int k = 0; k < 6; k++) Aj[k] += S[k] * y;
                }
            }
            continue;
        }
        double (*Ap)[6] = d->A + (size_t)nv * d->aslot[p];
        if (n == 1) {
            const double *UD = d->U0[v0], *S = d->S0[v0];
            double *row = Minv + (size_t)nv * v0;
            for (int j = v0; j < ve; j++) row[j] -= dot6(UD, Ap[j]);
            for (int j = ve; j < nv; j++) row[j] = -dot6(UD, Ap[j]);
            if (!leaf)
                for (int j = v0; j < nv; j++) {
                    double y = row[j];
                    for (int k = 0; k < 6; k++) A[j][k] = Ap[j][k] + S[k] * y;
                }
            continue;
        }
        for (int r = 0; r < n; r++) {
            const double *UD = d->U0[v0 + r];
            double *row = Minv + (size_t)nv * (v0 + r);
            for (int j = v0; j < ve; j++) row[j] -= dot6(UD, Ap[j]);
            for (int j = ve; j < nv; j++) row[j] = -dot6(UD, Ap[j]);
        }
        if (!leaf)
            for (int j = v0; j < nv; j++) {
                double a[6];
                for (int k = 0; k < 6; k++) a[k] = Ap[j][k];
                for (int r = 0; r < n; r++) {
                    double y = Minv[j + (size_t)nv * (v0 + r)];
                    const double *S = d->S0[v0 + r];
                    for (int k = 0; k < 6; k++) a[k] += S[k] * y;
                }
                for (int k = 0; k < 6; k++) A[j][k] = a[k];
            }
    }
    rbd_sym_from_lower(nv, Minv);
    return RBD_OK;
}
