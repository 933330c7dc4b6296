/*
 * The reference against closed-form Lagrangian dynamics of the planar 2R arm
 * (Modern Robotics ch. 8.1, papers/modern-robotics-ch8-inverse-dynamics-zh.md):
 * point masses m1, m2 at the link ends, joints about z, gravity g along -y.
 *   M = [m1 L1^2 + m2 (L1^2 + 2 L1 L2 c2 + L2^2),  m2 (L1 L2 c2 + L2^2);
 *        m2 (L1 L2 c2 + L2^2),                     m2 L2^2]
 *   h1 = -m2 L1 L2 s2 (2 qd1 qd2 + qd2^2) + (m1 + m2) L1 g c1 + m2 g L2 c12
 *   h2 =  m2 L1 L2 s2 qd1^2 + m2 g L2 c12,        tau = M qdd + h.
 * dtau/dq and dtau/dqd are differentiated by hand below; the FD half follows
 * from qdd = M^-1 (tau - h): dqdd/dx = -M^-1 dID/dx at qdd = FD, dqdd/dtau = M^-1.
 * Everything is evaluated in MPFR from the same doubles and compared to 1e-30.
 */
#include <stdarg.h>
#include <stdlib.h>
#include "testutil.h"
#include "rbdref.h"

#define PREC 256

/* r = product of n factors */
static void prod(mpfr_ptr r, int n, ...)
{
    va_list ap;
    va_start(ap, n);
    mpfr_set_ui(r, 1, MPFR_RNDN);
    for (int k = 0; k < n; k++) mpfr_mul(r, r, va_arg(ap, mpfr_srcptr), MPFR_RNDN);
    va_end(ap);
}

/* r += s * product of n factors (s = +-1, +-2) */
static void acc(mpfr_ptr r, long s, int n, ...)
{
    mpfr_t t;
    mpfr_init2(t, PREC);
    mpfr_set_si(t, s, MPFR_RNDN);
    va_list ap;
    va_start(ap, n);
    for (int k = 0; k < n; k++) mpfr_mul(t, t, va_arg(ap, mpfr_srcptr), MPFR_RNDN);
    va_end(ap);
    mpfr_add(r, r, t, MPFR_RNDN);
    mpfr_clear(t);
}

typedef struct {
    mpfr_t m1, m2, L1, L2, g, c1, s1, c2, s2, c12, s12, qd1, qd2;
} arm;

/* M (2x2, column-major) at q */
static void arm_M(const arm *A, mpfr_t M[4])
{
    for (int k = 0; k < 4; k++) mpfr_set_ui(M[k], 0, MPFR_RNDN);
    acc(M[0], 1, 3, A->m1, A->L1, A->L1);
    acc(M[0], 1, 3, A->m2, A->L1, A->L1);
    acc(M[0], 2, 4, A->m2, A->L1, A->L2, A->c2);
    acc(M[0], 1, 3, A->m2, A->L2, A->L2);
    acc(M[2], 1, 4, A->m2, A->L1, A->L2, A->c2);
    acc(M[2], 1, 3, A->m2, A->L2, A->L2);
    mpfr_set(M[1], M[2], MPFR_RNDN);
    acc(M[3], 1, 3, A->m2, A->L2, A->L2);
}

/* h = c(q, qd) + g(q) */
static void arm_h(const arm *A, mpfr_t h[2])
{
    mpfr_set_ui(h[0], 0, MPFR_RNDN);
    mpfr_set_ui(h[1], 0, MPFR_RNDN);
    acc(h[0], -2, 6, A->m2, A->L1, A->L2, A->s2, A->qd1, A->qd2);
    acc(h[0], -1, 6, A->m2, A->L1, A->L2, A->s2, A->qd2, A->qd2);
    acc(h[0], 1, 4, A->m1, A->L1, A->g, A->c1);
    acc(h[0], 1, 4, A->m2, A->L1, A->g, A->c1);
    acc(h[0], 1, 4, A->m2, A->g, A->L2, A->c12);
    acc(h[1], 1, 6, A->m2, A->L1, A->L2, A->s2, A->qd1, A->qd1);
    acc(h[1], 1, 4, A->m2, A->g, A->L2, A->c12);
}

/* dID/dq and dID/dqd (column-major 2x2) at acceleration qdd */
static void arm_dID(const arm *A, mpfr_t qdd[2], mpfr_t Dq[4], mpfr_t Dv[4])
{
    for (int k = 0; k < 4; k++) { mpfr_set_ui(Dq[k], 0, MPFR_RNDN); mpfr_set_ui(Dv[k], 0, MPFR_RNDN); }
    /* d/dq1 */
    acc(Dq[0], -1, 4, A->m1, A->L1, A->g, A->s1);
    acc(Dq[0], -1, 4, A->m2, A->L1, A->g, A->s1);
    acc(Dq[0], -1, 4, A->m2, A->g, A->L2, A->s12);
    acc(Dq[1], -1, 4, A->m2, A->g, A->L2, A->s12);
    /* d/dq2 */
    acc(Dq[2], -2, 5, A->m2, A->L1, A->L2, A->s2, qdd[0]);
    acc(Dq[2], -1, 5, A->m2, A->L1, A->L2, A->s2, qdd[1]);
    acc(Dq[2], -2, 6, A->m2, A->L1, A->L2, A->c2, A->qd1, A->qd2);
    acc(Dq[2], -1, 6, A->m2, A->L1, A->L2, A->c2, A->qd2, A->qd2);
    acc(Dq[2], -1, 4, A->m2, A->g, A->L2, A->s12);
    acc(Dq[3], -1, 5, A->m2, A->L1, A->L2, A->s2, qdd[0]);
    acc(Dq[3], 1, 6, A->m2, A->L1, A->L2, A->c2, A->qd1, A->qd1);
    acc(Dq[3], -1, 4, A->m2, A->g, A->L2, A->s12);
    /* d/dqd */
    acc(Dv[0], -2, 5, A->m2, A->L1, A->L2, A->s2, A->qd2);
    acc(Dv[1], 2, 5, A->m2, A->L1, A->L2, A->s2, A->qd1);
    acc(Dv[2], -2, 5, A->m2, A->L1, A->L2, A->s2, A->qd1);
    acc(Dv[2], -2, 5, A->m2, A->L1, A->L2, A->s2, A->qd2);
}

/* y = A x for 2x2 column-major A */
static void mv2(mpfr_t A[4], mpfr_t x[2], mpfr_t y[2])
{
    for (int i = 0; i < 2; i++) {
        prod(y[i], 2, A[i], x[0]);
        acc(y[i], 1, 2, A[i + 2], x[1]);
    }
}

/* |x - ref| <= tol max(1, |ref|) for n entries */
static void check(const char *what, mpfr_ptr x, mpfr_t *ref, int n, double tol)
{
    mpfr_t d, s;
    mpfr_inits2(PREC, d, s, (mpfr_ptr)0);
    for (int k = 0; k < n; k++) {
        mpfr_sub(d, x + k, ref[k], MPFR_RNDN);
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_abs(s, ref[k], MPFR_RNDN);
        if (mpfr_cmp_ui(s, 1) < 0) mpfr_set_ui(s, 1, MPFR_RNDN);
        mpfr_div(d, d, s, MPFR_RNDN);
        if (!(mpfr_get_d(d, MPFR_RNDN) <= tol))
            fail_msg("2R arm %s entry %d: reference %.20g, closed form %.20g (rel. error %g)", what, k,
                     mpfr_get_d(x + k, MPFR_RNDN), mpfr_get_d(ref[k], MPFR_RNDN), mpfr_get_d(d, MPFR_RNDN));
    }
    mpfr_clears(d, s, (mpfr_ptr)0);
}

static void test_2r_arm(void **st)
{
    (void)st;
    const double m1 = 1.3, m2 = 0.7, L1 = 0.9, L2 = 0.6, g = 9.81;
    rbd_model_opts mo;
    rbd_model_opts_default(&mo);
    mo.gravity[0] = 0; mo.gravity[1] = -g; mo.gravity[2] = 0;
    rbd_builder *b = rbd_builder_new();
    rbd_joint jz = { RBD_JOINT_REVOLUTE, 2, { 0, 0, 1 } };
    sp_xform X1 = { { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { 0, 0, 0 } }, X2 = { { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, { L1, 0, 0 } };
    rbd_body_inertia in1 = { m1, { L1, 0, 0 }, { 0 } }, in2 = { m2, { L2, 0, 0 }, { 0 } };
    assert_int_equal(rbd_builder_add(b, -1, &jz, &X1, &in1, "shoulder", "link1"), 0);
    assert_int_equal(rbd_builder_add(b, 0, &jz, &X2, &in2, "elbow", "link2"), 0);
    rbd_model *m = NULL;
    if (rbd_builder_finish(b, &mo, "2R arm", &m)) fail_msg("%s", rbd_last_error());
    rbd_builder_free(b);

    const double states[2][8] = { { 0.7, -1.1, 0.4, -0.9, 0.3, 1.7, -2.0, 0.5 },
                                  { -2.5, 2.9, -1.6, 2.2, -0.8, 0.1, 3.0, -1.4 } };
    for (int c = 0; c < 2; c++) {
        const double *q = states[c], *v = q + 2, *a = q + 4, *tau = q + 6;
        rbdref_opts o;
        rbdref_opts_default(&o);
        rbdref_mp r;
        assert_int_equal(rbdref_mp_init(&r, 2, PREC), 0);
        if (rbdref_eval_mp(m, q, v, a, tau, &o, &r)) fail_msg("%s", rbd_last_error());

        arm A;
        mpfr_inits2(PREC, A.m1, A.m2, A.L1, A.L2, A.g, A.c1, A.s1, A.c2, A.s2, A.c12, A.s12, A.qd1, A.qd2,
                    (mpfr_ptr)0);
        mpfr_t M[4], Mi[4], h[2], tv[2], qdd[2], qddf[2], Dq[4], Dv[4], R[4], det, t;
        for (int k = 0; k < 4; k++) mpfr_inits2(PREC, M[k], Mi[k], Dq[k], Dv[k], R[k], (mpfr_ptr)0);
        for (int k = 0; k < 2; k++) mpfr_inits2(PREC, h[k], tv[k], qdd[k], qddf[k], (mpfr_ptr)0);
        mpfr_inits2(PREC, det, t, (mpfr_ptr)0);
        mpfr_set_d(A.m1, m1, MPFR_RNDN); mpfr_set_d(A.m2, m2, MPFR_RNDN);
        mpfr_set_d(A.L1, L1, MPFR_RNDN); mpfr_set_d(A.L2, L2, MPFR_RNDN); mpfr_set_d(A.g, g, MPFR_RNDN);
        mpfr_set_d(A.qd1, v[0], MPFR_RNDN); mpfr_set_d(A.qd2, v[1], MPFR_RNDN);
        mpfr_set_d(t, q[0], MPFR_RNDN); mpfr_sin_cos(A.s1, A.c1, t, MPFR_RNDN);
        mpfr_set_d(t, q[1], MPFR_RNDN); mpfr_sin_cos(A.s2, A.c2, t, MPFR_RNDN);
        mpfr_set_d(t, q[0], MPFR_RNDN); mpfr_add_d(t, t, q[1], MPFR_RNDN); mpfr_sin_cos(A.s12, A.c12, t, MPFR_RNDN);

        /* ID half */
        arm_M(&A, M);
        arm_h(&A, h);
        mpfr_set_d(qdd[0], a[0], MPFR_RNDN); mpfr_set_d(qdd[1], a[1], MPFR_RNDN);
        mv2(M, qdd, tv);
        for (int k = 0; k < 2; k++) mpfr_add(tv[k], tv[k], h[k], MPFR_RNDN);
        check("tau", r.tau, tv, 2, 1e-30);
        check("M", r.M, M, 4, 1e-30);
        arm_dID(&A, qdd, Dq, Dv);
        check("dtau_dq", r.dtau_dq, Dq, 4, 1e-30);
        check("dtau_dv", r.dtau_dv, Dv, 4, 1e-30);

        /* FD half: M^-1 of the 2x2, qdd = M^-1 (tau - h) */
        prod(det, 2, M[0], M[3]);
        acc(det, -1, 2, M[1], M[2]);
        mpfr_div(Mi[0], M[3], det, MPFR_RNDN); mpfr_div(Mi[3], M[0], det, MPFR_RNDN);
        mpfr_div(Mi[1], M[1], det, MPFR_RNDN); mpfr_neg(Mi[1], Mi[1], MPFR_RNDN);
        mpfr_set(Mi[2], Mi[1], MPFR_RNDN);
        check("Minv", r.Minv, Mi, 4, 1e-30);
        for (int k = 0; k < 2; k++) { mpfr_set_d(t, tau[k], MPFR_RNDN); mpfr_sub(tv[k], t, h[k], MPFR_RNDN); }
        mv2(Mi, tv, qddf);
        check("qdd", r.qdd, qddf, 2, 1e-30);
        arm_dID(&A, qddf, Dq, Dv);
        for (int j = 0; j < 2; j++) {
            mv2(Mi, Dq + 2 * j, R + 2 * j);
            for (int k = 0; k < 2; k++) mpfr_neg(R[2 * j + k], R[2 * j + k], MPFR_RNDN);
        }
        check("dqdd_dq", r.dqdd_dq, R, 4, 1e-30);
        for (int j = 0; j < 2; j++) {
            mv2(Mi, Dv + 2 * j, R + 2 * j);
            for (int k = 0; k < 2; k++) mpfr_neg(R[2 * j + k], R[2 * j + k], MPFR_RNDN);
        }
        check("dqdd_dv", r.dqdd_dv, R, 4, 1e-30);

        mpfr_clears(A.m1, A.m2, A.L1, A.L2, A.g, A.c1, A.s1, A.c2, A.s2, A.c12, A.s12, A.qd1, A.qd2, det, t,
                    (mpfr_ptr)0);
        for (int k = 0; k < 4; k++) mpfr_clears(M[k], Mi[k], Dq[k], Dv[k], R[k], (mpfr_ptr)0);
        for (int k = 0; k < 2; k++) mpfr_clears(h[k], tv[k], qdd[k], qddf[k], (mpfr_ptr)0);
        rbdref_mp_clear(&r);
    }
    rbd_model_free(m);
    mpfr_free_cache();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_2r_arm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
