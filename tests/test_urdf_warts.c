/*
 * Real-world URDF warts (issue 21; README.md, "Inertia rule" and "Model
 * options") on the generated robot of tu_wart_robot and on small bodies
 * built here:
 *  - the robot loads with nq = nv + 4 (Pinocchio's: one (cos, sin) pair per
 *    continuous joint), one clamp warning naming the light body, the mimic
 *    warning, and nothing about the light link merged through a fixed joint;
 *    continuous=revolute loads nq = nv; strict refuses it, naming the link;
 *  - its URDF export reads back with the same nq, nv and joint types;
 *  - the inertia rule at its edges: a rounding-size eigenvalue is clamped
 *    (one warning, the change bounded), an impossible one refused naming the
 *    body and the eigenvalue, or loaded with 'nonphysical' (counted, noticed)
 *    when M(q) stays positive definite, refused when it does not;
 *  - the composite judged: a non-physical link merged into a physical body
 *    loads, the same link as its own body does not;
 *  - a massless subtree is still refused naming the joint.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "model/inertia.h"

static rbd_model *load_spec(const char *path, const char *opts, int *rc)
{
    char spec[1400];
    snprintf(spec, sizeof spec, "urdf:%s%s", path, opts);
    rbd_model *m = NULL;
    *rc = rbd_model_from_spec(spec, NULL, &m);
    return m;
}

static int count_warnings(const rbd_model *m, const char *needle)
{
    int n = 0;
    for (int k = 0; k < m->nwarn; k++) n += strstr(m->warn[k], needle) != NULL;
    return n;
}

static void test_wart_robot_loads_as_pinocchio(void **s)
{
    (void)s;
    const char *path = tu_wart_robot("warts_lib.urdf");
    int rc;
    rbd_model *m = load_spec(path, "", &rc);
    if (rc) fail_msg("%s", rbd_last_error());
    assert_int_equal(m->nv, TU_WART_NV);
    assert_int_equal(m->nq, TU_WART_NV + TU_WART_NCONT);
    int ncont = 0;
    for (int i = 0; i < m->nb; i++) ncont += m->joint[i].type == RBD_JOINT_CONTINUOUS;
    assert_int_equal(ncont, TU_WART_NCONT);
    assert_int_equal(m->nwarn, 2);
    assert_int_equal(count_warnings(m, "('head'): principal moments of inertia about the CoM (-5.42e-20, -5.42e-20, "
                                       "0) include the negative eigenvalue -5.42e-20: excess 1.08e-19"), 1);
    assert_int_equal(count_warnings(m, "within the rounding tolerance"), 1);
    assert_int_equal(count_warnings(m, "entries changed by at most 5.42e-20"), 1);
    assert_int_equal(count_warnings(m, "joint 'r_finger_b_joint' mimics 'r_finger_a_joint'"), 1);
    assert_int_equal(m->nnotice, 1);
    assert_int_equal(m->nonphysical, 0);
    assert_non_null(strstr(m->spec, "warts_lib.urdf"));
    rbd_model_free(m);

    m = load_spec(path, ",freeflyer", &rc);
    if (rc) fail_msg("%s", rbd_last_error());
    assert_int_equal(m->nq, TU_WART_NV + TU_WART_NCONT + 7);
    rbd_model_free(m);

    m = load_spec(path, ",continuous=revolute", &rc);
    if (rc) fail_msg("%s", rbd_last_error());
    assert_int_equal(m->nq, TU_WART_NV);
    assert_non_null(strstr(m->spec, ",continuous=revolute"));
    rbd_model_free(m);

    /* strict: today's audit refuses the first non-PSD link, with file:line */
    m = load_spec(path, ",strict", &rc);
    assert_null(m);
    assert_int_equal(rc, RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "link 'imu': <inertia> is not positive semi-definite"));
    assert_non_null(strstr(rbd_last_error(), "warts_lib.urdf:5:"));
}

static void test_export_keeps_nq(void **s)
{
    (void)s;
    int rc;
    rbd_model *m = load_spec(tu_wart_robot("warts_export.urdf"), ",freeflyer", &rc);
    if (rc) fail_msg("%s", rbd_last_error());
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/warts_export_out.urdf", RBD_BINARY_DIR);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(rbd_urdf_write(m, f), 0);
    fclose(f);
    rbd_model *b = NULL;
    if (rbd_urdf_load(path, 0, NULL, &b)) fail_msg("re-reading the export: %s", rbd_last_error());
    assert_int_equal(b->nq, m->nq);
    assert_int_equal(b->nv, m->nv);
    for (int k = 0; k < m->nb; k++) {
        int i = 0;
        while (strcmp(b->joint_name[i], m->joint_name[k])) i++;
        assert_int_equal(b->joint[i].type, m->joint[k].type);
    }
    remove(path);
    rbd_model_free(b);
    rbd_model_free(m);
}

/* One body on a revolute joint about x, CoM at (0, 0, 1), inertia diag(d). */
static int one_body(const double d[3], int nonphysical, rbd_model **out)
{
    rbd_builder *b = rbd_builder_new();
    rbd_joint j = { .type = RBD_JOINT_REVOLUTE, .axis = { 1, 0, 0 } };
    sp_xform X;
    sp_xform_identity(&X);
    rbd_body_inertia in = { .mass = 2, .com = { 0, 0, 1 }, .Ic = { d[0], 0, 0, 0, d[1], 0, 0, 0, d[2] } };
    assert_int_equal(rbd_builder_add(b, -1, &j, &X, &in, "hip", "torso"), 0);
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    o.nonphysical = nonphysical;
    int rc = rbd_builder_finish(b, &o, NULL, out);
    rbd_builder_free(b);
    return rc;
}

static void test_inertia_rule_edges(void **s)
{
    (void)s;
    /* excess = largest moment minus the other two; scale = m L^2 + tr = 2 + 2 (+ 1e-6): tolerance 4e-6 */
    rbd_model *m = NULL;
    const double clampable[3] = { -1e-6, 1, 1 }, impossible[3] = { -5e-6, 1, 1 }, triangle[3] = { 0.5, 0.5, 1.01 };
    assert_int_equal(one_body(clampable, 0, &m), 0);
    assert_int_equal(m->nnotice, 1);
    assert_non_null(strstr(m->notice[0], "body 1 ('torso'): principal moments of inertia about the CoM (-1e-06, 1, "
                                         "1) include the negative eigenvalue -1e-06: excess 1e-06 (the largest minus "
                                         "the other two) within the rounding tolerance 4e-06"));
    assert_non_null(strstr(m->notice[0], "entries changed by at most 1e-06"));
    /* Sigma's eigenvalues (1 + 5e-7, -5e-7, -5e-7) -> (1 + 5e-7, 0, 0): moments (0, 1 + 5e-7, 1 + 5e-7) */
    assert_true(fabs(m->inertial[0].Ic[0]) < 1e-15);
    assert_true(fabs(m->inertial[0].Ic[4] - (1 + 5e-7)) < 1e-15 && fabs(m->inertial[0].Ic[8] - (1 + 5e-7)) < 1e-15);
    rbd_model_free(m);
    m = NULL;
    assert_int_equal(one_body(impossible, 0, &m), RBD_EINVAL);
    assert_null(m);
    assert_non_null(strstr(rbd_last_error(), "body 1 ('torso'): principal moments of inertia about the CoM (-5e-06, 1, "
                                             "1) include the negative eigenvalue -5e-06: excess 5e-06 (the largest "
                                             "minus the other two) beyond the rounding tolerance 4e-06"));
    assert_non_null(strstr(rbd_last_error(), "model option 'nonphysical'"));
    /* all moments positive, the largest beyond the sum of the others: not physical either */
    assert_int_equal(one_body(triangle, 0, &m), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "(0.5, 0.5, 1.01) violate the triangle inequality: excess 0.01"));
    /* the opt-out: M = Ixx + m |c|^2 = 2 - 5e-6 > 0 */
    assert_int_equal(one_body(impossible, 1, &m), 0);
    assert_int_equal(m->nonphysical, 1);
    assert_int_equal(m->nnotice, 1);
    assert_non_null(strstr(m->notice[0], "not a physical body, loaded as given (model option 'nonphysical')"));
    assert_true(m->inertial[0].Ic[0] == -5e-6);   /* not changed */
    rbd_model_free(m);
    /* ... refused when M(q) is not positive definite: Ixx = -3 < -m |c|^2 */
    const double indefinite[3] = { -3, 1, 1.5 };
    m = NULL;
    assert_int_equal(one_body(indefinite, 1, &m), RBD_ESINGULAR);
    assert_null(m);
    assert_non_null(strstr(rbd_last_error(), "M(q) is not positive definite at the neutral configuration"));
    assert_non_null(strstr(rbd_last_error(), "('torso')"));
}

static void test_sym3_eig(void **s)
{
    (void)s;
    /* R diag(l) R^T for a rotation R: the eigenvalues come back */
    const double l[3] = { -0.653, 0.2, 3.5 }, c = cos(0.7), sn = sin(0.7), c2 = cos(-1.1), s2 = sin(-1.1);
    const double Rz[9] = { c, -sn, 0, sn, c, 0, 0, 0, 1 }, Rx[9] = { 1, 0, 0, 0, c2, -s2, 0, s2, c2 };
    double R[9], A[9], lam[3], V[9];
    sp_mat3_mul(Rz, Rx, R);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            A[3 * a + b] = 0;
            for (int k = 0; k < 3; k++) A[3 * a + b] += R[3 * a + k] * l[k] * R[3 * b + k];
        }
    rbd_sym3_eig(A, lam, V);
    tu_assert_close("eigenvalues", lam, l, 3, 1, 1e-14);
    for (int k = 0; k < 3; k++) {   /* A v = lam v */
        double col[3] = { V[k], V[3 + k], V[6 + k] }, Av[3], lv[3];
        sp_mat3_vec(A, col, Av);
        for (int a = 0; a < 3; a++) lv[a] = lam[k] * col[a];
        tu_assert_close("A v = lam v", Av, lv, 3, 1, 1e-14);
    }
}

/* A link that is not physical on its own is judged merged into its body. */
static void test_composite_judged(void **s)
{
    (void)s;
    static const char fmt[] =
        "<?xml version=\"1.0\"?>\n<robot name=\"c\">\n<link name=\"base\"/>\n"
        "<link name=\"arm\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"2\"/>"
        "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.02\"/></inertial></link>\n"
        "<link name=\"sensor\"><inertial><mass value=\"1e-6\"/>"
        "<inertia ixx=\"1e-9\" ixy=\"5e-9\" ixz=\"0\" iyy=\"1e-9\" iyz=\"0\" izz=\"1e-9\"/></inertial></link>\n"
        "<joint name=\"shoulder\" type=\"revolute\"><parent link=\"base\"/><child link=\"arm\"/><axis xyz=\"0 0 1\"/>"
        "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n"
        "<joint name=\"mount\" type=\"%s\"><origin xyz=\"0.3 0 0.05\"/><parent link=\"arm\"/>"
        "<child link=\"sensor\"/><axis xyz=\"0 1 0\"/>%s</joint>\n</robot>\n";
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/warts_composite.urdf", RBD_BINARY_DIR);
    for (int moving = 0; moving < 2; moving++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, fmt, moving ? "revolute" : "fixed",
                moving ? "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>" : "");
        fclose(f);
        rbd_model *m = NULL;
        int rc = rbd_urdf_load(path, 0, NULL, &m);
        if (!moving) {
            if (rc) fail_msg("merged light link: %s", rbd_last_error());
            assert_int_equal(m->nb, 1);
            assert_int_equal(m->nwarn, 0);
            assert_true(fabs(m->inertial[0].mass - (2 + 1e-6)) < 1e-15);
            rbd_model_free(m);
        } else {
            assert_int_equal(rc, RBD_EINVAL);
            assert_non_null(strstr(rbd_last_error(), "body 2 ('sensor'): principal moments of inertia about the CoM "
                                                     "(-4e-09, 1e-09, 6e-09) include the negative eigenvalue -4e-09"));
            assert_non_null(strstr(rbd_last_error(), "warts_composite.urdf:5:"));
        }
    }
    remove(path);
}

static void test_massless_subtree_still_refused(void **s)
{
    (void)s;
    static const char text[] =
        "<?xml version=\"1.0\"?>\n<robot name=\"m\">\n<link name=\"base\"/>\n"
        "<link name=\"a\"><inertial><origin xyz=\"0.2 0 0\"/><mass value=\"1\"/>"
        "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n"
        "<link name=\"tool\"/>\n"
        "<joint name=\"j1\" type=\"continuous\"><parent link=\"base\"/><child link=\"a\"/><axis xyz=\"0 0 1\"/></joint>\n"
        "<joint name=\"tool_spin\" type=\"continuous\"><parent link=\"a\"/><child link=\"tool\"/>"
        "<axis xyz=\"1 0 0\"/></joint>\n</robot>\n";
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/warts_massless.urdf", RBD_BINARY_DIR);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    rbd_model *m = NULL;
    assert_int_equal(rbd_urdf_load(path, 0, NULL, &m), RBD_ESINGULAR);
    assert_non_null(strstr(rbd_last_error(), "joint 'tool_spin' moves no mass"));
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wart_robot_loads_as_pinocchio),
        cmocka_unit_test(test_export_keeps_nq),
        cmocka_unit_test(test_inertia_rule_edges),
        cmocka_unit_test(test_sym3_eig),
        cmocka_unit_test(test_composite_judged),
        cmocka_unit_test(test_massless_subtree_still_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
