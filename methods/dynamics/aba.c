/* ABA (RBDA Table 7.1): the double instantiation of aba_tpl.h, with the plane
 * rotations of joints about a coordinate axis (turned.h). */
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#define RBD_ABA_TURNED
#include "dynamics/turned.h"
#include "dynamics/aba_tpl.h"

int rbd_aba(const rbd_model *m, rbd_data *d, const double *q, const double *qd, const double *tau,
            double *qdd)
{
    if (!m || !d || !q || !qd || !tau || !qdd) return rbd_fail(RBD_EINVAL, "rbd_aba: null argument");
    const sp_aba_ws w = { d->Xup, d->v, d->c, d->pA, d->a, d->IA, d->U, d->Dinv, d->u, d->cs, d->axis_flat };
    int i = sp_aba(m, m->Xtree, m->inertia, &w, q, qd, tau, qdd);
    if (i >= 0)
        return rbd_fail(RBD_ESINGULAR, "aba: joint '%s' (body '%s'): S^T IA S is singular at this "
                        "configuration (the articulated inertia about the joint's motion vanishes): the mass matrix is singular",
                        m->joint_name[i], m->body_name[i]);
    return RBD_OK;
}
