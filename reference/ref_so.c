/*
 * The second-order reference (rbdref_so.h): central differences at 256 bits
 * of the reference's complex-step first-order columns.
 *
 * Why this route and not a bicomplex step (Lantoine et al.): it reuses the
 * audited path unchanged (ref_rnea, ref_aba, the tangent-space perturbation
 * of ref_joint.c, now taking any complex angle), where a bicomplex step
 * needs every operation of RNEA and ABA again over a four-component algebra
 * that MPC does not have.  The price of the difference, its cancellation,
 * is paid in bits we have: at 256 bits and d = 2^-85 the difference keeps
 * ~170 bits, 10^35 below double's rounding (tests/test_reference_so.c
 * checks d = 2^-85 against 2^-70 and 256 against 320 bits, and the
 * symmetries the tensors must have).
 *
 * Work: slab k of the q tensors needs the first-order columns at q (+) +-d e_k
 * (6 nv RNEA/ABA evaluations each sign for ID and FD), slab k of the v
 * tensors the v columns at v +- d e_k: 16 nv^2 evaluations in all, spread
 * over worker threads by slab (each slab is written by one thread only).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rbdref_so.h"
#include "ref_ws.h"

enum { T_DQ2, T_DV2, T_DQDV, T_DX, NT = 4 };   /* tensor index within a half; +NT for FD */

typedef struct {
    const rbd_model *m;
    const double *q, *v, *a, *tau;
    long h_log2, d_log2;
    int prec, nthreads, id, fd;
    const unsigned char *want;   /* [2 nv]: the slabs to compute (q slabs, then v slabs); NULL: all */
    rbdref_so_result *r;
} so_job;

typedef struct {
    const so_job *jb;
    int index, rc;
    char msg[256];
    pthread_t th;
} so_worker;

typedef struct {
    ref_ws *w;
    mpfr_ptr acc[2 * NT];    /* one slab (nv x nv) per tensor */
    mpc_ptr tt, saved;       /* the outer step, a joint's saved q0 */
    __mpfr_struct *pool;
    __mpc_struct *cpool;
    size_t npool;
} so_ctx;

/* acc(:, j) += sign Im(x) / h */
static void add_col(mpfr_ptr acc, int nv, int j, mpc_srcptr x, long h_log2, int sign, mpfr_ptr tmp)
{
    for (int i = 0; i < nv; i++) {
        mpfr_mul_2si(tmp, mpc_imagref(x + i), -h_log2, MPFR_RNDN);
        if (sign > 0) mpfr_add(acc + i + (size_t)nv * j, acc + i + (size_t)nv * j, tmp, MPFR_RNDN);
        else mpfr_sub(acc + i + (size_t)nv * j, acc + i + (size_t)nv * j, tmp, MPFR_RNDN);
    }
}

/* The first-order columns at the current base point, added with sign into
 * the slabs: outer q: dtau/dq, dtau/dv, M and dqdd/dq, dqdd/dv, M^-1; outer
 * v: dtau/dv and dqdd/dv. */
static int columns(so_ctx *c, const so_job *jb, int outer_q, int sign, mpfr_ptr tmp)
{
    ref_ws *w = c->w;
    const rbd_model *m = jb->m;
    const int nv = m->nv;
    int rc;
    if (jb->fd && (rc = ref_aba_inertia(w))) return rc;
    for (int j = 0; j < nv; j++) {
        mpfr_set_ui_2exp(mpc_imagref(w->qd + j), 1, jb->h_log2, MPFR_RNDN);   /* v + i h e_j */
        if (jb->id) { ref_rnea(w); add_col(c->acc[outer_q ? T_DQDV : T_DV2], nv, j, w->tau_out, jb->h_log2, sign, tmp); }
        if (jb->fd) { ref_aba_bias(w); add_col(c->acc[NT + (outer_q ? T_DQDV : T_DV2)], nv, j, w->qdd_out, jb->h_log2, sign, tmp); }
        mpfr_set_ui(mpc_imagref(w->qd + j), 0, MPFR_RNDN);
    }
    if (!outer_q) return RBD_OK;
    for (int j = 0; j < nv && jb->id; j++) {            /* M = dtau/da */
        mpfr_set_ui_2exp(mpc_imagref(w->qdd + j), 1, jb->h_log2, MPFR_RNDN);
        ref_rnea(w);
        add_col(c->acc[T_DX], nv, j, w->tau_out, jb->h_log2, sign, tmp);
        mpfr_set_ui(mpc_imagref(w->qdd + j), 0, MPFR_RNDN);
    }
    for (int j = 0; j < nv && jb->fd; j++) {            /* M^-1 = dqdd/dtau */
        mpfr_set_ui_2exp(mpc_imagref(w->tau + j), 1, jb->h_log2, MPFR_RNDN);
        ref_aba_bias(w);
        add_col(c->acc[NT + T_DX], nv, j, w->qdd_out, jb->h_log2, sign, tmp);
        mpfr_set_ui(mpc_imagref(w->tau + j), 0, MPFR_RNDN);
    }
    for (int j = 0; j < nv; j++) {                      /* q (+) i h e_j from the moved base q0 */
        int b = m->dof_body[j];
        if ((rc = ref_perturb_q(w, b, j - m->idx_v[b], jb->h_log2)) || (rc = ref_jcalc_xup(w, b))) return rc;
        if (jb->id) { ref_rnea(w); add_col(c->acc[T_DQ2], nv, j, w->tau_out, jb->h_log2, sign, tmp); }
        if (jb->fd) {
            if ((rc = ref_aba_inertia(w))) return rc;
            ref_aba_bias(w);
            add_col(c->acc[NT + T_DQ2], nv, j, w->qdd_out, jb->h_log2, sign, tmp);
        }
        ref_unperturb_q(w, b);
        if ((rc = ref_jcalc_xup(w, b))) return rc;
    }
    return RBD_OK;
}

/* Moves the base point by sign d along x_k (q in the tangent space, or v),
 * runs the columns, and moves it back. */
static int side(so_ctx *c, const so_job *jb, int outer_q, int k, int sign, mpfr_ptr tmp)
{
    ref_ws *w = c->w;
    const rbd_model *m = jb->m;
    int rc;
    if (!outer_q) {
        mpc_set_d(w->qd + k, jb->v ? jb->v[k] : 0.0, RN);
        mpfr_set_si_2exp(tmp, sign, jb->d_log2, MPFR_RNDN);
        mpfr_add(mpc_realref(w->qd + k), mpc_realref(w->qd + k), tmp, MPFR_RNDN);
        rc = columns(c, jb, 0, sign, tmp);
        mpc_set_d(w->qd + k, jb->v ? jb->v[k] : 0.0, RN);
        return rc;
    }
    int b = m->dof_body[k], o = m->idx_q[b], n = m->nq_of[b];
    vset(c->saved, w->q0 + o, n);
    mpc_set_ui(c->tt, 0, RN);
    mpfr_set_si_2exp(mpc_realref(c->tt), sign, jb->d_log2, MPFR_RNDN);
    if ((rc = ref_perturb_q_by(w, b, k - m->idx_v[b], c->tt))) return rc;
    vset(w->q0 + o, w->q + o, n);                       /* the moved base point */
    if (!(rc = ref_jcalc_xup(w, b))) rc = columns(c, jb, 1, sign, tmp);
    vset(w->q0 + o, c->saved, n);
    vset(w->q + o, c->saved, n);
    int rc2 = ref_jcalc_xup(w, b);
    return rc ? rc : rc2;
}

static double *out_tensor(const so_job *jb, int t)
{
    rbdref_so_result *r = jb->r;
    double *all[2 * NT] = { r->d2tau_dq2, r->d2tau_dv2, r->d2tau_dqdv, r->dM_dq,
                            r->d2qdd_dq2, r->d2qdd_dv2, r->d2qdd_dqdv, r->d2qdd_dqdtau };
    return all[t];
}

/* Slab k of the q tensors (outer_q) or of the v tensors. */
static int slab(so_ctx *c, const so_job *jb, int outer_q, int k)
{
    const size_t nn = (size_t)jb->m->nv * jb->m->nv;
    mpfr_ptr tmp = c->pool + c->npool - 1;
    for (int t = 0; t < 2 * NT; t++)
        for (size_t e = 0; e < nn; e++) mpfr_set_ui(c->acc[t] + e, 0, MPFR_RNDN);
    int rc = side(c, jb, outer_q, k, +1, tmp);
    if (!rc) rc = side(c, jb, outer_q, k, -1, tmp);
    if (rc) return rc;
    for (int t = 0; t < 2 * NT; t++) {
        if (t < NT ? !jb->id : !jb->fd) continue;
        if ((t % NT == T_DV2) == outer_q) continue;      /* dv2 from outer v, the rest from outer q */
        /* the mixed tensors' slabs run along their second variable (v, tau;
         * rbdref_so.h): the difference along q_k of entry (i, j) is T(i, k, j) */
        const int tr = t % NT == T_DQDV || t == NT + T_DX;
        const size_t nv = (size_t)jb->m->nv;
        double *T = out_tensor(jb, t);
        for (size_t e = 0; e < nn; e++) {               /* / (2 d), exact */
            mpfr_mul_2si(tmp, c->acc[t] + e, -jb->d_log2 - 1, MPFR_RNDN);
            T[tr ? e % nv + nv * (size_t)k + nn * (e / nv) : e + nn * (size_t)k] = mpfr_get_d(tmp, MPFR_RNDN);
        }
    }
    return RBD_OK;
}

static int so_work(so_worker *wk)
{
    const so_job *jb = wk->jb;
    const rbd_model *m = jb->m;
    const size_t nn = (size_t)m->nv * m->nv;
    so_ctx c = { 0 };
    c.npool = 2 * NT * nn + 1;
    c.pool = malloc(c.npool * sizeof *c.pool);
    c.cpool = malloc(8 * sizeof *c.cpool);
    c.w = ref_ws_new(m, jb->prec);
    int rc = RBD_OK;
    if (!c.pool || !c.cpool || !c.w) {
        free(c.pool); free(c.cpool); ref_ws_free(c.w);
        return rbd_fail(RBD_ENOMEM, "second-order reference: out of memory for a worker (nv = %d)", m->nv);
    }
    for (size_t e = 0; e < c.npool; e++) mpfr_init2(c.pool + e, jb->prec);
    for (int e = 0; e < 8; e++) mpc_init2(c.cpool + e, jb->prec);
    for (int t = 0; t < 2 * NT; t++) c.acc[t] = c.pool + (size_t)t * nn;
    c.tt = c.cpool;
    c.saved = c.cpool + 1;
    ref_ws_set_state(c.w, jb->q, jb->v, jb->a, jb->tau);
    for (int i = 0; i < m->nb && !rc; i++) rc = ref_jcalc_xup(c.w, i);
    if (!rc && wk->index == 0) {                        /* the base point's tau and qdd */
        if (jb->id) {
            ref_rnea(c.w);
            for (int i = 0; i < m->nv; i++) jb->r->tau[i] = mpfr_get_d(mpc_realref(c.w->tau_out + i), MPFR_RNDN);
        }
        if (jb->fd && !(rc = ref_aba_inertia(c.w))) {
            ref_aba_bias(c.w);
            for (int i = 0; i < m->nv; i++) jb->r->qdd[i] = mpfr_get_d(mpc_realref(c.w->qdd_out + i), MPFR_RNDN);
        }
    }
    for (int s = 0, n = 0; s < 2 * m->nv && !rc; s++)      /* the n-th wanted slab to worker n % nthreads */
        if ((!jb->want || jb->want[s]) && n++ % jb->nthreads == wk->index) rc = slab(&c, jb, s < m->nv, s % m->nv);
    for (size_t e = 0; e < c.npool; e++) mpfr_clear(c.pool + e);
    for (int e = 0; e < 8; e++) mpc_clear(c.cpool + e);
    free(c.pool); free(c.cpool);
    ref_ws_free(c.w);
    return rc;
}

static void *so_thread(void *arg)
{
    so_worker *wk = arg;
    wk->rc = so_work(wk);
    if (wk->rc) snprintf(wk->msg, sizeof wk->msg, "%s", rbd_last_error());
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    return NULL;
}

long rbdref_so_step_log2(const rbdref_opts *o, long d_log2)
{
    return d_log2 ? d_log2 : -(long)o->prec / 3;
}

static int so_eval(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                   const rbdref_opts *o, long d_log2, const unsigned char *want, rbdref_so_result *r)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (!m || !q || !r || r->nv != m->nv)
        return rbd_fail(RBD_EINVAL, "second-order reference: null argument or result not made for nv = %d",
                        m ? m->nv : -1);
    if (o->prec < 64) return rbd_fail(RBD_EINVAL, "reference: precision %d bits is below 64", o->prec);
    long h_log2 = o->h_log2 ? o->h_log2 : -(long)o->prec;
    d_log2 = rbdref_so_step_log2(o, d_log2);
    if (h_log2 >= 0 || h_log2 < -(1L << 20) || d_log2 >= 0 || d_log2 <= -(long)o->prec / 2)
        return rbd_fail(RBD_EINVAL, "second-order reference: steps 2^%ld, 2^%ld out of range at %d bits "
                        "(complex step < 1, difference step in (2^-prec/2, 1))", h_log2, d_log2, o->prec);
    int nt = o->nthreads;
    if (nt <= 0) { long c = sysconf(_SC_NPROCESSORS_ONLN); nt = c > 0 ? (int)c : 1; }
    if (nt > 2 * m->nv) nt = 2 * m->nv;
    if (nt > 64) nt = 64;
    so_job jb = { m, q, v, a, tau, h_log2, d_log2, o->prec, nt, a != NULL, tau != NULL, want, r };
    so_worker wk[64];
    int rc = RBD_OK, started = 1;
    for (int t = 0; t < nt; t++) { wk[t].jb = &jb; wk[t].index = t; wk[t].rc = 0; wk[t].msg[0] = 0; }
    while (started < nt && !pthread_create(&wk[started].th, NULL, so_thread, &wk[started])) started++;
    for (int t = 0; t < nt; t++)                        /* share 0, and any whose thread did not start */
        if (t == 0 || t >= started) {
            wk[t].rc = so_work(&wk[t]);
            if (wk[t].rc) snprintf(wk[t].msg, sizeof wk[t].msg, "%s", rbd_last_error());
        }
    for (int t = 1; t < started; t++) pthread_join(wk[t].th, NULL);
    for (int t = 0; t < nt && !rc; t++)
        if (wk[t].rc) rc = rbd_fail(wk[t].rc, "%s", wk[t].msg);
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    r->has_id = a && !rc;
    r->has_fd = tau && !rc;
    return rc;
}

int rbdref_so_eval(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                   const rbdref_opts *o, long d_log2, rbdref_so_result *r)
{
    return so_eval(m, q, v, a, tau, o, d_log2, NULL, r);
}

int rbdref_so_eval_slabs(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                         const rbdref_opts *o, long d_log2, const int *slabs, int nslabs, rbdref_so_result *r)
{
    if (!m || !r || r->nv != m->nv || (nslabs && !slabs))
        return rbd_fail(RBD_EINVAL, "second-order reference: null argument or result not made for nv = %d",
                        m ? m->nv : -1);
    unsigned char *want = calloc(2 * (size_t)m->nv, 1);
    if (!want) return rbd_fail(RBD_ENOMEM, "second-order reference: out of memory");
    for (int k = 0; k < nslabs; k++) {
        if (slabs[k] < 0 || slabs[k] >= 2 * m->nv) {
            free(want);
            return rbd_fail(RBD_EINVAL, "second-order reference: slab %d is not in [0, %d)", slabs[k], 2 * m->nv);
        }
        want[slabs[k]] = 1;
    }
    const size_t n3 = (size_t)m->nv * m->nv * m->nv;
    double *t[8] = { r->d2tau_dq2, r->d2tau_dv2, r->d2tau_dqdv, r->dM_dq,
                     r->d2qdd_dq2, r->d2qdd_dv2, r->d2qdd_dqdv, r->d2qdd_dqdtau };
    for (int k = 0; k < 8; k++)
        for (size_t e = 0; t[k] && e < n3; e++) t[k][e] = NAN;      /* the entries no wanted slab writes */
    int rc = so_eval(m, q, v, a, tau, o, d_log2, want, r);
    free(want);
    return rc;
}
