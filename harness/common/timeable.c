/* Timeables: derivative methods and base algorithms behind one callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"
#include "common/timeable.h"
#ifdef RBD_TEST_SLOW_METHOD
#include "common/clock.h"
#endif

/* ---------------------------------------------------------------- state pool */

void timeable_states(const rbd_model *m, int pool, uint64_t seed, double *q, double *v, double *a, double *tau)
{
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    for (int k = 0; k < pool; k++)
        rbd_random_state(m, &r, q + (size_t)k * m->nq, v + (size_t)k * m->nv, a + (size_t)k * m->nv,
                         tau + (size_t)k * m->nv);
}

#ifdef RBD_TEST_SLOW_METHOD
enum { SLOW_CAL = 257 };   /* calls whose median prices the test-only slow-down */
#endif

typedef struct {
    const rbd_model *m;
    int pool, nq, nv;
    double *q, *v, *a, *tau;     /* [pool * nq], [pool * nv] ... */
    double *out;                 /* nv*nv (base) or 7 nv x nv blocks (methods) */
    rbd_derivs d;
    const rbd_method *meth;
    void *ws;                    /* method workspace */
    const rbd_base_algo *algo;
    rbd_data *data;              /* base algorithm scratch */
#ifdef RBD_TEST_SLOW_METHOD
    int slow, slow_ncal;         /* slowed; calls timed so far (of SLOW_CAL) */
    long slow_spin;              /* chain steps added to each call */
    double slow_cal[SLOW_CAL];       /* those calls' ns */
#endif
} tctx;

static void ctx_free(void *p)
{
    tctx *c = p;
    if (!c) return;
    if (c->meth && c->ws) c->meth->fini(c->ws);
    rbd_data_free(c->data);
    free(c->q); free(c->v); free(c->a); free(c->tau); free(c->out);
    free(c);
}

static tctx *ctx_new(const rbd_model *m, int pool, uint64_t seed, size_t nout)
{
    if (pool < 1) { rbd_fail(RBD_EINVAL, "state pool of %d states: need at least 1", pool); return NULL; }
    {
        char what[96];
        snprintf(what, sizeof what, "a state pool and outputs for nv = %d", m->nv);
        if (rbd_check_memory(what, 8.0 * ((double)nout + 4.0 * pool * (m->nq + m->nv)))) return NULL;
    }
    tctx *c = calloc(1, sizeof *c);
    if (!c) { rbd_fail(RBD_ENOMEM, "out of memory"); return NULL; }
    c->m = m;
    c->pool = pool;
    c->nq = m->nq;
    c->nv = m->nv;
    size_t P = (size_t)pool;
    c->q = malloc(sizeof(double) * P * (size_t)m->nq);
    c->v = malloc(sizeof(double) * P * (size_t)m->nv);
    c->a = malloc(sizeof(double) * P * (size_t)m->nv);
    c->tau = malloc(sizeof(double) * P * (size_t)m->nv);
    c->out = calloc(nout, sizeof(double));
    if (!c->q || !c->v || !c->a || !c->tau || !c->out) {
        ctx_free(c);
        rbd_fail(RBD_ENOMEM, "out of memory for a pool of %d states (nv = %d)", pool, m->nv);
        return NULL;
    }
    timeable_states(m, pool, seed, c->q, c->v, c->a, c->tau);
    return c;
}

#ifdef RBD_TEST_SLOW_METHOD
/* The test-only slow-down (tests/CMakeLists.txt): each timed call of
 * RBD_TEST_SLOW_METHOD first runs a dependent chain of multiply-adds lasting
 * RBD_TEST_SLOW_PCT % of the method's own call.  The call is priced by the
 * median of its first SLOW_CAL calls (the harness's warm-up: the same CPU,
 * load and call path as the timed batches), a chain step once.  Register
 * arithmetic costs the same wherever it runs; extra calls of the method did
 * not (README.md, "Tracking a regression"). */
static volatile double slow_sink;
/* a value the compiler cannot fold, so rbdiff_test_ref (0 %) and
 * rbdiff_test_slow carry the same machine code and differ in this datum only:
 * with a constant 0 the slow path was compiled out, and the other methods'
 * code moved by enough to time differently */
static volatile int slow_pct1 = RBD_TEST_SLOW_PCT + 1;   /* + 1: never in .bss, so no datum moves */
#define slow_pct (slow_pct1 - 1)

static double slow_chain(long n)
{
    double x = slow_sink;
    for (long i = 0; i < n; i++) x = x * 0.9999999 + 1e-9;
    slow_sink = x;
    return x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double slow_step_ns(void)   /* median of 9 chains of 2^16 steps */
{
    double t[9];
    for (int r = 0; r < 9; r++) {
        double t0 = timing_now_ns();
        slow_chain(1L << 16);
        t[r] = (timing_now_ns() - t0) / (double)(1L << 16);
    }
    qsort(t, 9, sizeof *t, cmp_double);
    return t[4];
}

static double slow_clock_ns(void)  /* median cost of reading the clock, taken off each call's */
{
    double t[SLOW_CAL];
    for (int r = 0; r < SLOW_CAL; r++) {
        double t0 = timing_now_ns();
        t[r] = timing_now_ns() - t0;
    }
    qsort(t, SLOW_CAL, sizeof *t, cmp_double);
    return t[SLOW_CAL / 2];
}

static int slow_call(tctx *c, const rbd_state *x)
{
    if (c->slow_ncal == SLOW_CAL) {
        /* the state's address depends on the chain's end (x * 0 is 0 for
         * the finite x it keeps), so the processor cannot run the method's
         * work underneath the chain, as it did with a short one */
        size_t z = (size_t)(slow_chain(c->slow_spin) * 0.0);
        rbd_state y = { x->q + z, x->v + z, x->a + z, x->tau + z };
        return c->meth->eval(c->ws, &y, &c->d);
    }
    double t0 = timing_now_ns();
    int rc = c->meth->eval(c->ws, x, &c->d);
    c->slow_cal[c->slow_ncal++] = timing_now_ns() - t0;
    if (c->slow_ncal == SLOW_CAL) {
        qsort(c->slow_cal, SLOW_CAL, sizeof *c->slow_cal, cmp_double);
        double call_ns = c->slow_cal[SLOW_CAL / 2] - slow_clock_ns();
        c->slow_spin = (long)(slow_pct / 100.0 * call_ns / slow_step_ns() + 0.5);
    }
    return rc;
}
#endif

/* the pool's k-th state */
static inline rbd_state pool_state(const tctx *c, int k)
{
    rbd_state x = { c->q + (size_t)k * c->nq, c->v + (size_t)k * c->nv, c->a + (size_t)k * c->nv,
                    c->tau + (size_t)k * c->nv };
    return x;
}

static int call_method(void *p, int k)
{
    tctx *c = p;
    rbd_state x = pool_state(c, k);
#ifdef RBD_TEST_SLOW_METHOD
    if (c->slow) return slow_call(c, &x);
#endif
    return c->meth->eval(c->ws, &x, &c->d);
}

static int check_method(void *p, int k)
{
    tctx *c = p;
    rbd_state x = pool_state(c, k);
    return rbd_method_eval(c->meth, c->ws, c->m, &x, &c->d);
}

static int check_base(void *p, int k)
{
    tctx *c = p;
    rbd_state x = pool_state(c, k);
    return rbd_base_eval(c->algo, c->m, c->data, x.q, x.v, x.a, x.tau, c->out);
}

static int call_base(void *p, int k)
{
    tctx *c = p;
    rbd_state x = pool_state(c, k);
    return c->algo->run(c->m, c->data, x.q, x.v, x.a, x.tau, c->out);
}

/* t describes the context c: what it times, its call and its check */
static void timeable_set(rbd_timeable *t, const char *name, const char *kind, tctx *c, int (*call)(void *, int),
                         int (*check)(void *, int))
{
    t->name = name;
    t->kind = kind;
    t->nv = c->nv;
    t->pool = c->pool;
    t->ctx = c;
    t->call = call;
    t->check = check;
    t->fini = ctx_free;
}

int timeable_method(const rbd_method *meth, const rbd_model *m, const rbd_options *opt, int pool, uint64_t seed,
                    rbd_timeable *t)
{
    memset(t, 0, sizeof *t);
    int rc = rbd_method_supports(meth, m);
    if (rc) return rc;
    size_t nv = (size_t)m->nv, nn = nv * nv, n3 = rbd_output_order(meth->output) == 2 ? nn * nv : 0;
    if (n3 && (rc = rbd_so_check_size(m, meth->name, NULL))) return rc;
    tctx *c = ctx_new(m, pool, seed, 4 * nv + 4 * nn + 4 * n3);
    if (!c) return RBD_ENOMEM;
    /* the second-order tensors after the first-order blocks; ID and FD share them */
    double *ten = n3 ? c->out + 4 * nv + 4 * nn : NULL;
    c->d.d2tau_dq2 = c->d.d2qdd_dq2 = ten;
    c->d.d2tau_dv2 = c->d.d2qdd_dv2 = n3 ? ten + n3 : NULL;
    c->d.d2tau_dqdv = c->d.d2qdd_dqdv = n3 ? ten + 2 * n3 : NULL;
    c->d.dM_dq = c->d.d2qdd_dqdtau = n3 ? ten + 3 * n3 : NULL;
    /* Every output slot gets a buffer, so a method may fill any of them. */
    c->d.tau = c->out;
    c->d.qdd = c->out + nv;
    c->d.dtau_dq = c->out + 4 * nv;
    c->d.dtau_dv = c->d.dtau_dq + nn;
    c->d.dqdd_dq = c->d.dtau_dq;
    c->d.dqdd_dv = c->d.dtau_dv;
    c->d.dqdd_dtau = c->d.dtau_dv + nn;
    c->meth = meth;
    rbd_options o;
    if (opt) o = *opt; else rbd_options_default(&o);
    if ((rc = meth->init(m, &o, &c->ws))) {
        c->ws = NULL;
        ctx_free(c);
        return rc;
    }
#ifdef RBD_TEST_SLOW_METHOD
    c->slow = !strcmp(meth->name, RBD_TEST_SLOW_METHOD) && slow_pct > 0;
#endif
    timeable_set(t, meth->name, rbd_output_name(meth->output), c, call_method, check_method);
    return RBD_OK;
}

int timeable_base(const rbd_base_algo *algo, const rbd_model *m, int pool, uint64_t seed, rbd_timeable *t)
{
    memset(t, 0, sizeof *t);
    tctx *c = ctx_new(m, pool, seed, (size_t)m->nv * (size_t)m->nv + 1);
    if (!c) return RBD_ENOMEM;
    c->algo = algo;
    if (!(c->data = rbd_data_new(m))) { ctx_free(c); return RBD_ENOMEM; }
    timeable_set(t, algo->name, "base", c, call_base, check_base);
    return RBD_OK;
}

void timeable_free(rbd_timeable *t)
{
    if (t && t->fini) t->fini(t->ctx);
    if (t) memset(t, 0, sizeof *t);
}
