/* The sweep config: a valid file, then each kind of error with its message. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "plan/sweepconf.h"
#include "measure/bench.h"

static char dir[64];

static int setup(void **s)
{
    (void)s;
    snprintf(dir, sizeof dir, "/tmp/rbd_conf_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *conf(const char *text)
{
    static char p[128];
    snprintf(p, sizeof p, "%s/t.conf", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Reading text must fail with code and a message containing want. */
static void expect_error(const char *text, int code, const char *want)
{
    sweep_config c;
    sweep_config_init(&c);
    const char *p = conf(text);
    int rc = sweep_config_read(&c, p);
    char full[512];
    snprintf(full, sizeof full, "%s:%s", p, want);
    if (rc != code || !strstr(rbd_last_error(), want[0] == ':' ? want + 1 : full))
        fail_msg("config '%s': got %d '%s', want %d '%s'", text, rc, rbd_last_error(), code, want);
    sweep_config_free(&c);
}

static void test_valid_file(void **s)
{
    (void)s;
    sweep_config c;
    sweep_config_init(&c);
    const char *p = conf("# the paper's sweep\n"
                         "name = paper-run\n"
                         "N = 1, 2, 5, 10:10:40   # ranges A:STEP:B\n"
                         "bf = 1 2 5\n"
                         "\n"
                         "skew = 0.5\n"
                         "taper = 0.9\n"
                         "model = urdf:/x/ur5.urdf,freeflyer\n"
                         "model = autotree:N=3,bf=2\n"
                         "methods = rnea\n"
                         "base = no\n"
                         "batches = 7\n"
                         "batch_ms = 2.5\n"
                         "counters = no\n"
                         "crossover_range = 3:300\n"
                         "zeros_preset = yes\n"
                         "fdsva_dmm = rule\n");
    assert_int_equal(sweep_config_read(&c, p), 0);
    assert_string_equal(c.name, "paper-run");
    int wantN[] = { 1, 2, 5, 10, 20, 30, 40 };
    assert_int_equal(c.nN, 7);
    for (int k = 0; k < 7; k++) assert_int_equal(c.N[k], wantN[k]);
    assert_int_equal(c.nbf, 3);
    assert_true(c.bf[0] == 1 && c.bf[1] == 2 && c.bf[2] == 5);
    assert_true(c.skew == 0.5 && c.taper == 0.9);
    assert_int_equal(c.nmodels, 2);
    assert_string_equal(c.models[0], "urdf:/x/ur5.urdf,freeflyer");
    assert_int_equal(c.nmethods, 1);
    assert_string_equal(c.methods[0], "rnea");
    assert_int_equal(c.base, 0);
    assert_int_equal(c.batches, 7);
    assert_true(c.batch_ms == 2.5);
    assert_int_equal(c.counters, 0);
    assert_true(c.xo_lo == 3 && c.xo_hi == 300);
    assert_int_equal(c.zeros_preset, 1);
    rbd_options o;
    sweep_config_method_options(&c, &o);
    assert_int_equal(o.zeros_preset, 1);
    assert_int_equal(o.fdsva_dmm_rule, 1);
    /* flags override after allow_override; within one source a key is set once */
    sweep_config_allow_override(&c);
    assert_int_equal(sweep_config_flag(&c, 3 /* N */, "4"), 0);
    assert_int_equal(c.nN, 1);
    assert_int_equal(sweep_config_set(&c, "N", "5", "--N"), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "--N: key 'N' given twice"));
    sweep_config_free(&c);
}

static void test_errors(void **s)
{
    (void)s;
    expect_error("N = 1\nfrobnicate = 3\n", RBD_EPARSE, "2: unknown key 'frobnicate' (valid: name, methods, base, N");
    expect_error("N 1 2 3\n", RBD_EPARSE, "1: expected 'key = value', got 'N 1 2 3'");
    expect_error("  = 3\n", RBD_EPARSE, "1: no key before '='");
    expect_error("N =\n", RBD_EPARSE, "1: N: no value");
    expect_error("# c\nN = 5, 0\n", RBD_EINVAL, "2: N: 0 is out of range (N >= 1)");
    expect_error("N = -3\n", RBD_EINVAL, "1: N: -3 is out of range (N >= 1)");
    expect_error("N = 2.5\n", RBD_EPARSE, "1: N: '2.5' is not a whole number");
    expect_error("N = ten\n", RBD_EPARSE, "1: N: 'ten' is not a whole number");
    expect_error("N = 10:1\n", RBD_EPARSE, "1: N: range 10:1:1 is empty or has a step < 1");
    expect_error("N = 1:0:10\n", RBD_EPARSE, "1: N: range 1:0:10 is empty or has a step < 1");
    expect_error("N = 1:2:3:4\n", RBD_EPARSE, "1: N: '1:2:3:4': bad range (use A:B or A:STEP:B)");
    expect_error("bf = 1, 0.5\n", RBD_EINVAL, "1: bf: 0.5 is out of range (bf >= 1)");
    expect_error("bf = two\n", RBD_EPARSE, "1: bf: 'two' is not a number");
    expect_error("bf = , ,\n", RBD_EPARSE, "1: bf: ', ,': item 1 is empty");
    /* one list rule for every list (sweeplists.h; issue 30) */
    expect_error("N = 1,,2\n", RBD_EPARSE, "1: N: '1,,2': item 2 is empty (two separators with nothing between)");
    expect_error("N = 1, 2,\n", RBD_EPARSE, "1: N: '1, 2,': item 3 is empty (a separator at the end)");
    expect_error("N = 1:5, 3\n", RBD_EPARSE, "1: N: '1:5, 3': 3 is given twice");
    expect_error("bf = 1, 2, 1\n", RBD_EPARSE, "1: bf: '1, 2, 1': '1' is given twice");
    expect_error("methods = rnea, idsva, rnea\n", RBD_EPARSE, "1: methods: 'rnea, idsva, rnea': 'rnea' is given twice");
    expect_error("peers = pinocchio,,mujoco\n", RBD_EPARSE, "1: peers: 'pinocchio,,mujoco': item 2 is empty");
    expect_error("robot_methods = idsva,\n", RBD_EPARSE, "1: robot_methods: 'idsva,': item 2 is empty");
    expect_error("robots = ur5,,ur3\n", RBD_EPARSE, "1: robots: 'ur5,,ur3': item 2 is empty");
    expect_error("methods = rnea, id\xc3\xa9sva\n", RBD_EPARSE, ":item 2 holds a byte 0xc3 outside ASCII");
    expect_error("N = 1, 2\x01\n", RBD_EPARSE, "1: control byte 0x01 in a text file (column 9)");
    expect_error("methods = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n",
                 RBD_EPARSE, ":item 1 is 131 bytes long (at most 128)");
    expect_error("crossover = idsva  rneacr idsva\n", RBD_EPARSE, "1: crossover: 'idsva  rneacr idsva' is not two method names");
    expect_error("crossover_range = 2:3:300\n", RBD_EPARSE, "1: crossover_range: '2:3:300' is not LO:HI");
    expect_error("taper = 0\n", RBD_EINVAL, "1: taper: 0 is out of range (0, 1000]");
    expect_error("N = 1\nN = 2\n", RBD_EPARSE, "2: key 'N' given twice");
    expect_error("methods = rnea, nosuch\n", RBD_EINVAL, "1: methods: unknown method 'nosuch' (valid: ");
    expect_error("model = robot.urdf\n", RBD_EPARSE, "1: model: 'robot.urdf' is not a model spec");
    expect_error("batches = 0\n", RBD_EINVAL, "1: batches: 0 is out of range [1, 100000]");
    expect_error("batch_ms = 0\n", RBD_EINVAL, "1: batch_ms: 0 is out of range (0, 1000000]");
    expect_error("counters = maybe\n", RBD_EPARSE, "1: counters: 'maybe' is not yes or no");
    expect_error("name = a/b\n", RBD_EPARSE, "1: name: 'a/b' may hold only letters");
    expect_error("crossover = idsva\n", RBD_EPARSE, "1: crossover: 'idsva' is not two method names 'A B'");
    expect_error("crossover_range = 5:5\n", RBD_EPARSE, "1: crossover_range: '5:5' is not LO:HI");
    expect_error("pin = 1.5\n", RBD_EPARSE, "1: pin: '1.5' is not a whole number");
    expect_error("fdsva_dmm = fast\n", RBD_EPARSE, "1: fdsva_dmm: 'fast' is neither measure nor rule");
    expect_error("zeros_preset = on\n", RBD_EPARSE, "1: zeros_preset: 'on' is not yes or no");
    expect_error("robot_methods = idsva, nosuch\n", RBD_EINVAL, "1: robot_methods: unknown method 'nosuch' (valid: ");
}

/* robot_methods: without it every target runs on the robots; with it, the
 * listed methods and peer functions only. */
static void test_robot_methods(void **s)
{
    (void)s;
    sweep_config c;
    sweep_config_init(&c);
    assert_true(sweep_config_robot_times(&c, "rneacr"));
    assert_int_equal(sweep_config_set(&c, "robot_methods", "idsva, pinocchio.computeRNEADerivatives", "x"), 0);
    assert_true(sweep_config_robot_times(&c, "idsva"));
    assert_true(sweep_config_robot_times(&c, "pinocchio.computeRNEADerivatives"));
    assert_false(sweep_config_robot_times(&c, "rneacr"));
    assert_false(sweep_config_robot_times(&c, "pinocchio.rnea"));
    sweep_config_free(&c);
}

/* so_methods: second-order methods only, 'all' every one of them; the
 * nv limits keep them (and only them) off the larger models. */
static void test_so_methods(void **s)
{
    (void)s;
    sweep_config c;
    sweep_config_init(&c);
    assert_int_equal(sweep_config_set(&c, "so_methods", "idsva-so, fd2-fd", "x"), 0);
    assert_int_equal(c.nso_methods, 2);
    sweep_config_allow_override(&c);
    assert_int_equal(sweep_config_set(&c, "so_methods", "idsva", "f.conf:3"), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "f.conf:3: so_methods: 'idsva' is not a second-order method (valid: "));
    assert_non_null(strstr(rbd_last_error(), "idsva-so"));
    sweep_config_allow_override(&c);
    assert_int_equal(sweep_config_set(&c, "so_methods", "all", "x"), 0);
    int n = 0;
    while (rbd_so_methods[n]) n++;
    assert_int_equal(c.nso_methods, n);
    bench_target *t;
    int nt;
    assert_int_equal(sweep_config_set(&c, "methods", "idsva", "x"), 0);
    assert_int_equal(bench_targets(&c, &t, &nt), 0);
    assert_int_equal(nt, 1 + n);
    assert_string_equal(t[1].kind, "ID2");
    assert_int_equal(sweep_config_set(&c, "so_nv_max", "20", "x"), 0);
    assert_int_equal(sweep_config_set(&c, "accuracy_so_nv_max", "10", "x"), 0);
    assert_true(bench_target_fits(&c, &t[0], 500, 0) && bench_target_fits(&c, &t[0], 500, 1));   /* first order */
    assert_true(bench_target_fits(&c, &t[1], 20, 0) && !bench_target_fits(&c, &t[1], 21, 0));
    assert_true(bench_target_fits(&c, &t[1], 10, 1) && !bench_target_fits(&c, &t[1], 11, 1));
    free(t);
    sweep_config_allow_override(&c);
    assert_int_equal(sweep_config_set(&c, "so_methods", "none", "x"), 0);
    assert_int_equal(c.nso_methods, 0);
    sweep_config_free(&c);
}

static void test_unreadable(void **s)
{
    (void)s;
    sweep_config c;
    sweep_config_init(&c);
    char p[128];
    snprintf(p, sizeof p, "%s/none.conf", dir);
    assert_int_equal(sweep_config_read(&c, p), RBD_EIO);
    assert_non_null(strstr(rbd_last_error(), "none.conf: cannot read config: No such file or directory"));
    assert_int_equal(sweep_config_read(&c, dir), RBD_EIO);   /* a directory */
    sweep_config_free(&c);
}

static void test_lists(void **s)
{
    (void)s;
    int *v, n;
    assert_int_equal(parse_int_list("5:5:20, 1", "x", "N", 1, &v, &n), 0);
    assert_int_equal(n, 5);
    assert_true(v[0] == 5 && v[3] == 20 && v[4] == 1);
    free(v);
    assert_int_equal(parse_int_list("3:6", "x", "N", 1, &v, &n), 0);
    assert_int_equal(n, 4);
    free(v);
    double *d;
    assert_int_equal(parse_num_list("1 1.5,2", "x", "bf", 1, &d, &n), 0);
    assert_int_equal(n, 3);
    assert_true(d[1] == 1.5);
    free(d);
}

static void test_shipped_configs_parse(void **s)
{
    (void)s;
    const char *files[] = { RBD_SOURCE_DIR "/harness/sweeps/default.conf", RBD_SOURCE_DIR "/harness/sweeps/paper.conf",
                            RBD_SOURCE_DIR "/harness/sweeps/clang.conf" };
    for (int k = 0; k < 3; k++) {
        sweep_config c;
        sweep_config_init(&c);
        if (sweep_config_read(&c, files[k])) fail_msg("%s", rbd_last_error());
        if (k < 2) assert_true(c.nN > 0 && c.nbf > 0);
        else assert_true(c.nrobots > 0 && c.nxo > 0);    /* clang.conf: robots and the crossover only */
        sweep_config_free(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_file),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_unreadable),
        cmocka_unit_test(test_lists),
        cmocka_unit_test(test_robot_methods),
        cmocka_unit_test(test_so_methods),
        cmocka_unit_test(test_shipped_configs_parse),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
