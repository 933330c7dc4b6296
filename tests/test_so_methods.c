/*
 * Every second-order method (rbd_so_methods) against the 256-bit reference
 * (reference/ref_so.c), term-wise RMS relative error per tensor over the
 * entries above 1e-6 of its largest, and normwise: the analytical ones
 * under 1e-9, the central differences (id2-fd, fd2-fd) under their bounds
 * (bound_of; README.md, "The methods").
 * fdsva-so's depth rule is checked by its outputs (depth_rule).
 * Models: autoTree bf = 1, 2, 5 skewed and tapered, the free-flying
 * multi-dof tree and chain, and the robots of tests/models (a state each).
 * RBD_SO_VERBOSE=1 prints every figure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "rbdref_so.h"
#include "so_score.h"

static void trees(void **st)
{
    (void)st;
    const char *specs[] = { "autotree:N=1,bf=1,skew=0.5,taper=0.9", "autotree:N=6,bf=1,skew=1.0471975511965976,taper=0.95",
                            "autotree:N=12,bf=2,skew=0.7,taper=0.9", "autotree:N=13,bf=5,skew=0.6,taper=0.92" };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        rbd_model *m = tu_model(specs[k]);
        so_score_model(m, specs[k], 40 + k, NULL, 0);
        rbd_model_free(m);
    }
}

static void multidof(void **st)
{
    (void)st;
    rbd_model *m = tu_multidof_tree();
    so_score_model(m, "multidof tree (free-flyer, spherical, prismatic)", 51, NULL, 0);
    rbd_model_free(m);
    m = tu_multidof_chain();
    so_score_model(m, "multidof chain", 52, NULL, 0);
    rbd_model_free(m);
}

static void robots(void **st)
{
    (void)st;
    const char *specs[] = { "urdf:" RBD_SOURCE_DIR "/tests/models/ur5.urdf",
                            "urdf:" RBD_SOURCE_DIR "/tests/models/hyq.urdf,freeflyer" };
    for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
        rbd_model *m = tu_model(specs[k]);
        so_score_model(m, specs[k] + strlen("urdf:" RBD_SOURCE_DIR "/tests/models/"), 60 + k, NULL, 0);
        rbd_model_free(m);
    }
}

/* fdsva-so's rule (fdsva_so.c, RBD_FDSO_CS_DEPTH = 20): fd2-cs where the
 * longest root-to-leaf path has 20 dofs or more, fdsva-so-dmm below,
 * audited by its outputs: bit for bit the chosen method's on chains of 19
 * and 20 dofs (either side of the threshold) and on a bf = 2 tree of 40
 * bodies whose paths are short although nv is 40. */
static void depth_rule(void **st)
{
    (void)st;
    const char *specs[] = { "autotree:N=19,bf=1,skew=0.6,taper=0.99", "autotree:N=20,bf=1,skew=0.6,taper=0.99",
                            "autotree:N=40,bf=2,skew=0.6,taper=0.99" };
    const char *want[] = { "fdsva-so-dmm", "fd2-cs", "fdsva-so-dmm" };
    for (int k = 0; k < 3; k++) {
        rbd_model *m = tu_model(specs[k]);
        const size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
        double *x = malloc(sizeof(double) * (m->nq + 3 * nv)), *out[2];
        rbd_rng r;
        rbd_rng_seed(&r, 90 + k);
        rbd_random_state(m, &r, x, x + m->nq, x + m->nq + nv, x + m->nq + 2 * nv);
        rbd_state st8 = { x, x + m->nq, x + m->nq + nv, x + m->nq + 2 * nv };
        const char *names[2] = { "fdsva-so", want[k] };
        for (int h = 0; h < 2; h++) {
            const rbd_method *meth = rbd_method_find(names[h]);
            assert_non_null(meth);
            out[h] = calloc(nv + 4 * n3, sizeof(double));
            rbd_derivs d = { .qdd = out[h], .d2qdd_dq2 = out[h] + nv, .d2qdd_dv2 = out[h] + nv + n3,
                             .d2qdd_dqdv = out[h] + nv + 2 * n3, .d2qdd_dqdtau = out[h] + nv + 3 * n3 };
            void *ws = NULL;
            if (meth->init(m, NULL, &ws) || rbd_method_eval(meth, ws, m, &st8, &d))
                fail_msg("%s: %s: %s", specs[k], names[h], rbd_last_error());
            meth->fini(ws);
        }
        if (memcmp(out[0], out[1], sizeof(double) * (nv + 4 * n3)))
            fail_msg("%s: fdsva-so's tensors are not %s's", specs[k], want[k]);
        free(out[0]); free(out[1]); free(x);
        rbd_model_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trees),
        cmocka_unit_test(multidof),
        cmocka_unit_test(robots),
        cmocka_unit_test(depth_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
