/*
 * Peer names (peers/peer.h, peer_name_parse): the one reader of a peer's
 * name and of its rows' names, with or without @VERSION.  Twice a caller
 * took "pinocchio.computeRNEADerivatives" apart by hand and read no peer in
 * it (vs_versions.c, cmd_sweep.c); so here every form is parsed, and every
 * shipped sweep config goes through the checks sweep makes before it
 * measures (the config, its targets, its peers opened as the sweep opens
 * them, its robot_methods against them): a shipped config that sweep would
 * refuse fails this test.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "measure/bench.h"
#include "peers/peer.h"
#include "plan/sweepconf.h"

static void parses(const char *s, const char *fam, const char *peer, const char *ver, const char *func)
{
    peer_name pn;
    assert_int_equal(peer_name_parse(s, &pn), 0);
    assert_int_equal(pn.family, peer_family(fam));
    assert_true(pn.family >= 0);
    assert_string_equal(pn.peer, peer);
    assert_string_equal(pn.version, ver);
    if (func) assert_string_equal(pn.func, func);
    else assert_null(pn.func);
    assert_int_equal(peer_family(s), pn.family);
}

static void test_every_form(void **st)
{
    (void)st;
    parses("pinocchio", "pinocchio", "pinocchio", "", NULL);
    parses("pinocchio@4.1.0", "pinocchio", "pinocchio@4.1.0", "4.1.0", NULL);
    parses("pinocchio.computeRNEADerivatives", "pinocchio", "pinocchio", "", "computeRNEADerivatives");
    parses("pinocchio@3.7.0.computeABADerivatives", "pinocchio", "pinocchio@3.7.0", "3.7.0", "computeABADerivatives");
    parses("mujoco.fd_forward", "mujoco", "mujoco", "", "fd_forward");
    parses("mujoco@2.2.2.transitionFD", "mujoco", "mujoco@2.2.2", "2.2.2", "transitionFD");
    peer_name pn;
    static const char *const bad[] = { "pinokio", "pinokio.aba", "pinocchio@", "pinocchio@4x", "pinocchio@4.1.0.",
                                       "pinocchio.", "mujoco@/etc", "idsva", "", "../pinocchio" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_int_equal(peer_name_parse(bad[k], &pn), -1);
        assert_int_equal(peer_family(bad[k]), -1);
    }
    assert_true(peer_row_matches("pinocchio.aba", "pinocchio@4.1.0.aba"));
    assert_true(peer_row_matches("pinocchio@4.1.0.aba", "pinocchio@4.1.0.aba"));
    assert_false(peer_row_matches("pinocchio@3.7.0.aba", "pinocchio@4.1.0.aba"));
    assert_false(peer_row_matches("pinocchio.aba", "mujoco@4.0.0.aba"));
    assert_false(peer_row_matches("pinocchio.aba", "pinocchio@4.1.0.rnea"));
}

/* The checks of `rbdiff sweep --config FILE` before it measures. */
static void sweep_accepts(const char *file)
{
    sweep_config c;
    sweep_config_init(&c);
    if (sweep_config_read(&c, file)) fail_msg("%s: sweep refuses it: %s", file, rbd_last_error());
    bench_target *tg = NULL;
    int ntg = 0, npeers = 0;
    rbd_peer *peers = NULL;
    if (bench_targets(&c, &tg, &ntg)) fail_msg("%s: %s", file, rbd_last_error());
    int prc = bench_peers_open("test", &c, &peers, &npeers);
    if (prc == RBD_ENOTSUP)  /* a peer named in the file and not built: a failed run (1), not a refused config */
        printf("%s: %s (its robot_methods checked without peers)\n", file, rbd_last_error());
    else if (prc) fail_msg("%s: %s", file, rbd_last_error());
    const int ours = ntg;
    if (bench_add_peer_targets(&tg, &ntg, peers, npeers)) fail_msg("%s: %s", file, rbd_last_error());
    if (bench_check_robot_methods(&c, peers, npeers, tg, ntg)) fail_msg("%s: %s", file, rbd_last_error());
    /* and as on a machine where no peer is built */
    if (bench_check_robot_methods(&c, NULL, 0, tg, ours)) fail_msg("%s, no peers: %s", file, rbd_last_error());
    printf("%s: accepted (%d targets, %d peers open)\n", file, ntg, npeers);
    bench_peers_close(peers, npeers);
    free(tg);
    sweep_config_free(&c);
}

static void test_shipped_configs_pass_sweep(void **st)
{
    (void)st;
    static const char *const shipped[] = { "default", "paper", "peers", "anchors", "clang" };
    for (size_t k = 0; k < sizeof shipped / sizeof *shipped; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/harness/sweeps/%s.conf", RBD_SOURCE_DIR, shipped[k]);
        sweep_accepts(path);
    }
}

/* The check refuses what it should, so the test above can fail. */
static void test_robot_methods_refused(void **st)
{
    (void)st;
    static const char *const bad[] = { "pinokio.aba", "pinocchio@.aba", "mujoco@4y.fd_forward" };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        sweep_config c;
        sweep_config_init(&c);
        char v[64];
        snprintf(v, sizeof v, "idsva, %s", bad[k]);
        assert_int_equal(sweep_config_set(&c, "robot_methods", v, "test"), 0);
        assert_int_equal(bench_check_robot_methods(&c, NULL, 0, NULL, 0), RBD_EINVAL);
        assert_non_null(strstr(rbd_last_error(), bad[k]));
        sweep_config_free(&c);
    }
    sweep_config c;
    sweep_config_init(&c);
    assert_int_equal(sweep_config_set(&c, "robot_methods", "idsva, pinocchio.aba, mujoco@4.0.0.fd_forward", "t"), 0);
    assert_int_equal(bench_check_robot_methods(&c, NULL, 0, NULL, 0), RBD_OK);   /* known, not built: left out */
    /* a loaded peer (as bench_peers_open leaves it) whose function is misspelt */
    rbd_peer pin;
    memset(&pin, 0, sizeof pin);
    snprintf(pin.name, sizeof pin.name, "pinocchio@4.1.0");
    bench_target t[1];
    memset(t, 0, sizeof t);
    t[0].name = "pinocchio@4.1.0.aba";
    t[0].peer = &pin;
    t[0].kind = "peer";
    assert_int_equal(bench_check_robot_methods(&c, &pin, 1, t, 1), RBD_OK);
    sweep_config_free(&c);
    sweep_config_init(&c);   /* a key is set once */
    assert_int_equal(sweep_config_set(&c, "robot_methods", "idsva, pinocchio.abba", "t"), 0);
    assert_int_equal(bench_check_robot_methods(&c, &pin, 1, t, 1), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "loaded"));
    sweep_config_free(&c);
}

/* A second-order function (pinocchio.ComputeRNEASecondOrderDerivatives)
 * in robot_methods: timed beside a second-order method, and not an error
 * when none is timed (so_methods = none), where it is simply not a target;
 * a misspelt one is still refused. */
static void test_robot_methods_second_order(void **st)
{
    (void)st;
    static const rbd_peer_func funcs[] = {
        { "computeRNEADerivatives", RBD_PEER_ID_DERIVS, "idsva", "", 1e-9, 0 },
        { "ComputeRNEASecondOrderDerivatives", RBD_PEER_ID_SO_DERIVS, "idsva-so", "", 1e-9, 0 },
    };
    rbd_peer_api api;
    memset(&api, 0, sizeof api);
    api.name = "pinocchio";
    api.nfunc = 2;
    api.func = funcs;
    char rows[2][96] = { "pinocchio@4.1.0.computeRNEADerivatives", "pinocchio@4.1.0.ComputeRNEASecondOrderDerivatives" };
    rbd_peer pin;
    memset(&pin, 0, sizeof pin);
    snprintf(pin.name, sizeof pin.name, "pinocchio@4.1.0");
    pin.api = &api;
    pin.row = rows;
    bench_target t[2];
    memset(t, 0, sizeof t);
    t[0].name = rows[0];
    t[0].peer = &pin;
    t[0].kind = "peer";
    sweep_config c;
    sweep_config_init(&c);
    assert_int_equal(sweep_config_set(&c, "robot_methods",
                                      "idsva, pinocchio.computeRNEADerivatives, pinocchio.ComputeRNEASecondOrderDerivatives",
                                      "t"), 0);
    assert_int_equal(bench_check_robot_methods(&c, &pin, 1, t, 1), RBD_OK);    /* no second-order target */
    t[1] = t[0];
    t[1].name = rows[1];
    t[1].peer_func = 1;
    assert_int_equal(bench_check_robot_methods(&c, &pin, 1, t, 2), RBD_OK);    /* beside one: found */
    sweep_config_free(&c);
    sweep_config_init(&c);
    assert_int_equal(sweep_config_set(&c, "robot_methods", "idsva, pinocchio.ComputeRNEASecondOrderDerivativs", "t"), 0);
    assert_int_equal(bench_check_robot_methods(&c, &pin, 1, t, 1), RBD_EINVAL);
    sweep_config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_form),
        cmocka_unit_test(test_shipped_configs_pass_sweep),
        cmocka_unit_test(test_robot_methods_refused),
        cmocka_unit_test(test_robot_methods_second_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
