/*
 * Self-checks of the MPFR complex-step reference (issue 5): precision and
 * step-size independence, dFD/dtau M = I, Pinocchio's stored values, and a
 * sanity check against central differences of the double RNEA/ABA.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/rbd_io.h"
#include "rbdref.h"

static const char *const outs[] = { "tau", "M", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "Minv" };

static rbdref_opts opts(int prec, long h_log2)
{
    rbdref_opts o;
    rbdref_opts_default(&o);
    o.prec = prec;
    o.h_log2 = h_log2;
    return o;
}

/* A random state (internal numbering) for m from seed. */
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

static void eval_mp(const rbd_model *m, const state *s, rbdref_opts o, rbdref_mp *r)
{
    assert_int_equal(rbdref_mp_init(r, m->nv, o.prec), 0);
    int rc = rbdref_eval_mp(m, s->q, s->v, s->a, s->tau, &o, r);
    if (rc) fail_msg("reference: %s", rbd_last_error());
}

/* max |X - Y| / max(1, max |Y|) over every output, in MPFR */
static double mp_maxdiff(const rbdref_mp *x, const rbdref_mp *y, const char **worst)
{
    mpfr_t d, mx, e;
    mpfr_inits2(64, d, mx, e, (mpfr_ptr)0);
    double worst_e = 0;
    for (int k = 0; k < 8; k++) {
        int rows, cols;
        mpfr_ptr X = rbdref_mp_get(x, outs[k], &rows, &cols), Y = rbdref_mp_get(y, outs[k], NULL, NULL);
        assert_non_null(X);
        assert_non_null(Y);
        mpfr_set_ui(mx, 1, MPFR_RNDN);
        mpfr_set_ui(e, 0, MPFR_RNDN);
        for (int i = 0; i < rows * cols; i++) {
            mpfr_abs(d, Y + i, MPFR_RNDN);
            mpfr_max(mx, mx, d, MPFR_RNDN);
            mpfr_sub(d, X + i, Y + i, MPFR_RNDN);
            mpfr_abs(d, d, MPFR_RNDN);
            mpfr_max(e, e, d, MPFR_RNDN);
        }
        mpfr_div(e, e, mx, MPFR_RNDN);
        double ed = mpfr_get_d(e, MPFR_RNDN);
        if (!(ed <= worst_e)) { worst_e = ed; *worst = outs[k]; }
    }
    mpfr_clears(d, mx, e, (mpfr_ptr)0);
    return worst_e;
}

/* ---- 256 vs 512 bits, and two step sizes ---- */

static void test_precision_and_step(void **st)
{
    (void)st;
    const char *specs[] = { "autotree:N=7,bf=2,skew=1.0471975511965976,taper=0.8", "autotree:N=5,bf=1,skew=0.3,taper=1.2" };
    for (int c = 0; c < 2; c++) {
        rbd_model *m = tu_model(specs[c]);
        state s = random_state(m, 11 + c);
        rbdref_mp r256, r512, rstep;
        eval_mp(m, &s, opts(256, 0), &r256);
        eval_mp(m, &s, opts(512, 0), &r512);
        eval_mp(m, &s, opts(256, -140), &rstep);    /* truncation ~2^-280, still far below 1e-60 */
        const char *w = "";
        double e = mp_maxdiff(&r256, &r512, &w);
        if (!(e <= 1e-60)) fail_msg("%s: 256 vs 512 bits differ by %g in %s", specs[c], e, w);
        e = mp_maxdiff(&r256, &rstep, &w);
        if (!(e <= 1e-60)) fail_msg("%s: h = 2^-256 vs 2^-140 differ by %g in %s", specs[c], e, w);
        rbdref_mp_clear(&r256); rbdref_mp_clear(&r512); rbdref_mp_clear(&rstep);
        state_free(&s);
        rbd_model_free(m);
    }
}

/* ---- M^-1 M = I at full precision ---- */

static void test_minv_times_m(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=9,bf=2,skew=0.9,taper=0.85");
    state s = random_state(m, 5);
    rbdref_mp r;
    eval_mp(m, &s, opts(256, 0), &r);
    int n = m->nv;
    mpfr_t acc, t, worst;
    mpfr_inits2(256, acc, t, worst, (mpfr_ptr)0);
    mpfr_set_ui(worst, 0, MPFR_RNDN);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            mpfr_set_si(acc, -(i == j), MPFR_RNDN);
            for (int k = 0; k < n; k++) {
                mpfr_mul(t, r.Minv + i + n * k, r.M + k + n * j, MPFR_RNDN);
                mpfr_add(acc, acc, t, MPFR_RNDN);
            }
            mpfr_abs(acc, acc, MPFR_RNDN);
            mpfr_max(worst, worst, acc, MPFR_RNDN);
        }
    double e = mpfr_get_d(worst, MPFR_RNDN);
    if (!(e <= 1e-60)) fail_msg("dFD/dtau * M - I = %g", e);
    mpfr_clears(acc, t, worst, (mpfr_ptr)0);
    rbdref_mp_clear(&r);
    state_free(&s);
    rbd_model_free(m);
}

/* ---- exact zeros where no operation links input and output (accuracy.h's rule) ---- */

static int related(const rbd_model *m, int i, int j)   /* i ancestor-or-self of j, or j of i */
{
    for (int k = j; k >= 0; k = m->parent[k]) if (k == i) return 1;
    for (int k = i; k >= 0; k = m->parent[k]) if (k == j) return 1;
    return 0;
}

static void test_structural_zeros(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=12,bf=2,skew=0.7,taper=0.9");
    state s = random_state(m, 8);
    rbdref_result r;
    assert_int_equal(rbdref_result_init(&r, m->nv), 0);
    rbdref_opts o = opts(256, 0);
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, &o, &r), 0);
    int n = m->nv, zeros = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int rel = related(m, m->dof_body[i], m->dof_body[j]);
            const double *X[3] = { r.M, r.dtau_dq, r.dtau_dv };
            for (int k = 0; k < 3; k++) {
                double x = X[k][i + n * j];
                if (!rel && x != 0.0) fail_msg("output %d (%d,%d) = %g: bodies on different branches", k, i, j, x);
                if (rel && k == 0 && x == 0.0) fail_msg("M (%d,%d) is exactly zero", i, j);
                zeros += x == 0.0;
            }
        }
    assert_true(zeros > 0);
    rbdref_result_free(&r);
    state_free(&s);
    rbd_model_free(m);
}

/* ---- the thread count does not change a bit; bad arguments are refused ---- */

static void test_threads_and_errors(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=6,bf=1.5,skew=0.4,taper=0.9");
    state s = random_state(m, 4);
    int n = m->nv;
    rbdref_result r1, r3;
    assert_int_equal(rbdref_result_init(&r1, n), 0);
    assert_int_equal(rbdref_result_init(&r3, n), 0);
    rbdref_opts o = opts(256, 0);
    o.nthreads = 1;
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, &o, &r1), 0);
    o.nthreads = 3;
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, &o, &r3), 0);
    assert_memory_equal(r1.tau, r3.tau, sizeof(double) * (size_t)(2 * n + 6 * n * n));
    /* ID only / FD only */
    assert_int_equal(rbdref_eval(m, s.q, s.v, NULL, s.tau, &o, &r3), 0);
    assert_int_equal(r3.has_id, 0);
    assert_int_equal(r3.has_fd, 1);
    assert_null(rbdref_result_get(&r3, "dtau_dq", NULL, NULL));
    assert_memory_equal(r1.dqdd_dq, r3.dqdd_dq, sizeof(double) * (size_t)(n * n));
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, NULL, &o, &r3), 0);
    assert_int_equal(r3.has_fd, 0);
    assert_memory_equal(r1.dtau_dq, r3.dtau_dq, sizeof(double) * (size_t)(n * n));
    /* refused: too little precision, a positive step, a result of the wrong size */
    o.prec = 32;
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, &o, &r3), RBD_EINVAL);
    o = opts(256, 3);
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, &o, &r3), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "step"));
    rbdref_result small;
    assert_int_equal(rbdref_result_init(&small, n - 1), 0);
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, NULL, &small), RBD_EINVAL);
    rbdref_result_free(&small);
    rbdref_result_free(&r1);
    rbdref_result_free(&r3);
    state_free(&s);
    rbd_model_free(m);
}

/* ---- Pinocchio's stored values (user numbering) ---- */

static void check_pinocchio(const char *name, const char *spec)
{
    char st[256], ex[256], sp[1200];
    snprintf(st, sizeof st, "reference/%s.state", name);
    snprintf(ex, sizeof ex, "reference/%s.expected", name);
    rbd_model *m = NULL;
    if (!strncmp(spec, "urdf:", 5)) {
        /* the robot files the project keeps in tests/models */
        snprintf(sp, sizeof sp, "urdf:%s/tests/%s", RBD_SOURCE_DIR, spec + 5);
        int rc = rbd_model_from_spec(sp, NULL, &m);
        if (rc) fail_msg("%s: %s", sp, rbd_last_error());
    } else {
        m = tu_model(spec);
    }
    rbd_state_file sf;
    assert_int_equal(rbd_state_file_read(tu_shared_path(0, st), m, &sf), 0);
    rbd_block *b;
    int nb;
    assert_int_equal(rbd_blocks_read(tu_shared_path(1, ex), &b, &nb), 0);
    int n = m->nv;
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * n), *a = malloc(sizeof(double) * n);
    double *tau = malloc(sizeof(double) * n), *u = malloc(sizeof(double) * n * n);
    rbd_q_from_user(m, sf.q, q);
    rbd_v_from_user(m, sf.v, v);
    rbd_v_from_user(m, sf.a, a);
    rbd_v_from_user(m, sf.tau, tau);
    rbdref_result r;
    assert_int_equal(rbdref_result_init(&r, n), 0);
    rbdref_opts o = opts(256, 0);
    if (rbdref_eval(m, q, v, a, tau, &o, &r)) fail_msg("%s", rbd_last_error());
    const char *names[] = { "tau", "M", "Minv", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau" };
    for (int k = 0; k < 9; k++) {
        const rbd_block *e = rbd_blocks_find(b, nb, names[k]);
        assert_non_null(e);
        int rows, cols;
        double *x = rbdref_result_get(&r, names[k], &rows, &cols);
        assert_non_null(x);
        assert_int_equal(rows, e->rows);
        assert_int_equal(cols, e->cols);
        if (cols == 1) rbd_v_to_user(m, x, u);
        else rbd_mat_to_user(m, x, u);
        char what[128];
        snprintf(what, sizeof what, "%s %s", name, names[k]);
        tu_assert_close(what, u, e->x, (size_t)rows, (size_t)cols, 1e-10);
    }
    rbdref_result_free(&r);
    free(q); free(v); free(a); free(tau); free(u);
    rbd_blocks_free(b, nb);
    rbd_state_file_free(&sf);
    rbd_model_free(m);
}

static void test_pinocchio_N6(void **s) { (void)s; check_pinocchio("autotree_N6_bf1", "autotree:N=6,bf=1"); }
static void test_pinocchio_N8(void **s)
{
    (void)s;
    check_pinocchio("autotree_N8_bf1_skew0.6_taper0.9", "autotree:N=8,bf=1,skew=0.6,taper=0.9");
}

static void test_pinocchio_double_pendulum(void **s)
{
    (void)s;
    check_pinocchio("double_pendulum", "urdf:models/double_pendulum.urdf");
}
static void test_pinocchio_ur5(void **s) { (void)s; check_pinocchio("ur5", "urdf:models/ur5.urdf"); }
static void test_pinocchio_hyq(void **s) { (void)s; check_pinocchio("hyq_freeflyer", "urdf:models/hyq.urdf,freeflyer"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pinocchio_N6),
        cmocka_unit_test(test_pinocchio_N8),
        cmocka_unit_test(test_pinocchio_double_pendulum),
        cmocka_unit_test(test_pinocchio_ur5),
        cmocka_unit_test(test_pinocchio_hyq),
        cmocka_unit_test(test_precision_and_step),
        cmocka_unit_test(test_minv_times_m),
        cmocka_unit_test(test_structural_zeros),
        cmocka_unit_test(test_threads_and_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mpfr_free_cache();
    return rc;
}
