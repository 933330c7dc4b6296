/* RNEA in body coordinates: the double instantiation of rnea_tpl.h. */
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "dynamics/rnea_tpl.h"

int rbd_rnea(const rbd_model *m, rbd_data *d, const double *q, const double *qd, const double *qdd,
             double *tau)
{
    if (!m || !d || !q || !qd || !qdd || !tau) return rbd_fail(RBD_EINVAL, "rbd_rnea: null argument");
    sp_rnea(m, m->Xtree, m->inertia, d->Xup, d->v, d->a, d->f, q, qd, qdd, tau);
    return RBD_OK;
}
