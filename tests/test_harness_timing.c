/* The timing methodology on dummy timeables and dummy method descriptors
 * (the registry is not needed): batches cycle through the state pool,
 * statistics are consistent, errors and interrupts end a measurement, and
 * a method's init/eval/fini life cycle is respected.  No speed asserts. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "measure/bench.h"
#include "report/report_ratios.h"
#include "measure/timing.h"

typedef struct {
    long calls;
    int seen[64];
    int fail_at;        /* call number that fails (0: never) */
    volatile sig_atomic_t *stop_flag;
    long stop_at;
    volatile double sink;
} dummy;

static int dummy_call(void *p, int k)
{
    dummy *d = p;
    d->calls++;
    d->seen[k]++;
    for (int i = 0; i < 200; i++) d->sink += i * 1e-9;   /* a little work */
    if (d->stop_flag && d->calls == d->stop_at) *d->stop_flag = 1;
    return d->fail_at && d->calls == d->fail_at ? RBD_ESINGULAR : 0;
}

static rbd_timeable dummy_timeable(dummy *d, int pool)
{
    rbd_timeable t = { "dummy", "base", 1, pool, d, dummy_call, NULL, NULL };
    return t;
}

static timing_opts quick(void)
{
    timing_opts o;
    timing_opts_default(&o);
    o.warmup_ns = 1e5;
    o.batch_ns = 2e5;
    o.batches = 5;
    return o;
}

static void test_batches_and_stats(void **s)
{
    (void)s;
    dummy d;
    memset(&d, 0, sizeof d);
    rbd_timeable t = dummy_timeable(&d, 7);
    timing_opts o = quick();
    timing_result r;
    assert_int_equal(timing_measure(&t, &o, &r), 0);
    assert_int_equal(r.batches, 5);
    assert_true(r.calls_per_batch >= 1);
    assert_true(d.calls >= 5 * r.calls_per_batch);   /* plus warm-up and calibration */
    /* cycling: the first calls visit states 0, 1, 2, ... (on a slow machine,
     * e.g. under valgrind, there may be fewer calls than states) */
    for (int k = 0; k < 7 && k < d.calls; k++) assert_true(d.seen[k] > 0);
    for (int k = 7; k < 64; k++) assert_int_equal(d.seen[k], 0);   /* never outside the pool */
    assert_true(r.ns.min > 0);
    assert_true(r.ns.min <= r.ns.q1 && r.ns.q1 <= r.ns.median && r.ns.median <= r.ns.q3 && r.ns.q3 <= r.ns.max);
    assert_int_equal(r.ns.n, 5);
    assert_true(isnan(r.instructions));   /* no counters asked for */
}

static void test_error_and_stop(void **s)
{
    (void)s;
    dummy d;
    memset(&d, 0, sizeof d);
    d.fail_at = 3;
    rbd_timeable t = dummy_timeable(&d, 4);
    timing_opts o = quick();
    timing_result r;
    assert_int_equal(timing_measure(&t, &o, &r), RBD_ESINGULAR);
    assert_int_equal(d.calls, 3);

    volatile sig_atomic_t stop = 0;
    memset(&d, 0, sizeof d);
    d.stop_flag = &stop;
    d.stop_at = 10;
    o.stop = &stop;
    assert_int_equal(timing_measure(&t, &o, &r), 1);
    o.batches = 0;
    assert_int_equal(timing_measure(&t, &o, &r), RBD_EINVAL);
}

/* ---- several timeables measured together, in rounds ---- */

static int trace[256], ntrace, last_id = -1;

static int traced_call(void *p, int k)
{
    (void)k;
    int id = *(int *)p;
    if (id != last_id && ntrace < 256) trace[ntrace++] = id;
    last_id = id;
    return 0;
}

static void test_rounds(void **s)
{
    (void)s;
    int ids[3] = { 0, 1, 2 };
    rbd_timeable t[3];
    for (int i = 0; i < 3; i++) {
        rbd_timeable x = { "traced", "base", 1, 4, &ids[i], traced_call, NULL, NULL };
        t[i] = x;
    }
    timing_opts o = quick();
    timing_result r[3];
    ntrace = 0;
    last_id = -1;
    assert_int_equal(timing_measure_set(t, 3, &o, r), 0);
    /* each calibrated in turn, then round b = targets b, b+1, b+2 (mod 3) */
    assert_int_equal(ntrace, 3 + 3 * o.batches);
    for (int i = 0; i < 3; i++) assert_int_equal(trace[i], i);
    for (int b = 0; b < o.batches; b++)
        for (int j = 0; j < 3; j++) assert_int_equal(trace[3 + 3 * b + j], (b + j) % 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r[i].batches, o.batches);
        assert_int_equal(r[i].nsamples, o.batches);
        assert_true(r[i].ns.min > 0);
    }
    assert_int_equal(timing_measure_set(t, 0, &o, r), RBD_EINVAL);
}

static void test_paired_ratio(void **s)
{
    (void)s;
    timing_row a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    double ra[5] = { 2, 2, 2, 1, 4 }, rb[5] = { 1, 1, 1, 2, 1 };
    a.nsamples = 5;
    b.nsamples = 4;   /* compared over the rounds both have */
    memcpy(a.samples, ra, sizeof ra);
    memcpy(b.samples, rb, sizeof rb);
    double q;
    int w;
    assert_int_equal(report_paired(&a, &b, &q, &w), 4);
    assert_true(q == 2);         /* per-round 2, 2, 2, 0.5: median 2 (the medians' ratio would be 1) */
    assert_int_equal(w, 3);      /* b faster in rounds 0-2 */
    b.nsamples = 0;
    assert_int_equal(report_paired(&a, &b, &q, &w), 0);
}

/* ---- a dummy derivative method, as the real ones plug in ---- */

static int n_init, n_eval, n_fini;

typedef struct { int nv; double *scratch; } dws;

static int dm_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    (void)o;
    dws *w = malloc(sizeof *w);
    if (!w) return RBD_ENOMEM;
    w->nv = m->nv;
    w->scratch = calloc((size_t)m->nv, sizeof(double));
    *ws = w;
    n_init++;
    return 0;
}

static int dm_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    dws *w = p;
    if (!x->q || !x->v || !x->a || !out->tau || !out->dtau_dq || !out->dtau_dv) return RBD_EINVAL;
    /* touch every output entry, as a real method does */
    for (int i = 0; i < w->nv; i++) out->tau[i] = x->a[i];
    for (int i = 0; i < w->nv * w->nv; i++) out->dtau_dq[i] = out->dtau_dv[i] = x->q[i % w->nv];
    n_eval++;
    return 0;
}

static void dm_fini(void *p)
{
    dws *w = p;
    free(w->scratch);
    free(w);
    n_fini++;
}

static const rbd_method dummy_id = { "dummy-id", "test method", RBD_ID_DERIVS, RBD_JOINTS_1DOF, dm_init, dm_eval, dm_fini };
static const rbd_method prismatic_only = { "prism", "test method", RBD_ID_DERIVS, 1u << RBD_JOINT_PRISMATIC, dm_init,
                                           dm_eval, dm_fini };

static void test_method_life_cycle(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=5,bf=2");
    rbd_timeable t;
    n_init = n_eval = n_fini = 0;
    assert_int_equal(timeable_method(&dummy_id, m, NULL, 3, 42, &t), 0);
    assert_string_equal(t.kind, "ID");
    assert_int_equal(n_init, 1);
    timing_opts o = quick();
    timing_result r;
    assert_int_equal(timing_measure(&t, &o, &r), 0);
    assert_true(n_eval >= 5);
    timeable_free(&t);
    assert_int_equal(n_fini, 1);
    /* a model with joints the method does not support: refused before init */
    n_init = 0;
    assert_int_equal(timeable_method(&prismatic_only, m, NULL, 3, 42, &t), RBD_ENOTSUP);
    assert_int_equal(n_init, 0);
    assert_non_null(strstr(rbd_last_error(), "does not support the revolute joint"));
    rbd_model_free(m);
}

static void test_base_rnea_row(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=4,bf=1");
    sweep_config c;
    sweep_config_init(&c);
    c.batches = 3;
    c.batch_ms = 0.2;
    c.warmup_ms = 0.1;
    bench_target *tg;
    int n;
    assert_int_equal(bench_targets(&c, &tg, &n), 0);
    int nbase = 0;
    while (rbd_base_algos[nbase].name) nbase++;
    assert_int_equal(n, rbd_method_count() + nbase + 1);  /* every method, the base algorithms, dgemm */
    assert_string_equal(tg[n - 1].name, "dgemm");
    assert_string_equal(tg[n - 1].kind, "roof");
    int k = rbd_method_count();                       /* the first base algorithm is rnea */
    assert_string_equal(tg[k].name, "rnea");
    bench_model bm = { "autotree:N=4,bf=1,skew=0,taper=1", 1, 4 };
    timing_row row;
    assert_int_equal(bench_measure(&tg[k], m, &bm, &c, NULL, NULL, &row), 0);
    assert_string_equal(row.method, "rnea");
    assert_string_equal(row.kind, "base");
    assert_int_equal(row.N, 4);
    assert_int_equal(row.batches, 3);
    assert_true(row.min_ns <= row.median_ns && row.iqr_ns >= 0);
    free(tg);
    sweep_config_free(&c);
    rbd_model_free(m);
}

/* Two dummy methods whose work grows as N^2 and as 40 N: crossover_run
 * must finish with a consistent result (which N it finds is timing, and
 * is not asserted). */
static volatile double spin_sink;

static int spin_eval_quadratic(void *p, const rbd_state *x, rbd_derivs *out)
{
    (void)x; (void)out;
    dws *w = p;
    for (long i = 0; i < (long)w->nv * w->nv; i++) spin_sink += 1e-9 * (double)i;
    return 0;
}

static int spin_eval_linear(void *p, const rbd_state *x, rbd_derivs *out)
{
    (void)x; (void)out;
    dws *w = p;
    for (long i = 0; i < 40L * w->nv; i++) spin_sink += 1e-9 * (double)i;
    return 0;
}

static const rbd_method quad = { "quad", "test", RBD_ID_DERIVS, RBD_JOINTS_1DOF, dm_init, spin_eval_quadratic, dm_fini };
static const rbd_method lin = { "lin", "test", RBD_ID_DERIVS, RBD_JOINTS_1DOF, dm_init, spin_eval_linear, dm_fini };

static void test_crossover_run(void **s)
{
    (void)s;
    sweep_config c;
    sweep_config_init(&c);
    c.pool = 2;
    c.batch_ms = 0.4;
    c.warmup_ms = 0.1;
    xo_opts o;
    xo_opts_default(&o);
    o.lo = 2;
    o.hi = 200;
    o.max_reps = 15;
    xo_result r;
    xo_probes pr;
    n_init = n_fini = 0;
    assert_int_equal(crossover_run(&lin, &quad, 1, &c, &o, NULL, &r, &pr), 0);
    assert_int_equal(n_init, n_fini);             /* every workspace released */
    assert_true(r.probes >= 1 && r.reps >= r.probes * o.min_reps);
    assert_true(r.lo >= o.lo && r.hi <= o.hi && r.lo <= r.hi);
    assert_true(r.confidence >= 0 && r.confidence <= 1);
    if (r.status == XO_FOUND) assert_true(r.n_cross == r.hi && r.hi == r.lo + 1);
    /* one summary per probe, the first at the range top, its pairs counted in reps */
    assert_int_equal(pr.n, r.probes);
    assert_int_equal(pr.p[0].N, o.hi);
    int pairs = 0;
    for (int k = 0; k < pr.n; k++) {
        pairs += pr.p[k].pairs;
        assert_true(pr.p[k].q1 <= pr.p[k].ratio && pr.p[k].ratio <= pr.p[k].q3);
        assert_true(pr.p[k].a_faster >= 0 && pr.p[k].a_faster <= pr.p[k].pairs);
    }
    assert_int_equal(pairs, r.reps);
    /* at the top, quad (B) costs ~N times lin (A): the ratio t_B / t_A is far above 1 */
    assert_true(pr.p[0].ratio > 2 && pr.p[0].a_faster == pr.p[0].pairs);
    crossover_row row;
    crossover_row_make("lin", "quad", 1, &o, &r, &row);
    assert_string_equal(row.range, "2:200");
    assert_true(strlen(row.status) > 0);
    /* an interrupt ends the search */
    volatile sig_atomic_t stop = 1;
    assert_int_equal(crossover_run(&lin, &quad, 1, &c, &o, &stop, &r, NULL), 1);
    sweep_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batches_and_stats),
        cmocka_unit_test(test_error_and_stop),
        cmocka_unit_test(test_rounds),
        cmocka_unit_test(test_paired_ratio),
        cmocka_unit_test(test_method_life_cycle),
        cmocka_unit_test(test_base_rnea_row),
        cmocka_unit_test(test_crossover_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
