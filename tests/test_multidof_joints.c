/*
 * Spherical and free-flyer joint kinematics (joint_tpl.h) against independent
 * formulas: the quaternion rotation equals Rodrigues' formula of the revolute
 * path; q (+) w = q * exp(w) is a right (local) perturbation; the exponential
 * satisfies exp(d) = exp(d/2) exp(d/2) (which pins V(w) of SE(3)); the series
 * and closed forms of the so(3) coefficients agree where they switch; and a
 * spherical joint moves like a free-flyer whose translation is held.
 * (Pinocchio's free-flyer conventions are checked in test_urdf_reference.c.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"

static void rand_unit_quat(rbd_rng *r, double q[4])
{
    double n2;
    do {
        n2 = 0;
        for (int k = 0; k < 4; k++) { q[k] = rbd_rng_uniform(r); n2 += q[k] * q[k]; }
    } while (n2 > 1 || n2 < 1e-2);
    for (int k = 0; k < 4; k++) q[k] /= sqrt(n2);
}

/* E of a rotation by |w| about w/|w| through the revolute (Rodrigues) path */
static void E_of_rotvec(const double w[3], double E[9])
{
    double t = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    rbd_joint j = { .type = RBD_JOINT_REVOLUTE, .axis_id = -1, .axis = { w[0] / t, w[1] / t, w[2] / t } };
    sp_xform X;
    sp_jcalc_joint(&j, &t, &X);
    memcpy(E, X.E, sizeof X.E);
}

static void test_quat_is_rodrigues(void **s)
{
    (void)s;
    rbd_rng r;
    rbd_rng_seed(&r, 11);
    for (int trial = 0; trial < 50; trial++) {
        double w[3] = { 3 * rbd_rng_uniform(&r), 3 * rbd_rng_uniform(&r), 3 * rbd_rng_uniform(&r) };
        double t = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        double q[7] = { 0.1, -0.2, 0.3 };
        for (int k = 0; k < 3; k++) q[3 + k] = sin(t / 2) * w[k] / t;
        q[6] = cos(t / 2);
        double E[9];
        E_of_rotvec(w, E);
        rbd_joint sph = { .type = RBD_JOINT_SPHERICAL }, ff = { .type = RBD_JOINT_FREEFLYER };
        sp_xform Xs, Xf;
        sp_jcalc_joint(&sph, q + 3, &Xs);
        sp_jcalc_joint(&ff, q, &Xf);
        for (int k = 0; k < 9; k++) {
            assert_true(fabs(Xs.E[k] - E[k]) < 1e-14);
            assert_true(fabs(Xf.E[k] - E[k]) < 1e-14);
        }
        for (int k = 0; k < 3; k++) {
            assert_true(Xs.r[k] == 0);
            assert_true(Xf.r[k] == q[k]);     /* base origin in the parent (world) frame */
        }
    }
}

/* R(q (+) w) = R(q) Rot(w): E_out = Rot(w)^T E(q) */
static void test_right_perturbation(void **s)
{
    (void)s;
    rbd_rng r;
    rbd_rng_seed(&r, 12);
    rbd_joint sph = { .type = RBD_JOINT_SPHERICAL };
    for (int trial = 0; trial < 50; trial++) {
        double q[4], w[3], qo[4], Ew[9], want[9];
        rand_unit_quat(&r, q);
        double scale = trial % 2 ? 2.0 : 1e-3;     /* both branches of so3_coeffs */
        for (int k = 0; k < 3; k++) w[k] = scale * rbd_rng_uniform(&r);
        sp_integrate_joint(&sph, q, w, 1.0, qo);
        assert_true(fabs(qo[0] * qo[0] + qo[1] * qo[1] + qo[2] * qo[2] + qo[3] * qo[3] - 1) < 1e-14);
        sp_xform Xq, Xo;
        sp_jcalc_joint(&sph, q, &Xq);
        sp_jcalc_joint(&sph, qo, &Xo);
        E_of_rotvec(w, Ew);
        sp_mat3_mul(Ew, Xq.E, want);
        for (int k = 0; k < 9; k++) assert_true(fabs(Xo.E[k] - want[k]) < 1e-14);
    }
}

/* exp(d) = exp(d/2) exp(d/2) for SE(3) and SO(3) */
static void test_exp_halving(void **s)
{
    (void)s;
    rbd_rng r;
    rbd_rng_seed(&r, 13);
    rbd_joint ff = { .type = RBD_JOINT_FREEFLYER }, sph = { .type = RBD_JOINT_SPHERICAL };
    for (int trial = 0; trial < 50; trial++) {
        double q[7], d[6], once[7], half[7], twice[7];
        for (int k = 0; k < 3; k++) q[k] = rbd_rng_uniform(&r);
        rand_unit_quat(&r, q + 3);
        double scale = trial % 2 ? 1.5 : 3e-3;
        for (int k = 0; k < 6; k++) d[k] = scale * rbd_rng_uniform(&r);
        sp_integrate_joint(&ff, q, d, 1.0, once);
        sp_integrate_joint(&ff, q, d, 0.5, half);
        sp_integrate_joint(&ff, half, d, 0.5, twice);
        for (int k = 0; k < 7; k++) assert_true(fabs(once[k] - twice[k]) < 1e-14);
        sp_integrate_joint(&sph, q + 3, d + 3, 1.0, once);
        sp_integrate_joint(&sph, q + 3, d + 3, 0.5, half);
        sp_integrate_joint(&sph, half, d + 3, 0.5, twice);
        for (int k = 0; k < 4; k++) assert_true(fabs(once[k] - twice[k]) < 1e-14);
    }
}

/* a, b, c against long-double closed forms on both sides of the series switch.
 * Just above it the double closed forms of b and c cancel (~1e-13), but they
 * only enter multiplied by t (b: w x v) and t^2 (c: w x w x v), so the error
 * that reaches q is what is bounded here. */
static void test_so3_series_switch(void **s)
{
    (void)s;
    static const double th2s[] = { 0.5e-4, 0.999e-4, 1.001e-4, 1e-3, 0.3 };
    for (size_t k = 0; k < sizeof th2s / sizeof th2s[0]; k++) {
        double th2 = th2s[k], a, b, c;
        sp_so3_coeffs(th2, &a, &b, &c);
        long double t = sqrtl((long double)th2), sh = sinl(t / 2);
        double a_ref = (double)(sinl(t) / t), b_ref = (double)(2 * sh * sh / (t * t));
        double c_ref = (double)((t - sinl(t)) / (t * t * t));
        assert_true(fabs(a - a_ref) < 2e-16);
        assert_true(fabs(b - b_ref) * sqrt(th2) < 2e-16);
        assert_true(fabs(c - c_ref) * th2 < 2e-16);
    }
}

/* One body on a spherical joint (with a revolute child) vs the same on a
 * free-flyer whose position, linear velocity and acceleration are zero. */
static void test_spherical_vs_freeflyer(void **s)
{
    (void)s;
    rbd_model *m[2];
    for (int v = 0; v < 2; v++) {
        rbd_builder *b = rbd_builder_new();
        sp_xform X = { .E = { 0, 0, 1, 1, 0, 0, 0, 1, 0 }, .r = { 0.1, 0.2, 0.3 } };
        rbd_joint j0 = { .type = v ? RBD_JOINT_FREEFLYER : RBD_JOINT_SPHERICAL };
        rbd_body_inertia in0 = { .mass = 2, .com = { 0.1, -0.3, 0.2 }, .Ic = { 0.3, 0.01, 0, 0.01, 0.2, 0.02, 0, 0.02, 0.25 } };
        assert_int_equal(rbd_builder_add(b, -1, &j0, &X, &in0, "root", "b0"), 0);
        sp_xform X1 = { .E = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, .r = { 0.5, 0, 0 } };
        rbd_joint j1 = { .type = RBD_JOINT_REVOLUTE, .axis = { 0.3, 0.4, 0.5 } };
        rbd_body_inertia in1 = { .mass = 1, .com = { 0.2, 0.1, 0 }, .Ic = { 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.05 } };
        assert_int_equal(rbd_builder_add(b, 0, &j1, &X1, &in1, "j1", "b1"), 0);
        assert_int_equal(rbd_builder_finish(b, NULL, NULL, &m[v]), 0);
        rbd_builder_free(b);
    }
    rbd_rng r;
    rbd_rng_seed(&r, 14);
    double qs[5], vs[4], as[4], ts[4], qf[8] = { 0 }, vf[7] = { 0 }, af[7] = { 0 }, tf[7];
    rand_unit_quat(&r, qs);
    qs[4] = rbd_rng_uniform(&r);
    for (int k = 0; k < 4; k++) { vs[k] = rbd_rng_uniform(&r); as[k] = rbd_rng_uniform(&r); }
    memcpy(qf + 3, qs, 5 * sizeof(double));
    memcpy(vf + 3, vs, 4 * sizeof(double));
    memcpy(af + 3, as, 4 * sizeof(double));
    rbd_data *d0 = rbd_data_new(m[0]), *d1 = rbd_data_new(m[1]);
    assert_int_equal(rbd_rnea(m[0], d0, qs, vs, as, ts), 0);
    assert_int_equal(rbd_rnea(m[1], d1, qf, vf, af, tf), 0);
    tu_assert_close("spherical vs free-flyer", tf + 3, ts, 4, 1, 1e-13);
    rbd_data_free(d0); rbd_data_free(d1);
    rbd_model_free(m[0]); rbd_model_free(m[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quat_is_rodrigues),
        cmocka_unit_test(test_right_perturbation),
        cmocka_unit_test(test_exp_halving),
        cmocka_unit_test(test_so3_series_switch),
        cmocka_unit_test(test_spherical_vs_freeflyer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
