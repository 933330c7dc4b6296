/*
 * URDF loading and export: every robot in tests/models loads with the
 * expected sizes and joint order; the rpy and inertial-frame conventions;
 * fixed-joint merging checked physically (a fixed joint must act like a
 * revolute joint held at q = 0, v = a = 0); mimic joints; export/re-load
 * round trips; and a catalog of bad files, each with its error code, the file
 * and the element named in the message, and nothing printed by libxml2.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"

static const char *model_path(const char *file)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/tests/models/%s", RBD_SOURCE_DIR, file);
    return buf;
}

static rbd_model *load_or_fail(const char *path, int freeflyer)
{
    rbd_model *m = NULL;
    int rc = rbd_urdf_load(path, freeflyer, NULL, &m);
    if (rc) fail_msg("%s: %s (%s)", path, rbd_last_error(), rbd_strerror(rc));
    return m;
}

/* User-numbering offsets of the joint called name; 0 if found. */
static int joint_slot(const rbd_model *m, const char *name, int *oq, int *ov)
{
    int q = 0, v = 0;
    for (int u = 0; u < m->nb; u++) {
        int k = 0;
        while (m->user_body[k] != u) k++;
        if (!strcmp(m->joint_name[k], name)) { *oq = q; *ov = v; return 0; }
        q += m->nq_of[k]; v += m->nv_of[k];
    }
    return -1;
}

static const char *user_joint_name(const rbd_model *m, int u)
{
    for (int k = 0; k < m->nb; k++)
        if (m->user_body[k] == u) return m->joint_name[k];
    return NULL;
}

static double model_mass(const rbd_model *m)
{
    double s = 0;
    for (int k = 0; k < m->nb; k++) s += m->inertial[k].mass;
    return s;
}

/* Sum of every <mass value="..."> in the file, by a plain text scan. */
static double file_mass(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    double s = 0;
    for (const char *p = text; (p = strstr(p, "<mass")); p++) {
        const char *v = strstr(p, "value=\"");
        assert_non_null(v);
        s += strtod(v + 7, NULL);
    }
    return s;
}

/* tau = RNEA(q, v, a) with q, v, a, tau in the user numbering. */
static void rnea_user(const rbd_model *m, const double *q, const double *v, const double *a, double *tau)
{
    rbd_data *d = rbd_data_new(m);
    double *qi = malloc(sizeof(double) * m->nq), *vi = malloc(sizeof(double) * m->nv);
    double *ai = malloc(sizeof(double) * m->nv), *ti = malloc(sizeof(double) * m->nv);
    rbd_q_from_user(m, q, qi);
    rbd_v_from_user(m, v, vi);
    rbd_v_from_user(m, a, ai);
    assert_int_equal(rbd_rnea(m, d, qi, vi, ai, ti), 0);
    rbd_v_to_user(m, ti, tau);
    free(qi); free(vi); free(ai); free(ti);
    rbd_data_free(d);
}

/* A random state of A, carried over to B joint by joint (by name); B's joints
 * that A lacks are held at q = 0, v = a = 0.  tau of the shared joints must agree. */
static void compare_by_name(const rbd_model *A, const rbd_model *B, uint64_t seed, double tol, const char *what)
{
    rbd_rng rng;
    rbd_rng_seed(&rng, seed);
    double *qa = malloc(sizeof(double) * A->nq), *va = malloc(sizeof(double) * A->nv);
    double *aa = malloc(sizeof(double) * A->nv), *ta = malloc(sizeof(double) * A->nv);
    double *qb = calloc((size_t)B->nq, sizeof(double)), *vb = calloc((size_t)B->nv, sizeof(double));
    double *ab = calloc((size_t)B->nv, sizeof(double)), *tb = malloc(sizeof(double) * B->nv);
    double *tb_on_a = malloc(sizeof(double) * A->nv);
    double *qi = malloc(sizeof(double) * A->nq);
    rbd_random_state(A, &rng, qi, va, aa, NULL);
    rbd_q_to_user(A, qi, qa);
    for (int u = 0; u < B->nb; u++) {
        const char *name = user_joint_name(B, u);
        int oqb = 0, ovb = 0, oqa = 0, ova = 0;
        assert_int_equal(joint_slot(B, name, &oqb, &ovb), 0);
        int k = 0;
        while (B->user_body[k] != u) k++;
        if (joint_slot(A, name, &oqa, &ova)) {
            assert_int_equal(B->nq_of[k], 1);       /* only 1-dof joints are held at zero here */
            continue;
        }
        memcpy(qb + oqb, qa + oqa, sizeof(double) * B->nq_of[k]);
        memcpy(vb + ovb, va + ova, sizeof(double) * B->nv_of[k]);
        memcpy(ab + ovb, aa + ova, sizeof(double) * B->nv_of[k]);
    }
    rnea_user(A, qa, va, aa, ta);
    rnea_user(B, qb, vb, ab, tb);
    for (int u = 0; u < A->nb; u++) {
        const char *name = user_joint_name(A, u);
        int oqb = 0, ovb = 0, oqa = 0, ova = 0;
        assert_int_equal(joint_slot(A, name, &oqa, &ova), 0);
        assert_int_equal(joint_slot(B, name, &oqb, &ovb), 0);
        int k = 0;
        while (A->user_body[k] != u) k++;
        memcpy(tb_on_a + ova, tb + ovb, sizeof(double) * A->nv_of[k]);
    }
    tu_assert_close(what, tb_on_a, ta, (size_t)A->nv, 1, tol);
    free(qa); free(va); free(aa); free(ta); free(qb); free(vb); free(ab); free(tb); free(tb_on_a); free(qi);
}

static const char *write_tmp(const char *tag, const char *text)
{
    static char path[1024];
    snprintf(path, sizeof path, "%s/tests/urdf_%s_%ld.urdf", RBD_BINARY_DIR, tag, (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* ---- the robots ---- */

static void test_models_load(void **s)
{
    (void)s;
    static const struct { const char *file; int ff, nq, nv, nb, nwarn; } cases[] = {
        { "ur3.urdf", 0, 6, 6, 6, 0 },
        { "ur5.urdf", 0, 6, 6, 6, 0 },
        { "panda.urdf", 0, 9, 9, 9, 1 },
        { "hyq.urdf", 1, 19, 18, 13, 0 },
        { "solo12.urdf", 1, 19, 18, 13, 0 },
        { "double_pendulum.urdf", 0, 2, 2, 2, 0 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rbd_model *m = load_or_fail(model_path(cases[c].file), cases[c].ff);
        if (m->nq != cases[c].nq || m->nv != cases[c].nv || m->nb != cases[c].nb || m->nwarn != cases[c].nwarn)
            fail_msg("%s: nq %d nv %d nb %d nwarn %d, expected %d %d %d %d", cases[c].file, m->nq, m->nv, m->nb,
                     m->nwarn, cases[c].nq, cases[c].nv, cases[c].nb, cases[c].nwarn);
        if (cases[c].ff) {
            assert_string_equal(user_joint_name(m, 0), "root_joint");
            assert_int_equal(m->joint[0].type, RBD_JOINT_FREEFLYER);
        }
        rbd_model_free(m);
    }
    /* through the spec string too */
    char spec[1100];
    snprintf(spec, sizeof spec, "urdf:%s,freeflyer", model_path("hyq.urdf"));
    rbd_model *m = tu_model(spec);
    assert_int_equal(m->nq, 19);
    assert_non_null(strstr(m->spec, "freeflyer"));
    rbd_model_free(m);
}

static void test_joint_order(void **s)
{
    (void)s;
    rbd_model *m = load_or_fail(model_path("hyq.urdf"), 1);
    static const char *legs[4] = { "lf", "lh", "rf", "rh" };
    static const char *parts[3] = { "haa", "hfe", "kfe" };
    for (int l = 0; l < 4; l++)
        for (int p = 0; p < 3; p++) {
            char want[32];
            snprintf(want, sizeof want, "%s_%s_joint", legs[l], parts[p]);
            assert_string_equal(user_joint_name(m, 1 + 3 * l + p), want);
        }
    rbd_model_free(m);
    m = load_or_fail(model_path("solo12.urdf"), 1);
    assert_string_equal(user_joint_name(m, 1), "FL_HAA");
    assert_string_equal(user_joint_name(m, 4), "FR_HAA");
    assert_string_equal(user_joint_name(m, 7), "HL_HAA");
    assert_string_equal(user_joint_name(m, 10), "HR_HAA");
    rbd_model_free(m);
}

/* With a free-flyer every link moves, so merging fixed joints keeps all the mass. */
static void test_mass_preserved(void **s)
{
    (void)s;
    static const char *files[] = { "ur3.urdf", "ur5.urdf", "panda.urdf", "hyq.urdf", "solo12.urdf",
                                   "double_pendulum.urdf" };
    for (size_t c = 0; c < sizeof files / sizeof files[0]; c++) {
        rbd_model *m = load_or_fail(model_path(files[c]), 1);
        double want = file_mass(model_path(files[c])), got = model_mass(m);
        if (!(fabs(got - want) <= 1e-12 * want)) fail_msg("%s: mass %.17g, file says %.17g", files[c], got, want);
        rbd_model_free(m);
    }
}

static void test_mimic(void **s)
{
    (void)s;
    rbd_model *m = load_or_fail(model_path("panda.urdf"), 0);
    assert_int_equal(m->nwarn, 1);
    assert_non_null(strstr(m->warn[0], "panda_finger_joint2"));
    assert_non_null(strstr(m->warn[0], "mimic"));
    assert_string_equal(user_joint_name(m, 8), "panda_finger_joint2");
    assert_int_equal(m->joint[8].type, RBD_JOINT_PRISMATIC);
    rbd_model_free(m);
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    o.strict = 1;
    m = NULL;
    assert_int_equal(rbd_urdf_load(model_path("panda.urdf"), 0, &o, &m), RBD_ENOTSUP);
    assert_null(m);
    const char *e = rbd_last_error();
    assert_non_null(strstr(e, "panda.urdf:348:"));
    assert_non_null(strstr(e, "joint 'panda_finger_joint2'"));
    assert_non_null(strstr(e, "mimic"));
}

/* ---- conventions ---- */

static void rot(int axis, double t, double R[9])
{
    double c = cos(t), s = sin(t);
    memset(R, 0, 9 * sizeof *R);
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    R[4 * axis] = 1;
    R[3 * a + a] = c; R[3 * a + b] = -s;
    R[3 * b + a] = s; R[3 * b + b] = c;
}

static void mul3(const double A[9], const double B[9], double C[9])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

/* origin rpy: R = Rz(y) Ry(p) Rx(r) maps child to parent, so Xtree.E = R^T;
 * inertial rpy: Ic in the link frame = R Ic R^T. */
static void test_rpy_convention(void **s)
{
    (void)s;
    const char *xml =
        "<robot name=\"rpy\"><link name=\"base\"/>"
        "<link name=\"l\"><inertial><origin xyz=\"0.1 0.2 0.3\" rpy=\"-0.4 0.9 2.2\"/><mass value=\"2\"/>"
        "<inertia ixx=\"0.5\" ixy=\"0.02\" ixz=\"-0.03\" iyy=\"0.4\" iyz=\"0.01\" izz=\"0.3\"/></inertial></link>"
        "<joint name=\"j\" type=\"continuous\"><parent link=\"base\"/><child link=\"l\"/>"
        "<origin xyz=\"1 -2 3\" rpy=\"0.3 -1.1 0.7\"/><axis xyz=\"0 0 2\"/></joint></robot>";
    const char *path = write_tmp("rpy", xml);
    rbd_model *m = load_or_fail(path, 0);
    remove(path);
    double Rz[9], Ry[9], Rx[9], T[9], R[9];
    rot(2, 0.7, Rz); rot(1, -1.1, Ry); rot(0, 0.3, Rx);
    mul3(Rz, Ry, T); mul3(T, Rx, R);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) assert_true(fabs(m->Xtree[0].E[3 * a + b] - R[3 * b + a]) < 1e-15);
    assert_true(m->Xtree[0].r[0] == 1 && m->Xtree[0].r[1] == -2 && m->Xtree[0].r[2] == 3);
    assert_int_equal(m->joint[0].axis_id, 2);          /* (0 0 2) normalised to e_z */
    rot(2, 2.2, Rz); rot(1, 0.9, Ry); rot(0, -0.4, Rx);
    mul3(Rz, Ry, T); mul3(T, Rx, R);
    double Ic[9] = { 0.5, 0.02, -0.03, 0.02, 0.4, 0.01, -0.03, 0.01, 0.3 }, RI[9], RIRt[9], Rt[9];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) Rt[3 * a + b] = R[3 * b + a];
    mul3(R, Ic, RI); mul3(RI, Rt, RIRt);
    for (int k = 0; k < 9; k++) assert_true(fabs(m->inertial[0].Ic[k] - RIRt[k]) < 1e-15);
    assert_true(m->inertial[0].com[2] == 0.3 && m->inertial[0].mass == 2);
    rbd_model_free(m);
}

/* Fixed joints f1, f2 (f2 below f1, j3 hanging on f1's child, rotated origins
 * and inertial frames, an axis off the coordinate axes) against the same file
 * with f1, f2 revolute and held still. */
static const char *lump_xml =
    "<?xml version=\"1.0\"?>\n<robot name=\"lump\">\n  <link name=\"base\"/>\n"
    "  <link name=\"l1\"><inertial><origin xyz=\"0.1 -0.2 0.3\" rpy=\"0.4 -0.7 1.1\"/><mass value=\"2.0\"/>"
    "<inertia ixx=\"0.3\" ixy=\"0.01\" ixz=\"-0.02\" iyy=\"0.25\" iyz=\"0.015\" izz=\"0.2\"/></inertial></link>\n"
    "  <link name=\"l2\"><inertial><origin xyz=\"-0.05 0.12 0.2\" rpy=\"-1.2 0.3 2.5\"/><mass value=\"1.3\"/>"
    "<inertia ixx=\"0.11\" ixy=\"-0.01\" ixz=\"0.005\" iyy=\"0.09\" iyz=\"0.002\" izz=\"0.07\"/></inertial></link>\n"
    "  <link name=\"l3\"><inertial><origin xyz=\"0.3 0.1 -0.1\" rpy=\"0.9 0.8 -0.3\"/><mass value=\"0.7\"/>"
    "<inertia ixx=\"0.05\" ixy=\"0.004\" ixz=\"0.001\" iyy=\"0.06\" iyz=\"-0.003\" izz=\"0.04\"/></inertial></link>\n"
    "  <link name=\"l4\"><inertial><origin xyz=\"0.02 0.03 0.04\" rpy=\"0 0 0.5\"/><mass value=\"0.4\"/>"
    "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.02\" iyz=\"0\" izz=\"0.015\"/></inertial></link>\n"
    "  <link name=\"l5\"><inertial><origin xyz=\"0 0.1 0.05\" rpy=\"0.2 0.1 0\"/><mass value=\"0.9\"/>"
    "<inertia ixx=\"0.03\" ixy=\"0.001\" ixz=\"0\" iyy=\"0.035\" iyz=\"0\" izz=\"0.02\"/></inertial></link>\n"
    "  <link name=\"l6\"/>\n"
    "  <joint name=\"j1\" type=\"revolute\"><parent link=\"base\"/><child link=\"l1\"/>"
    "<origin xyz=\"0.1 0.2 0.3\" rpy=\"0.3 0.2 0.1\"/><axis xyz=\"0.3 -0.5 0.8\"/></joint>\n"
    "  <joint name=\"f1\" type=\"%s\"><parent link=\"l1\"/><child link=\"l2\"/>"
    "<origin xyz=\"0.4 -0.1 0.05\" rpy=\"1.0 -0.4 0.6\"/><axis xyz=\"0.6 0 0.8\"/></joint>\n"
    "  <joint name=\"f2\" type=\"%s\"><parent link=\"l2\"/><child link=\"l3\"/>"
    "<origin xyz=\"0 0.3 -0.2\" rpy=\"-0.5 1.2 -2.0\"/><axis xyz=\"0 1 0\"/></joint>\n"
    "  <joint name=\"j2\" type=\"prismatic\"><parent link=\"l3\"/><child link=\"l4\"/>"
    "<origin xyz=\"0.2 0 0\" rpy=\"0.1 0 0\"/><axis xyz=\"1 1 0\"/></joint>\n"
    "  <joint name=\"j3\" type=\"continuous\"><parent link=\"l2\"/><child link=\"l5\"/>"
    "<origin xyz=\"0 0 0.25\" rpy=\"0 0.5 0\"/><axis xyz=\"0 0 1\"/></joint>\n"
    "  <joint name=\"tip\" type=\"fixed\"><parent link=\"l5\"/><child link=\"l6\"/></joint>\n"
    "</robot>\n";

static void test_fixed_merge(void **s)
{
    (void)s;
    char text[8192];
    snprintf(text, sizeof text, lump_xml, "fixed", "fixed");
    char pa[1024];
    snprintf(pa, sizeof pa, "%s", write_tmp("lump_fixed", text));
    snprintf(text, sizeof text, lump_xml, "revolute", "revolute");
    const char *pb = write_tmp("lump_revolute", text);
    for (int ff = 0; ff < 2; ff++) {
        rbd_model *A = load_or_fail(pa, ff), *B = load_or_fail(pb, ff);
        assert_int_equal(A->nv, 3 + 6 * ff);
        assert_int_equal(B->nv, 5 + 6 * ff);
        /* depth-first, siblings by name: f2's subtree (j2) before j3 */
        assert_string_equal(user_joint_name(A, ff + 0), "j1");
        assert_string_equal(user_joint_name(A, ff + 1), "j2");
        assert_string_equal(user_joint_name(A, ff + 2), "j3");
        assert_string_equal(user_joint_name(B, ff + 3), "j2");
        assert_true(fabs(model_mass(A) - model_mass(B)) < 1e-14);
        for (uint64_t seed = 1; seed <= 3; seed++) compare_by_name(A, B, seed, 1e-12, "fixed vs held revolute");
        rbd_model_free(A); rbd_model_free(B);
    }
    remove(pa); remove(pb);
}

/* A lone link: a free-flyer body, or nothing to move. */
static void test_single_link(void **s)
{
    (void)s;
    const char *path = write_tmp("one", "<robot name=\"one\"><link name=\"box\"><inertial><mass value=\"2\"/>"
                                        "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/>"
                                        "</inertial></link></robot>");
    rbd_model *m = load_or_fail(path, 1);
    assert_int_equal(m->nq, 7);
    assert_int_equal(m->nv, 6);
    assert_string_equal(m->body_name[0], "box");
    rbd_model_free(m);
    m = NULL;
    assert_int_equal(rbd_urdf_load(path, 0, NULL, &m), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "no moving joint"));
    remove(path);
}

/* ---- export ---- */

static rbd_model *roundtrip(const rbd_model *m, const char *tag)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/urdf_rt_%s_%ld.urdf", RBD_BINARY_DIR, tag, (long)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int rc = rbd_urdf_write(m, f);
    fclose(f);
    if (rc) fail_msg("export %s: %s", tag, rbd_last_error());
    rbd_model *r = load_or_fail(path, 0);
    remove(path);
    return r;
}

static void same_numbering(const rbd_model *A, const rbd_model *B)
{
    assert_int_equal(A->nb, B->nb);
    assert_int_equal(A->nq, B->nq);
    assert_int_equal(A->nv, B->nv);
    for (int u = 0; u < A->nb; u++) assert_string_equal(user_joint_name(A, u), user_joint_name(B, u));
}

static void test_roundtrip(void **s)
{
    (void)s;
    /* serial autoTree: the loader's order is the user order */
    rbd_model *A = tu_model("autotree:N=10,bf=1,skew=0.6,taper=0.9"), *B = roundtrip(A, "chain");
    same_numbering(A, B);
    for (uint64_t seed = 1; seed <= 3; seed++) compare_by_name(A, B, seed, 1e-12, "autotree chain round trip");
    rbd_model_free(A); rbd_model_free(B);
    /* branched: joints come back depth-first by name, so match by name */
    A = tu_model("autotree:N=12,bf=2,skew=1.1,taper=0.8");
    B = roundtrip(A, "tree");
    assert_int_equal(B->nv, 12);
    for (uint64_t seed = 1; seed <= 3; seed++) compare_by_name(A, B, seed, 1e-12, "autotree bf=2 round trip");
    rbd_model_free(A); rbd_model_free(B);
    /* a free-flyer comes back as a URDF floating joint */
    A = load_or_fail(model_path("hyq.urdf"), 1);
    B = roundtrip(A, "hyq");
    same_numbering(A, B);
    assert_int_equal(B->joint[0].type, RBD_JOINT_FREEFLYER);
    for (uint64_t seed = 1; seed <= 3; seed++) compare_by_name(A, B, seed, 1e-12, "hyq round trip");
    rbd_model_free(A); rbd_model_free(B);
}

/* Placements at and near gimbal lock (pitch +-pi/2) survive rpy export. */
static void test_roundtrip_gimbal(void **s)
{
    (void)s;
    const double half_pi = 1.5707963267948966;
    const double rpy[4][3] = { { 0.3, half_pi, 0.7 }, { -0.2, -half_pi, 1.0 }, { 2.9, 1.5707963, -3.0 },
                                      { -1.0, 0.4, 2.0 } };
    rbd_builder *b = rbd_builder_new();
    for (int k = 0; k < 4; k++) {
        double Rz[9], Ry[9], Rx[9], T[9], R[9];
        rot(2, rpy[k][2], Rz); rot(1, rpy[k][1], Ry); rot(0, rpy[k][0], Rx);
        mul3(Rz, Ry, T); mul3(T, Rx, R);
        sp_xform X = { .r = { 0.1 * k, -0.2, 0.3 } };
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) X.E[3 * a + c] = R[3 * c + a];
        rbd_joint j = { .type = k == 2 ? RBD_JOINT_PRISMATIC : RBD_JOINT_REVOLUTE, .axis = { 0.2, 0.3, -0.9 } };
        rbd_body_inertia in = { .mass = 1 + k, .com = { 0.1, 0.2, 0.3 }, .Ic = { 0.2, 0, 0, 0, 0.3, 0, 0, 0, 0.4 } };
        assert_int_equal(rbd_builder_add(b, k - 1, &j, &X, &in, NULL, NULL), 0);
    }
    rbd_model *A = NULL;
    assert_int_equal(rbd_builder_finish(b, NULL, "gimbal", &A), 0);
    rbd_builder_free(b);
    rbd_model *B = roundtrip(A, "gimbal");
    same_numbering(A, B);
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 9; c++) assert_true(fabs(A->Xtree[k].E[c] - B->Xtree[k].E[c]) < 1e-14);
        for (int c = 0; c < 3; c++) assert_true(A->Xtree[k].r[c] == B->Xtree[k].r[c]);
    }
    compare_by_name(A, B, 7, 1e-12, "gimbal round trip");
    rbd_model_free(A); rbd_model_free(B);
}

static void test_export_rejects(void **s)
{
    (void)s;
    rbd_builder *b = rbd_builder_new();
    sp_xform X;
    sp_xform_identity(&X);
    rbd_joint j = { .type = RBD_JOINT_SPHERICAL };
    rbd_body_inertia in = { .mass = 1, .Ic = { 1, 0, 0, 0, 1, 0, 0, 0, 1 } };
    assert_int_equal(rbd_builder_add(b, -1, &j, &X, &in, "ball", "b"), 0);
    rbd_model *m = NULL;
    assert_int_equal(rbd_builder_finish(b, NULL, NULL, &m), 0);
    rbd_builder_free(b);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(rbd_urdf_write(m, f), RBD_ENOTSUP);
    assert_non_null(strstr(rbd_last_error(), "'ball'"));
    fclose(f);
    rbd_model_free(m);
}

/* ---- bad files ---- */

static void test_bad_files(void **s)
{
    (void)s;
    static const struct { const char *file; int code; const char *key1, *key2; } cases[] = {
        { "malformed.urdf", RBD_EPARSE, "malformed.urdf:8:", "tag mismatch" },
        { "truncated.urdf", RBD_EPARSE, "truncated.urdf:", "Premature end of data" },
        { "empty.urdf", RBD_EPARSE, "empty.urdf", "empty" },
        { "not_robot.urdf", RBD_EPARSE, "not_robot.urdf:2:", "<model>" },
        { "planar.urdf", RBD_ENOTSUP, "planar.urdf:10:", "joint 'slider': unsupported joint type 'planar'" },
        { "unknown_type.urdf", RBD_EPARSE, "unknown_type.urdf:5:", "joint 'screw_joint'" },
        { "cycle.urdf", RBD_EINVAL, "cycle.urdf:8:", "joint 'ca' closes a cycle" },
        { "cycle_detached.urdf", RBD_EINVAL, "cycle_detached.urdf:", "closes a cycle through link 'b'" },
        { "two_roots.urdf", RBD_EINVAL, "two_roots.urdf:", "two root links, 'base' (line 3) and 'other'" },
        { "two_parents.urdf", RBD_EINVAL, "two_parents.urdf:8:", "link 'b' is already the child of joint 'j2'" },
        { "missing_link.urdf", RBD_EINVAL, "missing_link.urdf:6:", "joint 'j2': child link 'ghost' is not defined" },
        { "duplicate_link.urdf", RBD_EINVAL, "duplicate_link.urdf:5:", "link 'a' is defined twice" },
        { "duplicate_joint.urdf", RBD_EINVAL, "duplicate_joint.urdf:7:", "joint 'j1' is defined twice" },
        { "bad_number.urdf", RBD_EPARSE, "bad_number.urdf:13:", "joint 'j1': <origin xyz=\"1.0x 0 0\">: '1.0x'" },
        { "short_vector.urdf", RBD_EPARSE, "short_vector.urdf:13:", "expected 3 numbers, found 2" },
        { "missing_attr.urdf", RBD_EPARSE, "missing_attr.urdf:10:", "joint 'j1': <joint> has no 'type'" },
        { "negative_mass.urdf", RBD_EINVAL, "negative_mass.urdf:6:", "link 'l1': <mass value=\"-2.5\">" },
        { "non_psd.urdf", RBD_EINVAL, "non_psd.urdf:4:", "body 1 ('l1'): principal moments of inertia about the "
          "CoM (-2, 1, 4) include the negative eigenvalue -2" },
        { "massless.urdf", RBD_ESINGULAR, "massless.urdf", "joint 'sensor_joint' moves no mass" },
        { "no_such_file.urdf", RBD_EIO, "no_such_file.urdf", "cannot open" },
        { ".", RBD_EIO, "urdf/.", "cannot read: Is a directory" },
    };
    /* libxml2 must print nothing: send stderr to a file while loading */
    char errpath[1024];
    snprintf(errpath, sizeof errpath, "%s/tests/urdf_stderr_%ld.txt", RBD_BINARY_DIR, (long)getpid());
    fflush(stderr);
    int saved = dup(2);
    FILE *ef = fopen(errpath, "w");
    assert_non_null(ef);
    dup2(fileno(ef), 2);
    int ncase = (int)(sizeof cases / sizeof cases[0]), rcs[32], nulled[32];
    char msgs[32][1024];
    assert_true(ncase <= 32);
    for (int c = 0; c < ncase; c++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/data/urdf/%s", RBD_SOURCE_DIR, cases[c].file);
        rbd_model sentinel, *m = &sentinel;     /* a failure must leave NULL behind */
        rcs[c] = rbd_urdf_load(path, 0, NULL, &m);
        snprintf(msgs[c], sizeof msgs[c], "%s", rbd_last_error());
        nulled[c] = m == NULL;
        if (!rcs[c]) rbd_model_free(m);
    }
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(ef);
    ef = fopen(errpath, "r");
    fseek(ef, 0, SEEK_END);
    long printed = ftell(ef);
    fclose(ef);
    remove(errpath);
    assert_int_equal(printed, 0);
    for (int c = 0; c < ncase; c++) {
        if (rcs[c] != cases[c].code || !nulled[c] || !strstr(msgs[c], cases[c].key1) || !strstr(msgs[c], cases[c].key2))
            fail_msg("%s: code %d (want %d), message \"%s\" (want \"%s\" and \"%s\")", cases[c].file, rcs[c],
                     cases[c].code, msgs[c], cases[c].key1, cases[c].key2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models_load),
        cmocka_unit_test(test_joint_order),
        cmocka_unit_test(test_mass_preserved),
        cmocka_unit_test(test_mimic),
        cmocka_unit_test(test_rpy_convention),
        cmocka_unit_test(test_fixed_merge),
        cmocka_unit_test(test_single_link),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_roundtrip_gimbal),
        cmocka_unit_test(test_export_rejects),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
