/* The reference's workspace: one pool of MPC numbers per evaluation thread,
 * initialised once, and the model's constants converted exactly. */
#include <stdlib.h>
#include "ref_ws.h"

ref_ws *ref_ws_new(const rbd_model *m, mpfr_prec_t prec)
{
    ref_ws *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    int nb = m->nb, nv = m->nv, nq = m->nq;
    w->m = m; w->prec = prec; w->nb = nb; w->nv = nv; w->nq = nq;
    size_t sizes[] = {
        12 * (size_t)nb, 36 * (size_t)nb, 6 * (size_t)nv, 6,            /* Xt In S a0 */
        (size_t)nq, (size_t)nq, (size_t)nv, (size_t)nv, (size_t)nv,     /* q0 q qd qdd tau */
        12 * (size_t)nb, 6 * (size_t)nb, 6 * (size_t)nb, 6 * (size_t)nb, (size_t)nv, /* Xup v a f tau_out */
        36 * (size_t)nb, 6 * (size_t)nv, 6 * (size_t)nv, 36 * (size_t)nb,              /* IA U UD Dinv */
        6 * (size_t)nb, 6 * (size_t)nb, (size_t)nv, (size_t)nv,          /* c pA u qdd_out */
        WS_SCRATCH, 2 };
    mpc_ptr *dst[] = { &w->Xt, &w->In, &w->S, &w->a0, &w->q0, &w->q, &w->qd, &w->qdd, &w->tau,
                       &w->Xup, &w->v, &w->a, &w->f, &w->tau_out, &w->IA, &w->U, &w->UD, &w->Dinv,
                       &w->c, &w->pA, &w->u, &w->qdd_out, &w->s, &w->t };
    size_t n = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) n += sizes[k];
    w->pool = malloc(n * sizeof *w->pool);
    if (!w->pool) { free(w); return NULL; }
    for (size_t k = 0; k < n; k++) mpc_init2(w->pool + k, prec);
    w->npool = n;
    n = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) { *dst[k] = w->pool + n; n += sizes[k]; }

    for (int i = 0; i < nb; i++) {
        mpc_ptr X = w->Xt + 12 * i;
        for (int k = 0; k < 9; k++) mpc_set_d(X + k, m->Xtree[i].E[k], RN);
        for (int k = 0; k < 3; k++) mpc_set_d(X + 9 + k, m->Xtree[i].r[k], RN);
        /* RBDA eq. (2.63): I = [Ic + m cx cx^T, m cx; m cx^T, m 1], from the raw data */
        const rbd_body_inertia *b = &m->inertial[i];
        mpc_ptr In = w->In + 36 * i, c = w->s, cx = w->s + 3, t = w->s + 12;
        for (int k = 0; k < 3; k++) mpc_set_d(c + k, b->com[k], RN);
        mpc_set_d(t, b->mass, RN);
        vzero(cx, 9);
        mpc_neg(cx + 1, c + 2, RN); mpc_set(cx + 2, c + 1, RN);
        mpc_set(cx + 3, c + 2, RN); mpc_neg(cx + 5, c + 0, RN);
        mpc_neg(cx + 6, c + 1, RN); mpc_set(cx + 7, c + 0, RN);
        vzero(In, 36);
        for (int r = 0; r < 3; r++)
            for (int q = 0; q < 3; q++) {
                mpc_ptr e = In + 6 * r + q;
                mpc_set_d(e, b->Ic[3 * r + q], RN);
                /* m (cx cx^T)_{rq} = m sum_k cx_{rk} cx_{qk} */
                mpc_ptr acc = w->s + 13;
                mpc_set_ui(acc, 0, RN);
                for (int k = 0; k < 3; k++) cx_mac(w, acc, cx + 3 * r + k, cx + 3 * q + k);
                cx_mac(w, e, t, acc);
                mpc_mul(In + 6 * r + 3 + q, t, cx + 3 * r + q, RN);       /* m cx */
                mpc_mul(In + 6 * (3 + r) + q, t, cx + 3 * q + r, RN);     /* m cx^T */
            }
        for (int k = 3; k < 6; k++) mpc_set(In + 6 * k + k, t, RN);
    }
    for (int k = 0; k < 6 * nv; k++) mpc_set_d(w->S + k, m->S[k], RN);
    for (int k = 0; k < 6; k++) mpc_set_d(w->a0 + k, m->a0[k], RN);
    return w;
}

void ref_ws_free(ref_ws *w)
{
    if (!w) return;
    for (size_t k = 0; k < w->npool; k++) mpc_clear(w->pool + k);
    free(w->pool);
    free(w);
}

void ref_ws_set_state(ref_ws *w, const double *q, const double *v, const double *a, const double *tau)
{
    for (int k = 0; k < w->nq; k++) {
        mpc_set_d(w->q0 + k, q[k], RN);
        mpc_set_d(w->q + k, q[k], RN);
    }
    for (int k = 0; k < w->nv; k++) {
        mpc_set_d(w->qd + k, v ? v[k] : 0.0, RN);
        mpc_set_d(w->qdd + k, a ? a[k] : 0.0, RN);
        mpc_set_d(w->tau + k, tau ? tau[k] : 0.0, RN);
    }
}
