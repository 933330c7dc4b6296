/* Crossover bisection with synthetic cost functions (no clock): exact
 * crossovers, noisy ones, ties that cannot be resolved, no crossover. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "testutil.h"
#include "measure/crossover.h"

typedef struct {
    double a0, a1, b0, b1;  /* t_A = a0 + a1 N, t_B = b0 + b1 N^2 */
    double noise;           /* relative, uniform in [-noise, noise] */
    rbd_rng rng;
    int calls;
    int fail_at;            /* a call number that returns an error (0: none) */
} cost;

static double measure(void *p, int which, int N)
{
    cost *c = p;
    if (++c->calls == c->fail_at) return RBD_EIO;
    double t = which == 0 ? c->a0 + c->a1 * N : c->b0 + c->b1 * (double)N * N;
    return t * (1 + c->noise * rbd_rng_uniform(&c->rng));
}

/* A: 100 + 10 N; B: 20 + 0.5 N^2 -> B faster while 0.5N^2 - 10N - 80 < 0,
 * i.e. N < 26.1: crossover 27 (A 370 vs B 384.5; at 26, 360 vs 358) */
static cost quadratic(double noise)
{
    cost c = { 100, 10, 20, 0.5, noise, { { 0 } }, 0, 0 };
    rbd_rng_seed(&c.rng, 7);
    return c;
}

static void test_exact_crossover(void **s)
{
    (void)s;
    cost c = quadratic(0);
    xo_opts o;
    xo_opts_default(&o);
    o.lo = 1;
    o.hi = 500;
    xo_result r;
    assert_int_equal(xo_bisect(measure, &c, &o, &r), 0);
    assert_int_equal(r.status, XO_FOUND);
    assert_int_equal(r.n_cross, 27);
    assert_int_equal(r.lo, 26);
    assert_int_equal(r.hi, 27);
    /* 2 end probes + ceil(log2(499)) bisection probes, each min_reps pairs */
    assert_true(r.probes >= 9 && r.probes <= 11);
    assert_int_equal(r.reps, r.probes * o.min_reps);
    assert_true(r.confidence > 0.9 && r.confidence <= 1);
}

static void test_noisy_crossover(void **s)
{
    (void)s;
    /* 5% noise: probes far from 27 decide after min_reps pairs, near it they
     * need more; at N = 26 (0.6% apart) no number of pairs may suffice, and
     * then the search must say so rather than guess. */
    for (uint64_t seed = 1; seed <= 20; seed++) {
        cost c = quadratic(0.05);
        rbd_rng_seed(&c.rng, seed);
        xo_opts o;
        xo_opts_default(&o);
        o.lo = 2;
        o.hi = 300;
        o.max_reps = 201;
        xo_result r;
        assert_int_equal(xo_bisect(measure, &c, &o, &r), 0);
        assert_true(r.reps > r.probes * o.min_reps);   /* extra repetitions were needed */
        if (r.status == XO_FOUND) {
            assert_int_equal(r.n_cross, 27);           /* a decision is never a wrong one here */
        } else {
            assert_int_equal(r.status, XO_UNRESOLVED);
            assert_true(r.n_cross >= 24 && r.n_cross <= 29);   /* the undecidable probe is near 27 */
            assert_true(r.lo < 27 && 27 <= r.hi);              /* the bracket still holds it */
        }
    }
}

static void test_unresolved_tie(void **s)
{
    (void)s;
    /* Same cost up to noise: every probe is a coin flip */
    cost c = { 100, 1, 100, 0, 0.2, { { 0 } }, 0, 0 };
    rbd_rng_seed(&c.rng, 3);
    c.b0 = 100;
    c.b1 = 0;
    c.a1 = 0;
    xo_opts o;
    xo_opts_default(&o);
    o.lo = 1;
    o.hi = 64;
    o.max_reps = 15;
    xo_result r;
    assert_int_equal(xo_bisect(measure, &c, &o, &r), 0);
    assert_int_equal(r.status, XO_UNRESOLVED);
    assert_string_equal(xo_status_name(r.status), "unresolved");
}

static void test_no_crossover_and_at_lo(void **s)
{
    (void)s;
    xo_opts o;
    xo_opts_default(&o);
    o.lo = 1;
    o.hi = 20;             /* crossover 26 lies beyond hi */
    cost c = quadratic(0);
    xo_result r;
    assert_int_equal(xo_bisect(measure, &c, &o, &r), 0);
    assert_int_equal(r.status, XO_NONE);
    assert_int_equal(r.probes, 1);
    o.lo = 30;
    o.hi = 100;            /* A already faster at lo */
    assert_int_equal(xo_bisect(measure, &c, &o, &r), 0);
    assert_int_equal(r.status, XO_AT_LO);
    assert_int_equal(r.n_cross, 30);
}

static void test_errors(void **s)
{
    (void)s;
    xo_opts o;
    xo_opts_default(&o);
    xo_result r;
    cost c = quadratic(0);
    o.lo = 10;
    o.hi = 10;
    assert_int_equal(xo_bisect(measure, &c, &o, &r), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "1 <= lo < hi"));
    xo_opts_default(&o);
    c.fail_at = 20;        /* a measurement fails mid-search: the error comes back */
    assert_int_equal(xo_bisect(measure, &c, &o, &r), RBD_EIO);
}

static void test_sign_tail(void **s)
{
    (void)s;
    assert_true(fabs(xo_sign_tail(7, 7) - 1.0 / 128) < 1e-15);
    assert_true(fabs(xo_sign_tail(0, 7) - 1) < 1e-15);
    assert_true(fabs(xo_sign_tail(4, 6) - 22.0 / 64) < 1e-14);   /* C(6,4)+C(6,5)+C(6,6) = 22 */
    assert_true(xo_sign_tail(8, 7) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_crossover),
        cmocka_unit_test(test_noisy_crossover),
        cmocka_unit_test(test_unresolved_tie),
        cmocka_unit_test(test_no_crossover_and_at_lo),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_sign_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
