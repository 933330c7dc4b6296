/*
 * Sparse L^T D L factorisation of the joint-space inertia matrix and its
 * back-substitution (RBDA Tables 6.3 and 6.5), over the expanded parent
 * array lambda = m->dof_parent (Table 6.4): M_ij != 0 only when one of i, j
 * is an ancestor of the other, and the factorisation creates no fill-in
 * outside that pattern (branch-induced sparsity).  Work O(sum of depth^2).
 */
#include "rbdiff/dynamics.h"

int rbd_ltdl(const rbd_model *m, double *H)
{
    if (!m || !H) return rbd_fail(RBD_EINVAL, "rbd_ltdl: null argument");
    const int n = m->nv;
    const int *lambda = m->dof_parent;
    /* Element (i, j), i >= j, of Table 6.3 lives at H[j + n*i] (upper triangle),
     * so the row k the algorithm sweeps is the contiguous column k. */
    double dmax = 0;
    for (int k = 0; k < n; k++) dmax = H[k + (size_t)n * k] > dmax ? H[k + (size_t)n * k] : dmax;
    for (int k = n - 1; k >= 0; k--) {
        double *Hk = H + (size_t)n * k;        /* H_kj = Hk[j] */
        double Dk = Hk[k];
        /* Pivot test D_k > rtol M_kk.  M_kk <= max diag, so only a small pivot
         * needs the original M_kk = D_k + sum_{k' desc. of k} L_k'k^2 D_k'. */
        if (!(Dk > RBD_PIVOT_RTOL * dmax)) {
            double scale = Dk;
            for (int kk = k + 1, e = m->subtree_end_v[m->dof_body[k]]; kk < e; kk++) {
                double l = H[k + (size_t)n * kk];
                scale += l * l * H[kk + (size_t)n * kk];
            }
            if (!(Dk > RBD_PIVOT_RTOL * scale)) {
                int b = m->dof_body[k];
                return rbd_fail(RBD_ESINGULAR, "ltdl: joint '%s' (body '%s'), dof %d: pivot D = %g <= %g * M_kk: "
                                "the mass matrix is singular at this configuration", m->joint_name[b],
                                m->body_name[b], k - m->idx_v[b], Dk, RBD_PIVOT_RTOL);
            }
        }
        for (int i = lambda[k]; i >= 0; i = lambda[i]) {      /* Table 6.3 */
            double a = Hk[i] / Dk;
            double *Hi = H + (size_t)n * i;
            Hi[i] -= Hk[i] * a;                                /* j = i, then j = lambda(i), ... */
            rbd_anc_axpy(m, i, -a, Hk, Hi);
            Hk[i] = a;
        }
    }
    return RBD_OK;
}

void rbd_ltdl_solve(const rbd_model *m, const double *LD, double *x)
{
    const int n = m->nv;
    for (int i = n - 1; i >= 0; i--)           /* L^T y = x (Table 6.5) */
        rbd_anc_axpy(m, i, -x[i], LD + (size_t)n * i, x);
    for (int i = 0; i < n; i++) x[i] /= LD[i + (size_t)n * i];
    for (int i = 0; i < n; i++)                /* L x = D^-1 y */
        x[i] -= rbd_anc_dot(m, i, LD + (size_t)n * i, x);
}
