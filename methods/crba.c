/*
 * The composite-rigid-body algorithm in body coordinates (RBDA Table 6.2):
 * composite inertias Ic_i, then for each joint the force columns F = Ic_i S_i
 * carried to every ancestor j, giving M_ji = S_j^T F.  O(N d), d the depth.
 */
#include <string.h>
#include "dynamics.h"
#include "joint.h"

static inline int is_rz(const rbd_model *m, int i)
{
    return m->joint[i].type == RBD_JOINT_REVOLUTE && m->joint[i].axis_id == 2;
}

int rbd_crba(const rbd_model *m, rbd_data *d, const double *q, double *M)
{
    if (!m || !d || !q || !M) return rbd_fail(RBD_EINVAL, "rbd_crba: null argument");
    const int nb = m->nb, nv = m->nv;
    for (int i = 0; i < nb; i++) {
        sp_xform XJ;
        sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], &d->Xup[i]);
        d->Ic[i] = m->inertia[i];
    }
    for (int i = nb - 1; i >= 0; i--) {         /* Table 6.2: I^c_lambda(i) += X^T I^c_i X */
        int p = m->parent[i];
        if (p < 0) continue;
        sp_inertia t;
        sp_inertia_to_parent(&d->Xup[i], &d->Ic[i], &t);
        sp_inertia_add(&d->Ic[p], &t);
    }
    memset(M, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i];
        double (*F)[6] = d->F + v0;
        if (is_rz(m, i)) {
            /* F = Ic e_z = [Ib(:,2); -h x e_z] */
            const sp_inertia *Ic = &d->Ic[i];
            F[0][0] = Ic->Ib[2]; F[0][1] = Ic->Ib[5]; F[0][2] = Ic->Ib[8];
            F[0][3] = -Ic->h[1]; F[0][4] = Ic->h[0]; F[0][5] = 0;
        } else {
            for (int k = 0; k < n; k++) sp_inertia_motion(&d->Ic[i], m->S + 6 * (v0 + k), F[k]);
        }
        int j = i;
        for (;;) {
            const int w0 = m->idx_v[j], nj = m->nv_of[j];
            for (int k = 0; k < n; k++)
                for (int l = 0; l < nj; l++) {
                    double s;
                    if (is_rz(m, j)) {
                        s = F[k][2];
                    } else {
                        const double *S = m->S + 6 * (w0 + l);
                        s = 0;
                        for (int r = 0; r < 6; r++) s += S[r] * F[k][r];
                    }
                    M[(w0 + l) + (size_t)nv * (v0 + k)] = s;
                    M[(v0 + k) + (size_t)nv * (w0 + l)] = s;
                }
            int p = m->parent[j];
            if (p < 0) break;
            for (int k = 0; k < n; k++) {       /* F = X_j^T F: carry the columns to the parent */
                double t[6];
                sp_xform_T_force(&d->Xup[j], F[k], t);
                memcpy(F[k], t, sizeof t);
            }
            j = p;
        }
    }
    return RBD_OK;
}
