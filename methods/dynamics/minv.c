/* rbd_minv: M^-1 by the chosen variant (minv_analytic.c, minv_ltdl.c,
 * minv_lapack.c); rbd_minv_auto: the variant chosen by the model's size. */
#include "rbdiff/dynamics.h"

int rbd_minv(const rbd_model *m, rbd_data *d, rbd_minv_kind kind, const double *q, double *Minv)
{
    switch (kind) {
    case RBD_MINV_ANALYTIC: return rbd_minv_analytic(m, d, q, Minv);
    case RBD_MINV_LTDL: return rbd_minv_ltdl(m, d, q, Minv);
    case RBD_MINV_LAPACK: return rbd_minv_lapack(m, d, q, Minv);
    default: return rbd_fail(RBD_EINVAL, "rbd_minv: unknown variant %d", (int)kind);
    }
}

int rbd_minv_auto(const rbd_model *m, rbd_data *d, const double *q, double *Minv)
{
    if (!m) return rbd_fail(RBD_EINVAL, "rbd_minv: null argument");
    return m->nv <= RBD_MINV_LTDL_NV ? rbd_minv_ltdl(m, d, q, Minv) : rbd_minv_analytic(m, d, q, Minv);
}
