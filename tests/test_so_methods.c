/*
 * Every second-order method (rbd_so_methods) against the 256-bit reference
 * (reference/ref_so.c), term-wise RMS relative error per tensor over the
 * entries above 1e-6 of its largest, and normwise: the analytical ones
 * under 1e-9, the central differences (id2-fd, fd2-fd) under their bounds
 * (bound_of; README.md, "The methods").
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trees),
        cmocka_unit_test(multidof),
        cmocka_unit_test(robots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
