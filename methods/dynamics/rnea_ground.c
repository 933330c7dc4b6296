/*
 * RNEA with every spatial quantity in ground coordinates (Featherstone & Orin
 * 2000, sec. 3.6; the frame of the ground-frame IDSVA): 0X_i composes Xup
 * from the root, S_i, I_i move to ground once, and the backward pass adds the
 * forces without transforms.  In ground coordinates S_i is carried by body i,
 * so d(0S_i)/dt = v_i x 0S_i and a_i = a_p + 0S_i qdd_i + v_i x 0S_i qd_i.
 */
#include <string.h>
#include "rbdiff/dynamics.h"
#include "model/joint.h"

int rbd_rnea_ground(const rbd_model *m, rbd_data *d, const double *q, const double *qd, const double *qdd,
                    double *tau)
{
    if (!m || !d || !q || !qd || !qdd || !tau) return rbd_fail(RBD_EINVAL, "rbd_rnea_ground: null argument");
    const int nb = m->nb;
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        sp_xform XJ;
        sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], &d->Xup[i]);
        if (p >= 0) sp_xform_compose(&d->Xup[i], &d->X0[p], &d->X0[i]);
        else d->X0[i] = d->Xup[i];
        const sp_xform *X0 = &d->X0[i];
        double vJ[6] = { 0 }, aJ[6] = { 0 }, c[6];
        for (int k = 0; k < n; k++) {
            double *S0 = d->S0[v0 + k];
            if (rbd_joint_is_rot1(m->joint[i].type) && m->joint[i].axis_id == 2) {
                /* X0^-1 e_z = [E^T e_z; r x E^T e_z], E^T e_z = row 2 of E */
                S0[0] = X0->E[6]; S0[1] = X0->E[7]; S0[2] = X0->E[8];
                sp_cross3(X0->r, S0, S0 + 3);
            } else {
                sp_xform_inv_motion(X0, m->S + 6 * (v0 + k), S0);
            }
            for (int r = 0; r < 6; r++) {
                vJ[r] += S0[r] * qd[v0 + k];
                aJ[r] += S0[r] * qdd[v0 + k];
            }
        }
        const double *vp = p >= 0 ? d->v[p] : NULL, *ap = p >= 0 ? d->a[p] : m->a0;
        for (int r = 0; r < 6; r++) d->v[i][r] = (vp ? vp[r] : 0) + vJ[r];
        sp_crm(d->v[i], vJ, c);
        for (int r = 0; r < 6; r++) d->a[i][r] = ap[r] + aJ[r] + c[r];
        sp_inertia I0;
        double h[6];
        sp_inertia_to_parent(X0, &m->inertia[i], &I0);   /* 0I_i = 0X_i^T I_i 0X_i */
        sp_inertia_motion(&I0, d->a[i], d->f[i]);
        sp_inertia_motion(&I0, d->v[i], h);
        sp_crf(d->v[i], h, c);
        for (int r = 0; r < 6; r++) d->f[i][r] += c[r];
    }
    for (int i = nb - 1; i >= 0; i--) {
        const int v0 = m->idx_v[i], p = m->parent[i];
        for (int k = 0; k < m->nv_of[i]; k++) {
            const double *S0 = d->S0[v0 + k];
            double t = 0;
            for (int r = 0; r < 6; r++) t += S0[r] * d->f[i][r];
            tau[v0 + k] = t;
        }
        if (p >= 0)
            for (int r = 0; r < 6; r++) d->f[p][r] += d->f[i][r];
    }
    return RBD_OK;
}
