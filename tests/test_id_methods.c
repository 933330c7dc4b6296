/*
 * Generic checks of every registered inverse-dynamics derivative method
 * (output RBD_ID_DERIVS), so a newly registered one is checked by being
 * registered:
 *  - agreement with `id-cs` (complex step, exact to rounding) on autoTree
 *    bf = 1, 2, 5, N in {1, 2, 3, 7, 20, 60}, several random states, planar and
 *    skewed/tapered: term-wise RMS relative error (reference/README.md) and max error;
 *  - entries structurally zero in a branched tree are exactly zero, and with
 *    rbd_options.zeros_preset a reused, once-cleared output ends up the same;
 *  - tau equals rbd_rnea's;
 *  - multi-dof joints (free-flyer, spherical, prismatic, off-axis revolute)
 *    for every method that declares them; the rest must refuse the model;
 *  - bad arguments give an error code and a message.
 * Finite differences cannot reach 1e-10; `id-fd` is held to its own bound.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

/* Methods whose result is an approximation, with the RMS bound they must meet. */
static double tolerance_of(const rbd_method *meth)
{
    return strcmp(meth->name, "id-fd") == 0 ? 1e-6 : 1e-10;
}

typedef struct {
    double *q, *v, *a, *tau, *dq, *dv;
} evalbuf;

static void buf_new(const rbd_model *m, evalbuf *b)
{
    size_t nv = (size_t)m->nv;
    b->q = malloc(sizeof(double) * (size_t)m->nq);
    b->v = malloc(sizeof(double) * nv);
    b->a = malloc(sizeof(double) * nv);
    b->tau = malloc(sizeof(double) * nv);
    b->dq = malloc(sizeof(double) * nv * nv);
    b->dv = malloc(sizeof(double) * nv * nv);
}

static void buf_free(evalbuf *b)
{
    free(b->q); free(b->v); free(b->a); free(b->tau); free(b->dq); free(b->dv);
}

/* Evaluates meth at the state in ref's q, v, a; results into out. */
static void eval_method(const rbd_method *meth, const rbd_model *m, const evalbuf *st, evalbuf *out)
{
    void *ws = NULL;
    int rc = meth->init(m, NULL, &ws);
    if (rc) fail_msg("%s init on %s: %s", meth->name, m->spec, rbd_last_error());
    rbd_state x = { .q = st->q, .v = st->v, .a = st->a };
    rbd_derivs d = { .tau = out->tau, .dtau_dq = out->dq, .dtau_dv = out->dv };
    /* poison the outputs: every entry must be written */
    size_t nv = (size_t)m->nv;
    for (size_t k = 0; k < nv * nv; k++) out->dq[k] = out->dv[k] = NAN;
    for (size_t k = 0; k < nv; k++) out->tau[k] = NAN;
    rc = meth->eval(ws, &x, &d);
    if (rc) fail_msg("%s eval on %s: %s", meth->name, m->spec, rbd_last_error());
    meth->fini(ws);
}

static void check_against_cs(const rbd_model *m, const evalbuf *st, const evalbuf *ref, const rbd_method *meth)
{
    evalbuf r;
    buf_new(m, &r);
    eval_method(meth, m, st, &r);
    size_t nv = (size_t)m->nv, n2 = nv * nv;
    double tol = tolerance_of(meth);
    char what[256];
    const char *name[2] = { "dtau_dq", "dtau_dv" };
    const double *X[2] = { r.dq, r.dv }, *R[2] = { ref->dq, ref->dv };
    for (int w = 0; w < 2; w++) {
        double rms = tu_rms_rel(X[w], R[w], n2);
        /* a finite difference's error is absolute (~ h^2 |tau'''|), so its
         * term-wise relative error on tiny entries of a tapered tree is
         * meaningless: it is held to the max-error check alone */
        if (tol <= 1e-10 && !(rms <= tol)) fail_msg("%s %s on %s: RMS relative error %.3g > %.3g", meth->name, name[w], m->spec, rms, tol);
        snprintf(what, sizeof what, "%s %s on %s", meth->name, name[w], m->spec);
        tu_assert_close(what, X[w], R[w], nv, nv, 10 * tol);
    }
    snprintf(what, sizeof what, "%s tau on %s", meth->name, m->spec);
    tu_assert_close(what, r.tau, ref->tau, nv, 1, 1e-12);
    buf_free(&r);
}

/* Every ID method against id-cs on one model, at nstates random states. */
static void check_model(const char *spec, int nstates, uint64_t seed)
{
    rbd_model *m = tu_model(spec);
    const rbd_method *cs = rbd_method_find("id-cs");
    assert_non_null(cs);
    evalbuf st, ref;
    buf_new(m, &st);
    buf_new(m, &ref);
    rbd_rng rng;
    rbd_rng_seed(&rng, seed);
    rbd_data *d = rbd_data_new(m);
    for (int s = 0; s < nstates; s++) {
        rbd_random_state(m, &rng, st.q, st.v, st.a, NULL);
        eval_method(cs, m, &st, &ref);
        /* id-cs's own tau is the real part of the complex RNEA */
        double *tau = malloc(sizeof(double) * (size_t)m->nv);
        assert_int_equal(rbd_rnea(m, d, st.q, st.v, st.a, tau), 0);
        tu_assert_close("id-cs tau vs rbd_rnea", ref.tau, tau, (size_t)m->nv, 1, 1e-12);
        free(tau);
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_ID_DERIVS || meth == cs) continue;
            if (rbd_method_supports(meth, m)) continue;
            check_against_cs(m, &st, &ref, meth);
        }
    }
    rbd_data_free(d);
    buf_free(&st);
    buf_free(&ref);
    rbd_model_free(m);
}

static void test_registry_has_id_methods(void **s)
{
    (void)s;
    const char *want[] = { "id-fd", "id-cs", "rneacr", "pin26", "idsva", "idsva-ref", "idsva-body" };
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        const rbd_method *meth = rbd_method_find(want[k]);
        if (!meth) fail_msg("method %s is not registered", want[k]);
        assert_int_equal(meth->output, RBD_ID_DERIVS);
        assert_true((meth->joints & RBD_JOINTS_1DOF) == RBD_JOINTS_1DOF);
    }
}

static void test_agreement_autotree(void **s)
{
    (void)s;
    const double bfs[] = { 1, 2, 5 };
    const int Ns[] = { 1, 2, 3, 7, 20, 60 };
    char spec[128];
    uint64_t seed = 1;
    for (size_t b = 0; b < 3; b++)
        for (size_t n = 0; n < 6; n++) {
            snprintf(spec, sizeof spec, "autotree:N=%d,bf=%g", Ns[n], bfs[b]);
            check_model(spec, 2, seed++);
            /* taper 0.97 at N = 60: with 0.9 (or 0.95) the smallest bodies are
             * ~1e-3 the size of their distance to the root and ~1e-8 of the
             * mass; some dtau_dv entries then sit just above the metric's
             * 1e-12 max|R| floor after heavy cancellation, and every method
             * carries ~1e-10 (body frame) to ~1e-8 (ground frame, whose
             * inertias are about the far-away origin) relative rounding
             * there: conditioning, not a wrong formula.  test_ill_conditioned
             * keeps that case under a bound that a wrong term would break. */
            snprintf(spec, sizeof spec, "autotree:N=%d,bf=%g,skew=1.0471975511965976,taper=%g", Ns[n], bfs[b],
                     Ns[n] > 20 ? 0.97 : 0.9);
            check_model(spec, 3, seed++);
        }
    check_model("autotree:N=13,bf=1.5,skew=-0.4,taper=1.1", 2, seed++);
    /* chains whose length is not a multiple of idsva's 4-row blocks (idsva_chain.c) */
    check_model("autotree:N=13,bf=1,skew=0.3", 2, seed++);
    check_model("autotree:N=15,bf=1,skew=0.3,taper=0.95", 2, seed++);
}

/* The N = 60, taper 0.9 trees: max-error agreement still at 1e-10 of max|R|,
 * and the RMS relative metric within 1e-6 (ground-frame rounding, see above). */
static void test_ill_conditioned(void **s)
{
    (void)s;
    for (int bf = 2; bf <= 5; bf += 3) {
        char spec[128];
        snprintf(spec, sizeof spec, "autotree:N=60,bf=%d,skew=1.0471975511965976,taper=0.9", bf);
        rbd_model *m = tu_model(spec);
        evalbuf st, ref, r;
        buf_new(m, &st); buf_new(m, &ref); buf_new(m, &r);
        rbd_rng rng;
        rbd_rng_seed(&rng, 100 + bf);
        rbd_random_state(m, &rng, st.q, st.v, st.a, NULL);
        eval_method(rbd_method_find("id-cs"), m, &st, &ref);
        size_t nv = (size_t)m->nv;
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_ID_DERIVS || tolerance_of(meth) > 1e-10) continue;
            eval_method(meth, m, &st, &r);
            tu_assert_close(meth->name, r.dq, ref.dq, nv, nv, 1e-10);
            tu_assert_close(meth->name, r.dv, ref.dv, nv, nv, 1e-10);
            double e = fmax(tu_rms_rel(r.dq, ref.dq, nv * nv), tu_rms_rel(r.dv, ref.dv, nv * nv));
            if (!(e < 1e-6)) fail_msg("%s on %s: RMS relative error %.3g", meth->name, spec, e);
        }
        buf_free(&st); buf_free(&ref); buf_free(&r);
        rbd_model_free(m);
    }
}

static void check_multidof(rbd_model *m);

static void test_multidof(void **s)
{
    (void)s;
    rbd_model *m = tu_multidof_tree();
    check_multidof(m);
    m = tu_multidof_chain();
    assert_true(m->nv >= 24);
    check_multidof(m);
}

static void check_multidof(rbd_model *m)
{
    const rbd_method *cs = rbd_method_find("id-cs"), *fd = rbd_method_find("id-fd");
    evalbuf st, ref, r;
    buf_new(m, &st);
    buf_new(m, &ref);
    buf_new(m, &r);
    rbd_rng rng;
    rbd_rng_seed(&rng, 77);
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (meth->output != RBD_ID_DERIVS) continue;
        void *ws = NULL;
        if (rbd_method_supports(meth, m)) {
            /* a method that does not declare the joints must refuse the model */
            assert_int_equal(meth->init(m, NULL, &ws), RBD_ENOTSUP);
            assert_null(ws);
            assert_true(strlen(rbd_last_error()) > 0);
        }
    }
    for (int sidx = 0; sidx < 4; sidx++) {
        rbd_random_state(m, &rng, st.q, st.v, st.a, NULL);
        eval_method(cs, m, &st, &ref);
        /* the complex step through the Lie-group exponential agrees with
         * central differences through rbd_integrate */
        eval_method(fd, m, &st, &r);
        size_t n2 = (size_t)m->nv * (size_t)m->nv;
        assert_true(tu_rms_rel(r.dq, ref.dq, n2) < 1e-6);
        assert_true(tu_rms_rel(r.dv, ref.dv, n2) < 1e-6);
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_ID_DERIVS || meth == cs || rbd_method_supports(meth, m)) continue;
            check_against_cs(m, &st, &ref, meth);
        }
    }
    buf_free(&st);
    buf_free(&ref);
    buf_free(&r);
    rbd_model_free(m);
}

/* i and j related if one is an ancestor of (or equal to) the other */
static int related(const rbd_model *m, int bi, int bj)
{
    if (bi > bj) { int t = bi; bi = bj; bj = t; }
    return bj >= bi && bj < m->subtree_end[bi];
}

static void test_structural_zeros(void **s)
{
    (void)s;
    const char *specs[] = { "autotree:N=20,bf=2,skew=0.5,taper=0.9", "autotree:N=31,bf=5,skew=1,taper=0.95" };
    for (int t = 0; t < 2; t++) {
        rbd_model *m = tu_model(specs[t]);
        evalbuf st, r;
        buf_new(m, &st);
        buf_new(m, &r);
        rbd_rng rng;
        rbd_rng_seed(&rng, 5 + t);
        rbd_random_state(m, &rng, st.q, st.v, st.a, NULL);
        const int nv = m->nv;
        int nzero = 0;
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_ID_DERIVS || tolerance_of(meth) > 1e-10) continue;
            eval_method(meth, m, &st, &r);
            for (int j = 0; j < nv; j++)
                for (int i = 0; i < nv; i++) {
                    if (related(m, m->dof_body[i], m->dof_body[j])) continue;
                    nzero++;
                    if (r.dq[i + nv * j] != 0 || r.dv[i + nv * j] != 0)
                        fail_msg("%s on %s: entry (%d,%d) is structurally zero but dtau_dq = %g, dtau_dv = %g",
                                 meth->name, m->spec, i, j, r.dq[i + nv * j], r.dv[i + nv * j]);
                }
        }
        assert_true(nzero > 0);
        buf_free(&st);
        buf_free(&r);
        rbd_model_free(m);
    }
}

/* rbd_options.zeros_preset: with outputs cleared once and then reused, every
 * method gives, call after call, exactly what it gives on poisoned outputs
 * without the option (idsva's pair products, short and long chains included,
 * its blocked products on a long chain, pin26; methods that write every
 * entry anyway). */
static void test_zeros_preset(void **s)
{
    (void)s;
    const char *specs[] = { "autotree:N=20,bf=2,skew=0.5,taper=0.9", "autotree:N=31,bf=5,skew=1,taper=0.95",
                            "autotree:N=9,bf=1,skew=0.5,taper=0.9",
                            "autotree:N=40,bf=1,skew=0.5,taper=0.9", "urdf:" RBD_SOURCE_DIR "/tests/models/hyq.urdf,freeflyer" };
    for (int t = 0; t < 5; t++) {
        rbd_model *m = tu_model(specs[t]);
        const size_t nv = (size_t)m->nv;
        evalbuf a, b, r, z;
        buf_new(m, &a);
        buf_new(m, &b);
        buf_new(m, &r);
        buf_new(m, &z);
        rbd_rng rng;
        rbd_rng_seed(&rng, 11 + t);
        rbd_random_state(m, &rng, a.q, a.v, a.a, NULL);
        rbd_random_state(m, &rng, b.q, b.v, b.a, NULL);
        int checked = 0;
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_ID_DERIVS || rbd_method_supports(meth, m)) continue;
            eval_method(meth, m, &b, &r);
            rbd_options o;
            rbd_options_default(&o);
            o.zeros_preset = 1;
            void *ws = NULL;
            if (meth->init(m, &o, &ws)) fail_msg("%s init on %s: %s", meth->name, m->spec, rbd_last_error());
            memset(z.dq, 0, sizeof(double) * nv * nv);
            memset(z.dv, 0, sizeof(double) * nv * nv);
            rbd_derivs d = { .tau = z.tau, .dtau_dq = z.dq, .dtau_dv = z.dv };
            const rbd_state xa = { .q = a.q, .v = a.v, .a = a.a }, xb = { .q = b.q, .v = b.v, .a = b.a };
            if (meth->eval(ws, &xa, &d) || meth->eval(ws, &xb, &d))
                fail_msg("%s eval on %s: %s", meth->name, m->spec, rbd_last_error());
            meth->fini(ws);
            if (memcmp(z.dq, r.dq, sizeof(double) * nv * nv) || memcmp(z.dv, r.dv, sizeof(double) * nv * nv) ||
                memcmp(z.tau, r.tau, sizeof(double) * nv))
                fail_msg("%s on %s: the second call with zeros_preset differs from a full write", meth->name,
                         m->spec);
            checked++;
        }
        assert_true(checked >= 4);
        buf_free(&a); buf_free(&b); buf_free(&r); buf_free(&z);
        rbd_model_free(m);
    }
}

static void test_bad_arguments(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=4,bf=2");
    evalbuf st;
    buf_new(m, &st);
    rbd_rng rng;
    rbd_rng_seed(&rng, 9);
    rbd_random_state(m, &rng, st.q, st.v, st.a, NULL);
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (meth->output != RBD_ID_DERIVS) continue;
        void *ws = (void *)&st;
        rbd_clear_error();
        assert_true(meth->init(NULL, NULL, &ws) < 0);
        assert_true(strlen(rbd_last_error()) > 0);
        assert_true(meth->init(m, NULL, NULL) < 0);
        ws = NULL;
        assert_int_equal(meth->init(m, NULL, &ws), 0);
        rbd_state x = { .q = st.q, .v = st.v, .a = st.a };
        rbd_derivs d = { .tau = st.tau, .dtau_dq = st.dq, .dtau_dv = st.dv };
        rbd_derivs bad;
        rbd_state badx;
        for (int which = 0; which < 7; which++) {
            bad = d;
            badx = x;
            switch (which) {
            case 0: bad.tau = NULL; break;
            case 1: bad.dtau_dq = NULL; break;
            case 2: bad.dtau_dv = NULL; break;
            case 3: badx.q = NULL; break;
            case 4: badx.v = NULL; break;
            case 5: badx.a = NULL; break;
            default: break;
            }
            rbd_clear_error();
            int rc = which < 6 ? meth->eval(ws, &badx, &bad) : meth->eval(ws, NULL, &d);
            if (rc != RBD_EINVAL) fail_msg("%s: bad argument %d gave %d, not RBD_EINVAL", meth->name, which, rc);
            assert_true(strlen(rbd_last_error()) > 0);
        }
        assert_int_equal(meth->eval(ws, &x, NULL), RBD_EINVAL);
        assert_int_equal(meth->eval(NULL, &x, &d), RBD_EINVAL);
        assert_int_equal(meth->eval(ws, &x, &d), 0);
        meth->fini(ws);
        meth->fini(NULL);
    }
    buf_free(&st);
    rbd_model_free(m);
}

static void test_cs_step_option(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=3,bf=1,skew=0.5");
    const rbd_method *cs = rbd_method_find("id-cs");
    rbd_options o;
    rbd_options_default(&o);
    assert_true(o.cs_step == 1e-20);
    void *ws = NULL;
    o.cs_step = -1;
    assert_int_equal(cs->init(m, &o, &ws), RBD_EINVAL);
    assert_null(ws);
    rbd_model_free(m);
}

static void test_fd_forward_option(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=7,bf=2,skew=1,taper=0.9");
    evalbuf st, ref, r;
    buf_new(m, &st); buf_new(m, &ref); buf_new(m, &r);
    rbd_rng rng;
    rbd_rng_seed(&rng, 3);
    rbd_random_state(m, &rng, st.q, st.v, st.a, NULL);
    eval_method(rbd_method_find("id-cs"), m, &st, &ref);
    rbd_options o;
    rbd_options_default(&o);
    o.fd_forward = 1;
    const rbd_method *fd = rbd_method_find("id-fd");
    void *ws = NULL;
    assert_int_equal(fd->init(m, &o, &ws), 0);
    rbd_state x = { .q = st.q, .v = st.v, .a = st.a };
    rbd_derivs d = { .tau = r.tau, .dtau_dq = r.dq, .dtau_dv = r.dv };
    assert_int_equal(fd->eval(ws, &x, &d), 0);
    fd->fini(ws);
    size_t n2 = (size_t)m->nv * (size_t)m->nv;
    double eq = tu_rms_rel(r.dq, ref.dq, n2), ev = tu_rms_rel(r.dv, ref.dv, n2);
    /* forward differences: error ~ sqrt(eps), well above central's */
    assert_true(eq < 1e-5 && ev < 1e-5);
    assert_true(eq > 1e-12);
    buf_free(&st); buf_free(&ref); buf_free(&r);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_has_id_methods),
        cmocka_unit_test(test_agreement_autotree),
        cmocka_unit_test(test_ill_conditioned),
        cmocka_unit_test(test_multidof),
        cmocka_unit_test(test_structural_zeros),
        cmocka_unit_test(test_zeros_preset),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_cs_step_option),
        cmocka_unit_test(test_fd_forward_option),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
