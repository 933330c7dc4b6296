/*
 * Generic checks of every registered forward-dynamics derivative method
 * (output RBD_FD_DERIVS), so a newly registered one is checked by being
 * registered:
 *  - agreement with `fd-cs` (complex step of ABA, exact to rounding) on
 *    autoTree bf = 1, 2, 5, N in {1, 2, 3, 7, 20, 60}, random states, planar
 *    and skewed/tapered: term-wise RMS relative error (reference/README.md) and max
 *    error; fd-fd by max error only (its error is absolute);
 *  - qdd equals rbd_aba's, dqdd_dtau equals rbd_minv's M^-1 (each variant);
 *  - fdsva-aza, fdsva-factored and fdsva-forces equal fdsva-dmm (and the
 *    other DMM flavours) to 1e-12 (fdcr-forces, more accurate than either
 *    on these chains, by the fd-cs agreement alone);
 *  - multi-dof joints (free-flyer, spherical, prismatic, off-axis revolute);
 *  - bad arguments and options give error codes and a message.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

static int is_fd_fd(const rbd_method *meth) { return strcmp(meth->name, "fd-fd") == 0; }
/* fdsva-1pass gets qdd0 and M^-1 in ground coordinates (fd_ground.c), where
 * inertias about a far origin add with cancellation: on the N = 20 planar
 * chain of taper 0.9, qdd to 1.3e-12 of max|qdd| and M^-1 to 3.4e-12 of its
 * largest entry (measured), against ~1e-14 by the body-frame passes. */
static int is_one_pass(const rbd_method *meth) { return strcmp(meth->name, "fdsva-1pass") == 0; }

typedef struct {
    double *q, *v, *tau, *qdd, *dq, *dv, *dt;
} evalbuf;

static void buf_new(const rbd_model *m, evalbuf *b)
{
    size_t nv = (size_t)m->nv;
    b->q = malloc(sizeof(double) * (size_t)m->nq);
    b->v = malloc(sizeof(double) * nv);
    b->tau = malloc(sizeof(double) * nv);
    b->qdd = malloc(sizeof(double) * nv);
    b->dq = malloc(sizeof(double) * nv * nv);
    b->dv = malloc(sizeof(double) * nv * nv);
    b->dt = malloc(sizeof(double) * nv * nv);
}

static void buf_free(evalbuf *b)
{
    free(b->q); free(b->v); free(b->tau); free(b->qdd); free(b->dq); free(b->dv); free(b->dt);
}

static void eval_opts(const rbd_method *meth, const rbd_model *m, const rbd_options *o, const evalbuf *st,
                      evalbuf *out)
{
    void *ws = NULL;
    int rc = meth->init(m, o, &ws);
    if (rc) fail_msg("%s init on %s: %s", meth->name, m->spec, rbd_last_error());
    rbd_state x = { .q = st->q, .v = st->v, .tau = st->tau };
    rbd_derivs d = { .qdd = out->qdd, .dqdd_dq = out->dq, .dqdd_dv = out->dv, .dqdd_dtau = out->dt };
    size_t nv = (size_t)m->nv;
    for (size_t k = 0; k < nv * nv; k++) out->dq[k] = out->dv[k] = out->dt[k] = NAN;   /* every entry must be written */
    for (size_t k = 0; k < nv; k++) out->qdd[k] = NAN;
    rc = meth->eval(ws, &x, &d);
    if (rc) fail_msg("%s eval on %s: %s", meth->name, m->spec, rbd_last_error());
    meth->fini(ws);
}

static void eval_method(const rbd_method *meth, const rbd_model *m, const evalbuf *st, evalbuf *out)
{
    eval_opts(meth, m, NULL, st, out);
}

/* rms_tol < 0: max error only (see test_agreement_autotree) */
static void check_against(const rbd_model *m, const evalbuf *st, const evalbuf *ref, const rbd_method *meth,
                          const char *refname, double tol, double rms_tol)
{
    evalbuf r;
    buf_new(m, &r);
    eval_method(meth, m, st, &r);
    size_t nv = (size_t)m->nv, n2 = nv * nv;
    int approx = is_fd_fd(meth);
    if (approx) tol = 1e-6;
    char what[256];
    const char *name[3] = { "dqdd_dq", "dqdd_dv", "dqdd_dtau" };
    const double *X[3] = { r.dq, r.dv, r.dt }, *R[3] = { ref->dq, ref->dv, ref->dt };
    for (int w = 0; w < 3; w++) {
        double rms = tu_rms_rel(X[w], R[w], n2);
        if (!approx && rms_tol > 0 && !(rms <= rms_tol))
            fail_msg("%s %s on %s: RMS relative error against %s %.3g > %.3g", meth->name, name[w], m->spec, refname,
                     rms, rms_tol);
        snprintf(what, sizeof what, "%s %s on %s (vs %s)", meth->name, name[w], m->spec, refname);
        tu_assert_close(what, X[w], R[w], nv, nv, approx ? tol : 10 * tol);
    }
    snprintf(what, sizeof what, "%s qdd on %s", meth->name, m->spec);
    tu_assert_close(what, r.qdd, ref->qdd, nv, 1, is_one_pass(meth) ? 1e-10 : 1e-12);
    buf_free(&r);
}

/* Every FD method against fd-cs on one model, at nstates random states;
 * fd-cs's qdd against rbd_aba and its M^-1 against rbd_minv. */
static void check_model_m(rbd_model *m, int nstates, uint64_t seed, double rms_tol)
{
    const rbd_method *cs = rbd_method_find("fd-cs");
    assert_non_null(cs);
    evalbuf st, ref;
    buf_new(m, &st);
    buf_new(m, &ref);
    rbd_rng rng;
    rbd_rng_seed(&rng, seed);
    rbd_data *d = rbd_data_new(m);
    size_t nv = (size_t)m->nv;
    double *qdd = malloc(sizeof(double) * nv), *Mi = malloc(sizeof(double) * nv * nv);
    for (int s = 0; s < nstates; s++) {
        rbd_random_state(m, &rng, st.q, st.v, NULL, st.tau);
        eval_method(cs, m, &st, &ref);
        assert_int_equal(rbd_aba(m, d, st.q, st.v, st.tau, qdd), 0);
        tu_assert_close("fd-cs qdd vs rbd_aba", ref.qdd, qdd, nv, 1, 1e-12);
        assert_int_equal(rbd_minv(m, d, RBD_MINV_ANALYTIC, st.q, Mi), 0);
        if (!(tu_rms_rel(ref.dt, Mi, nv * nv) < 1e-10)) fail_msg("fd-cs dqdd_dtau is not M^-1 on %s", m->spec);
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_FD_DERIVS || meth == cs || rbd_method_supports(meth, m)) continue;
            check_against(m, &st, &ref, meth, "fd-cs", 1e-9, rms_tol);
        }
    }
    free(qdd); free(Mi);
    rbd_data_free(d);
    buf_free(&st);
    buf_free(&ref);
}

static void check_model(const char *spec, int nstates, uint64_t seed, double rms_tol)
{
    rbd_model *m = tu_model(spec);
    check_model_m(m, nstates, seed, rms_tol);
    rbd_model_free(m);
}

static void test_registry_has_fd_methods(void **s)
{
    (void)s;
    const char *want[] = { "fd-fd", "fd-cs", "abacr", "fdcr", "pin26-fd", "fdsva-dmm", "fdsva-dmm-loop",
                           "fdsva-dmm-sparse", "fdsva-aza", "fdsva" };
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        const rbd_method *meth = rbd_method_find(want[k]);
        if (!meth) fail_msg("method %s is not registered", want[k]);
        assert_int_equal(meth->output, RBD_FD_DERIVS);
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
            /* eq. (5) cancels: in the planar chains of 20 and 60 bodies
             * (cond(M) ~ 1e8 and more) some entries are ~1e-12 max|R| after
             * cancellation in M^-1 dID/du, and every method, fd-cs included,
             * carries ~1e-12 max|R| absolute rounding there (measured: RMS
             * relative 7e-9 at N = 20, 7e-2 at N = 60, max error 3e-12):
             * those models get the max-error check only, and the skewed
             * N = 60 chain (measured 2e-9) a 1e-8 RMS bound.  The MPFR
             * reference (test_fd_reference) settles who is right there. */
            snprintf(spec, sizeof spec, "autotree:N=%d,bf=%g", Ns[n], bfs[b]);
            check_model(spec, 2, seed++, bfs[b] == 1 && Ns[n] >= 20 ? -1 : 1e-9);
            /* taper 0.97 at N = 60 as in test_id_methods (conditioning) */
            snprintf(spec, sizeof spec, "autotree:N=%d,bf=%g,skew=1.0471975511965976,taper=%g", Ns[n], bfs[b],
                     Ns[n] > 20 ? 0.97 : 0.9);
            check_model(spec, 2, seed++, bfs[b] == 1 && Ns[n] == 60 ? 1e-8 : 1e-9);
        }
    check_model("autotree:N=13,bf=1.5,skew=-0.4,taper=1.1", 2, seed++, 1e-9);
}

static void test_multidof(void **s)
{
    (void)s;
    for (int t = 0; t < 2; t++) {
        rbd_model *m = t ? tu_multidof_chain() : tu_multidof_tree();
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            if (meth->output != RBD_FD_DERIVS) continue;
            if (rbd_method_supports(meth, m)) fail_msg("%s does not declare the multi-dof joints", meth->name);
        }
        /* The 26-dof chain's smallest entries come out of cancellation: with
         * FMA contraction (-march=native) pin26-fd measured 1.1e-9 RMS
         * relative against fd-cs there (max error stays <= 1e-9), so that
         * model gets 2e-9; the branched tree keeps 1e-9. */
        check_model_m(m, 4, 77 + t, t ? 2e-9 : 1e-9);
        rbd_model_free(m);
    }
}

/* AZA, the factored product and the three DMMs compute the same product;
 * dqdd_dtau is M^-1 by every variant rbd_options.minv selects. */
static void test_combinations_agree(void **s)
{
    (void)s;
    const char *specs[] = { "autotree:N=37,bf=1,skew=0.7,taper=0.95", "autotree:N=40,bf=2,skew=1,taper=0.95",
                            "autotree:N=23,bf=5,skew=-0.5,taper=0.9" };
    const char *others[] = { "fdsva-aza", "fdsva-factored", "fdsva-dmm-loop", "fdsva-dmm-sparse", "fdsva",
                             "fdsva-forces" };
    for (int t = 0; t < 3; t++) {
        rbd_model *m = tu_model(specs[t]);
        evalbuf st, ref, r;
        buf_new(m, &st); buf_new(m, &ref); buf_new(m, &r);
        rbd_rng rng;
        rbd_rng_seed(&rng, 40 + t);
        rbd_random_state(m, &rng, st.q, st.v, NULL, st.tau);
        eval_method(rbd_method_find("fdsva-dmm"), m, &st, &ref);
        size_t n2 = (size_t)m->nv * (size_t)m->nv;
        for (int k = 0; k < 6; k++) {
            eval_method(rbd_method_find(others[k]), m, &st, &r);
            /* relative to max|entry| (term-wise, cancelled entries differ
             * in their last digits by ~1e-9 relative between any two orders
             * of summation) */
            double e = fmax(tu_max_rel(r.dq, ref.dq, n2), tu_max_rel(r.dv, ref.dv, n2));
            if (!(e <= 1e-12)) fail_msg("%s vs fdsva-dmm on %s: %.3g", others[k], m->spec, e);
        }
        rbd_data *d = rbd_data_new(m);
        double *Mi = malloc(sizeof(double) * n2), *Ma = malloc(sizeof(double) * n2);
        double *qdd = malloc(sizeof(double) * (size_t)m->nv);
        for (int kind = 0; kind < RBD_MINV_NKINDS; kind++) {
            rbd_options o;
            rbd_options_default(&o);
            o.minv = (rbd_minv_kind)kind;
            assert_int_equal(rbd_minv(m, d, o.minv, st.q, Mi), 0);
            if (o.minv == RBD_MINV_ANALYTIC) {
                /* the compositions take the analytic M^-1 after their ABA
                 * (rbd_minv_analytic_after_aba): that code is the bit-for-bit
                 * reference; rbd_minv's own articulated-inertia pass (a joint
                 * about e_k under a rotated Xtree carries Ia without its zero
                 * row and column, minv_analytic.c) agrees to rounding */
                assert_int_equal(rbd_aba(m, d, st.q, st.v, st.tau, qdd), 0);
                rbd_minv_analytic_after_aba(m, d, Ma);
                tu_assert_close("rbd_minv analytic vs after ABA", Mi, Ma, (size_t)m->nv, (size_t)m->nv, 1e-12);
                memcpy(Mi, Ma, sizeof(double) * n2);
            }
            for (int k = 0; rbd_methods[k]; k++) {
                const rbd_method *meth = rbd_methods[k];
                if (meth->output != RBD_FD_DERIVS || strncmp(meth->name, "fd", 2) || !strcmp(meth->name, "fd-fd") ||
                    !strcmp(meth->name, "fd-cs"))
                    continue;
                eval_opts(meth, m, &o, &st, &r);
                /* the same M^-1 code, so the same bits; fdsva-1pass's own analytic M^-1 to rounding */
                int own = is_one_pass(meth) && o.minv == RBD_MINV_ANALYTIC;
                tu_assert_close(meth->name, r.dt, Mi, (size_t)m->nv, (size_t)m->nv, own ? 1e-10 : 0);
                double e = fmax(tu_max_rel(r.dq, ref.dq, n2), tu_max_rel(r.dv, ref.dv, n2));
                if (!(e <= (own ? 1e-9 : 1e-11))) fail_msg("%s with M^-1 %s on %s: %.3g", meth->name, rbd_minv_name(o.minv), m->spec, e);
            }
        }
        free(Mi); free(Ma); free(qdd);
        rbd_data_free(d);
        buf_free(&st); buf_free(&ref); buf_free(&r);
        rbd_model_free(m);
    }
}

static int same_fd(const rbd_model *m, const evalbuf *a, const evalbuf *b)
{
    size_t n = (size_t)m->nv, n2 = n * n;
    return !memcmp(a->qdd, b->qdd, sizeof(double) * n) && !memcmp(a->dq, b->dq, sizeof(double) * n2) &&
           !memcmp(a->dv, b->dv, sizeof(double) * n2) && !memcmp(a->dt, b->dt, sizeof(double) * n2);
}

/* Below the crossover fdsva times the sparse loop and dgemm at init and
 * runs the faster: which one is the machine's business, but the output is
 * bit for bit one of fdsva-dmm-sparse's and fdsva-dmm's.  With
 * fdsva_dmm_rule it is the fixed rule's: the sparse loop on a chain of 10,
 * dgemm below 6 dofs. */
static void test_fdsva_dmm_choice(void **s)
{
    (void)s;
    const char *specs[] = { "autotree:N=10,bf=1,skew=0.3,taper=0.9", "autotree:N=4,bf=1,skew=0.3,taper=0.9",
                            "autotree:N=20,bf=2,skew=0.3,taper=0.9" };
    const rbd_method *f = rbd_method_find("fdsva"), *sp = rbd_method_find("fdsva-dmm-sparse"),
                     *bl = rbd_method_find("fdsva-dmm");
    assert_non_null(f); assert_non_null(sp); assert_non_null(bl);
    for (int t = 0; t < 3; t++) {
        rbd_model *m = tu_model(specs[t]);
        evalbuf st, a, rs, rb;
        buf_new(m, &st); buf_new(m, &a); buf_new(m, &rs); buf_new(m, &rb);
        rbd_rng rng;
        rbd_rng_seed(&rng, 21 + t);
        rbd_random_state(m, &rng, st.q, st.v, NULL, st.tau);
        eval_method(sp, m, &st, &rs);
        eval_method(bl, m, &st, &rb);
        eval_method(f, m, &st, &a);
        if (!same_fd(m, &a, &rs) && !same_fd(m, &a, &rb))
            fail_msg("fdsva on %s is neither fdsva-dmm-sparse's nor fdsva-dmm's output", m->spec);
        rbd_options o;
        rbd_options_default(&o);
        o.fdsva_dmm_rule = 1;
        eval_opts(f, m, &o, &st, &a);
        assert_true(same_fd(m, &a, t == 1 ? &rb : &rs));
        buf_free(&st); buf_free(&a); buf_free(&rs); buf_free(&rb);
        rbd_model_free(m);
    }
}

/* fdsva switches at rbd_options.fdsva_crossover: the same numbers either way
 * (to rounding), and a negative crossover is refused. */
static void test_fdsva_crossover_option(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=12,bf=2,skew=0.3,taper=0.9");
    const rbd_method *f = rbd_method_find("fdsva");
    evalbuf st, a, b;
    buf_new(m, &st); buf_new(m, &a); buf_new(m, &b);
    rbd_rng rng;
    rbd_rng_seed(&rng, 8);
    rbd_random_state(m, &rng, st.q, st.v, NULL, st.tau);
    rbd_options o;
    rbd_options_default(&o);
    o.fdsva_crossover = 1;          /* the factored product */
    eval_opts(f, m, &o, &st, &a);
    o.fdsva_crossover = 1000;       /* DMM */
    eval_opts(f, m, &o, &st, &b);
    size_t n2 = (size_t)m->nv * (size_t)m->nv;
    assert_true(tu_max_rel(a.dq, b.dq, n2) < 1e-12);
    assert_true(tu_max_rel(a.dv, b.dv, n2) < 1e-12);
    o.fdsva_crossover = -3;
    void *ws = NULL;
    assert_int_equal(f->init(m, &o, &ws), RBD_EINVAL);
    assert_null(ws);
    o.fdsva_crossover = 0;
    o.minv = RBD_MINV_NKINDS;
    assert_int_equal(f->init(m, &o, &ws), RBD_EINVAL);
    assert_null(ws);
    buf_free(&st); buf_free(&a); buf_free(&b);
    rbd_model_free(m);
}

static void test_bad_arguments(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=4,bf=2");
    evalbuf st;
    buf_new(m, &st);
    rbd_rng rng;
    rbd_rng_seed(&rng, 9);
    rbd_random_state(m, &rng, st.q, st.v, NULL, st.tau);
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (meth->output != RBD_FD_DERIVS) continue;
        void *ws = (void *)&st;
        rbd_clear_error();
        assert_true(meth->init(NULL, NULL, &ws) < 0);
        assert_true(strlen(rbd_last_error()) > 0);
        assert_true(meth->init(m, NULL, NULL) < 0);
        ws = NULL;
        assert_int_equal(meth->init(m, NULL, &ws), 0);
        rbd_state x = { .q = st.q, .v = st.v, .tau = st.tau };
        rbd_derivs d = { .qdd = st.qdd, .dqdd_dq = st.dq, .dqdd_dv = st.dv, .dqdd_dtau = st.dt };
        for (int which = 0; which < 8; which++) {
            rbd_derivs bad = d;
            rbd_state badx = x;
            switch (which) {
            case 0: bad.qdd = NULL; break;
            case 1: bad.dqdd_dq = NULL; break;
            case 2: bad.dqdd_dv = NULL; break;
            case 3: bad.dqdd_dtau = NULL; break;
            case 4: badx.q = NULL; break;
            case 5: badx.v = NULL; break;
            case 6: badx.tau = NULL; break;
            default: break;
            }
            rbd_clear_error();
            int rc = which < 7 ? meth->eval(ws, &badx, &bad) : meth->eval(ws, NULL, &d);
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

/* fd-cs refuses a bad step; fd-fd's forward differences are coarser than
 * its central ones but still close. */
static void test_step_options(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=7,bf=2,skew=1,taper=0.9");
    rbd_options o;
    rbd_options_default(&o);
    o.cs_step = -1;
    void *ws = NULL;
    assert_int_equal(rbd_method_find("fd-cs")->init(m, &o, &ws), RBD_EINVAL);
    assert_null(ws);
    evalbuf st, ref, r;
    buf_new(m, &st); buf_new(m, &ref); buf_new(m, &r);
    rbd_rng rng;
    rbd_rng_seed(&rng, 3);
    rbd_random_state(m, &rng, st.q, st.v, NULL, st.tau);
    eval_method(rbd_method_find("fd-cs"), m, &st, &ref);
    rbd_options_default(&o);
    o.fd_forward = 1;
    eval_opts(rbd_method_find("fd-fd"), m, &o, &st, &r);
    size_t n2 = (size_t)m->nv * (size_t)m->nv;
    double e = fmax(tu_max_rel(r.dq, ref.dq, n2), fmax(tu_max_rel(r.dv, ref.dv, n2), tu_max_rel(r.dt, ref.dt, n2)));
    assert_true(e < 1e-5 && e > 1e-12);
    buf_free(&st); buf_free(&ref); buf_free(&r);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_has_fd_methods),
        cmocka_unit_test(test_agreement_autotree),
        cmocka_unit_test(test_multidof),
        cmocka_unit_test(test_combinations_agree),
        cmocka_unit_test(test_fdsva_crossover_option),
        cmocka_unit_test(test_fdsva_dmm_choice),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_step_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
