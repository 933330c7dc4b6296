/*
 * Numerical faults (issue 9): NaN/inf inputs, a zero quaternion, a singular
 * and an ill-conditioned M(q), and a method that returns NaN give a clear
 * error (RBD_ENONFINITE / RBD_ESINGULAR / RBD_EINVAL, with a message naming
 * the vector, index or the condition estimate) from every base algorithm
 * (rbd_base_eval) and every registered method (rbd_method_eval), and a
 * timing measurement refuses them before timing.  The base algorithms make
 * every test meaningful while the registry is empty.
 */
#define _GNU_SOURCE     /* sysconf(_SC_PHYS_PAGES) */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include "testutil.h"
#include "measure/bench.h"
#include "rbdiff/check.h"
#include "rbdiff/rbd_io.h"
#include "rbdiff/dynamics.h"
#include "common/timeable.h"

static void expect(int rc, int code, const char *who, const char *needle1, const char *needle2)
{
    const char *msg = rbd_last_error();
    if (rc != code)
        fail_msg("%s: code %d (%s), expected %d (%s); message: %s", who, rc, rbd_strerror(rc), code,
                 rbd_strerror(code), msg);
    if (needle1 && !strstr(msg, needle1)) fail_msg("%s: message '%s' lacks '%s'", who, msg, needle1);
    if (needle2 && !strstr(msg, needle2)) fail_msg("%s: message '%s' lacks '%s'", who, msg, needle2);
}

/* Every output buffer of a method, nv x nv each (a method fills some). */
typedef struct {
    double *buf;
    rbd_derivs d;
} outs;

static void outs_new(outs *o, int nv)
{
    size_t n = (size_t)nv, nn = n * n;
    o->buf = calloc(2 * n + 4 * nn, sizeof *o->buf);
    assert_non_null(o->buf);
    o->d.tau = o->buf;
    o->d.qdd = o->buf + n;
    o->d.dtau_dq = o->d.dqdd_dq = o->buf + 2 * n;
    o->d.dtau_dv = o->d.dqdd_dv = o->d.dtau_dq + nn;
    o->d.dqdd_dtau = o->d.dtau_dv + nn;
}

/* A state of m whose vectors can be spoiled one entry at a time. */
typedef struct {
    double *q, *v, *a, *tau;
} st;

static void st_new(const rbd_model *m, st *s, uint64_t seed)
{
    s->q = malloc(sizeof(double) * (size_t)m->nq);
    s->v = malloc(sizeof(double) * (size_t)m->nv);
    s->a = malloc(sizeof(double) * (size_t)m->nv);
    s->tau = malloc(sizeof(double) * (size_t)m->nv);
    assert_true(s->q && s->v && s->a && s->tau);
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    rbd_random_state(m, &r, s->q, s->v, s->a, s->tau);
}

static void st_free(st *s)
{
    free(s->q); free(s->v); free(s->a); free(s->tau);
}

/* The vectors a base algorithm reads besides q. */
static int base_reads(const rbd_base_algo *b, const char *vec)
{
    if (!strcmp(vec, "q")) return 1;
    if (!strcmp(vec, "v")) return *b->needs != 0;
    return !strcmp(b->needs, vec);
}

static int method_reads(const rbd_method *meth, const char *vec)
{
    if (!strcmp(vec, "q") || !strcmp(vec, "v")) return 1;
    return !strcmp(vec, meth->output == RBD_ID_DERIVS ? "a" : "tau");
}

/* NaN and inf in each vector an algorithm reads, at one user index. */
static void test_nonfinite_inputs(void **unused)
{
    (void)unused;
    rbd_model *m = tu_model("autotree:N=7,bf=2,skew=0.5,taper=0.9");
    rbd_data *d = rbd_data_new(m);
    double *out = calloc((size_t)m->nv * (size_t)m->nv, sizeof *out);
    outs o;
    outs_new(&o, m->nv);
    const char *vecs[4] = { "q", "v", "a", "tau" };
    const double bad[2] = { NAN, INFINITY };
    int checked = 0;
    for (int b = 0; rbd_base_algos[b].name; b++) {
        const rbd_base_algo *al = &rbd_base_algos[b];
        st s;
        st_new(m, &s, 11);
        /* clean state: success, finite output */
        assert_int_equal(rbd_base_eval(al, m, d, s.q, s.v, s.a, s.tau, out), 0);
        for (int k = 0; k < 4; k++)
            for (int z = 0; z < 2; z++) {
                double *x[4] = { s.q, s.v, s.a, s.tau };
                if (!base_reads(al, vecs[k])) continue;
                int at = 3 % (k ? m->nv : m->nq);
                double keep = x[k][at];
                x[k][at] = bad[z];
                char needle[32];
                /* autotree: internal = user numbering for a tree numbered depth-first
                 * already?  Not in general: name the user index the library reports. */
                snprintf(needle, sizeof needle, "input %s[%d]", vecs[k], k ? m->user_v[at] : m->user_q[at]);
                expect(rbd_base_eval(al, m, d, s.q, s.v, s.a, s.tau, out), RBD_ENONFINITE, al->name, needle,
                       "not finite");
                x[k][at] = keep;
                checked++;
            }
        st_free(&s);
    }
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (rbd_method_supports(meth, m)) continue;
        rbd_options opt;
        rbd_options_default(&opt);
        void *ws = NULL;
        assert_int_equal(meth->init(m, &opt, &ws), 0);
        st s;
        st_new(m, &s, 12);
        rbd_state x0 = { s.q, s.v, s.a, s.tau };
        assert_int_equal(rbd_method_eval(meth, ws, m, &x0, &o.d), 0);
        for (int j = 0; j < 4; j++)
            for (int z = 0; z < 2; z++) {
                double *x[4] = { s.q, s.v, s.a, s.tau };
                if (!method_reads(meth, vecs[j])) continue;
                int at = 2 % (j ? m->nv : m->nq);
                double keep = x[j][at];
                x[j][at] = bad[z];
                char needle[32];
                snprintf(needle, sizeof needle, "input %s[%d]", vecs[j], j ? m->user_v[at] : m->user_q[at]);
                expect(rbd_method_eval(meth, ws, m, &x0, &o.d), RBD_ENONFINITE, meth->name, needle, meth->name);
                x[j][at] = keep;
                checked++;
            }
        st_free(&s);
        meth->fini(ws);
    }
    /* rnea, rnea-ground: q v a; crba, minv x3: q; aba: q v tau -> 2 * (3+3+1+3+1+1+1) at least */
    assert_true(checked >= 26);
    free(o.buf);
    free(out);
    rbd_data_free(d);
    rbd_model_free(m);
}

/* A free-flyer whose quaternion is zero is not a configuration. */
static void test_zero_quaternion(void **unused)
{
    (void)unused;
    char spec[1200];
    snprintf(spec, sizeof spec, "urdf:%s/tests/models/hyq.urdf,freeflyer", RBD_SOURCE_DIR);
    rbd_model *m = tu_model(spec);
    rbd_data *d = rbd_data_new(m);
    double *out = calloc((size_t)m->nv * (size_t)m->nv, sizeof *out);
    st s;
    st_new(m, &s, 3);
    int ff = -1;
    for (int i = 0; i < m->nb; i++)
        if (m->joint[i].type == RBD_JOINT_FREEFLYER) ff = i;
    assert_true(ff >= 0);
    for (int c = 3; c < 7; c++) s.q[m->idx_q[ff] + c] = 0;
    for (int b = 0; rbd_base_algos[b].name; b++)
        expect(rbd_base_eval(&rbd_base_algos[b], m, d, s.q, s.v, s.a, s.tau, out), RBD_EINVAL,
               rbd_base_algos[b].name, "root_joint", "quaternion");
    outs o;
    outs_new(&o, m->nv);
    rbd_state x = { s.q, s.v, s.a, s.tau };
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (rbd_method_supports(meth, m)) continue;
        rbd_options opt;
        rbd_options_default(&opt);
        void *ws = NULL;
        assert_int_equal(meth->init(m, &opt, &ws), 0);
        expect(rbd_method_eval(meth, ws, m, &x, &o.d), RBD_EINVAL, meth->name, "quaternion", NULL);
        meth->fini(ws);
    }
    free(o.buf);
    st_free(&s);
    free(out);
    rbd_data_free(d);
    rbd_model_free(m);
}

/* Joint 1 turns about x carrying a massless link; joint 2 turns about z and
 * carries a point mass at (1, 0, 0).  At q2 = 0 the mass lies on joint 1's
 * axis, so joint 1 moves nothing: M(q) is singular there, ill-conditioned
 * near it (M_11 = sin^2 q2), regular elsewhere. */
static rbd_model *pendulum_on_axis(void)
{
    rbd_builder *b = rbd_builder_new();
    rbd_joint jx = { .type = RBD_JOINT_REVOLUTE, .axis = { 1, 0, 0 } };
    rbd_joint jz = { .type = RBD_JOINT_REVOLUTE, .axis = { 0, 0, 1 } };
    sp_xform X;
    sp_xform_identity(&X);
    rbd_body_inertia none = { 0 }, point = { .mass = 1, .com = { 1, 0, 0 } };
    assert_int_equal(rbd_builder_add(b, -1, &jx, &X, &none, "roll", "hub"), 0);
    assert_int_equal(rbd_builder_add(b, 0, &jz, &X, &point, "yaw", "bob"), 0);
    rbd_model *m = NULL;
    assert_int_equal(rbd_builder_finish(b, NULL, "pendulum-on-axis", &m), 0);
    rbd_builder_free(b);
    return m;
}

static int base_needs_minv(const rbd_base_algo *b)
{
    return !strcmp(b->out, "Minv") || !strcmp(b->out, "qdd");
}

static void test_singular_and_ill_conditioned(void **unused)
{
    (void)unused;
    rbd_model *m = pendulum_on_axis();
    rbd_data *d = rbd_data_new(m);
    double out[4], q[2] = { 0.3, 0 }, v[2] = { 0.5, -0.2 }, a[2] = { 0.1, 0.2 }, tau[2] = { 0.4, -0.1 };
    double rc_sing, rc_ill, rc_ok;
    assert_int_equal(rbd_mass_rcond(m, q, &rc_sing), 0);
    assert_true(rc_sing < 1e-15);
    double q_ill[2] = { 0.3, 3e-6 }, q_ok[2] = { 0.3, 1.0 };
    assert_int_equal(rbd_mass_rcond(m, q_ill, &rc_ill), 0);
    assert_int_equal(rbd_mass_rcond(m, q_ok, &rc_ok), 0);
    /* M = [sin^2 q2 , 0 ; 0, 1] (about the axes through the origin): rcond = sin^2 q2 */
    assert_true(rc_ill > 1e-12 && rc_ill < RBD_RCOND_WARN);
    assert_true(fabs(rc_ok - sin(1.0) * sin(1.0)) < 1e-12);
    int nsing = 0;
    for (int b = 0; rbd_base_algos[b].name; b++) {
        const rbd_base_algo *al = &rbd_base_algos[b];
        int rc = rbd_base_eval(al, m, d, q, v, a, tau, out);
        if (base_needs_minv(al)) {
            /* M^-1 and ABA cannot exist here: singular, with the estimate */
            expect(rc, RBD_ESINGULAR, al->name, "condition", "roll");
            nsing++;
        } else {
            expect(rc, 0, al->name, NULL, NULL);    /* M itself and ID are fine */
        }
        /* ill-conditioned: a (finite) result; regular: of course */
        expect(rbd_base_eval(al, m, d, q_ill, v, a, tau, out), 0, al->name, NULL, NULL);
        expect(rbd_base_eval(al, m, d, q_ok, v, a, tau, out), 0, al->name, NULL, NULL);
    }
    assert_int_equal(nsing, 4);     /* aba and the three M^-1 */
    outs o;
    outs_new(&o, m->nv);
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (rbd_method_supports(meth, m)) continue;
        rbd_options opt;
        rbd_options_default(&opt);
        void *ws = NULL;
        assert_int_equal(meth->init(m, &opt, &ws), 0);
        rbd_state x = { q, v, a, tau };
        int rc = rbd_method_eval(meth, ws, m, &x, &o.d);
        if (meth->output == RBD_FD_DERIVS) {
            /* a method may detect the pivot (ESINGULAR) or produce inf/NaN
             * (ENONFINITE from the output check): either way, explained */
            if (rc != RBD_ESINGULAR && rc != RBD_ENONFINITE)
                fail_msg("%s at a singular M: code %d, message %s", meth->name, rc, rbd_last_error());
            assert_non_null(strstr(rbd_last_error(), "condition"));
        } else {
            expect(rc, 0, meth->name, NULL, NULL);
        }
        rbd_state xo = { q_ok, v, a, tau };
        expect(rbd_method_eval(meth, ws, m, &xo, &o.d), 0, meth->name, NULL, NULL);
        meth->fini(ws);
    }
    free(o.buf);
    rbd_data_free(d);
    rbd_model_free(m);
}

/* A method that returns NaN in one entry: rbd_method_eval names the output
 * and the entry in the user's numbering; a timing measurement refuses it. */
typedef struct { int nv; int which; } nan_ws;
static int nan_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    (void)o;
    nan_ws *w = calloc(1, sizeof *w);
    if (!w) return RBD_ENOMEM;
    w->nv = m->nv;
    *ws = w;
    return 0;
}
static int nan_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    (void)x;
    nan_ws *w = p;
    size_t nn = (size_t)w->nv * (size_t)w->nv;
    for (int i = 0; i < w->nv; i++) out->qdd[i] = 1;
    for (size_t k = 0; k < nn; k++) out->dqdd_dq[k] = out->dqdd_dv[k] = out->dqdd_dtau[k] = 1;
    out->dqdd_dv[1 + (size_t)w->nv * 2] = NAN;      /* internal (1, 2) */
    return 0;
}
static void nan_fini(void *p) { free(p); }
static const rbd_method nan_method = { "nan-out", "returns a NaN", RBD_FD_DERIVS, RBD_JOINTS_ALL, nan_init,
                                       nan_eval, nan_fini };

static void test_nonfinite_output(void **unused)
{
    (void)unused;
    rbd_model *m = tu_model("autotree:N=6,bf=2");
    st s;
    st_new(m, &s, 5);
    outs o;
    outs_new(&o, m->nv);
    void *ws = NULL;
    assert_int_equal(nan_method.init(m, NULL, &ws), 0);
    rbd_state x = { s.q, s.v, s.a, s.tau };
    char needle[64];
    snprintf(needle, sizeof needle, "output dqdd_dv(%d,%d) = nan", m->user_v[1], m->user_v[2]);
    expect(rbd_method_eval(&nan_method, ws, m, &x, &o.d), RBD_ENONFINITE, "nan-out", needle, "condition");
    nan_method.fini(ws);
    /* the harness: an error, not a timings row */
    sweep_config c;
    sweep_config_init(&c);
    c.batches = 3; c.batch_ms = 0.1; c.warmup_ms = 0;
    bench_target t = { .name = "nan-out", .method = &nan_method, .kind = "FD" };
    bench_model bm = { "autotree:N=6,bf=2", 2, 6 };
    timing_row row;
    expect(bench_measure(&t, m, &bm, &c, NULL, NULL, &row), RBD_ENONFINITE, "bench", "dqdd_dv", NULL);
    sweep_config_free(&c);
    free(o.buf);
    st_free(&s);
    rbd_model_free(m);
}

/* Sizes that cannot fit are refused with the size, before allocating. */
static void test_memory_refusal(void **unused)
{
    (void)unused;
    expect(rbd_check_memory("a test", 1e15), RBD_ENOMEM, "memory", "a test needs 931322.6 GiB", "memory");
    assert_int_equal(rbd_check_memory("a test", 1e6), 0);
    /* N = 60000: two dense 60000^2 work matrices are 53.8 GiB with the rest */
    if ((double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) > 53e9) skip();
    rbd_model *m = tu_model("autotree:N=60000");
    rbd_clear_error();
    assert_null(rbd_data_new(m));
    assert_non_null(strstr(rbd_last_error(), "nv = 60000"));
    assert_non_null(strstr(rbd_last_error(), "needs 53.8 GiB"));
    rbd_model_free(m);
}

/* A subnormal written at %.17g reads back (strtod reports ERANGE on
 * underflow; the readers took that for "not a number"), an overflow does not. */
static void test_subnormal_roundtrip(void **unused)
{
    (void)unused;
    rbd_model *m = tu_model("autotree:N=2");
    char path[] = "/tmp/rbd-subnormal-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    double x[2] = { 4.9406564584124654e-324, -2.2250738585072e-310 };
    fprintf(f, "q %.17g %.17g\nv 0 0\n", x[0], x[1]);
    assert_int_equal(rbd_block_write(f, "tau", 2, 1, x), 0);
    fclose(f);
    rbd_state_file sf;
    assert_int_equal(rbd_state_file_read(path, m, &sf), RBD_EPARSE);   /* a block line is no state field */
    f = fopen(path, "w");
    fprintf(f, "q %.17g %.17g\nv 0 0\n", x[0], x[1]);
    fclose(f);
    expect(rbd_state_file_read(path, m, &sf), 0, "subnormal q", NULL, NULL);
    assert_true(sf.q[0] == x[0] && sf.q[1] == x[1]);
    rbd_state_file_free(&sf);
    f = fopen(path, "w");
    assert_int_equal(rbd_block_write(f, "tau", 2, 1, x), 0);
    fclose(f);
    rbd_block *b;
    int nb;
    expect(rbd_blocks_read(path, &b, &nb), 0, "subnormal block", NULL, NULL);
    assert_true(nb == 1 && b[0].x[0] == x[0] && b[0].x[1] == x[1]);
    rbd_blocks_free(b, nb);
    f = fopen(path, "w");
    fprintf(f, "q 1e999 0\nv 0 0\n");
    fclose(f);
    expect(rbd_state_file_read(path, m, &sf), RBD_EPARSE, "overflow", "'1e999' is not a number", NULL);
    /* a header that claims 1e9 entries costs nothing until its rows come */
    f = fopen(path, "w");
    fprintf(f, "M 31622 31622\n1 2\n");
    fclose(f);
    expect(rbd_blocks_read(path, &b, &nb), RBD_EPARSE, "huge header", "row 1 has 2 values, expected 31622", NULL);
    unlink(path);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nonfinite_inputs),
        cmocka_unit_test(test_zero_quaternion),
        cmocka_unit_test(test_singular_and_ill_conditioned),
        cmocka_unit_test(test_nonfinite_output),
        cmocka_unit_test(test_memory_refusal),
        cmocka_unit_test(test_subnormal_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
