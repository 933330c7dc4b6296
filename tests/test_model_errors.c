/*
 * Bad models are refused through rbd_builder_* with a message naming the body
 * or joint and the problem; a configuration-dependent singular M is reported
 * by ABA, LTDL and every M^-1 variant as RBD_ESINGULAR naming the joint.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

static const rbd_joint RZ = { .type = RBD_JOINT_REVOLUTE, .axis = { 0, 0, 1 } };
static const rbd_joint RX = { .type = RBD_JOINT_REVOLUTE, .axis = { 1, 0, 0 } };

static rbd_body_inertia good_body(void)
{
    rbd_body_inertia in = { .mass = 1, .com = { 0.5, 0, 0 }, .Ic = { 0.01, 0, 0, 0, 0.1, 0, 0, 0, 0.1 } };
    return in;
}

static sp_xform ident(void)
{
    sp_xform X;
    sp_xform_identity(&X);
    return X;
}

/* Builds a 2-body chain whose second body is *in (and joint *j, placement *X);
 * returns the code of rbd_builder_finish, the model in *out if asked. */
static int build2(const rbd_joint *j, const sp_xform *X, const rbd_body_inertia *in, int parent2, int strict,
                  rbd_model **out)
{
    rbd_builder *b = rbd_builder_new();
    rbd_body_inertia g = good_body();
    sp_xform I0 = ident();
    assert_int_equal(rbd_builder_add(b, -1, &RZ, &I0, &g, "base_joint", "link1"), 0);
    assert_int_equal(rbd_builder_add(b, parent2, j, X, in, "elbow", "link2"), 0);
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    o.strict = strict;
    rbd_model *m = NULL;
    int rc = rbd_builder_finish(b, &o, NULL, &m);
    rbd_builder_free(b);
    if (out) *out = m; else rbd_model_free(m);
    return rc;
}

static void expect(int rc, int code, const char *needle1, const char *needle2)
{
    if (rc != code) fail_msg("code %d (%s), expected %d; message: %s", rc, rbd_strerror(rc), code, rbd_last_error());
    const char *msg = rbd_last_error();
    if (needle1 && !strstr(msg, needle1)) fail_msg("message '%s' lacks '%s'", msg, needle1);
    if (needle2 && !strstr(msg, needle2)) fail_msg("message '%s' lacks '%s'", msg, needle2);
}

static void test_parent_ordering(void **s)
{
    (void)s;
    rbd_body_inertia g = good_body();
    sp_xform X = ident();
    expect(build2(&RZ, &X, &g, 1, 0, NULL), RBD_EINVAL, "link2", "parent");      /* itself */
    expect(build2(&RZ, &X, &g, 5, 0, NULL), RBD_EINVAL, "link2", "parent");      /* a later body */
    expect(build2(&RZ, &X, &g, -2, 0, NULL), RBD_EINVAL, "link2", "parent");
    assert_int_equal(build2(&RZ, &X, &g, -1, 0, NULL), 0);                        /* a second root is fine */
}

static void test_non_finite(void **s)
{
    (void)s;
    sp_xform X = ident();
    rbd_body_inertia in = good_body();
    in.mass = NAN;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "not finite");
    in = good_body();
    in.com[1] = INFINITY;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "not finite");
    in = good_body();
    in.Ic[4] = NAN;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "not finite");
    in = good_body();
    X.r[2] = NAN;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "elbow", "placement is not finite");
    X = ident();
    rbd_joint j = RZ;
    j.axis[0] = INFINITY;
    expect(build2(&j, &X, &in, 0, 0, NULL), RBD_EINVAL, "elbow", "axis");
    j = RZ;
    j.axis[2] = 0;
    expect(build2(&j, &X, &in, 0, 0, NULL), RBD_EINVAL, "elbow", "zero length");
    X.E[0] = 2;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "elbow", "orthonormal");
}

static void test_bad_inertia(void **s)
{
    (void)s;
    sp_xform X = ident();
    rbd_body_inertia in = good_body();
    in.mass = -0.5;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "negative");
    in = good_body();
    in.Ic[1] = 0.02;                               /* Ic[3] stays 0 */
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "not symmetric");
    /* by default the message names the body and the eigenvalue (README.md, "Inertia rule") */
    in = good_body();
    in.Ic[0] = -0.01;
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "include the negative eigenvalue -0.01");
    expect(build2(&RZ, &X, &in, 0, 1, NULL), RBD_EINVAL, "link2", "not positive semi-definite (strict mode)");
    in = good_body();
    in.Ic[1] = in.Ic[3] = 0.2;                     /* diagonal >= 0, but det of the xy minor < 0 */
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "not a physical body");
    expect(build2(&RZ, &X, &in, 0, 1, NULL), RBD_EINVAL, "link2", "positive semi-definite");
    /* point masses and massless links with mass below them are legal */
    in = good_body();
    memset(in.Ic, 0, sizeof in.Ic);
    assert_int_equal(build2(&RZ, &X, &in, 0, 0, NULL), 0);
}

static void test_triangle_inequality(void **s)
{
    (void)s;
    sp_xform X = ident();
    rbd_body_inertia in = good_body();
    in.Ic[0] = 0.01; in.Ic[4] = 0.01; in.Ic[8] = 0.05;     /* 0.05 > 0.01 + 0.01 */
    rbd_model *m = NULL;
    /* not physical (README.md, "Inertia rule"): refused by default and when strict */
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_EINVAL, "link2", "violate the triangle inequality: excess 0.03");
    expect(build2(&RZ, &X, &in, 0, 1, NULL), RBD_EINVAL, "link2", "triangle");
    in = good_body();
    assert_int_equal(build2(&RZ, &X, &in, 0, 1, &m), 0);
    assert_int_equal(m->nwarn, 0);
    rbd_model_free(m);
}

static void test_massless_joint(void **s)
{
    (void)s;
    sp_xform X = ident();
    rbd_body_inertia in = { 0 };
    expect(build2(&RZ, &X, &in, 0, 0, NULL), RBD_ESINGULAR, "'elbow'", "moves no mass");
}

static void test_sizes(void **s)
{
    (void)s;
    rbd_builder *b = rbd_builder_new();
    rbd_model *m = NULL;
    expect(rbd_builder_finish(b, NULL, NULL, &m), RBD_EINVAL, "N must be >= 1", NULL);
    rbd_builder_free(b);
    expect(rbd_autotree(0, 1, 0, 1, NULL, &m), RBD_EINVAL, "N=0", ">= 1");
    expect(rbd_autotree(5, 0.5, 0, 1, NULL, &m), RBD_EINVAL, "bf=0.5", ">= 1");
    expect(rbd_autotree(5, NAN, 0, 1, NULL, &m), RBD_EINVAL, "bf=", NULL);
    expect(rbd_model_from_spec("autotree:N=0", NULL, &m), RBD_EINVAL, "N=0", NULL);
    expect(rbd_model_from_spec("autotree:N=4,bf=0.9", NULL, &m), RBD_EINVAL, "bf=0.9", NULL);
    assert_null(m);
}

/*
 * Joint 'shoulder' (about z) carries a massless link, then joint 'elbow'
 * (about x) a point mass at (0, 0, 1).  At elbow = 0 the whole subtree of the
 * shoulder is a point mass on its axis: M is singular there and only there.
 */
static void test_singular_configuration(void **s)
{
    (void)s;
    rbd_builder *b = rbd_builder_new();
    sp_xform X = ident();
    rbd_body_inertia none = { 0 }, pm = { .mass = 2, .com = { 0, 0, 1 } };
    assert_int_equal(rbd_builder_add(b, -1, &RZ, &X, &none, "shoulder", "upper"), 0);
    assert_int_equal(rbd_builder_add(b, 0, &RX, &X, &pm, "elbow", "tip"), 0);
    rbd_model *m = NULL;
    assert_int_equal(rbd_builder_finish(b, NULL, NULL, &m), 0);
    rbd_builder_free(b);
    rbd_data *d = rbd_data_new(m);
    double q[2] = { 0.4, 0 }, v[2] = { 0.1, -0.3 }, tau[2] = { 1, 2 }, qdd[2] = { 7, 7 }, M[4], Minv[4];
    expect(rbd_aba(m, d, q, v, tau, qdd), RBD_ESINGULAR, "'shoulder'", NULL);
    assert_true(qdd[0] == 7 && qdd[1] == 7);                  /* untouched, no NaN */
    assert_int_equal(rbd_crba(m, d, q, M), 0);
    expect(rbd_ltdl(m, M), RBD_ESINGULAR, "'shoulder'", NULL);
    for (int k = 0; k < RBD_MINV_NKINDS; k++) expect(rbd_minv(m, d, (rbd_minv_kind)k, q, Minv), RBD_ESINGULAR, "'shoulder'", NULL);
    q[1] = 0.5;                                                /* away from the singularity all succeed */
    assert_int_equal(rbd_aba(m, d, q, v, tau, qdd), 0);
    assert_true(isfinite(qdd[0]) && isfinite(qdd[1]));
    assert_int_equal(rbd_crba(m, d, q, M), 0);
    assert_int_equal(rbd_ltdl(m, M), 0);
    for (int k = 0; k < RBD_MINV_NKINDS; k++) assert_int_equal(rbd_minv(m, d, (rbd_minv_kind)k, q, Minv), 0);
    rbd_data_free(d);
    rbd_model_free(m);
}

/* A typo in a method's name is an error naming the nearest names (the
 * README's example checks for NULL and prints it), not a silent NULL. */
static void test_unknown_method(void **state)
{
    (void)state;
    rbd_clear_error();
    assert_null(rbd_method_find("fdsva_dmm"));
    assert_non_null(strstr(rbd_last_error(), "no method 'fdsva_dmm'"));
    assert_non_null(strstr(rbd_last_error(), "nearest: fdsva-dmm"));
    assert_null(strstr(rbd_last_error(), "idsva,"));   /* only the nearest */
    assert_null(rbd_method_find("a-name-far-longer-than-the-sixty-three-characters-the-distance-compares"));
    assert_non_null(strstr(rbd_last_error(), "nearest: "));
    assert_non_null(rbd_method_find("fdsva-dmm"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parent_ordering),
        cmocka_unit_test(test_non_finite),
        cmocka_unit_test(test_bad_inertia),
        cmocka_unit_test(test_triangle_inequality),
        cmocka_unit_test(test_massless_joint),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_singular_configuration),
        cmocka_unit_test(test_unknown_method),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
