/*
 * The reference's driver: complex-step columns Im f(x + i h e_j) / h of RNEA
 * (dtau/dq, dtau/dv, M = dtau/da) and ABA (dqdd/dq, dqdd/dv, M^-1 = dqdd/dtau),
 * shared over worker threads.  Each thread owns one workspace (every MPC
 * number initialised once per call) and a fixed, interleaved share of the
 * columns; columns in v, a and tau come first so that they reuse the base
 * point's articulated inertias (ref_aba.c), then the q columns, which
 * recompute them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rbdref.h"
#include "ref_ws.h"

void rbdref_opts_default(rbdref_opts *o)
{
    memset(o, 0, sizeof *o);
    o->prec = 256;
}

/* ---- results ---- */

static const char *const names[] = { "tau", "M", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "Minv",
                                     "dqdd_dtau" };

static int name_index(const char *name)
{
    for (int k = 0; k < 9; k++)
        if (!strcmp(name, names[k])) return k == 8 ? 7 : k;
    return -1;
}

int rbdref_result_init(rbdref_result *r, int nv)
{
    memset(r, 0, sizeof *r);
    if (nv < 1) return rbd_fail(RBD_EINVAL, "rbdref_result_init: nv = %d", nv);
    size_t n = (size_t)nv, nn = n * n;
    double *p = calloc(2 * n + 6 * nn, sizeof *p);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory for a reference result of nv = %d", nv);
    r->nv = nv;
    r->tau = p; r->qdd = p + n;
    r->M = p + 2 * n; r->dtau_dq = r->M + nn; r->dtau_dv = r->dtau_dq + nn;
    r->dqdd_dq = r->dtau_dv + nn; r->dqdd_dv = r->dqdd_dq + nn; r->Minv = r->dqdd_dv + nn;
    return RBD_OK;
}

void rbdref_result_free(rbdref_result *r)
{
    if (r && r->tau) free(r->tau);
    if (r) memset(r, 0, sizeof *r);
}

double *rbdref_result_get(const rbdref_result *r, const char *name, int *rows, int *cols)
{
    int k = name_index(name);
    if (k < 0) return NULL;
    int fd = k >= 4;
    if (fd ? !r->has_fd : !r->has_id) return NULL;
    double *arr[8] = { r->tau, r->M, r->dtau_dq, r->dtau_dv, r->qdd, r->dqdd_dq, r->dqdd_dv, r->Minv };
    if (rows) *rows = r->nv;
    if (cols) *cols = (k == 0 || k == 4) ? 1 : r->nv;
    return arr[k];
}

int rbdref_mp_init(rbdref_mp *r, int nv, int prec)
{
    memset(r, 0, sizeof *r);
    if (nv < 1 || prec < 64) return rbd_fail(RBD_EINVAL, "rbdref_mp_init: nv = %d, prec = %d", nv, prec);
    size_t n = (size_t)nv, nn = n * n, tot = 2 * n + 6 * nn;
    r->pool = malloc(tot * sizeof *r->pool);
    if (!r->pool) return rbd_fail(RBD_ENOMEM, "out of memory for a reference result of nv = %d", nv);
    for (size_t k = 0; k < tot; k++) mpfr_init2(r->pool + k, prec);
    r->npool = tot; r->nv = nv; r->prec = prec;
    r->tau = r->pool; r->qdd = r->pool + n;
    r->M = r->pool + 2 * n; r->dtau_dq = r->M + nn; r->dtau_dv = r->dtau_dq + nn;
    r->dqdd_dq = r->dtau_dv + nn; r->dqdd_dv = r->dqdd_dq + nn; r->Minv = r->dqdd_dv + nn;
    return RBD_OK;
}

void rbdref_mp_clear(rbdref_mp *r)
{
    if (!r) return;
    for (size_t k = 0; k < r->npool; k++) mpfr_clear(r->pool + k);
    free(r->pool);
    memset(r, 0, sizeof *r);
}

mpfr_ptr rbdref_mp_get(const rbdref_mp *r, const char *name, int *rows, int *cols)
{
    int k = name_index(name);
    if (k < 0) return NULL;
    int fd = k >= 4;
    if (fd ? !r->has_fd : !r->has_id) return NULL;
    mpfr_ptr arr[8] = { r->tau, r->M, r->dtau_dq, r->dtau_dv, r->qdd, r->dqdd_dq, r->dqdd_dv, r->Minv };
    if (rows) *rows = r->nv;
    if (cols) *cols = (k == 0 || k == 4) ? 1 : r->nv;
    return arr[k];
}

int rbdref_mp_round(const rbdref_mp *src, rbdref_result *dst)
{
    if (!src || !dst || src->nv != dst->nv) return rbd_fail(RBD_EINVAL, "rbdref_mp_round: size mismatch");
    dst->has_id = src->has_id;
    dst->has_fd = src->has_fd;
    for (int k = 0; k < 8; k++) {
        int rows, cols;
        mpfr_ptr s = rbdref_mp_get(src, names[k], &rows, &cols);
        double *d = rbdref_result_get(dst, names[k], NULL, NULL);
        if (!s) continue;
        for (size_t e = 0; e < (size_t)rows * cols; e++) d[e] = mpfr_get_d(s + e, MPFR_RNDN);
    }
    return RBD_OK;
}

/* ---- evaluation ---- */

typedef enum { COL_V, COL_A, COL_TAU, COL_Q } col_kind;
typedef struct { col_kind kind; int j; } column;

typedef struct {
    const rbd_model *m;
    const double *q, *v, *a, *tau;
    long h_log2;
    int prec, nthreads, id, fd;
    const column *cols;
    int ncols;
    rbdref_mp *r;
} job;

typedef struct {
    const job *jb;
    int index;
    int rc;
    char msg[256];
    pthread_t th;
} worker;

/* out[i] = Im x[i] / h, exactly (h a power of two) */
static void take_im(mpfr_ptr out, mpc_srcptr x, int n, long h_log2)
{
    for (int k = 0; k < n; k++) mpfr_mul_2si(out + k, mpc_imagref(x + k), -h_log2, MPFR_RNDN);
}

static int run_column(ref_ws *w, const job *jb, const column *c)
{
    const rbd_model *m = jb->m;
    rbdref_mp *r = jb->r;
    int nv = m->nv, j = c->j, rc;
    size_t off = (size_t)nv * j;
    mpc_ptr x = c->kind == COL_V ? w->qd + j : c->kind == COL_A ? w->qdd + j : w->tau + j;
    if (c->kind == COL_Q) {
        int b = m->dof_body[j];
        if ((rc = ref_perturb_q(w, b, j - m->idx_v[b], jb->h_log2)) || (rc = ref_jcalc_xup(w, b))) return rc;
        if (jb->id) {
            ref_rnea(w);
            take_im(r->dtau_dq + off, w->tau_out, nv, jb->h_log2);
        }
        if (jb->fd) {
            if ((rc = ref_aba_inertia(w))) return rc;
            ref_aba_bias(w);
            take_im(r->dqdd_dq + off, w->qdd_out, nv, jb->h_log2);
        }
        ref_unperturb_q(w, b);
        return ref_jcalc_xup(w, b);
    }
    /* a linear coordinate: x + i h */
    mpfr_set_ui_2exp(mpc_imagref(x), 1, jb->h_log2, MPFR_RNDN);
    if (c->kind != COL_TAU && jb->id) {
        ref_rnea(w);
        take_im((c->kind == COL_V ? r->dtau_dv : r->M) + off, w->tau_out, nv, jb->h_log2);
    }
    if (c->kind != COL_A && jb->fd) {
        ref_aba_bias(w);
        take_im((c->kind == COL_V ? r->dqdd_dv : r->Minv) + off, w->qdd_out, nv, jb->h_log2);
    }
    mpfr_set_ui(mpc_imagref(x), 0, MPFR_RNDN);
    return RBD_OK;
}

static int work(worker *wk)
{
    const job *jb = wk->jb;
    const rbd_model *m = jb->m;
    ref_ws *w = ref_ws_new(m, jb->prec);
    if (!w) return rbd_fail(RBD_ENOMEM, "reference: out of memory for the workspace of %d bodies", m->nb);
    int rc = RBD_OK;
    ref_ws_set_state(w, jb->q, jb->v, jb->a, jb->tau);
    for (int i = 0; i < m->nb && !rc; i++) rc = ref_jcalc_xup(w, i);
    if (!rc && jb->fd) rc = ref_aba_inertia(w);
    if (!rc && wk->index == 0) {            /* the base point: tau and qdd themselves */
        if (jb->id) {
            ref_rnea(w);
            for (int k = 0; k < m->nv; k++) mpfr_set(jb->r->tau + k, mpc_realref(w->tau_out + k), MPFR_RNDN);
        }
        if (jb->fd) {
            ref_aba_bias(w);
            for (int k = 0; k < m->nv; k++) mpfr_set(jb->r->qdd + k, mpc_realref(w->qdd_out + k), MPFR_RNDN);
        }
    }
    for (int c = wk->index; c < jb->ncols && !rc; c += jb->nthreads) rc = run_column(w, jb, &jb->cols[c]);
    ref_ws_free(w);
    return rc;
}

static void *work_thread(void *arg)
{
    worker *wk = arg;
    wk->rc = work(wk);
    if (wk->rc) snprintf(wk->msg, sizeof wk->msg, "%s", rbd_last_error());
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    return NULL;
}

int rbdref_eval_mp(const rbd_model *m, const double *q, const double *v, const double *a,
                   const double *tau, const rbdref_opts *o, rbdref_mp *r)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (!m || !q || !r) return rbd_fail(RBD_EINVAL, "rbdref_eval: null argument");
    if (o->prec < 64) return rbd_fail(RBD_EINVAL, "reference: precision %d bits is below 64", o->prec);
    if (r->nv != m->nv || r->prec != (mpfr_prec_t)o->prec)
        return rbd_fail(RBD_EINVAL, "reference: result made for nv = %d, %ld bits; model has nv = %d, options ask %d bits",
                        r->nv, (long)r->prec, m->nv, o->prec);
    long h_log2 = o->h_log2 ? o->h_log2 : -(long)o->prec;
    if (h_log2 >= 0 || h_log2 < -(1L << 20))
        return rbd_fail(RBD_EINVAL, "reference: step 2^%ld out of range (want a negative exponent)", h_log2);
    int nv = m->nv, id = a != NULL, fd = tau != NULL;
    column *cols = malloc(sizeof *cols * (size_t)(4 * nv));
    if (!cols) return rbd_fail(RBD_ENOMEM, "reference: out of memory");
    int nc = 0;
    for (int j = 0; j < nv; j++) cols[nc++] = (column){ COL_V, j };
    if (id) for (int j = 0; j < nv; j++) cols[nc++] = (column){ COL_A, j };
    if (fd) for (int j = 0; j < nv; j++) cols[nc++] = (column){ COL_TAU, j };
    for (int j = 0; j < nv; j++) cols[nc++] = (column){ COL_Q, j };
    if (!id && !fd) nc = 0;

    int nt = o->nthreads;
    if (nt <= 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        nt = c > 0 ? (int)c : 1;
    }
    if (nt > nc) nt = nc > 0 ? nc : 1;
    if (nt > 64) nt = 64;
    job jb = { m, q, v, a, tau, h_log2, o->prec, nt, id, fd, cols, nc, r };
    worker wk[64];
    int rc = RBD_OK, started = 1;
    for (int t = 0; t < nt; t++) { wk[t].jb = &jb; wk[t].index = t; wk[t].rc = 0; wk[t].msg[0] = 0; }
    while (started < nt && !pthread_create(&wk[started].th, NULL, work_thread, &wk[started])) started++;
    /* shares whose thread could not start are done here, after share 0 */
    for (int t = 0; t < nt; t++)
        if (t == 0 || t >= started) {
            wk[t].rc = work(&wk[t]);
            if (wk[t].rc) snprintf(wk[t].msg, sizeof wk[t].msg, "%s", rbd_last_error());
        }
    for (int t = 1; t < started; t++) pthread_join(wk[t].th, NULL);
    for (int t = 0; t < nt && !rc; t++)
        if (wk[t].rc) rc = rbd_fail(wk[t].rc, "%s", wk[t].msg);
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    free(cols);
    r->has_id = id && !rc;
    r->has_fd = fd && !rc;
    return rc;
}

int rbdref_eval(const rbd_model *m, const double *q, const double *v, const double *a,
                const double *tau, const rbdref_opts *o, rbdref_result *r)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (!m || !r || r->nv != m->nv)
        return rbd_fail(RBD_EINVAL, "rbdref_eval: result not made for this model (nv = %d)", m ? m->nv : -1);
    rbdref_mp mp;
    int rc = rbdref_mp_init(&mp, m->nv, o->prec);
    if (rc) return rc;
    rc = rbdref_eval_mp(m, q, v, a, tau, o, &mp);
    if (!rc) rc = rbdref_mp_round(&mp, r);
    rbdref_mp_clear(&mp);
    return rc;
}
