/* The reciprocal condition number of M(q) (dynamics.h). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include "rbdiff/dynamics.h"

int rbd_mass_rcond(const rbd_model *m, const double *q, double *rcond)
{
    if (!m || !q || !rcond) return rbd_fail(RBD_EINVAL, "rbd_mass_rcond: null argument");
    *rcond = 0;
    for (int k = 0; k < m->nq; k++)
        if (!isfinite(q[k])) return rbd_fail(RBD_ENONFINITE, "rcond: q[%d] is not finite", m->user_q[k]);
    rbd_data *d = rbd_data_new(m);
    double *M = d ? malloc(sizeof *M * (size_t)m->nv * (size_t)m->nv) : NULL;
    if (!M) {
        rbd_data_free(d);
        return rbd_fail(RBD_ENOMEM, "rcond: out of memory for M (nv = %d)", m->nv);
    }
    int rc = rbd_crba(m, d, q, M);
    if (!rc) {
        const int n = m->nv;
        double anorm = LAPACKE_dlansy(LAPACK_COL_MAJOR, '1', 'L', n, M, n);
        /* not finite, or not positive definite: rcond stays 0 */
        if (isfinite(anorm) && LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, M, n) == 0) {
            double r = 0;
            if (LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, M, n, anorm, &r) == 0 && isfinite(r)) *rcond = r;
        }
    }
    free(M);
    rbd_data_free(d);
    return rc;
}
