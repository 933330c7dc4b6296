/*
 * The second-order methods (rbd_so_methods) against the 256-bit reference
 * at N = 100 (autoTree bf = 1, 2, 5, skewed and tapered) and on every robot
 * of tests/models that tests/test_so_methods.c does not already cover
 * (so_score.c; the same metrics and bounds).  The reference costs 16 nv^2
 * multiprecision RNEA/ABA evaluations for all its slabs (O(N^3) on a
 * chain: minutes at N = 100), so on the large models it is computed for
 * six slabs only, rbdref_so_eval_slabs: the q and v slabs of the first,
 * a middle and the last dof (root, interior, leaf), every entry of those
 * slabs compared, the rest of the tensors left out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "so_score.h"
#include "rbdref_so.h"

/* q and v slabs of dofs 0, nv / 2, nv - 1 */
static int six_slabs(const rbd_model *m, int s[6])
{
    const int d[3] = { 0, m->nv / 2, m->nv - 1 };
    for (int k = 0; k < 3; k++) { s[k] = d[k]; s[3 + k] = m->nv + d[k]; }
    return 6;
}

static void score(const char *spec, const char *label, uint64_t seed, int full_up_to_nv)
{
    rbd_model *m = tu_model(spec);
    int s[6], n = m->nv > full_up_to_nv ? six_slabs(m, s) : 0;
    so_score_model(m, label, seed, n ? s : NULL, n);
    rbd_model_free(m);
}

static void n100(void **st)
{
    (void)st;
    const char *specs[] = { "autotree:N=100,bf=1,skew=0.6,taper=0.99", "autotree:N=100,bf=2,skew=0.9,taper=0.99",
                            "autotree:N=100,bf=5,skew=0.7,taper=0.99" };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) score(specs[k], specs[k], 70 + k, 0);
}

/* autoTree's defaults (skew 0, taper 1): the chain the default sweep and
 * the paper describe, at N = 30, every slab (fdsva-so's depth rule,
 * RBD_FDSO_CS_DEPTH = 20, takes fd2-cs there: 5.5e-11 where fdsva-so-aza
 * is at 4.2e-9 on d2qdd_dq2 and fdsva-so-dmm at 4.5e-9).  N = 100 is left
 * out: the FD compositions are at 2e-8 to 1.4e-6 term-wise there, over
 * so_score's bounds (methods/README.md, "fdsva-so on autoTree's default
 * chains", "fd2-cs"). */
static void unskewed(void **st)
{
    (void)st;
    score("autotree:N=30,bf=1,skew=0,taper=1", "autotree:N=30,bf=1,skew=0,taper=1", 75, 30);
}

static void robots(void **st)
{
    (void)st;
    const char *specs[] = { "ur3.urdf", "double_pendulum.urdf", "panda.urdf", "iiwa.urdf", "iiwa_grid.urdf",
                            "solo12.urdf,freeflyer", "baxter.urdf", "atlas.urdf,nonphysical,freeflyer",
                            "talos.urdf,freeflyer" };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        char spec[1024];
        snprintf(spec, sizeof spec, "urdf:%s/tests/models/%s", RBD_SOURCE_DIR, specs[k]);
        score(spec, specs[k], 80 + k, 20);
    }
}

/* The slabs of rbdref_so_eval_slabs are the full evaluation's, bit for
 * bit, and every other entry is NAN. */
static void slabs_are_the_full_ones(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=7,bf=2,skew=0.8,taper=0.93");
    const size_t nv = (size_t)m->nv, nn = nv * nv, n3 = nn * nv;
    double *x = malloc(sizeof(double) * (m->nq + 3 * nv));
    rbd_rng r;
    rbd_rng_seed(&r, 5);
    rbd_random_state(m, &r, x, x + m->nq, x + m->nq + nv, x + m->nq + 2 * nv);
    const double *q = x, *v = q + m->nq, *a = v + nv, *tau = a + nv;
    rbdref_so_result full, part;
    assert_int_equal(rbdref_so_result_init(&full, m->nv), 0);
    assert_int_equal(rbdref_so_result_init(&part, m->nv), 0);
    const int slabs[2] = { 2, m->nv + 4 };
    assert_int_equal(rbdref_so_eval(m, q, v, a, tau, NULL, 0, &full), 0);
    assert_int_equal(rbdref_so_eval_slabs(m, q, v, a, tau, NULL, 0, slabs, 2, &part), 0);
    static const char *const names[8] = { "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq",
                                          "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv", "d2qdd_dqdtau" };
    size_t computed = 0;
    for (int t = 0; t < 8; t++) {
        size_t n;
        const double *F = rbdref_so_result_get(&full, names[t], &n), *P = rbdref_so_result_get(&part, names[t], &n);
        const int v_tensor = t % 4 == 1, mixed = t % 4 == 2 || t == 7;
        for (size_t e = 0; e < n3; e++) {
            size_t j = e / nv % nv, k = e / nn;
            int in = v_tensor ? k == 4 : mixed ? j == 2 : k == 2;
            if (in && memcmp(&F[e], &P[e], sizeof F[e]))
                fail_msg("%s entry %zu: slab %.17g, full %.17g", names[t], e, P[e], F[e]);
            if (!in && !isnan(P[e])) fail_msg("%s entry %zu outside the slabs is %.17g, not NAN", names[t], e, P[e]);
            computed += in;
        }
    }
    assert_true(computed == 8 * nn);
    assert_int_equal(rbdref_so_eval_slabs(m, q, v, a, tau, NULL, 0, (const int[]){ 2 * m->nv }, 1, &part), RBD_EINVAL);
    rbdref_so_result_free(&full);
    rbdref_so_result_free(&part);
    free(x);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(slabs_are_the_full_ones),
        cmocka_unit_test(n100),
        cmocka_unit_test(unskewed),
        cmocka_unit_test(robots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
