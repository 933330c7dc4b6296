/*
 * The live peers (harness/peers/peer.h): every function of every peer module
 * agrees with our counterpart, entry by entry at one state, on seven models
 * (autoTree chains and trees off the plane, four robots of which two have a
 * free-flyer root); and the check can fail: a peer that loaded one model,
 * checked against another with the same joints, is caught.
 *
 * Which peers: $RBD_PEERS_EXPECTED (scripts/test sets it to the peers, as
 * NAME@VERSION, whose prerequisites scripts/peers found, so a peer that
 * should have built but did not fails here), else every version of every
 * peer whose module is in the peer directory.  Without any the tests are
 * skipped, and say so (with what scripts/peers recorded).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "peers/peer.h"
#include "rbdiff/rbd_io.h"

#define MODELS RBD_SOURCE_DIR "/tests/models/"

static const char *const specs[] = {
    "autotree:N=6,bf=1,skew=0.6,taper=0.9",
    "autotree:N=12,bf=2,skew=1.1,taper=0.95",     /* siblings named j10 < j2: joints matched by name */
    "autotree:N=9,bf=3,skew=0.4,taper=0.97",
    "urdf:" MODELS "double_pendulum.urdf",
    "urdf:" MODELS "ur5.urdf",
    "urdf:" MODELS "panda.urdf",
    "urdf:" MODELS "hyq.urdf,freeflyer",
    "urdf:" MODELS "solo12.urdf,freeflyer",
};
enum { NSPECS = sizeof specs / sizeof specs[0] };

/* The peers to test, opened; *n = 0 when there are none. */
static rbd_peer *open_peers(int *n)
{
    static rbd_peer p[8];
    const char *want = getenv("RBD_PEERS_EXPECTED");
    *n = 0;
    if (want && *want) {
        char buf[256], *save = NULL;
        snprintf(buf, sizeof buf, "%s", want);
        for (char *tok = strtok_r(buf, " ,", &save); tok && *n < 8; tok = strtok_r(NULL, " ,", &save)) {
            if (peer_family(tok) == peer_family("pinocchio-cg")) continue;   /* test_harness_peer_cg.c */
            if (peer_open(tok, &p[*n])) fail_msg("peer %s was expected (RBD_PEERS_EXPECTED): %s", tok, rbd_last_error());
            (*n)++;
        }
    } else {                /* every version of every peer built */
        for (int k = 0; peer_known[k] && *n < 8; k++) {
            char ver[8][32], name[64];
            /* generated code exists only for the models it was generated
             * for, not these: test_harness_peer_cg.c checks it */
            if (!strcmp(peer_known[k], "pinocchio-cg")) continue;
            int nv = peer_versions(peer_known[k], ver, 8);
            for (int v = 0; v < nv && *n < 8; v++) {
                snprintf(name, sizeof name, "%.15s@%.31s", peer_known[k], ver[v]);
                if (peer_open(name, &p[*n])) fail_msg("peer %s is built but: %s", name, rbd_last_error());
                (*n)++;
            }
        }
    }
    return p;
}

static void close_peers(rbd_peer *p, int n)
{
    for (int k = 0; k < n; k++) peer_close(&p[k]);
}

static void test_every_function_agrees(void **state)
{
    (void)state;
    int np;
    rbd_peer *p = open_peers(&np);
    if (!np) {
        print_message("no peer module in %s and RBD_PEERS_EXPECTED unset: skipped (scripts/peers builds them; "
                      "see its %s/peers.txt for why a peer was not built)\n", peer_dir(), peer_dir());
        skip();
    }
    for (int k = 0; k < np; k++) {
        for (int s = 0; s < NSPECS; s++) {
            rbd_model *m = tu_model(specs[s]);
            peer_model pm;
            if (peer_model_load(&p[k], m, &pm)) fail_msg("%s on %s: %s", p[k].name, specs[s], rbd_last_error());
            for (int f = 0; f < p[k].api->nfunc; f++) {
                peer_check c;
                if (peer_check_func(&pm, f, 1, &c)) fail_msg("%s on %s: %s", p[k].row[f], specs[s], rbd_last_error());
                if (!c.pass)
                    fail_msg("%s on %s: %.3g relative > %.3g, at %s", p[k].row[f], specs[s], c.err, c.tol, c.worst);
                print_message("%-34s %-46s %.2g\n", p[k].row[f], specs[s], c.err);
            }
            peer_model_free(&pm);
            rbd_model_free(m);
        }
    }
    close_peers(p, np);
}

/* With $RBD_WRITE_PINOCCHIO_REFERENCE = DIR: Pinocchio's values on the wart
 * robot (fixed base, read from the file by Pinocchio) at the first state of
 * seed 3's pool, as DIR/warts.state and DIR/warts.expected
 * (tests/pinocchio/reference/README.md's format). */
static void write_reference(const peer_model *pm, const char *dir)
{
    const rbd_model *m = pm->m;
    size_t nv = (size_t)m->nv, nn = nv * nv;
    double *buf = calloc((size_t)m->nq + 4 * nv + 4 * nv + 16 * nn, sizeof *buf);
    assert_non_null(buf);
    double *q = buf, *v = q + m->nq, *a = v + nv, *tau = a + nv, *vec = tau + nv, *mat = vec + 4 * nv;
    char path[1200];
    snprintf(path, sizeof path, "%s/warts.expected", dir);
    FILE *ex = fopen(path, "w");
    if (!ex) fail_msg("cannot write %s", path);
    fprintf(ex, "# expected outputs for warts.state (tau = ID at q,v,a; qdd, dqdd_* = FD at q,v,tau), computed by "
                "the live Pinocchio peer (tests/test_harness_peers.c, RBD_WRITE_PINOCCHIO_REFERENCE)\n");
    static const char *const fn[4] = { "computeRNEADerivatives", "computeABADerivatives", "crba", "computeMinverse" };
    static const char *const names[4][4] = { { "tau", "dtau_dq", "dtau_dv", NULL },
                                             { "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau" },
                                             { NULL, "M", NULL, NULL }, { NULL, "Minv", NULL, NULL } };
    for (int k = 0; k < 4; k++) {
        int f = peer_func_find(pm->peer, fn[k]);
        assert_true(f >= 0);
        double *mm[3] = { mat, mat + nn, mat + 2 * nn };
        if (peer_eval_func(pm, f, 3, vec, mm, q, v, a, tau)) fail_msg("%s: %s", fn[k], rbd_last_error());
        if (names[k][0]) rbd_block_write(ex, names[k][0], (int)nv, 1, vec);
        for (int b = 0; b < 3; b++)
            if (names[k][b + 1]) rbd_block_write(ex, names[k][b + 1], (int)nv, (int)nv, mm[b]);
    }
    fclose(ex);
    snprintf(path, sizeof path, "%s/warts.state", dir);
    FILE *st = fopen(path, "w");
    if (!st) fail_msg("cannot write %s", path);
    fprintf(st, "# state for warts (tu_wart_robot in tests/testutil.c, fixed base); values from a Pinocchio 3.7.0 "
                "run through the live peer (see README.md)\n# joints in velocity order:");
    for (int u = 0; u < m->nb; u++)
        for (int k = 0; k < m->nb; k++)
            if (m->user_body[k] == u)
                fprintf(st, " %s(%s,nq=%d,nv=%d)", m->joint_name[k], rbd_joint_type_name(m->joint[k].type),
                        m->nq_of[k], m->nv_of[k]);
    const char *vn[4] = { "q", "v", "a", "tau" };
    const double *vx[4] = { q, v, a, tau };
    for (int k = 0; k < 4; k++) {
        fprintf(st, "\n%s", vn[k]);
        for (int i = 0; i < (k ? m->nv : m->nq); i++) fprintf(st, " %.17g", vx[k][i]);
    }
    fputc('\n', st);
    fclose(st);
    print_message("wrote %s and warts.expected\n", path);
    free(buf);
}

/* The wart robot of tu_wart_robot (continuous joints, a rounding-size
 * inertia clamped, a non-physical light link merged through a fixed joint,
 * a mimic joint) and a body loaded by 'nonphysical': Pinocchio reads the
 * files themselves and must find our nq, nv and joints, and every function
 * (tau, dtau/dq, M, dqdd/dq, ...) must agree; with a free-flyer root through
 * our export.  Peers without continuous joints (MuJoCo's hinge has nq = 1)
 * must refuse the wart robot with a message (MuJoCo's own inertia check
 * refuses the file first, its joint check our export). */
static void test_warts_match_pinocchio(void **state)
{
    (void)state;
    int np;
    rbd_peer *p = open_peers(&np);
    if (!np) skip();
    const char *wart = tu_wart_robot("warts_peer.urdf");
    char spec[3][1400];
    const char *file[3] = { wart, wart, RBD_SOURCE_DIR "/tests/catalog/inputs/wart_impossible_body.urdf" };
    snprintf(spec[0], sizeof spec[0], "urdf:%s", wart);
    snprintf(spec[1], sizeof spec[1], "urdf:%s,freeflyer", wart);
    snprintf(spec[2], sizeof spec[2], "urdf:%s,nonphysical", file[2]);
    int pin = 0;
    for (int k = 0; k < np; k++) {
        int cont = peer_family(p[k].name) == peer_family("pinocchio");
        pin += cont;
        for (int s = 0; s < 3; s++) {
            rbd_model *m = tu_model(spec[s]);
            peer_model pm;
            int rc = s == 1 ? peer_model_load(&p[k], m, &pm) : peer_model_load_file(&p[k], m, file[s], &pm);
            if (!cont) {
                if (s < 2) {
                    if (!rc) fail_msg("%s took continuous joints with nq = 2", p[k].name);
                    print_message("%s refuses %s: %s\n", p[k].name, spec[s], rbd_last_error());
                    assert_non_null(strstr(rbd_last_error(), "cannot take"));
                } else if (!rc) {
                    peer_model_free(&pm);
                }
                rbd_model_free(m);
                continue;
            }
            if (rc) fail_msg("%s on %s: %s", p[k].name, spec[s], rbd_last_error());
            const char *dir = getenv("RBD_WRITE_PINOCCHIO_REFERENCE");
            if (s == 0 && dir && *dir) write_reference(&pm, dir);
            for (int f = 0; f < p[k].api->nfunc; f++) {
                peer_check c;
                if (peer_check_func(&pm, f, 3, &c)) fail_msg("%s on %s: %s", p[k].row[f], spec[s], rbd_last_error());
                if (!c.pass)
                    fail_msg("%s on %s: %.3g relative > %.3g, at %s", p[k].row[f], spec[s], c.err, c.tol, c.worst);
                print_message("%-34s %-60s %.2g\n", p[k].row[f], strrchr(spec[s], '/') + 1, c.err);
            }
            peer_model_free(&pm);
            rbd_model_free(m);
        }
    }
    if (!pin) print_message("no Pinocchio peer: the wart robot was not compared\n");
    close_peers(p, np);
}

/* The peer loads a chain with taper 0.9 and is checked against one with
 * taper 0.8: same joints, other masses.  Every function must fail. */
static void test_a_different_model_is_caught(void **state)
{
    (void)state;
    int np;
    rbd_peer *p = open_peers(&np);
    if (!np) skip();
    rbd_model *a = tu_model("autotree:N=5,bf=1,skew=0.6,taper=0.9");
    rbd_model *b = tu_model("autotree:N=5,bf=1,skew=0.6,taper=0.8");
    for (int k = 0; k < np; k++) {
        peer_model pm;
        if (peer_model_load(&p[k], a, &pm)) fail_msg("%s: %s", p[k].name, rbd_last_error());
        pm.m = b;
        for (int f = 0; f < p[k].api->nfunc; f++) {
            peer_check c;
            assert_int_equal(peer_check_func(&pm, f, 1, &c), 0);
            if (c.pass) fail_msg("%s passed against another model (err %.3g)", p[k].row[f], c.err);
        }
        pm.m = a;
        peer_model_free(&pm);
    }
    rbd_model_free(a);
    rbd_model_free(b);
    close_peers(p, np);
}

/* A name that is no peer, a version not built, and a peer directory without
 * modules: clear errors. */
static void test_missing_peer_says_why(void **state)
{
    (void)state;
    rbd_peer p;
    assert_int_equal(peer_open("no-such-peer", &p), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "'no-such-peer' is not a peer"));
    assert_int_equal(peer_open("pinocchio@0.0.1", &p), RBD_ENOTSUP);
    assert_non_null(strstr(rbd_last_error(), "rbdpeer-pinocchio@0.0.1.so"));
    assert_int_equal(peer_open("../x", &p), RBD_EINVAL);
    char *old = getenv("RBD_PEER_DIR") ? strdup(getenv("RBD_PEER_DIR")) : NULL;
    setenv("RBD_PEER_DIR", "/nonexistent-rbdiff-peers", 1);
    assert_int_equal(peer_open("pinocchio", &p), RBD_ENOTSUP);
    assert_non_null(strstr(rbd_last_error(), "/nonexistent-rbdiff-peers/rbdpeer-pinocchio@*.so"));
    if (old) setenv("RBD_PEER_DIR", old, 1);
    else unsetenv("RBD_PEER_DIR");
    free(old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_function_agrees),
        cmocka_unit_test(test_warts_match_pinocchio),
        cmocka_unit_test(test_a_different_model_is_caught),
        cmocka_unit_test(test_missing_peer_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
