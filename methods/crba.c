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
        /* column v0+k of M gets the rows of i and its ancestors (upper triangle,
         * contiguous); the lower triangle is mirrored at the end.  The force
         * column stays in locals while it is carried up (no store/reload). */
        for (int k = 0; k < n; k++) {
            double f[6], t[6];
            double *col = M + (size_t)nv * (v0 + k);
            for (int r = 0; r < 6; r++) f[r] = F[k][r];
            for (int j = i;;) {
                const int w0 = m->idx_v[j];
                if (is_rz(m, j)) {
                    col[w0] = f[2];
                } else {
                    for (int l = 0; l < m->nv_of[j]; l++) {
                        const double *S = m->S + 6 * (w0 + l);
                        col[w0 + l] = S[0] * f[0] + S[1] * f[1] + S[2] * f[2] + S[3] * f[3] + S[4] * f[4] + S[5] * f[5];
                    }
                }
                const int p = m->parent[j];
                if (p < 0) break;
                sp_xform_T_force(&d->Xup[j], f, t);     /* carry the column to the parent */
                for (int r = 0; r < 6; r++) f[r] = t[r];
                j = p;
            }
        }
    }
    rbd_sym_from_upper(nv, M);
    return RBD_OK;
}
