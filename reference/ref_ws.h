/*
 * Internal to the MPFR reference: one evaluation workspace of GNU MPC numbers
 * and the few spatial-algebra operations RNEA and ABA need, written directly
 * over mpc_t (Featherstone, RBDA ch. 2).  Nothing here comes from methods/:
 * the reference reads the model's data but shares no algorithm with the
 * methods it audits (README.md, "A tour").
 *
 * Storage: every complex number lives in one pool made at ws_new; a vector is
 * an mpc_ptr into it (element k at p + k).  Conventions, as in the model:
 *  - motion [w; v], force [n; f], angular part first;
 *  - a Plucker transform is 12 numbers, E (row-major 3x3) then r, meaning
 *    X = [E 0; -E rx E] (E rotates parent into body coordinates, r is the
 *    body origin in parent coordinates);
 *  - 6x6 matrices (inertias) row-major.
 * Every operation on a value is analytic (+, -, *, /, sin, cos; no abs,
 * conj, comparison or branch on a value): complex step needs that.
 * Outputs must not alias inputs unless said.
 */
#ifndef RBDREF_WS_H
#define RBDREF_WS_H

#include <mpc.h>
#include "rbdiff/rbd.h"

#define RN MPC_RNDNN

typedef struct {
    const rbd_model *m;
    mpfr_prec_t prec;
    int nb, nv, nq;
    /* model constants, converted exactly from double (imaginary parts 0) */
    mpc_ptr Xt;     /* [12 nb] Xtree                                        */
    mpc_ptr In;     /* [36 nb] spatial inertia from mass, com, Ic (eq. 2.63)  */
    mpc_ptr S;      /* [6 nv] motion subspace columns                          */
    mpc_ptr a0;     /* [6] -a_g                                                */
    /* state: q0 real base point; q, qd, qdd, tau the (perturbed) inputs */
    mpc_ptr q0, q;  /* [nq] */
    mpc_ptr qd, qdd, tau;   /* [nv] */
    /* kinematics and RNEA */
    mpc_ptr Xup;    /* [12 nb] parent -> body                                */
    mpc_ptr v, a, f;        /* [6 nb] */
    mpc_ptr tau_out;        /* [nv] RNEA result                              */
    /* ABA */
    mpc_ptr IA;     /* [36 nb] articulated inertia; Ia = IA - U D^-1 U^T after the inertia pass */
    mpc_ptr U, UD;  /* [6 nv] U = IA S and U D^-1                             */
    mpc_ptr Dinv;   /* [36 nb] (S^T IA S)^-1, row-major n x n                */
    mpc_ptr c, pA;  /* [6 nb] velocity-product and bias forces               */
    mpc_ptr u;      /* [nv] */
    mpc_ptr qdd_out;        /* [nv] ABA result                               */
    mpc_ptr s;      /* [WS_SCRATCH] scratch for the helpers                  */
    mpc_ptr t;      /* [2] product temporaries                               */
    __mpc_struct *pool;
    size_t npool;
} ref_ws;

#define WS_SCRATCH 160

ref_ws *ref_ws_new(const rbd_model *m, mpfr_prec_t prec);
void ref_ws_free(ref_ws *w);
/* Base point: q0 = q = q_in, qd, qdd, tau from doubles (exact); NULL vectors read as 0. */
void ref_ws_set_state(ref_ws *w, const double *q, const double *v, const double *a, const double *tau);

/* ref_joint.c: X_J(q) of body i from w->q into X (12), then Xup[i] = X_J Xtree[i]. */
int ref_jcalc_xup(ref_ws *w, int i);
/* w->q = q0 (+) (i 2^h_log2) e_k for tangent direction k of body i's joint
 * (only that joint's entries change); ref_unperturb restores them from q0. */
int ref_perturb_q(ref_ws *w, int i, int k, long h_log2);
void ref_unperturb_q(ref_ws *w, int i);
/* w->q = q0 (+) t e_k for any complex t (not aliasing the scratch s[61..79]):
 * ref_so.c moves the base point by a real t before the complex step. */
int ref_perturb_q_by(ref_ws *w, int i, int k, mpc_srcptr t);

/* ref_rnea.c: tau_out = ID(q, qd, qdd) from Xup (RBDA Table 5.1, body coordinates). */
void ref_rnea(ref_ws *w);
/* ref_aba.c: the articulated-body algorithm (RBDA Table 7.1) split by what
 * each part depends on: the inertia pass needs only Xup (so only q), the bias
 * pass qd and tau; qdd_out = FD(q, qd, tau). */
int ref_aba_inertia(ref_ws *w);
void ref_aba_bias(ref_ws *w);

/* ---- helpers (static inline: the hot path) ---- */

/* out += a b, via temporary t[0] */
static inline void cx_mac(ref_ws *w, mpc_ptr out, mpc_srcptr a, mpc_srcptr b)
{
    mpc_mul(w->t, a, b, RN);
    mpc_add(out, out, w->t, RN);
}

/* out -= a b */
static inline void cx_msc(ref_ws *w, mpc_ptr out, mpc_srcptr a, mpc_srcptr b)
{
    mpc_mul(w->t, a, b, RN);
    mpc_sub(out, out, w->t, RN);
}

static inline void vset(mpc_ptr out, mpc_srcptr x, int n)
{
    for (int k = 0; k < n; k++) mpc_set(out + k, x + k, RN);
}

static inline void vzero(mpc_ptr out, int n)
{
    for (int k = 0; k < n; k++) mpc_set_ui(out + k, 0, RN);
}

static inline void vadd(mpc_ptr out, mpc_srcptr x, int n)
{
    for (int k = 0; k < n; k++) mpc_add(out + k, out + k, x + k, RN);
}

/* out = a x b */
static inline void cross3(ref_ws *w, mpc_ptr out, mpc_srcptr a, mpc_srcptr b)
{
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        mpc_mul(out + k, a + i, b + j, RN);
        cx_msc(w, out + k, a + j, b + i);
    }
}

/* out += a x b */
static inline void cross3_add(ref_ws *w, mpc_ptr out, mpc_srcptr a, mpc_srcptr b)
{
    for (int k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        cx_mac(w, out + k, a + i, b + j);
        cx_msc(w, out + k, a + j, b + i);
    }
}

/* out = A x (trans = 0) or A^T x (trans = 1), A row-major 3x3 */
static inline void mat3_vec(ref_ws *w, mpc_ptr out, mpc_srcptr A, mpc_srcptr x, int trans)
{
    for (int i = 0; i < 3; i++) {
        mpc_set_ui(out + i, 0, RN);
        for (int j = 0; j < 3; j++) cx_mac(w, out + i, trans ? A + 3 * j + i : A + 3 * i + j, x + j);
    }
}

/* out = X m = [E w; E (v - r x w)]; uses s[0..2] */
static inline void xf_motion(ref_ws *w, mpc_ptr out, mpc_srcptr X, mpc_srcptr m)
{
    mpc_ptr d = w->s;
    cross3(w, d, X + 9, m);
    for (int k = 0; k < 3; k++) mpc_sub(d + k, m + 3 + k, d + k, RN);
    mat3_vec(w, out, X, m, 0);
    mat3_vec(w, out + 3, X, d, 0);
}

/* out = X^T f = [E^T n + r x E^T f; E^T f] (force from body to parent); uses s[0..2] */
static inline void xf_T_force(ref_ws *w, mpc_ptr out, mpc_srcptr X, mpc_srcptr f)
{
    mpc_ptr d = w->s;
    mat3_vec(w, out + 3, X, f + 3, 1);
    mat3_vec(w, d, X, f, 1);
    cross3_add(w, d, X + 9, out + 3);
    vset(out, d, 3);
}

/* out = v x m = [w x mw; w x mv + vv x mw] (motion cross product) */
static inline void crm(ref_ws *w, mpc_ptr out, mpc_srcptr v, mpc_srcptr m)
{
    cross3(w, out, v, m);
    cross3(w, out + 3, v, m + 3);
    cross3_add(w, out + 3, v + 3, m);
}

/* out = v x* f = [w x n + vv x f; w x f] (force cross product) */
static inline void crf(ref_ws *w, mpc_ptr out, mpc_srcptr v, mpc_srcptr f)
{
    cross3(w, out, v, f);
    cross3_add(w, out, v + 3, f + 3);
    cross3(w, out + 3, v, f + 3);
}

/* out = A x, A row-major 6x6 */
static inline void mat6_vec(ref_ws *w, mpc_ptr out, mpc_srcptr A, mpc_srcptr x)
{
    for (int i = 0; i < 6; i++) {
        mpc_set_ui(out + i, 0, RN);
        for (int j = 0; j < 6; j++) cx_mac(w, out + i, A + 6 * i + j, x + j);
    }
}

/* out = S_i x_i: the joint's subspace columns times its n coordinates */
static inline void s_mul(ref_ws *w, int i, mpc_ptr out, mpc_srcptr x)
{
    const rbd_model *m = w->m;
    mpc_srcptr S = w->S + 6 * m->idx_v[i];
    vzero(out, 6);
    for (int d = 0; d < m->nv_of[i]; d++)
        for (int r = 0; r < 6; r++) cx_mac(w, out + r, S + 6 * d + r, x + d);
}

/* out = S_i^T f (n numbers) */
static inline void sT_mul(ref_ws *w, int i, mpc_ptr out, mpc_srcptr f)
{
    const rbd_model *m = w->m;
    mpc_srcptr S = w->S + 6 * m->idx_v[i];
    for (int d = 0; d < m->nv_of[i]; d++) {
        mpc_set_ui(out + d, 0, RN);
        for (int r = 0; r < 6; r++) cx_mac(w, out + d, S + 6 * d + r, f + r);
    }
}

#endif
