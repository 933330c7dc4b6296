#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

const char *tu_shared_dir(void)
{
    const char *env = getenv("RBD_SHARED_DIR");
    return env && *env ? env : RBD_SOURCE_DIR "/tests/pinocchio";
}

const char *tu_shared_path(int slot, const char *rel)
{
    static char buf[4][1024];
    snprintf(buf[slot & 3], sizeof buf[0], "%s/%s", tu_shared_dir(), rel);
    return buf[slot & 3];
}

rbd_model *tu_model(const char *spec)
{
    rbd_model *m = NULL;
    int rc = rbd_model_from_spec(spec, NULL, &m);
    if (rc) fail_msg("model %s: %s (%s)", spec, rbd_last_error(), rbd_strerror(rc));
    return m;
}

double tu_rms_rel(const double *X, const double *R, size_t n)
{
    double mx = 0, s = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++)
        if (fabs(R[k]) > 1e-12 * mx) {
            double e = (X[k] - R[k]) / R[k];
            s += e * e;
            cnt++;
        }
    return cnt ? sqrt(s / cnt) : 0;
}

double tu_max_rel(const double *X, const double *R, size_t n)
{
    double mx = 1, e = 0;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++) e = fmax(e, fabs(X[k] - R[k]));
    return e / mx;
}

void tu_assert_close(const char *what, const double *X, const double *R, size_t rows, size_t cols, double tol)
{
    size_t n = rows * cols, worst = 0;
    double mx = 1, e = -1;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++) {
        double d = fabs(X[k] - R[k]);
        if (!(d <= e)) { e = d; worst = k; }   /* also catches NaN */
    }
    if (!(e <= tol * mx))
        fail_msg("%s: entry (%zu,%zu) = %.17g, expected %.17g (error %.3g > %.3g)", what, worst % rows,
                 worst / rows, X[worst], R[worst], e, tol * mx);
}

/* A branched tree mixing every joint type (free-flyer root, spherical,
 * revolute about z, x and a general axis, prismatic), given in a user
 * numbering that the builder renumbers depth-first. */
rbd_model *tu_multidof_tree(void)
{
    rbd_builder *b = rbd_builder_new();
    assert_non_null(b);
    const rbd_joint jt[] = {
        { .type = RBD_JOINT_FREEFLYER },
        { .type = RBD_JOINT_SPHERICAL },
        { .type = RBD_JOINT_REVOLUTE, .axis = { 0, 0, 1 } },
        { .type = RBD_JOINT_PRISMATIC, .axis = { 0.6, 0, 0.8 } },
        { .type = RBD_JOINT_REVOLUTE, .axis = { 0.48, 0.6, 0.64 } },
        { .type = RBD_JOINT_SPHERICAL },
        { .type = RBD_JOINT_REVOLUTE, .axis = { 1, 0, 0 } },
    };
    const int parent[] = { -1, 0, 0, 1, 2, 4, 1 };
    for (int i = 0; i < 7; i++) {
        sp_xform X;
        sp_xform_identity(&X);
        if (i > 0) {
            double c = cos(0.3 * i), s = sin(0.3 * i);
            X.E[0] = c; X.E[1] = s; X.E[3] = -s; X.E[4] = c;     /* rotz */
            X.r[0] = 0.5 + 0.1 * i; X.r[1] = 0.05 * i; X.r[2] = -0.1;
        }
        rbd_body_inertia in = { .mass = 1.0 + 0.2 * i, .com = { 0.2, 0.03 * i, -0.05 } };
        in.Ic[0] = 0.02 + 0.001 * i; in.Ic[4] = 0.03; in.Ic[8] = 0.025;
        in.Ic[1] = in.Ic[3] = 0.002;
        char name[16];
        snprintf(name, sizeof name, "j%d", i);
        assert_int_equal(rbd_builder_add(b, parent[i], &jt[i], &X, &in, name, name), 0);
    }
    rbd_model *m = NULL;
    int rc = rbd_builder_finish(b, NULL, "multidof-test", &m);
    if (rc) fail_msg("builder: %s", rbd_last_error());
    rbd_builder_free(b);
    return m;
}

/* A chain of 26 dofs (free-flyer root, then spherical, revolute and
 * prismatic joints in turn, general axes): long enough that idsva takes its
 * chain plan and AZA its general-joint path on every joint type. */
rbd_model *tu_multidof_chain(void)
{
    rbd_builder *b = rbd_builder_new();
    assert_non_null(b);
    for (int i = 0; i < 13; i++) {
        rbd_joint j = { .type = RBD_JOINT_FREEFLYER };
        if (i > 0) {
            const rbd_joint_type ty[3] = { RBD_JOINT_SPHERICAL, RBD_JOINT_REVOLUTE, RBD_JOINT_PRISMATIC };
            j.type = ty[(i - 1) % 3];
            j.axis[0] = 0.36; j.axis[1] = 0.48; j.axis[2] = 0.8;
        }
        sp_xform X;
        sp_xform_identity(&X);
        if (i > 0) {
            double c = cos(0.7 * i), sn = sin(0.7 * i);
            X.E[4] = c; X.E[5] = sn; X.E[7] = -sn; X.E[8] = c;     /* rotx */
            X.r[0] = 0.3; X.r[2] = 0.05 * i;
        }
        rbd_body_inertia in = { .mass = 1.0 / (1 + 0.1 * i), .com = { 0.15, -0.02, 0.01 * i } };
        in.Ic[0] = 0.01; in.Ic[4] = 0.02; in.Ic[8] = 0.015; in.Ic[2] = in.Ic[6] = 0.001;
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        assert_int_equal(rbd_builder_add(b, i - 1, &j, &X, &in, name, name), 0);
    }
    rbd_model *m = NULL;
    int rc = rbd_builder_finish(b, NULL, "multidof-chain-test", &m);
    if (rc) fail_msg("builder: %s", rbd_last_error());
    rbd_builder_free(b);
    return m;
}

static const char wart_robot[] =
    "<?xml version=\"1.0\"?>\n"
    "<robot name=\"warts\">\n"
    "  <link name=\"pelvis\"><inertial><origin xyz=\"0 0 0.05\"/><mass value=\"6\"/>"
    "<inertia ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.04\" iyz=\"0\" izz=\"0.06\"/></inertial></link>\n"
    "  <link name=\"torso\"><inertial><origin xyz=\"0.02 0 0.25\" rpy=\"0.1 0 0.2\"/><mass value=\"12\"/>"
    "<inertia ixx=\"0.3\" ixy=\"0.01\" ixz=\"0\" iyy=\"0.25\" iyz=\"0.02\" izz=\"0.12\"/></inertial></link>\n"
    "  <link name=\"imu\"><inertial><mass value=\"1e-6\"/>"
    "<inertia ixx=\"1e-9\" ixy=\"5e-9\" ixz=\"0\" iyy=\"1e-9\" iyz=\"0\" izz=\"1e-9\"/></inertial></link>\n"
    "  <link name=\"head\"><inertial><origin xyz=\"0.01 0 0.02\"/><mass value=\"0.001\"/>"
    "<inertia ixx=\"-5.42e-20\" ixy=\"0\" ixz=\"0\" iyy=\"-5.42e-20\" iyz=\"0\" izz=\"0\"/></inertial></link>\n"
    "  <link name=\"l_arm\"><inertial><origin xyz=\"0 0.1 -0.1\"/><mass value=\"2\"/>"
    "<inertia ixx=\"0.02\" ixy=\"0\" ixz=\"0.001\" iyy=\"0.02\" iyz=\"0\" izz=\"0.005\"/></inertial></link>\n"
    "  <link name=\"l_forearm\"><inertial><origin xyz=\"0 0 -0.12\"/><mass value=\"1.2\"/>"
    "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.002\"/></inertial></link>\n"
    "  <link name=\"l_hand\"><inertial><origin xyz=\"0 0 -0.05\"/><mass value=\"0.4\"/>"
    "<inertia ixx=\"0.001\" ixy=\"0\" ixz=\"0\" iyy=\"0.0012\" iyz=\"0\" izz=\"0.0008\"/></inertial></link>\n"
    "  <link name=\"r_arm\"><inertial><origin xyz=\"0 -0.1 -0.1\"/><mass value=\"2\"/>"
    "<inertia ixx=\"0.02\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.005\"/></inertial></link>\n"
    "  <link name=\"r_finger_a\"><inertial><origin xyz=\"0 0.01 -0.02\"/><mass value=\"0.05\"/>"
    "<inertia ixx=\"1e-5\" ixy=\"0\" ixz=\"0\" iyy=\"1e-5\" iyz=\"0\" izz=\"1e-5\"/></inertial></link>\n"
    "  <link name=\"r_finger_b\"><inertial><origin xyz=\"0 -0.01 -0.02\"/><mass value=\"0.05\"/>"
    "<inertia ixx=\"1e-5\" ixy=\"0\" ixz=\"0\" iyy=\"1e-5\" iyz=\"0\" izz=\"1e-5\"/></inertial></link>\n"
    "  <link name=\"thigh\"><inertial><origin xyz=\"0 0 -0.2\"/><mass value=\"4\"/>"
    "<inertia ixx=\"0.06\" ixy=\"0\" ixz=\"0\" iyy=\"0.06\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n"
    "  <link name=\"shin\"><inertial><origin xyz=\"0 0 -0.2\"/><mass value=\"3\"/>"
    "<inertia ixx=\"0.04\" ixy=\"0\" ixz=\"0\" iyy=\"0.04\" iyz=\"0\" izz=\"0.006\"/></inertial></link>\n"
    "  <joint name=\"waist\" type=\"continuous\"><origin xyz=\"0 0 0.1\"/><parent link=\"pelvis\"/>"
    "<child link=\"torso\"/><axis xyz=\"0 0 1\"/></joint>\n"
    "  <joint name=\"imu_mount\" type=\"fixed\"><origin xyz=\"0.05 0 0.3\" rpy=\"0 0.3 0\"/>"
    "<parent link=\"torso\"/><child link=\"imu\"/></joint>\n"
    "  <joint name=\"neck\" type=\"revolute\"><origin xyz=\"0 0 0.45\"/><parent link=\"torso\"/>"
    "<child link=\"head\"/><axis xyz=\"0 1 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"5\" velocity=\"2\"/></joint>\n"
    "  <joint name=\"l_shoulder\" type=\"continuous\"><origin xyz=\"0 0.2 0.4\" rpy=\"0.2 0 0\"/>"
    "<parent link=\"torso\"/><child link=\"l_arm\"/><axis xyz=\"0.36 0.48 0.8\"/></joint>\n"
    "  <joint name=\"l_elbow\" type=\"revolute\"><origin xyz=\"0 0.1 -0.25\"/><parent link=\"l_arm\"/>"
    "<child link=\"l_forearm\"/><axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\" effort=\"5\" velocity=\"2\"/></joint>\n"
    "  <joint name=\"l_wrist\" type=\"continuous\"><origin xyz=\"0 0 -0.25\"/><parent link=\"l_forearm\"/>"
    "<child link=\"l_hand\"/><axis xyz=\"1 0 0\"/></joint>\n"
    "  <joint name=\"r_shoulder\" type=\"revolute\"><origin xyz=\"0 -0.2 0.4\"/><parent link=\"torso\"/>"
    "<child link=\"r_arm\"/><axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\" effort=\"5\" velocity=\"2\"/></joint>\n"
    "  <joint name=\"r_finger_a_joint\" type=\"prismatic\"><origin xyz=\"0 -0.02 -0.3\"/><parent link=\"r_arm\"/>"
    "<child link=\"r_finger_a\"/><axis xyz=\"0 1 0\"/><limit lower=\"0\" upper=\"0.04\" effort=\"5\" velocity=\"1\"/></joint>\n"
    "  <joint name=\"r_finger_b_joint\" type=\"prismatic\"><origin xyz=\"0 0.02 -0.3\"/><parent link=\"r_arm\"/>"
    "<child link=\"r_finger_b\"/><axis xyz=\"0 -1 0\"/><limit lower=\"0\" upper=\"0.04\" effort=\"5\" velocity=\"1\"/>"
    "<mimic joint=\"r_finger_a_joint\"/></joint>\n"
    "  <joint name=\"hip\" type=\"revolute\"><origin xyz=\"0 0.1 -0.05\"/><parent link=\"pelvis\"/>"
    "<child link=\"thigh\"/><axis xyz=\"0 1 0\"/><limit lower=\"-2\" upper=\"2\" effort=\"5\" velocity=\"2\"/></joint>\n"
    "  <joint name=\"knee\" type=\"continuous\"><origin xyz=\"0 0 -0.4\"/><parent link=\"thigh\"/>"
    "<child link=\"shin\"/><axis xyz=\"0 1 0\"/></joint>\n"
    "</robot>\n";

const char *tu_wart_robot(const char *name)
{
    static char path[1200];
    snprintf(path, sizeof path, "%s/tests/%s", RBD_BINARY_DIR, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(wart_robot, f) < 0 || fclose(f)) fail_msg("cannot write %s", path);
    return path;
}
