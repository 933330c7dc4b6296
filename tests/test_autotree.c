/*
 * autoTree(N, bf, skew, taper) against its definition (README.md, "Conventions"): the breadth-first parent
 * formula parent(i) = floor((i - 2 + ceil(bf)) / bf) read through the
 * depth-first renumbering (m->user_body), the depth-first invariants the
 * algorithms rely on, and the geometry / inertia of each body.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

static void check_tree(int N, double bf, double skew, double taper)
{
    rbd_model *m = NULL;
    if (rbd_autotree(N, bf, skew, taper, NULL, &m)) fail_msg("autotree N=%d bf=%g: %s", N, bf, rbd_last_error());
    assert_int_equal(m->nb, N);
    assert_int_equal(m->nv, N);
    int *seen = calloc((size_t)N, sizeof *seen);
    for (int k = 0; k < N; k++) {
        int u = m->user_body[k] + 1;                       /* 1-based breadth-first number */
        assert_true(u >= 1 && u <= N);
        assert_int_equal(seen[u - 1], 0);
        seen[u - 1] = 1;
        int want = (int)floor((u - 2 + ceil(bf)) / bf);    /* 0 = base */
        int got = m->parent[k] < 0 ? 0 : m->user_body[m->parent[k]] + 1;
        if (got != want) fail_msg("N=%d bf=%g: body %d has parent %d, formula gives %d", N, bf, u, got, want);
        /* depth-first: parent before child, subtree(k) = [k, subtree_end[k]) */
        assert_true(m->parent[k] < k);
        for (int j = k + 1; j < N; j++) {
            int a = j;
            while (a > k) a = m->parent[a];
            assert_int_equal(a == k, j < m->subtree_end[k]);
        }
        assert_int_equal(m->dof_parent[k], m->parent[k]);  /* 1-DOF joints: lambda = parent */
        /* geometry: Xtree = rotx(skew) xlt([len(parent) 0 0]) off the base, mass, CoM, inertia */
        const sp_xform *X = &m->Xtree[k];
        double lp = want ? pow(taper, want - 1) : 0, c = want ? cos(skew) : 1, s = want ? sin(skew) : 0;
        double E[9] = { 1, 0, 0, 0, c, s, 0, -s, c };
        for (int t = 0; t < 9; t++) assert_true(fabs(X->E[t] - E[t]) < 1e-15);
        assert_true(fabs(X->r[0] - lp) < 1e-15 && X->r[1] == 0 && X->r[2] == 0);
        double len = pow(taper, u - 1), mass = pow(taper, 3.0 * (u - 1));
        const rbd_body_inertia *in = &m->inertial[k];
        assert_true(fabs(in->mass - mass) <= 1e-15 * mass);
        assert_true(fabs(in->com[0] - len / 2) <= 1e-15 * len && in->com[1] == 0 && in->com[2] == 0);
        assert_true(fabs(in->Ic[0] - mass * len * len * 0.0025) <= 1e-15 * mass * len * len);
        assert_true(fabs(in->Ic[4] - mass * len * len * 1.015 / 12) <= 1e-15 * mass * len * len);
        assert_true(m->joint[k].type == RBD_JOINT_REVOLUTE && m->joint[k].axis_id == 2);
    }
    free(seen);
    rbd_model_free(m);
}

static void test_bf1(void **s) { (void)s; check_tree(1, 1, 0, 1); check_tree(12, 1, 0.5, 0.9); }
static void test_bf2(void **s) { (void)s; check_tree(2, 2, 0, 1); check_tree(31, 2, 0, 1); check_tree(40, 2, 1.1, 0.95); }
static void test_bf5(void **s) { (void)s; check_tree(5, 5, 0, 1); check_tree(57, 5, -0.3, 1); }
static void test_bf_fractional(void **s)
{
    (void)s;
    check_tree(30, 1.5, 0, 1);
    check_tree(45, 2.5, 0.2, 0.97);
    /* bf = 1.5 alternates 1 and 2 children: body 1 has 1, body 2 has 2, body 3 has 1, ... */
    rbd_model *m = NULL;
    assert_int_equal(rbd_autotree(30, 1.5, 0, 1, NULL, &m), 0);
    int nchild[31] = { 0 };
    for (int k = 0; k < m->nb; k++)
        if (m->parent[k] >= 0) nchild[m->user_body[m->parent[k]] + 1]++;
    for (int u = 1; u <= 10; u++) assert_int_equal(nchild[u], u % 2 ? 1 : 2);
    rbd_model_free(m);
}

/* the depth-first order itself: bf = 2, N = 7 is the binary tree 1(2(4,5),3(6,7)) */
static void test_depth_first_order(void **s)
{
    (void)s;
    rbd_model *m = NULL;
    assert_int_equal(rbd_autotree(7, 2, 0, 1, NULL, &m), 0);
    static const int order[7] = { 1, 2, 4, 5, 3, 6, 7 };
    for (int k = 0; k < 7; k++) assert_int_equal(m->user_body[k] + 1, order[k]);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bf1),
        cmocka_unit_test(test_bf2),
        cmocka_unit_test(test_bf5),
        cmocka_unit_test(test_bf_fractional),
        cmocka_unit_test(test_depth_first_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
