/*
 * M^-1 by CRBA + the sparse L^T D L factorisation (RBDA Tables 6.3-6.5):
 * M^-1 = L^-1 D^-1 L^-T, one column j at a time.  L^-T e_j lives on the path
 * from j to the root; for rows i >= j every ancestor of i below j is on that
 * path (depth-first numbering), so only the path and rows i >= j are solved,
 * and the upper triangle is copied from the lower one.
 */
#include "dynamics.h"

int rbd_minv_ltdl(const rbd_model *m, rbd_data *d, const double *q, double *Minv)
{
    if (!m || !d || !q || !Minv) return rbd_fail(RBD_EINVAL, "rbd_minv: null argument");
    const int n = m->nv;
    const int *lambda = m->dof_parent;
    double *LD = d->work;
    int rc = rbd_crba(m, d, q, LD);
    if (rc) return rc;
    if ((rc = rbd_ltdl(m, LD))) return rc;
    for (int j = 0; j < n; j++) {
        double *x = Minv + (size_t)n * j;
        int np = 0;
        for (int k = j; k >= 0; k = lambda[k]) { d->ipath[np++] = k; x[k] = 0; }
        x[j] = 1;
        for (int t = 0; t < np; t++) {          /* L^T y = e_j, descending along the path */
            int k = d->ipath[t];
            double xk = x[k];
            for (int a = lambda[k]; a >= 0; a = lambda[a]) x[a] -= LD[k + (size_t)n * a] * xk;
        }
        for (int t = np - 1; t >= 0; t--) {     /* D^-1, then L x = z on the path, ascending */
            int k = d->ipath[t];
            double s = x[k] / LD[k + (size_t)n * k];
            for (int a = lambda[k]; a >= 0; a = lambda[a]) s -= LD[k + (size_t)n * a] * x[a];
            x[k] = s;
        }
        for (int i = j + 1; i < n; i++) {       /* rows below j: z_i = 0 there */
            double s = 0;
            for (int a = lambda[i]; a >= 0; a = lambda[a]) s -= LD[i + (size_t)n * a] * x[a];
            x[i] = s;
        }
    }
    rbd_sym_from_lower(n, Minv);
    return RBD_OK;
}
