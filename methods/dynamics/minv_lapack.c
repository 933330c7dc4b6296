/* M^-1 by CRBA + dense Cholesky: LAPACKE dpotrf then dpotri (O(n^3)). */
#include <lapacke.h>
#include "rbdiff/dynamics.h"

int rbd_minv_lapack(const rbd_model *m, rbd_data *d, const double *q, double *Minv)
{
    if (!m || !d || !q || !Minv) return rbd_fail(RBD_EINVAL, "rbd_minv: null argument");
    const int n = m->nv;
    int rc = rbd_crba(m, d, q, Minv);
    if (rc) return rc;
    for (int k = 0; k < n; k++) d->u[k] = Minv[k + (size_t)n * k];
    lapack_int info = LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, Minv, n);
    int bad = info > 0 ? (int)info - 1 : -1;
    /* dpotrf only stops at a non-positive pivot; also refuse a numerically
     * singular one, L_kk^2 <= rtol M_kk (the test of ltdl.c). */
    for (int k = 0; bad < 0 && info == 0 && k < n; k++) {
        double l = Minv[k + (size_t)n * k];
        if (!(l * l > RBD_PIVOT_RTOL * d->u[k])) bad = k;
    }
    if (bad >= 0) {
        int b = m->dof_body[bad];
        return rbd_fail(RBD_ESINGULAR, "minv (lapack): joint '%s' (body '%s'), dof %d: Cholesky pivot vanishes: "
                        "the mass matrix is singular at this configuration", m->joint_name[b], m->body_name[b],
                        bad - m->idx_v[b]);
    }
    if (info < 0) return rbd_fail(RBD_EINVAL, "minv (lapack): dpotrf argument %d is invalid", (int)-info);
    info = LAPACKE_dpotri(LAPACK_COL_MAJOR, 'L', n, Minv, n);
    if (info) return rbd_fail(RBD_ESINGULAR, "minv (lapack): dpotri failed (info %d)", (int)info);
    rbd_sym_from_lower(n, Minv);
    return RBD_OK;
}
