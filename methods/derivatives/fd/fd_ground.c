/*
 * Forward dynamics and M^-1 from the ground-frame forward pass of the ID
 * derivatives (fd_ground.h), so that fdsva and pin26-fd run one kinematic
 * pass per evaluation instead of three (ABA, M^-1, ID derivatives).
 *
 * Given rbd_idg_forward(q, qd, qdd = 0): a^0_i, the accelerations with
 * qdd = 0 (velocity products and gravity), and f^0_i = I_i a^0_i +
 * v_i x* I_i v_i, all in ground coordinates.  The true accelerations are
 * a_i = a^0_i + da_i with da_i = da_lambda(i) + S_i qdd_i, and the force
 * through joint i is IA_i da_i + pA_i with (RBDA Table 7.1 with a^0 in
 * place of the c_i terms, and no transforms: ground-frame inertias add)
 *   backward:  U_i = IA_i S_i, D_i = S_i^T U_i, u_i = tau_i - S_i^T pA_i,
 *              IA_p += IA_i - U_i D_i^-1 U_i^T,  pA_p += pA_i + U_i D_i^-1 u_i
 *              (IA_i = I_i, pA_i = f^0_i before the children's terms);
 *   forward:   qdd_i = D_i^-1 (u_i - U_i^T da_p),  da_i = da_p + S_i qdd_i.
 * Then the forward pass is brought to qdd (each term linear in the
 * accelerations): a_i += da_i, Psi_ddot_j += da_p x S_j (eq. 31),
 * f_i += I_i da_i; and M^-1 comes from the same IA, U, D^-1 by the sweeps of
 * Carpentier's analytical inverse (minv_analytic.c), whose columns are
 * ground-frame already: S0 = S, UG = U, U0 = U D^-1, SD0 = S D^-1.
 */
#include "derivatives/fd/fd_ground.h"
#include "model/joint.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "dynamics/aba_tpl.h"

int rbd_fdg_solve(const rbd_model *m, rbd_data *d, rbd_idg *g, const double *tau, double *qdd, double *Minv)
{
    const int nb = m->nb;
    double (*IA)[36] = d->IA, (*pA)[6] = d->pA, (*U)[6] = d->UG, *u = d->u;
    for (int i = 0; i < nb; i++) {
        sp_inertia_to_mat6(&g->IC[i], IA[i]);   /* single-body values until the ID backward pass */
        for (int r = 0; r < 6; r++) pA[i][r] = g->fC[i][r];
    }
    for (int i = nb - 1; i >= 0; i--) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const double *A = IA[i];
        double D[36], *Dinv = d->Dinv + 36 * i;
        for (int k = 0; k < n; k++) {
            const double *S = g->S[v0 + k];
            for (int r = 0; r < 6; r++)
                U[v0 + k][r] = A[6 * r] * S[0] + A[6 * r + 1] * S[1] + A[6 * r + 2] * S[2] + A[6 * r + 3] * S[3] +
                               A[6 * r + 4] * S[4] + A[6 * r + 5] * S[5];
        }
        for (int a = 0; a < n; a++) {
            const double *S = g->S[v0 + a];
            double s = tau[v0 + a];
            for (int r = 0; r < 6; r++) s -= S[r] * pA[i][r];
            u[v0 + a] = s;
            for (int b = 0; b < n; b++) {
                double t = 0;
                for (int r = 0; r < 6; r++) t += S[r] * U[v0 + b][r];
                D[n * a + b] = t;
            }
        }
        if (sp_ldl_inv(n, D, Dinv, sp_aba_pivot_tol(A)))
            return rbd_fail(RBD_ESINGULAR, "forward dynamics: joint '%s' (body '%s'): S^T IA S is singular at this "
                            "configuration: the mass matrix is singular", m->joint_name[i], m->body_name[i]);
        /* U D^-1 and S D^-1: the sweeps' U0, SD0 */
        for (int b = 0; b < n; b++)
            for (int r = 0; r < 6; r++) {
                double x = 0, y = 0;
                for (int k = 0; k < n; k++) {
                    x += U[v0 + k][r] * Dinv[n * k + b];
                    y += g->S[v0 + k][r] * Dinv[n * k + b];
                }
                d->U0[v0 + b][r] = x;
                d->SD0[v0 + b][r] = y;
            }
        if (p < 0) continue;
        for (int r = 0; r < 6; r++) {
            double s = pA[i][r];
            for (int k = 0; k < n; k++) s += d->U0[v0 + k][r] * u[v0 + k];
            pA[p][r] += s;
            for (int c = r; c < 6; c++) {       /* symmetric: the upper triangle, mirrored */
                double t = A[6 * r + c];
                for (int k = 0; k < n; k++) t -= d->U0[v0 + k][r] * U[v0 + k][c];
                IA[p][6 * r + c] += t;
                if (c != r) IA[p][6 * c + r] += t;
            }
        }
    }
    static const double zero[6] = { 0 };
    double (*da)[6] = d->c;                     /* da_i, as ABA's c: [nb][6] */
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const double *dap = p >= 0 ? da[p] : zero;
        double w[6];
        for (int k = 0; k < n; k++) {
            double s = u[v0 + k];
            for (int r = 0; r < 6; r++) s -= U[v0 + k][r] * dap[r];
            w[k] = s;
        }
        const double *Dinv = d->Dinv + 36 * i;
        for (int r = 0; r < 6; r++) da[i][r] = dap[r];
        for (int a = 0; a < n; a++) {
            double s = 0;
            for (int b = 0; b < n; b++) s += Dinv[n * a + b] * w[b];
            qdd[v0 + a] = s;
            for (int r = 0; r < 6; r++) da[i][r] += g->S[v0 + a][r] * s;
        }
        /* the forward pass at qdd instead of 0 */
        double t[6];
        for (int k = 0; k < n; k++) {
            sp_crm(dap, g->S[v0 + k], t);
            for (int r = 0; r < 6; r++) g->Pdd[v0 + k][r] += t[r];
        }
        sp_inertia_motion(&g->IC[i], da[i], t);
        for (int r = 0; r < 6; r++) {
            g->a[i][r] += da[i][r];
            g->fC[i][r] += t[r];
        }
    }
    for (int j = 0; j < m->nv; j++)
        for (int r = 0; r < 6; r++) d->S0[j][r] = g->S[j][r];
    rbd_minv_analytic_sweeps(m, d, Minv);
    return RBD_OK;
}
