/* The accuracy audit of one model (accuracy_run.h). */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "accuracy.h"
#include "rbdref_so.h"
#include "accuracy/accuracy_peer.h"
#include "accuracy/accuracy_run.h"
#include "rbdiff/dynamics.h"
#include "store/atomicio.h"

static const char *const id_outputs[] = { "tau", "dtau_dq", "dtau_dv", NULL };
static const char *const fd_outputs[] = { "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau", NULL };
/* second order: the vector and the four tensors (method.h), scored against
 * the second-order reference (reference/ref_so.c) */
static const char *const id2_outputs[] = { "tau", "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq", NULL };
static const char *const fd2_outputs[] = { "qdd", "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv", "d2qdd_dqdtau", NULL };

static int is_so(const bench_target *t)
{
    return t->method && rbd_output_order(t->method->output) == 2;
}

const char *const *audit_outputs(const bench_target *t)
{
    static const char *const base_out[][2] = { { "tau", NULL }, { "M", NULL }, { "qdd", NULL }, { "Minv", NULL } };
    if (t->peer) return audit_peer_outputs(t);
    if (is_so(t)) return t->method->output == RBD_ID_SO_DERIVS ? id2_outputs : fd2_outputs;
    if (t->method) return t->method->output == RBD_ID_DERIVS ? id_outputs : fd_outputs;
    if (!t->base) return base_out[0] + 1;   /* the roofline dgemm: nothing to audit */
    for (int k = 0; k < 4; k++)
        if (!strcmp(t->base->out, base_out[k][0])) return base_out[k];
    return base_out[0] + 1;     /* an output the reference does not have: none */
}

void audit_default_cache(char *buf, size_t len)
{
    const char *e;
    if ((e = getenv("RBD_CACHE_DIR")) && *e) snprintf(buf, len, "%s", e);
    else if ((e = getenv("XDG_CACHE_HOME")) && *e) snprintf(buf, len, "%s/rbdiff", e);
    else if ((e = getenv("HOME")) && *e) snprintf(buf, len, "%s/.cache/rbdiff", e);
    else snprintf(buf, len, "results/.refcache");
}

void audit_opts_from_config(const sweep_config *c, char *cache, size_t len, audit_opts *o)
{
    if (c->cache) snprintf(cache, len, "%s", c->cache);
    else audit_default_cache(cache, len);
    memset(o, 0, sizeof *o);
    o->states = c->acc_states;
    o->seed = c->seed;
    o->cache = cache;
    rbdref_opts_default(&o->ref);
}

int audit_cache_check(const sweep_config *c)
{
    char cache[4096], why[1024];
    audit_opts o;
    audit_opts_from_config(c, cache, sizeof cache, &o);
    if (!*cache) return rbd_fail(RBD_EINVAL, "the reference cache directory (--cache, cache =) is empty");
    int rc = mkdir_p(cache);
    if (!rc) return RBD_OK;
    snprintf(why, sizeof why, "%s", rbd_last_error());
    return rbd_fail(rc, "the reference cache directory '%s': %s", cache, why);
}

/* Output buffers of one target; every slot distinct, NaN before each call
 * so an output a method forgets to fill shows as non-finite. */
typedef struct {
    double *buf;
    size_t len;
    rbd_derivs d;
    double *base_out;
    rbd_data *data;
    void *ws;
} target_ws;

static int target_init(const bench_target *t, const rbd_model *m, target_ws *w)
{
    memset(w, 0, sizeof *w);
    size_t nv = (size_t)m->nv, nn = nv * nv, n3 = is_so(t) ? nn * nv : 0;
    int rc;
    if (n3 && (rc = rbd_so_check_size(m, t->name, NULL))) return rc;
    w->len = 2 * nv + 6 * nn + 4 * n3;
    if (!(w->buf = malloc(sizeof(double) * w->len))) return rbd_fail(RBD_ENOMEM, "out of memory");
    w->d.tau = w->buf;
    w->d.qdd = w->buf + nv;
    w->d.dtau_dq = w->buf + 2 * nv;
    w->d.dtau_dv = w->d.dtau_dq + nn;
    w->d.dqdd_dq = w->d.dtau_dv + nn;
    w->d.dqdd_dv = w->d.dqdd_dq + nn;
    w->d.dqdd_dtau = w->d.dqdd_dv + nn;
    w->base_out = w->d.dqdd_dtau + nn;
    if (n3) {           /* after the base output's nn: ID and FD kinds share the four tensors */
        double *T = w->base_out + nn;
        w->d.d2tau_dq2 = w->d.d2qdd_dq2 = T;
        w->d.d2tau_dv2 = w->d.d2qdd_dv2 = T + n3;
        w->d.d2tau_dqdv = w->d.d2qdd_dqdv = T + 2 * n3;
        w->d.dM_dq = w->d.d2qdd_dqdtau = T + 3 * n3;
    }
    if (t->base) {
        if (!(w->data = rbd_data_new(m))) return rbd_fail(RBD_ENOMEM, "out of memory");
        return RBD_OK;
    }
    rbd_options o;
    rbd_options_default(&o);
    /* fdsva's DMM by the size rule, not timed at init: the sparse loop and
     * dgemm round differently, and an audit must repeat bit for bit (the
     * shards of a sweep each run it; their figures must agree) */
    o.fdsva_dmm_rule = 1;
    rc = t->method->init(m, &o, &w->ws);
    if (rc) w->ws = NULL;
    return rc;
}

static void target_fini(const bench_target *t, target_ws *w)
{
    if (t->method && w->ws) t->method->fini(w->ws);
    rbd_data_free(w->data);
    free(w->buf);
    memset(w, 0, sizeof *w);
}

static int target_eval(const bench_target *t, const rbd_model *m, target_ws *w, const double *q, const double *v,
                       const double *a, const double *tau)
{
    for (size_t k = 0; k < w->len; k++) w->buf[k] = NAN;
    if (t->base) return t->base->run(m, w->data, q, v, a, tau, w->base_out);
    rbd_state x = { q, v, a, tau };
    return t->method->eval(w->ws, &x, &w->d);
}

static const double *target_output(const bench_target *t, const target_ws *w, const char *name)
{
    if (t->base) return w->base_out;
    if (!strcmp(name, "tau")) return w->d.tau;
    if (!strcmp(name, "dtau_dq")) return w->d.dtau_dq;
    if (!strcmp(name, "dtau_dv")) return w->d.dtau_dv;
    if (!strcmp(name, "qdd")) return w->d.qdd;
    if (!strcmp(name, "dqdd_dq")) return w->d.dqdd_dq;
    if (!strcmp(name, "dqdd_dv")) return w->d.dqdd_dv;
    if (is_so(t)) {
        const char *const *names = rbd_so_output_names(t->method->output);
        double *p[1 + RBD_SO_NTENSORS];
        rbd_so_output_ptrs(t->method->output, &w->d, p);
        for (int k = 1; k <= RBD_SO_NTENSORS; k++)
            if (!strcmp(name, names[k])) return p[k];
    }
    return w->d.dqdd_dtau;
}

double audit_cond_spd(const double *M, int n)
{
    size_t nn = (size_t)n * (size_t)n;
    double *A = malloc(sizeof(double) * (nn + (size_t)n));
    if (!A || n < 1) { free(A); return NAN; }
    double *w = A + nn;
    for (size_t k = 0; k < nn; k++) A[k] = M[k];
    lapack_int info = LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', n, A, n, w);   /* w ascending */
    double c = info ? NAN : w[0] > 0 ? w[n - 1] / w[0] : INFINITY;
    free(A);
    return c;
}

typedef audit_states state_set;

static void states_free(state_set *s)
{
    for (int k = 0; s->ref && k < s->S; k++) rbdref_result_free(&s->ref[k]);
    for (int k = 0; s->so && k < s->S; k++) rbdref_so_result_free(&s->so[k]);
    free(s->ref); free(s->so); free(s->q); free(s->v); free(s->a); free(s->tau);
}

/* The second-order references of every state, through the cache as the
 * first-order ones (rbdref_so_eval_cached: they cost O(nv^3) evaluations
 * at 256 bits, minutes a state at N = 100). */
static int states_make_so(const rbd_model *m, const audit_opts *o, volatile sig_atomic_t *stop, state_set *s,
                          int *cache_failed)
{
    size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
    if (!(s->so = calloc((size_t)s->S, sizeof *s->so))) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (size_t k = 0; k < (size_t)s->S; k++) {
        if (stop && *stop) return 1;
        const double *q = s->q + k * nq, *v = s->v + k * nv, *a = s->a + k * nv, *tau = s->tau + k * nv;
        int rc = rbdref_so_result_init(&s->so[k], m->nv);
        if (!rc && o->cache) {
            rc = rbdref_so_eval_cached(o->cache, m, q, v, a, tau, &o->ref, 0, &s->so[k], NULL);
            if (rc == RBD_EIO && s->so[k].has_id) {
                if (cache_failed) *cache_failed = 1;
                rc = RBD_OK;
            }
        } else if (!rc) {
            rc = rbdref_so_eval(m, q, v, a, tau, &o->ref, 0, &s->so[k]);
        }
        if (rc) return rc;
    }
    return RBD_OK;
}

static int states_make(const rbd_model *m, const audit_opts *o, const audit_sink *sink,
                       volatile sig_atomic_t *stop, state_set *s, int *cache_failed)
{
    memset(s, 0, sizeof *s);
    size_t S = (size_t)o->states, nq = (size_t)m->nq, nv = (size_t)m->nv;
    s->S = o->states;
    s->nq = m->nq;
    s->nv = m->nv;
    s->q = malloc(sizeof(double) * S * nq);
    s->v = malloc(sizeof(double) * S * nv);
    s->a = malloc(sizeof(double) * S * nv);
    s->tau = malloc(sizeof(double) * S * nv);
    s->ref = calloc(S, sizeof *s->ref);
    if (!s->q || !s->v || !s->a || !s->tau || !s->ref) return rbd_fail(RBD_ENOMEM, "out of memory");
    rbd_rng r;
    rbd_rng_seed(&r, o->seed);
    for (size_t k = 0; k < S; k++)
        rbd_random_state(m, &r, s->q + k * nq, s->v + k * nv, s->a + k * nv, s->tau + k * nv);
    for (size_t k = 0; k < S; k++) {
        if (stop && *stop) return 1;
        int rc = rbdref_result_init(&s->ref[k], m->nv);
        if (rc) return rc;
        int hit = 0;
        if (sink && sink->on_ref) sink->on_ref(sink->ctx, (int)k, o->states, -1);
        if (o->cache) {
            rc = rbdref_eval_cached(o->cache, m, s->q + k * nq, s->v + k * nv, s->a + k * nv, s->tau + k * nv,
                                    &o->ref, &s->ref[k], &hit);
            if (rc == RBD_EIO && s->ref[k].has_id) {
                if (cache_failed) *cache_failed = 1;
                rc = RBD_OK;
            }
        } else {
            rc = rbdref_eval(m, s->q + k * nq, s->v + k * nv, s->a + k * nv, s->tau + k * nv, &o->ref, &s->ref[k]);
        }
        if (rc) return rc;
        if (sink && sink->on_ref) sink->on_ref(sink->ctx, (int)k, o->states, hit);
    }
    return RBD_OK;
}

/* Every output of one target over every state; rows to the sink. */
static int audit_target(const bench_target *t, const rbd_model *m, const char *spec, double bf, const state_set *s,
                        const audit_sink *sink, volatile sig_atomic_t *stop)
{
    const char *const *outs = audit_outputs(t);
    int nout = 0;
    while (outs[nout]) nout++;
    rbd_accuracy worst[8];
    target_ws w;
    int rc = target_init(t, m, &w);
    size_t nv = (size_t)m->nv, nq = (size_t)m->nq;
    for (int k = 0; k < s->S && !rc; k++) {
        if (stop && *stop) { rc = 1; break; }
        rc = target_eval(t, m, &w, s->q + k * nq, s->v + k * nv, s->a + k * nv, s->tau + k * nv);
        if (rc) {
            rc = rbd_fail(rc, "%s on %s, state %d: %s", t->name, spec, k, rbd_last_error());
            break;
        }
        for (int j = 0; j < nout && !rc; j++) {
            int rows, cols;
            size_t n = 0;
            const double *R = rbdref_result_get(&s->ref[k], outs[j], &rows, &cols);
            if (R) n = (size_t)rows * (size_t)cols;
            else if (s->so) R = rbdref_so_result_get(&s->so[k], outs[j], &n);
            if (!R) { rc = rbd_fail(RBD_EINVAL, "reference has no output '%s'", outs[j]); break; }
            rbd_accuracy a;
            rc = rbd_accuracy_eval(target_output(t, &w, outs[j]), R, n, &a);
            if (!rc) audit_worst(&worst[j], &a, k == 0);
        }
    }
    target_fini(t, &w);
    for (int j = 0; j < nout && !rc; j++) rc = audit_emit(sink, t->name, outs[j], m, spec, bf, s->S, &worst[j]);
    return rc;
}

/* conditioning.csv's row of the model from the references' M. */
static int emit_cond(const rbd_model *m, const char *spec, double bf, const state_set *s, const audit_sink *sink)
{
    if (!sink->emit_cond || (sink->have_cond && sink->have_cond(sink->ctx))) return RBD_OK;
    cond_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.model, sizeof r.model, "%s", spec);
    r.bf = bf;
    r.N = m->nb;
    r.nv = m->nv;
    r.states = s->S;
    r.cond_M = 0;
    r.cond_M_min = INFINITY;
    for (int k = 0; k < s->S; k++) {
        int rows, cols;
        const double *M = rbdref_result_get(&s->ref[k], "M", &rows, &cols);
        if (!M) return rbd_fail(RBD_EINVAL, "reference has no output 'M'");
        double c = audit_cond_spd(M, m->nv);
        if (isnan(c)) return rbd_fail(RBD_ENOMEM, "%s: the eigenvalues of M (LAPACK dsyev) failed", spec);
        r.cond_M = fmax(r.cond_M, c);
        r.cond_M_min = fmin(r.cond_M_min, c);
    }
    return sink->emit_cond(sink->ctx, &r);
}

static int target_missing(const bench_target *t, const audit_sink *sink)
{
    if (t->peer) return audit_peer_missing(t, sink);
    if (!sink->have) return 1;
    for (const char *const *o = audit_outputs(t); *o; o++)
        if (!sink->have(sink->ctx, t->name, *o)) return 1;
    return 0;
}

int audit_model(const rbd_model *m, const char *spec, double bf, const bench_target *tg, int ntg,
                const audit_opts *o, const audit_sink *sink, volatile sig_atomic_t *stop, int *cache_failed)
{
    if (o->states < 1) return rbd_fail(RBD_EINVAL, "accuracy audit: %d states (need >= 1)", o->states);
    int todo = 0;
    for (int i = 0; i < ntg; i++)
        if (!(tg[i].method && rbd_method_supports(tg[i].method, m)) && *audit_outputs(&tg[i]) &&
            target_missing(&tg[i], sink))
            todo++;
    int cond_todo = sink->emit_cond && !(sink->have_cond && sink->have_cond(sink->ctx));
    if (!todo && !cond_todo) return RBD_OK;
    state_set s;
    int rc = states_make(m, o, sink, stop, &s, cache_failed), need_so = 0;
    for (int i = 0; i < ntg; i++)
        need_so |= bench_target_is_so(&tg[i]) && (tg[i].peer || !rbd_method_supports(tg[i].method, m)) &&
                   target_missing(&tg[i], sink);
    if (!rc && need_so) rc = states_make_so(m, o, stop, &s, cache_failed);
    if (!rc && cond_todo) rc = emit_cond(m, spec, bf, &s, sink);
    for (int i = 0; i < ntg && !rc; i++) {
        if (stop && *stop) { rc = 1; break; }
        if (tg[i].peer || (tg[i].method && rbd_method_supports(tg[i].method, m))) continue;
        if (!*audit_outputs(&tg[i]) || !target_missing(&tg[i], sink)) continue;
        rc = audit_target(&tg[i], m, spec, bf, &s, sink, stop);
    }
    if (!rc) rc = audit_peers(m, spec, bf, tg, ntg, &s, o->seed, sink, stop);
    states_free(&s);
    return rc;
}
