/*
 * The recursive Newton-Euler algorithm in body coordinates (Featherstone &
 * Orin 2000, Table II; RBDA Table 5.1), written once for any scalar T so that
 * the complex-step method differentiates the very source the real one runs.
 *
 * Required macros: T, SP(name), SPT(name) (see spatial_tpl.h).  The model's
 * constant data come in as Xtree and Ib of type T (the double instantiation
 * passes the model's own arrays; the complex one passes promoted copies).
 * Scratch: Xup[nb], v[nb], a[nb], f[nb].  Gravity enters as a_0 = m->a0.
 */
#include "model/hot.h"

RBD_HOT static void SP(rnea)(const rbd_model *m, const SPT(xform) *Xtree, const SPT(inertia) *Ib,
                     SPT(xform) *Xup, T (*v)[6], T (*a)[6], T (*f)[6],
                     const T *q, const T *qd, const T *qdd, T *tau)
{
    const int nb = m->nb;
    for (int i = 0; i < nb; i++) {
        SPT(xform) XJ;
        SP(jcalc_joint)(&m->joint[i], q + m->idx_q[i], &XJ);
        SP(xform_compose)(&XJ, &Xtree[i], &Xup[i]);
        T vJ[6] = { 0 }, aJ[6] = { 0 }, vp[6], ap[6], c[6], Iv[6];
        const double *S = m->S + 6 * m->idx_v[i];
        for (int d = 0; d < m->nv_of[i]; d++)
            for (int r = 0; r < 6; r++) {
                vJ[r] += S[6 * d + r] * qd[m->idx_v[i] + d];
                aJ[r] += S[6 * d + r] * qdd[m->idx_v[i] + d];
            }
        int p = m->parent[i];
        if (p >= 0) {
            SP(xform_motion)(&Xup[i], v[p], vp);
            SP(xform_motion)(&Xup[i], a[p], ap);
        } else {
            T a0[6];
            for (int r = 0; r < 6; r++) { vp[r] = 0; a0[r] = m->a0[r]; }
            SP(xform_motion)(&Xup[i], a0, ap);
        }
        for (int r = 0; r < 6; r++) v[i][r] = vp[r] + vJ[r];
        SP(crm)(v[i], vJ, c);                          /* c_J = 0 for every joint type here */
        for (int r = 0; r < 6; r++) a[i][r] = ap[r] + aJ[r] + c[r];
        SP(inertia_motion)(&Ib[i], a[i], f[i]);
        SP(inertia_motion)(&Ib[i], v[i], Iv);
        SP(crf)(v[i], Iv, c);
        for (int r = 0; r < 6; r++) f[i][r] += c[r];
    }
    for (int i = nb - 1; i >= 0; i--) {
        const double *S = m->S + 6 * m->idx_v[i];
        for (int d = 0; d < m->nv_of[i]; d++) {
            T t = 0;
            for (int r = 0; r < 6; r++) t += S[6 * d + r] * f[i][r];
            tau[m->idx_v[i] + d] = t;
        }
        int p = m->parent[i];
        if (p >= 0) {
            T fp[6];
            SP(xform_T_force)(&Xup[i], f[i], fp);
            for (int r = 0; r < 6; r++) f[p][r] += fp[r];
        }
    }
}

#undef T
#undef SP
#undef SPT
