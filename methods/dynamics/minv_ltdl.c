/*
 * M^-1 by CRBA + the sparse L^T D L factorisation (RBDA Tables 6.3-6.5):
 * M^-1 = L^-1 D^-1 L^-T, one column j at a time.  L^-T e_j lives on the path
 * from j to the root; for rows i >= j every ancestor of i below j is on that
 * path (depth-first numbering), so only the path and rows i >= j are solved,
 * and the upper triangle is copied from the lower one.
 */
#include "rbdiff/dynamics.h"

int rbd_minv_ltdl(const rbd_model *m, rbd_data *d, const double *q, double *Minv)
{
    if (!m || !d || !q || !Minv) return rbd_fail(RBD_EINVAL, "rbd_minv: null argument");
    const int n = m->nv;
    const int *lambda = m->dof_parent;
    double *LD = d->work;
    int rc = rbd_crba(m, d, q, LD);
    if (rc) return rc;
    if ((rc = rbd_ltdl(m, LD))) return rc;
    enum { B = 4 };     /* columns per sweep of L below them: L is read once per block */
    for (int j0 = 0; j0 < n; j0 += B) {
        const int nb = n - j0 < B ? n - j0 : B, jend = j0 + nb;
        for (int j = j0; j < jend; j++) {
            double *x = Minv + (size_t)n * j;
            int np = 0;
            for (int k = j; k >= 0; k = lambda[k]) { d->ipath[np++] = k; x[k] = 0; }
            x[j] = 1;
            for (int t = 0; t < np; t++) {      /* L^T y = e_j, descending along the path */
                int k = d->ipath[t];
                rbd_anc_axpy(m, k, -x[k], LD + (size_t)n * k, x);
            }
            for (int t = np - 1; t >= 0; t--) { /* D^-1, then L x = z on the path, ascending */
                int k = d->ipath[t];
                x[k] = x[k] / LD[k + (size_t)n * k] - rbd_anc_dot(m, k, LD + (size_t)n * k, x);
            }
            for (int i = j + 1; i < jend; i++)  /* rows below j inside the block (z_i = 0) */
                x[i] = -rbd_anc_dot(m, i, LD + (size_t)n * i, x);
        }
        double *x0 = Minv + (size_t)n * j0;
        for (int i = jend; i < n; i++) {        /* rows below the block, all its columns at once */
            const double *Li = LD + (size_t)n * i;
            double s[B] = { 0 };
            for (int a = lambda[i]; a >= 0;) {
                const int a0 = m->dof_run0[a];
                if (nb == B) {
                    for (int t = a0; t <= a; t++) {
                        double l = Li[t];
                        s[0] += l * x0[t]; s[1] += l * x0[t + n]; s[2] += l * x0[t + 2 * (size_t)n];
                        s[3] += l * x0[t + 3 * (size_t)n];
                    }
                } else {
                    for (int c = 0; c < nb; c++)
                        for (int t = a0; t <= a; t++) s[c] += Li[t] * x0[t + (size_t)n * c];
                }
                a = lambda[a0];
            }
            for (int c = 0; c < nb; c++) x0[i + (size_t)n * c] = -s[c];
        }
    }
    rbd_sym_from_lower(n, Minv);
    return RBD_OK;
}
