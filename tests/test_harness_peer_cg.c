/*
 * The pinocchio-cg peer (Pinocchio's generated code, harness/peers/README.md):
 * on every robot of the default sweep whose code scripts/codegen
 * generated, every generated function (the RNEA and ABA derivatives, M^-1,
 * RNEA, ABA, CRBA) agrees with our counterpart entry by entry at one state;
 * and the check can fail: UR3's generated code checked against UR5 (the same
 * joints, other lengths and masses) is caught.
 *
 * Skipped, saying why, when the peer is not built or no robot's code was
 * generated; a robot without generated code is named and left out, one with
 * code that disagrees fails the test.  When scripts/test built the peer
 * ($RBD_PEERS_EXPECTED names pinocchio-cg) and generated UR3's code, as it
 * does, neither is a skip: the module must open and UR3 must be checked.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "peers/peer.h"

#define MODELS RBD_SOURCE_DIR "/tests/models/"

/* harness/sweeps/default.conf's robots, as scripts/codegen generates them */
static const char *const robots[] = {
    "urdf:" MODELS "ur3.urdf",
    "urdf:" MODELS "iiwa.urdf",
    "urdf:" MODELS "hyq.urdf,freeflyer",
    "urdf:" MODELS "baxter.urdf",
    "urdf:" MODELS "atlas.urdf,freeflyer",
    "urdf:" MODELS "talos.urdf,freeflyer",
};
enum { NROBOTS = sizeof robots / sizeof robots[0] };

/* scripts/test built it, and generated UR3's code (scripts/codegen ur3) */
static int expected(void)
{
    const char *e = getenv("RBD_PEERS_EXPECTED");
    return e && strstr(e, "pinocchio-cg@");
}

static int open_cg(rbd_peer *p)
{
    if (peer_open("pinocchio-cg", p)) {
        if (expected()) fail_msg("pinocchio-cg was expected (RBD_PEERS_EXPECTED): %s", rbd_last_error());
        print_message("pinocchio-cg not tested: %s (scripts/peers builds it, scripts/codegen generates the robots' "
                      "code)\n", rbd_last_error());
        return 0;
    }
    return 1;
}

static void test_generated_code_agrees(void **state)
{
    (void)state;
    rbd_peer p;
    if (!open_cg(&p)) skip();
    int checked = 0;
    for (int s = 0; s < NROBOTS; s++) {
        rbd_model *m = tu_model(robots[s]);
        peer_model pm;
        if (peer_model_load(&p, m, &pm)) {
            if (!strstr(rbd_last_error(), "no generated code")) fail_msg("%s on %s: %s", p.name, robots[s], rbd_last_error());
            print_message("%s: %s not checked: no generated code (scripts/codegen generates it)\n", p.name,
                          strrchr(robots[s], '/') + 1);
            rbd_model_free(m);
            continue;
        }
        for (int f = 0; f < p.api->nfunc; f++) {
            peer_check c;
            if (peer_check_func(&pm, f, 1, &c)) fail_msg("%s on %s: %s", p.row[f], robots[s], rbd_last_error());
            if (!c.pass) fail_msg("%s on %s: %.3g relative > %.3g, at %s", p.row[f], robots[s], c.err, c.tol, c.worst);
            print_message("%-44s %-28s %.2g\n", p.row[f], strrchr(robots[s], '/') + 1, c.err);
        }
        checked++;
        peer_model_free(&pm);
        rbd_model_free(m);
    }
    peer_close(&p);
    if (!checked) {
        if (expected()) fail_msg("pinocchio-cg was expected (RBD_PEERS_EXPECTED) but no robot's code was found: "
                                 "scripts/test generates UR3's (scripts/codegen ur3)");
        print_message("pinocchio-cg is built but no robot's code was generated: skipped (scripts/codegen)\n");
        skip();
    }
}

static void test_other_robot_is_caught(void **state)
{
    (void)state;
    rbd_peer p;
    if (!open_cg(&p)) skip();
    rbd_model *ur3 = tu_model(robots[0]);
    rbd_model *ur5 = tu_model("urdf:" MODELS "ur5.urdf");
    peer_model pm;
    if (peer_model_load(&p, ur3, &pm)) {
        if (expected()) fail_msg("pinocchio-cg was expected (RBD_PEERS_EXPECTED): ur3: %s", rbd_last_error());
        print_message("%s: ur3 has no generated code: skipped (%s)\n", p.name, rbd_last_error());
        rbd_model_free(ur3);
        rbd_model_free(ur5);
        peer_close(&p);
        skip();
    }
    pm.m = ur5;
    for (int f = 0; f < p.api->nfunc; f++) {
        peer_check c;
        assert_int_equal(peer_check_func(&pm, f, 1, &c), 0);
        if (c.pass) fail_msg("%s with UR3's code passed against UR5 (err %.3g)", p.row[f], c.err);
    }
    pm.m = ur3;
    peer_model_free(&pm);
    rbd_model_free(ur3);
    rbd_model_free(ur5);
    peer_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_code_agrees),
        cmocka_unit_test(test_other_robot_is_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
