/*
 * Self-checks of the second-order MPFR reference (reference/ref_so.c):
 * independence of the difference step and of the precision, the symmetries
 * the tensors must have, the link between its ID half (RNEA) and its FD half
 * (ABA), dM^-1/dq_k = -M^-1 (dM/dq_k) M^-1, the slabs that are
 * first-order derivatives at another state (the reference's own first-order
 * path, no difference taken), and agreement with central differences of
 * the double methods (id2-fd, fd2-fd) within their bound; and the API's
 * contract: the same bits for any thread count, each half alone the full
 * evaluation's half, refusals (a result too large for memory, before it is
 * allocated, with the size; options out of range; a result for another nv).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/check.h"
#include "rbdiff/method.h"
#include "rbdref_so.h"

static const char *const tensors[8] = { "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq",
                                        "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv", "d2qdd_dqdtau" };

typedef struct { double *q, *v, *a, *tau; } state;

static state random_state(const rbd_model *m, uint64_t seed)
{
    state s = { malloc(sizeof(double) * m->nq), malloc(sizeof(double) * m->nv), malloc(sizeof(double) * m->nv),
                malloc(sizeof(double) * m->nv) };
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    rbd_random_state(m, &r, s.q, s.v, s.a, s.tau);
    return s;
}

static void state_free(state *s) { free(s->q); free(s->v); free(s->a); free(s->tau); }

static void ref(const rbd_model *m, const state *s, int prec, long d_log2, rbdref_so_result *r)
{
    rbdref_opts o;
    rbdref_opts_default(&o);
    o.prec = prec;
    assert_int_equal(rbdref_so_result_init(r, m->nv), 0);
    if (rbdref_so_eval(m, s->q, s->v, s->a, s->tau, &o, d_log2, r)) fail_msg("reference: %s", rbd_last_error());
}

/* Two evaluations agree in every entry to a few units of double rounding. */
static void assert_same(const char *what, const rbdref_so_result *x, const rbdref_so_result *y)
{
    for (int t = 0; t < 8; t++) {
        size_t n;
        const double *X = rbdref_so_result_get(x, tensors[t], &n), *Y = rbdref_so_result_get(y, tensors[t], NULL);
        assert_non_null(X);
        double mx = 0;
        for (size_t e = 0; e < n; e++) mx = fmax(mx, fabs(Y[e]));
        for (size_t e = 0; e < n; e++)
            if (fabs(X[e] - Y[e]) > 4.5e-16 * fabs(Y[e]) + 1e-30 * mx)
                fail_msg("%s: %s[%zu] = %.17g vs %.17g", what, tensors[t], e, X[e], Y[e]);
    }
}

static void step_and_precision(void **st)
{
    (void)st;
    const char *specs[] = { "autotree:N=4,bf=2,skew=0.7,taper=0.9", NULL };
    for (int k = 0; k < 2; k++) {
        rbd_model *m = specs[k] ? tu_model(specs[k]) : tu_multidof_tree();
        state s = random_state(m, 5 + k);
        rbdref_so_result a, b, c;
        ref(m, &s, 256, 0, &a);
        ref(m, &s, 256, -70, &b);
        ref(m, &s, 320, 0, &c);
        assert_same("d = 2^-70 against 2^-85", &b, &a);
        assert_same("320 against 256 bits", &c, &a);
        rbdref_so_result_free(&a); rbdref_so_result_free(&b); rbdref_so_result_free(&c);
        state_free(&s);
        rbd_model_free(m);
    }
}

/* With 1-dof joints only, q is a vector space: d2/dq_j dq_k and d2/dv_j dv_k
 * commute, so d2tau_dq2, d2tau_dv2 and their FD twins are symmetric in (j, k).
 * The two entries come from different slabs, so from different evaluations. */
static void symmetry(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=6,bf=2,skew=0.5,taper=0.85");
    state s = random_state(m, 11);
    rbdref_so_result r;
    ref(m, &s, 256, 0, &r);
    const size_t nv = (size_t)m->nv;
    const int sym[4] = { 0, 1, 4, 5 };
    for (int t = 0; t < 4; t++) {
        const double *T = rbdref_so_result_get(&r, tensors[sym[t]], NULL);
        double mx = 0;
        for (size_t e = 0; e < nv * nv * nv; e++) mx = fmax(mx, fabs(T[e]));
        for (size_t i = 0; i < nv; i++)
            for (size_t j = 0; j < nv; j++)
                for (size_t k = 0; k < j; k++) {
                    double x = T[i + nv * (j + nv * k)], y = T[i + nv * (k + nv * j)];
                    if (fabs(x - y) > 4.5e-16 * fabs(y) + 1e-30 * mx)
                        fail_msg("%s(%zu,%zu,%zu) = %.17g, (%zu,%zu,%zu) = %.17g", tensors[sym[t]], i, j, k, x, i, k,
                                 j, y);
                }
    }
    rbdref_so_result_free(&r);
    state_free(&s);
    rbd_model_free(m);
}

/* The FD half (ABA) against the ID half (RNEA): d(M^-1)/dq_k = -M^-1 dM/dq_k M^-1
 * (d2qdd_dqdtau(i, k, j) = d/dq_k M^-1(i, j), method.h),
 * with M^-1 from the double analytic inverse (accurate to ~1e-14 here). */
static void minv_derivative(void **st)
{
    (void)st;
    for (int k = 0; k < 2; k++) {
        rbd_model *m = k ? tu_multidof_tree() : tu_model("autotree:N=5,bf=1,skew=0.6,taper=0.9");
        state s = random_state(m, 21);
        rbdref_so_result r;
        ref(m, &s, 256, 0, &r);
        const int n = m->nv;
        const size_t nn = (size_t)n * n;
        double *Mi = malloc(sizeof(double) * nn), *T = malloc(sizeof(double) * nn), *X = malloc(sizeof(double) * nn * n);
        rbd_data *d = rbd_data_new(m);
        assert_int_equal(rbd_minv_analytic(m, d, s.q, Mi), 0);
        for (int c = 0; c < n; c++) {
            const double *dM = r.dM_dq + nn * c;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double acc = 0;
                    for (int l = 0; l < n; l++) acc += dM[i + n * l] * Mi[l + n * j];
                    T[i + n * j] = acc;
                }
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++) {
                    double acc = 0;
                    for (int l = 0; l < n; l++) acc -= Mi[i + n * l] * T[l + n * j];
                    X[i + n * c + nn * j] = acc;        /* d2qdd_dqdtau(i, c, j): slab j along tau */
                }
        }
        tu_assert_close("-M^-1 dM/dq M^-1 against the reference's d2qdd_dqdtau", X, r.d2qdd_dqdtau, (size_t)n,
                        nn, 1e-11);
        free(Mi); free(T); free(X);
        rbd_data_free(d);
        rbdref_so_result_free(&r);
        state_free(&s);
        rbd_model_free(m);
    }
}

/* |X - R| within 2 ulp of R (both rounded once from 256 bits; 1e-30 of
 * the largest for entries that are zero in exact arithmetic) */
static void assert_ulps(const char *what, int k, const double *X, const double *R, size_t n)
{
    double mx = 0;
    for (size_t e = 0; e < n; e++) mx = fmax(mx, fabs(R[e]));
    for (size_t e = 0; e < n; e++)
        if (!(fabs(X[e] - R[e]) <= 4.5e-16 * fabs(R[e]) + 1e-30 * mx))
            fail_msg("%s, slab %d, entry %zu: %.17g, the second-order reference %.17g", what, k, e, X[e], R[e]);
}

/* Slabs that are first-order derivatives at another state, by the
 * first-order reference (rbdref_eval: complex step, no difference), against
 * the second-order reference's central differences of it: tau and qdd are
 * quadratic in v, so dtau/dv and dqdd/dv are linear in v and
 *   d2tau_dv2(:, :, k) = dtau/dv at (q, e_k, a),
 *   d2qdd_dv2(:, :, k) = dqdd/dv at (q, e_k, tau);
 * and qdd = M^-1 (tau - h(q, v)) gives, with v = 0 and gravity off,
 *   d2qdd_dqdtau(:, j, k) = dqdd/dq(:, j) at (q, 0, e_k)
 * (the identities fdsva-so-aza forms its slabs by, fdsva_so.c): the q slabs'
 * tangent-space step (q (+) +-d e_k, Lie-group joints on the multi-dof
 * tree) and the v slabs' checked entry by entry. */
static void first_order_slabs(void **st)
{
    (void)st;
    for (int c = 0; c < 2; c++) {
        rbd_model *m = c ? tu_multidof_tree() : tu_model("autotree:N=6,bf=2,skew=0.7,taper=0.9");
        state s = random_state(m, 41 + c);
        rbdref_so_result r;
        ref(m, &s, 256, 0, &r);
        const int n = m->nv;
        const size_t nn = (size_t)n * n;
        rbd_model g0 = *m;   /* without gravity */
        for (int i = 0; i < 6; i++) g0.a0[i] = 0;
        double *e = calloc((size_t)n, sizeof *e), *zero = calloc((size_t)n, sizeof *zero);
        double *X = malloc(sizeof(double) * nn);
        rbdref_result f;
        assert_int_equal(rbdref_result_init(&f, n), 0);
        for (int k = 0; k < n; k++) {
            e[k] = 1;
            if (rbdref_eval(m, s.q, e, s.a, s.tau, NULL, &f)) fail_msg("reference: %s", rbd_last_error());
            assert_ulps("d2tau_dv2 = dtau/dv at v = e_k", k, f.dtau_dv, r.d2tau_dv2 + nn * k, nn);
            assert_ulps("d2qdd_dv2 = dqdd/dv at v = e_k", k, f.dqdd_dv, r.d2qdd_dv2 + nn * k, nn);
            if (rbdref_eval(&g0, s.q, zero, NULL, e, NULL, &f)) fail_msg("reference: %s", rbd_last_error());
            for (int j = 0; j < n; j++)     /* d2qdd_dqdtau(i, j, k) = dqdd/dq(i, j) */
                for (int i = 0; i < n; i++) X[i + (size_t)n * j] = r.d2qdd_dqdtau[i + (size_t)n * j + nn * k];
            assert_ulps("d2qdd_dqdtau(:, :, k) = dqdd/dq at (q, 0, e_k), no gravity", k, f.dqdd_dq, X, nn);
            e[k] = 0;
        }
        rbdref_result_free(&f);
        free(e); free(zero); free(X);
        rbdref_so_result_free(&r);
        state_free(&s);
        rbd_model_free(m);
    }
}

/* Central differences of the double methods agree within their bound. */
static void against_fd(void **st)
{
    (void)st;
    const char *specs[] = { "autotree:N=7,bf=2,skew=0.4,taper=0.9", NULL };
    for (int k = 0; k < 2; k++) {
        rbd_model *m = specs[k] ? tu_model(specs[k]) : tu_multidof_tree();
        state s = random_state(m, 31 + k);
        rbdref_so_result r;
        ref(m, &s, 256, 0, &r);
        const size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
        double *buf = calloc(2 * nv + 8 * n3, sizeof *buf);
        rbd_derivs d = { .tau = buf, .qdd = buf + nv };
        double **p[8] = { &d.d2tau_dq2, &d.d2tau_dv2, &d.d2tau_dqdv, &d.dM_dq,
                          &d.d2qdd_dq2, &d.d2qdd_dv2, &d.d2qdd_dqdv, &d.d2qdd_dqdtau };
        for (int t = 0; t < 8; t++) *p[t] = buf + 2 * nv + t * n3;
        const char *meths[2] = { "id2-fd", "fd2-fd" };
        for (int h = 0; h < 2; h++) {
            const rbd_method *meth = rbd_method_find(meths[h]);
            assert_non_null(meth);
            void *ws = NULL;
            assert_int_equal(meth->init(m, NULL, &ws), 0);
            rbd_state x = { s.q, s.v, s.a, s.tau };
            if (rbd_method_eval(meth, ws, m, &x, &d)) fail_msg("%s: %s", meths[h], rbd_last_error());
            meth->fini(ws);
        }
        /* fd2-fd's bound as tests/so_score.c's: differences of fdsva lose
         * more (the multi-dof tree's d2qdd_dq2: 1.3e-6 built with
         * -DRBD_NATIVE=ON, whose FMA contractions round differently) */
        for (int t = 0; t < 8; t++) {
            double e = tu_rms_rel(*p[t], rbdref_so_result_get(&r, tensors[t], NULL), n3);
            if (!(e < (t < 4 ? 1e-6 : 1e-5))) fail_msg("model %d: %s rms_rel %.3g", k, tensors[t], e);
        }
        free(buf);
        rbdref_so_result_free(&r);
        state_free(&s);
        rbd_model_free(m);
    }
}

/* The same doubles for 1, 2 and 3 worker threads (slabs go to workers
 * round robin, each written by one), and for each half computed alone. */
static void threads_and_halves(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=5,bf=2,skew=0.6,taper=0.9");
    state s = random_state(m, 41);
    const size_t nv = (size_t)m->nv, n3 = nv * nv * nv, all = 2 * nv + 8 * n3;
    rbdref_opts o;
    rbdref_opts_default(&o);
    o.nthreads = 2;
    rbdref_so_result full, r;
    assert_int_equal(rbdref_so_result_init(&full, m->nv), 0);
    assert_int_equal(rbdref_so_eval(m, s.q, s.v, s.a, s.tau, &o, 0, &full), 0);
    assert_int_equal(rbdref_so_result_init(&r, m->nv), 0);
    for (int t = 1; t <= 3; t += 2) {
        o.nthreads = t;
        memset(r.tau, 0, sizeof(double) * all);
        assert_int_equal(rbdref_so_eval(m, s.q, s.v, s.a, s.tau, &o, 0, &r), 0);
        assert_memory_equal(r.tau, full.tau, sizeof(double) * all);
    }
    /* ID half alone: tau and the four ID tensors, no FD array answers */
    memset(r.tau, 0, sizeof(double) * all);
    assert_int_equal(rbdref_so_eval(m, s.q, s.v, s.a, NULL, &o, 0, &r), 0);
    assert_true(r.has_id && !r.has_fd);
    assert_null(rbdref_so_result_get(&r, "qdd", NULL));
    assert_null(rbdref_so_result_get(&r, "d2qdd_dqdtau", NULL));
    assert_memory_equal(r.tau, full.tau, sizeof(double) * nv);
    assert_memory_equal(r.d2tau_dq2, full.d2tau_dq2, sizeof(double) * 4 * n3);
    /* FD half alone */
    memset(r.tau, 0, sizeof(double) * all);
    assert_int_equal(rbdref_so_eval(m, s.q, s.v, NULL, s.tau, &o, 0, &r), 0);
    assert_true(!r.has_id && r.has_fd);
    assert_null(rbdref_so_result_get(&r, "tau", NULL));
    assert_null(rbdref_so_result_get(&r, "dM_dq", NULL));
    assert_memory_equal(r.qdd, full.qdd, sizeof(double) * nv);
    assert_memory_equal(r.d2qdd_dq2, full.d2qdd_dq2, sizeof(double) * 4 * n3);
    assert_null(rbdref_so_result_get(&r, "d2tau_dq3", NULL));     /* no such array */
    rbdref_so_result_free(&full);
    rbdref_so_result_free(&r);
    state_free(&s);
    rbd_model_free(m);
}

/* Refused with a message, nothing computed: a result whose eight tensors
 * would not fit in memory (before allocating, naming the size), options
 * out of range, a result made for another nv. */
static void refusals(void **st)
{
    (void)st;
    rbdref_so_result r;
    assert_int_equal(rbdref_so_result_init(&r, 60000), RBD_ENOMEM);
    assert_null(r.tau);
    assert_non_null(strstr(rbd_last_error(), "second-order reference of nv = 60000"));
    assert_non_null(strstr(rbd_last_error(), "GiB"));
    assert_int_equal(rbdref_so_result_init(&r, 0), RBD_EINVAL);

    rbd_model *m = tu_model("autotree:N=3,bf=1,skew=0.5");
    state s = random_state(m, 43);
    assert_int_equal(rbdref_so_result_init(&r, m->nv), 0);
    rbdref_opts o;
    const struct { int prec; long h_log2, d_log2; const char *msg; } bad[] = {
        { 32, 0, 0, "below 64" },
        { 256, 1, 0, "out of range" },                     /* complex step >= 1 */
        { 256, 0, 1, "out of range" },                     /* difference step >= 1 */
        { 256, 0, -128, "out of range" },                  /* cancellation would eat half the bits */
    };
    for (int k = 0; k < 4; k++) {
        rbdref_opts_default(&o);
        o.prec = bad[k].prec;
        o.h_log2 = bad[k].h_log2;
        assert_int_equal(rbdref_so_eval(m, s.q, s.v, s.a, s.tau, &o, bad[k].d_log2, &r), RBD_EINVAL);
        if (!strstr(rbd_last_error(), bad[k].msg)) fail_msg("case %d: '%s'", k, rbd_last_error());
    }
    rbdref_so_result other;
    assert_int_equal(rbdref_so_result_init(&other, m->nv + 1), 0);
    assert_int_equal(rbdref_so_eval(m, s.q, s.v, s.a, s.tau, NULL, 0, &other), RBD_EINVAL);
    assert_int_equal(rbdref_so_eval(m, NULL, s.v, s.a, s.tau, NULL, 0, &r), RBD_EINVAL);
    rbdref_so_result_free(&other);
    rbdref_so_result_free(&r);
    state_free(&s);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(step_and_precision),
        cmocka_unit_test(symmetry),
        cmocka_unit_test(minv_derivative),
        cmocka_unit_test(first_order_slabs),
        cmocka_unit_test(against_fd),
        cmocka_unit_test(threads_and_halves),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
