/*
 * The fast `idsva` (idsva.c: two plans for lines 17-20, pair records,
 * blocked chain products, compact inertias) against `idsva-ref`
 * (idsva_ref.c: Algorithm 1 line by line with dense 6x6 matrices), which
 * the generic tests hold to the complex step (test_id_methods.c).
 *
 * The norm: for each output Y of tau, dtau_dq, dtau_dv,
 *   max_ij |Y_idsva - Y_ref| / max_ij |Y_ref|  <=  1e-12,
 * normwise relative in the max norm.  Entry by entry the two differ more
 * where an entry cancels (the tests' tapered trees have entries 1e-8 of
 * the largest), and that is rounding in either, not a wrong term: a wrong
 * term moves the normwise figure to 1e-3 or more.
 *
 * Models: the autoTree variants of test_id_methods.c (bf = 1, 2, 5; N = 1
 * .. 60, planar and skewed/tapered, so both of idsva's plans), the
 * multi-dof tree and chain of testutil.c, and every URDF of tests/models
 * welded and on a free-flyer; 3 random states each.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/method.h"

enum { NSTATES = 3 };
static const double TOL = 1e-12;

static double normwise(const double *X, const double *R, size_t n)
{
    double e = 0, mx = 0;
    for (size_t k = 0; k < n; k++) {
        e = fmax(e, fabs(X[k] - R[k]));
        mx = fmax(mx, fabs(R[k]));
        if (isnan(X[k]) || isnan(R[k])) return INFINITY;
    }
    return mx > 0 ? e / mx : e;
}

static void eval(const rbd_method *meth, const rbd_model *m, const rbd_state *x, double *tau, double *dq, double *dv)
{
    void *ws = NULL;
    const size_t nv = (size_t)m->nv;
    for (size_t k = 0; k < nv * nv; k++) dq[k] = dv[k] = NAN;      /* every entry must be written */
    for (size_t k = 0; k < nv; k++) tau[k] = NAN;
    rbd_derivs d = { .tau = tau, .dtau_dq = dq, .dtau_dv = dv };
    if (meth->init(m, NULL, &ws) || meth->eval(ws, x, &d))
        fail_msg("%s on %s: %s", meth->name, m->spec, rbd_last_error());
    meth->fini(ws);
}

/* idsva against idsva-ref on one model; returns the worst figure seen */
static double check_model(rbd_model *m, uint64_t seed)
{
    const rbd_method *fast = rbd_method_find("idsva"), *ref = rbd_method_find("idsva-ref");
    assert_non_null(fast);
    assert_non_null(ref);
    const size_t nv = (size_t)m->nv;
    double *q = malloc(sizeof(double) * (size_t)m->nq), *v = malloc(sizeof(double) * nv),
           *a = malloc(sizeof(double) * nv), *buf = malloc(sizeof(double) * 2 * (nv + 2 * nv * nv));
    assert_non_null(buf);
    double *y[2][3];
    for (int s = 0; s < 2; s++) {
        double *b = buf + s * (nv + 2 * nv * nv);
        y[s][0] = b; y[s][1] = b + nv; y[s][2] = b + nv + nv * nv;
    }
    const char *name[3] = { "tau", "dtau_dq", "dtau_dv" };
    const size_t len[3] = { nv, nv * nv, nv * nv };
    rbd_rng rng;
    rbd_rng_seed(&rng, seed);
    double worst = 0;
    for (int s = 0; s < NSTATES; s++) {
        rbd_random_state(m, &rng, q, v, a, NULL);
        const rbd_state x = { .q = q, .v = v, .a = a };
        eval(fast, m, &x, y[0][0], y[0][1], y[0][2]);
        eval(ref, m, &x, y[1][0], y[1][1], y[1][2]);
        for (int k = 0; k < 3; k++) {
            double e = normwise(y[0][k], y[1][k], len[k]);
            if (!(e <= TOL))
                fail_msg("idsva vs idsva-ref, %s on %s, state %d: %.3g > %.3g", name[k], m->spec, s, e, TOL);
            worst = fmax(worst, e);
        }
    }
    free(q); free(v); free(a); free(buf);
    return worst;
}

static void check_spec(const char *spec, uint64_t seed, double *worst)
{
    rbd_model *m = tu_model(spec);
    *worst = fmax(*worst, check_model(m, seed));
    rbd_model_free(m);
}

static void test_autotree(void **s)
{
    (void)s;
    const double bfs[] = { 1, 2, 5 };
    const int Ns[] = { 1, 2, 3, 7, 20, 33, 60 };
    char spec[160];
    uint64_t seed = 1;
    double worst = 0;
    for (size_t b = 0; b < 3; b++)
        for (size_t n = 0; n < sizeof Ns / sizeof *Ns; n++) {
            snprintf(spec, sizeof spec, "autotree:N=%d,bf=%g", Ns[n], bfs[b]);
            check_spec(spec, seed++, &worst);
            for (int t = 0; t < 2; t++) {
                snprintf(spec, sizeof spec, "autotree:N=%d,bf=%g,skew=1.0471975511965976,taper=%g", Ns[n], bfs[b],
                         t ? 0.9 : 0.97);
                check_spec(spec, seed++, &worst);
            }
        }
    check_spec("autotree:N=13,bf=1.5,skew=-0.4,taper=1.1", seed++, &worst);
    check_spec("autotree:N=13,bf=1,skew=0.3", seed++, &worst);
    check_spec("autotree:N=15,bf=1,skew=0.3,taper=0.95", seed++, &worst);
    printf("autoTree: worst normwise relative difference %.3g\n", worst);
}

static void test_multidof(void **s)
{
    (void)s;
    double worst = 0;
    rbd_model *m = tu_multidof_tree();
    worst = fmax(worst, check_model(m, 21));
    rbd_model_free(m);
    m = tu_multidof_chain();
    worst = fmax(worst, check_model(m, 22));
    rbd_model_free(m);
    printf("multi-dof: worst normwise relative difference %.3g\n", worst);
}

static void test_urdf(void **s)
{
    (void)s;
    const char *robots[] = { "atlas", "baxter", "double_pendulum", "hyq", "iiwa", "iiwa_grid",
                             "panda", "solo12", "talos", "ur3", "ur5" };
    char spec[512];
    double worst = 0;
    for (size_t r = 0; r < sizeof robots / sizeof *robots; r++)
        for (int ff = 0; ff < 2; ff++) {
            snprintf(spec, sizeof spec, "urdf:%s/tests/models/%s.urdf%s", RBD_SOURCE_DIR, robots[r],
                     ff ? ",freeflyer" : "");
            check_spec(spec, 100 + 2 * r + (size_t)ff, &worst);
        }
    printf("URDF: worst normwise relative difference %.3g\n", worst);
}

/* The check can fail: a wrong term in one entry breaks it. */
static void test_check_bites(void **s)
{
    (void)s;
    double X[4] = { 1, 2, 3, 4 }, R[4] = { 1, 2, 3, 4 };
    assert_true(normwise(X, R, 4) == 0);
    X[2] += 4 * 1e-12 * 1.01;
    assert_false(normwise(X, R, 4) <= TOL);
    X[2] = NAN;
    assert_false(normwise(X, R, 4) <= TOL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_bites),
        cmocka_unit_test(test_autotree),
        cmocka_unit_test(test_multidof),
        cmocka_unit_test(test_urdf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
