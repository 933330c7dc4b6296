/*
 * Continuous joints (Pinocchio's unbounded revolute: nq = 2, q = (cos t,
 * sin t), nv = 1; README.md, "Conventions"):
 *  - X_J(cos t, sin t) is the revolute joint's X_J(t), also for a q that is
 *    not unit (q / |q|), and q (+) d rotates (cos, sin) by d exactly;
 *  - a tree mixing continuous joints with every other type, built twice
 *    (continuous, then the same joints revolute): the random state of one
 *    seed is the same configuration in both, so every registered method
 *    and the MPFR reference must give the same results on both;
 *  - every registered method on the continuous tree against the MPFR
 *    reference (1e-9 of max|R|, fd-fd 1e-6), the reference's own continuous
 *    code path included;
 *  - a zero (cos, sin) is refused, naming the joint and the q entries.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"
#include "rbdiff/method.h"
#include "rbdref.h"

static void test_jcalc_and_integrate(void **s)
{
    (void)s;
    const double axes[2][3] = { { 0, 0, 1 }, { 0.48, 0.6, 0.64 } };
    for (int a = 0; a < 2; a++) {
        rbd_joint rv = { .type = RBD_JOINT_REVOLUTE, .axis_id = a ? -1 : 2 };
        memcpy(rv.axis, axes[a], sizeof rv.axis);
        rbd_joint ct = rv;
        ct.type = RBD_JOINT_CONTINUOUS;
        for (double t = -3.0; t <= 3.0; t += 0.7) {
            /* buffers of the largest joint's size: the compiler sees every branch */
            sp_xform Xr, Xc, Xs;
            double tq[7] = { t }, q[7] = { cos(t), sin(t) }, q3[7] = { 3 * cos(t), 3 * sin(t) };
            sp_jcalc_joint(&rv, tq, &Xr);
            sp_jcalc_joint(&ct, q, &Xc);
            sp_jcalc_joint(&ct, q3, &Xs);
            tu_assert_close("continuous vs revolute X_J", Xc.E, Xr.E, 9, 1, 1e-15);
            tu_assert_close("continuous X_J of a non-unit q", Xs.E, Xr.E, 9, 1, 1e-15);
            double d[6] = { 0.37 }, qo[7], want[2] = { cos(t + d[0]), sin(t + d[0]) };
            sp_integrate_joint(&ct, q, d, 1.0, qo);
            tu_assert_close("(cos, sin) (+) d", qo, want, 2, 1, 1e-15);
        }
    }
}

/* The tree of tu_multidof_tree's kind with continuous joints about z and a
 * general axis, as continuous (cont = 1) or revolute (0). */
static rbd_model *tree(int cont)
{
    rbd_builder *b = rbd_builder_new();
    assert_non_null(b);
    const rbd_joint_type C = cont ? RBD_JOINT_CONTINUOUS : RBD_JOINT_REVOLUTE;
    const rbd_joint jt[] = {
        { .type = RBD_JOINT_FREEFLYER },
        { .type = C, .axis = { 0, 0, 1 } },
        { .type = RBD_JOINT_SPHERICAL },
        { .type = C, .axis = { 0.48, 0.6, 0.64 } },
        { .type = RBD_JOINT_PRISMATIC, .axis = { 0.6, 0, 0.8 } },
        { .type = RBD_JOINT_REVOLUTE, .axis = { 1, 0, 0 } },
        { .type = C, .axis = { 0, 1, 0 } },
        { .type = C, .axis = { 0, 0, 1 } },
    };
    const int parent[] = { -1, 0, 0, 1, 3, 2, 5, 6 };
    for (int i = 0; i < 8; i++) {
        sp_xform X;
        sp_xform_identity(&X);
        if (i > 0) {
            double c = cos(0.4 * i), sn = sin(0.4 * i);
            X.E[0] = c; X.E[1] = sn; X.E[3] = -sn; X.E[4] = c;
            X.r[0] = 0.4 + 0.1 * i; X.r[1] = -0.05 * i; X.r[2] = 0.1;
        }
        rbd_body_inertia in = { .mass = 1.5 - 0.1 * i, .com = { 0.1, 0.02 * i, -0.04 } };
        in.Ic[0] = 0.03; in.Ic[4] = 0.02 + 0.002 * i; in.Ic[8] = 0.025;
        in.Ic[2] = in.Ic[6] = 0.003;
        char name[16];
        snprintf(name, sizeof name, "k%d", i);
        assert_int_equal(rbd_builder_add(b, parent[i], &jt[i], &X, &in, name, name), 0);
    }
    rbd_model *m = NULL;
    if (rbd_builder_finish(b, NULL, cont ? "continuous-tree" : "revolute-tree", &m)) fail_msg("%s", rbd_last_error());
    rbd_builder_free(b);
    return m;
}

typedef struct { double *o[4]; } outs;

static void run(const rbd_method *meth, const rbd_model *m, const double *q, const double *v, const double *a,
                const double *tau, outs *r)
{
    size_t nv = (size_t)m->nv;
    for (int k = 0; k < 4; k++) r->o[k] = calloc(nv * (k == 0 ? 1 : nv), sizeof(double));
    void *ws = NULL;
    if (meth->init(m, NULL, &ws)) fail_msg("%s on %s: %s", meth->name, m->spec, rbd_last_error());
    rbd_state x = { .q = q, .v = v, .a = a, .tau = tau };
    rbd_derivs d;
    if (meth->output == RBD_ID_DERIVS) d = (rbd_derivs){ .tau = r->o[0], .dtau_dq = r->o[1], .dtau_dv = r->o[2] };
    else d = (rbd_derivs){ .qdd = r->o[0], .dqdd_dq = r->o[1], .dqdd_dv = r->o[2], .dqdd_dtau = r->o[3] };
    if (rbd_method_eval(meth, ws, m, &x, &d)) fail_msg("%s on %s: %s", meth->name, m->spec, rbd_last_error());
    meth->fini(ws);
}

static void outs_free(outs *r)
{
    for (int k = 0; k < 4; k++) free(r->o[k]);
}

static void test_every_method(void **s)
{
    (void)s;
    rbd_model *mc = tree(1), *mr = tree(0);
    assert_int_equal(mc->nv, mr->nv);
    assert_int_equal(mc->nq, mr->nq + 4);
    size_t nv = (size_t)mc->nv;
    double *qc = malloc(sizeof(double) * (size_t)mc->nq), *qr = malloc(sizeof(double) * (size_t)mr->nq);
    double *v = malloc(sizeof(double) * nv), *a = malloc(sizeof(double) * nv), *tau = malloc(sizeof(double) * nv);
    double *v2 = malloc(sizeof(double) * nv), *a2 = malloc(sizeof(double) * nv), *t2 = malloc(sizeof(double) * nv);
    for (int st = 0; st < 2; st++) {
        rbd_rng r1, r2;
        rbd_rng_seed(&r1, 77 + st);
        rbd_rng_seed(&r2, 77 + st);
        rbd_random_state(mc, &r1, qc, v, a, tau);
        rbd_random_state(mr, &r2, qr, v2, a2, t2);
        assert_memory_equal(v, v2, sizeof(double) * nv);      /* the same draws */
        rbdref_result ref, refr;
        assert_int_equal(rbdref_result_init(&ref, mc->nv), 0);
        assert_int_equal(rbdref_result_init(&refr, mr->nv), 0);
        if (rbdref_eval(mc, qc, v, a, tau, NULL, &ref)) fail_msg("rbdref: %s", rbd_last_error());
        if (rbdref_eval(mr, qr, v, a, tau, NULL, &refr)) fail_msg("rbdref: %s", rbd_last_error());
        /* the reference's continuous path against its revolute path */
        const char *rn[4] = { "dtau_dq", "dqdd_dq", "M", "tau" };
        const double *rc_[4] = { ref.dtau_dq, ref.dqdd_dq, ref.M, ref.tau }, *rr_[4] = { refr.dtau_dq, refr.dqdd_dq,
                                                                                       refr.M, refr.tau };
        for (int k = 0; k < 4; k++) tu_assert_close(rn[k], rc_[k], rr_[k], nv, k < 3 ? nv : 1, 1e-15);
        int checked = 0;
        for (int k = 0; rbd_methods[k]; k++) {
            const rbd_method *meth = rbd_methods[k];
            assert_int_equal(rbd_method_supports(meth, mc), 0);
            outs oc, orv;
            run(meth, mc, qc, v, a, tau, &oc);
            run(meth, mr, qr, v, a, tau, &orv);
            int id = meth->output == RBD_ID_DERIVS;
            const double *R[4] = { id ? ref.tau : ref.qdd, id ? ref.dtau_dq : ref.dqdd_dq,
                                   id ? ref.dtau_dv : ref.dqdd_dv, ref.Minv };
            double tol = strcmp(meth->name, "fd-fd") && strcmp(meth->name, "id-fd") ? 1e-9 : 1e-6;
            for (int t = 0; t < (id ? 3 : 4); t++) {
                char what[128];
                snprintf(what, sizeof what, "%s output %d, continuous vs revolute", meth->name, t);
                tu_assert_close(what, oc.o[t], orv.o[t], nv, t ? nv : 1, tol);
                snprintf(what, sizeof what, "%s output %d vs the MPFR reference", meth->name, t);
                tu_assert_close(what, oc.o[t], R[t], nv, t ? nv : 1, tol);
            }
            outs_free(&oc);
            outs_free(&orv);
            checked++;
        }
        assert_true(checked >= 18);
        rbdref_result_free(&ref);
        rbdref_result_free(&refr);
    }
    free(qc); free(qr); free(v); free(a); free(tau); free(v2); free(a2); free(t2);
    rbd_model_free(mc);
    rbd_model_free(mr);
}

static void test_zero_pair_refused(void **s)
{
    (void)s;
    rbd_model *m = tree(1);
    double *q = calloc((size_t)m->nq, sizeof *q), *v = calloc((size_t)m->nv, sizeof *v);
    rbd_neutral(m, q);
    rbd_state x = { .q = q, .v = v };
    assert_int_equal(rbd_check_state(m, &x, "test"), 0);
    int i = 0;
    while (strcmp(m->joint_name[i], "k3")) i++;
    q[m->idx_q[i]] = 0;             /* (0, 0) */
    assert_int_equal(rbd_check_state(m, &x, "test"), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "joint 'k3': (cos, sin) q["));
    assert_non_null(strstr(rbd_last_error(), "is zero (not a rotation)"));
    free(q); free(v);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jcalc_and_integrate),
        cmocka_unit_test(test_every_method),
        cmocka_unit_test(test_zero_pair_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
