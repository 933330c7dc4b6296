/*
 * Recursive Newton-Euler in body coordinates over MPC (RBDA Table 5.1;
 * spatial_v2 ID.m), gravity by a_0 = -a_g.  Reads Xup (made by ref_jcalc_xup).
 */
#include "ref_ws.h"

void ref_rnea(ref_ws *w)
{
    const rbd_model *m = w->m;
    mpc_ptr vJ = w->s + 3, aJ = w->s + 9, Iv = w->s + 15, t6 = w->s + 21;
    for (int i = 0; i < w->nb; i++) {
        int p = m->parent[i], o = m->idx_v[i];
        mpc_srcptr X = w->Xup + 12 * i, In = w->In + 36 * i;
        mpc_ptr v = w->v + 6 * i, a = w->a + 6 * i, f = w->f + 6 * i;
        s_mul(w, i, vJ, w->qd + o);
        s_mul(w, i, aJ, w->qdd + o);
        /* v_i = X v_p + S qd;  a_i = X a_p + S qdd + v_i x S qd  (c_J = 0: S is constant in the body frame) */
        if (p >= 0) {
            xf_motion(w, v, X, w->v + 6 * p);
            vadd(v, vJ, 6);
            xf_motion(w, a, X, w->a + 6 * p);
        } else {
            vset(v, vJ, 6);
            xf_motion(w, a, X, w->a0);
        }
        vadd(a, aJ, 6);
        crm(w, t6, v, vJ);
        vadd(a, t6, 6);
        /* f_i = I a_i + v_i x* I v_i */
        mat6_vec(w, f, In, a);
        mat6_vec(w, Iv, In, v);
        crf(w, t6, v, Iv);
        vadd(f, t6, 6);
    }
    for (int i = w->nb - 1; i >= 0; i--) {
        int p = m->parent[i];
        sT_mul(w, i, w->tau_out + m->idx_v[i], w->f + 6 * i);
        if (p >= 0) {
            xf_T_force(w, t6, w->Xup + 12 * i, w->f + 6 * i);
            vadd(w->f + 6 * p, t6, 6);
        }
    }
}
