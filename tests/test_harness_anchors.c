/* The anchors' tables on the files in the tree (values spot-checked against
 * the figures as first published), malformed copies (errors name
 * file:line and the field), and the comparison of timing rows with the
 * stored figures and the floor. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "testutil.h"
#include "report/anchors.h"

static char tmp[64];

static int setup(void **s)
{
    (void)s;
    snprintf(tmp, sizeof tmp, "/tmp/rbd_anchors_XXXXXX");
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot read %s", path);
    char *buf = malloc(1 << 20);
    assert_non_null(buf);
    size_t n = fread(buf, 1, (1 << 20) - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static const anchor_row *find(const anchor_set *s, const char *build, const char *model, double bf, int N)
{
    for (int k = 0; k < s->nrow; k++) {
        const anchor_row *w = &s->rows[k];
        if (!strcmp(w->build, build) && !strcmp(w->model, model) && (isnan(bf) ? isnan(w->bf) : w->bf == bf) &&
            w->N == N)
            return w;
    }
    fail_msg("no row %s %s bf %g N %d", build, model, bf, N);
    return NULL;
}

static int count(const anchor_set *s, const char *build, int robots)
{
    int n = 0;
    for (int k = 0; k < s->nrow; k++)
        n += !strcmp(s->rows[k].build, build) && (strcmp(s->rows[k].model, "autotree") != 0) == (robots != 0);
    return n;
}

static void test_real_files(void **st)
{
    (void)st;
    anchor_set s;
    int rc = anchors_load(tu_shared_path(0, "anchors"), &s);
    if (rc) fail_msg("%s", rbd_last_error());
    assert_int_equal(s.nrow, 75);
    assert_true(anchors_has(&s, "clang-native", 0) && anchors_has(&s, "gcc-native", 0));
    assert_true(anchors_has(&s, "gcc-plain", 0) && !anchors_has(&s, "gcc-plain", 1));
    assert_true(anchors_has(&s, "clang-native", 1) && anchors_has(&s, "gcc-native", 1));
    assert_false(anchors_has(&s, "icc-native", 0));
    assert_int_equal(count(&s, "clang-native", 0), 21);
    assert_int_equal(count(&s, "clang-native", 1), 6);
    /* spot checks against the figures as first published (tests/pinocchio/anchors/README.md) */
    assert_true(anchors_us(find(&s, "clang-native", "autotree", 1, 10), "rnea_derivs") == 5.1);
    assert_true(anchors_us(find(&s, "clang-native", "autotree", 1, 500), "rnea_derivs") == 4618.8);
    assert_true(anchors_us(find(&s, "clang-native", "autotree", 2, 200), "aba_derivs") == 1293.4);
    assert_true(anchors_us(find(&s, "gcc-plain", "autotree", 5, 500), "minv") == 1729.7);
    assert_true(anchors_us(find(&s, "gcc-native", "autotree", 5, 2), "fd_via_id") == 2.2);
    const anchor_row *hyq = find(&s, "clang-native", "hyq", NAN, 0);
    assert_true(anchors_us(hyq, "rnea_derivs") == 8.40);
    assert_string_equal(hyq->base, "freeflyer");
    assert_true(hyq->nq == 19 && hyq->nv == 18 && hyq->runs == 5);
    assert_true(anchors_us(find(&s, "gcc-native", "double_pendulum", NAN, 0), "minv") == 0.49);
    assert_true(isnan(anchors_us(hyq, "bf")) && isnan(anchors_us(hyq, "nope")));  /* quantities only */
    assert_int_equal(s.nlimit, 5);
    assert_int_equal(s.limits[2].N, 100);
    assert_true(fabs(s.limits[0].write_us - 0.12) < 1e-12);
    assert_true(fabs(s.limits[2].write_us - 4.9) < 1e-12);
    assert_true(fabs(s.limits[4].write_us - 230) < 1e-9);
    anchors_free(&s);
}

static void expect_error(int rc, int code, const char *path, int line, const char *also)
{
    assert_int_equal(rc, code);
    char want[256];
    snprintf(want, sizeof want, "%s:%d", path, line);
    const char *msg = rbd_last_error();
    if (!strstr(msg, want) || (also && !strstr(msg, also)))
        fail_msg("message '%s' lacks '%s'%s%s", msg, want, also ? " or " : "", also ? also : "");
}

/* A copy of the anchors directory in tmp/name with the first `from` of one
 * of its files replaced by `to`; *line is the 1-based line of the change,
 * *path the changed file. */
static const char *corrupt_dir(const char *name, const char *file, const char *from, const char *to, int *line,
                               const char **path)
{
    static char dir[128], p[192];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    assert_int_equal(mkdir(dir, 0755), 0);
    const char *files[] = { ANCHORS_TIMINGS_CSV, ANCHORS_LIMITS_CSV };
    for (int k = 0; k < 2; k++) {
        char src[64];
        snprintf(src, sizeof src, "anchors/%s", files[k]);
        char *text = slurp(tu_shared_path(0, src));
        snprintf(p, sizeof p, "%s/%s", dir, files[k]);
        FILE *f = fopen(p, "w");
        assert_non_null(f);
        char *at = strcmp(files[k], file) ? NULL : strstr(text, from);
        if (!strcmp(files[k], file) && !at) fail_msg("'%s' not in %s", from, files[k]);
        if (at) {
            *line = 1;
            for (const char *q = text; q < at; q++) *line += *q == '\n';
            fwrite(text, 1, (size_t)(at - text), f);
            fputs(to, f);
            fputs(at + strlen(from), f);
        } else {
            fputs(text, f);
        }
        fclose(f);
        free(text);
    }
    snprintf(p, sizeof p, "%s/%s", dir, file);
    *path = p;
    return dir;
}

static void test_malformed(void **st)
{
    (void)st;
    anchor_set s;
    int line;
    const char *p, *d;
    const char *T = ANCHORS_TIMINGS_CSV, *L = ANCHORS_LIMITS_CSV;
    d = corrupt_dir("notnum", T, "native,5.1,7.2,", "native,5.1x,7.2,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "field 'rnea_derivs': '5.1x'");
    assert_int_equal(s.nrow, 0);
    assert_null(s.rows);
    d = corrupt_dir("cells", T, "native,28.2,70.4,", "native,70.4,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "14 fields, expected 15");
    d = corrupt_dir("header", T, "fd_via_id", "fd_via_ID", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "'fd_via_ID', expected 'fd_via_id'");
    d = corrupt_dir("base", T, ",hyq,freeflyer,", ",hyq,floating,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "base 'floating'");
    d = corrupt_dir("robotbf", T, ",hyq,freeflyer,,", ",hyq,freeflyer,2,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "robot 'hyq': bf and N");
    d = corrupt_dir("treen", T, ",1,20,20,20,", ",1,20,20,19,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "nq = nv = N");
    d = corrupt_dir("dup", T, ",1,20,20,20,", ",1,10,10,10,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "duplicate row");
    d = corrupt_dir("neg", T, "native,5.1,7.2,", "native,-5.1,7.2,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "negative");
    d = corrupt_dir("empty", T, "native,0.8,1.2,1.4,0.2,0.5,0.4\n", "native,,,,,,\n", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "no figure");
    d = corrupt_dir("cut", T, "0.70,0.49\n", "0.70,0.49", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "no newline");
    d = corrupt_dir("floor", L, "100,4.9,", "100,4.9 us,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "field 'write_us': '4.9 us'");
    d = corrupt_dir("floorzero", L, "100,4.9,", "100,0,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "write_us");
    /* CSV has no comment lines: a '#' is a field like any other */
    d = corrupt_dir("comment", L, "10,0.12,", "#10,0.12,", &line, &p);
    expect_error(anchors_load(d, &s), RBD_EPARSE, p, line, "field 'N': '#10'");
    /* a header without rows; a directory without the tables */
    d = corrupt_dir("onlyhdr", T, "build", "build", &line, &p);
    char path[192];
    snprintf(path, sizeof path, "%s/%s", d, L);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("N,write_us,dgemm_n,dgemm_gflops\n", f);
    fclose(f);
    assert_int_equal(anchors_load(d, &s), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "no rows under the header"));
    assert_non_null(strstr(rbd_last_error(), path));
    assert_int_equal(s.nrow, 0);
    snprintf(path, sizeof path, "%s/none", tmp);
    assert_int_equal(anchors_load(path, &s), RBD_EIO);
    assert_non_null(strstr(rbd_last_error(), path));
    assert_non_null(strstr(rbd_last_error(), ANCHORS_TIMINGS_CSV));
}

static timing_row row(const char *method, const char *model, double bf, int N, int nv, double ns)
{
    timing_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.method, sizeof r.method, "%s", method);
    snprintf(r.model, sizeof r.model, "%s", model);
    r.bf = bf;
    r.N = N;
    r.nv = nv;
    r.median_ns = ns;
    return r;
}

static void test_compare(void **st)
{
    (void)st;
    anchor_set s;
    if (anchors_load(tu_shared_path(0, "anchors"), &s)) fail_msg("%s", rbd_last_error());
    anchor_cmp c;
    timing_row r = row("idsva", "autotree:N=10,bf=1,skew=0,taper=1", 1, 10, 10, 4000);
    assert_int_equal(anchors_compare(&s, "clang-native", &r, &c), 0);
    assert_string_equal(c.column, "rnea_derivs");
    assert_true(fabs(c.ratio - 4.0 / 5.1) < 1e-12);
    assert_true(c.target == 0.8 && c.pass == 1);
    assert_true(fabs(c.floor_ratio - 4.0 / 0.12) < 1e-9);
    assert_int_equal(c.floor_pass, -1);          /* the floor target starts at N = 100 */
    r.median_ns = 4200;                          /* 0.82 x */
    anchors_compare(&s, "clang-native", &r, &c);
    assert_int_equal(c.pass, 0);
    anchors_compare(&s, "gcc-native", &r, &c);   /* 4.2 / 9.8 */
    assert_int_equal(c.pass, 1);
    r = row("idsva", "autotree:N=100,bf=1,skew=0,taper=1", 1, 100, 100, 16000);
    anchors_compare(&s, "clang-native", &r, &c);
    assert_true(c.target == 0.5 && c.pass == 1);
    assert_true(c.floor_target == 3 && c.floor_pass == 0);   /* 16 us > 3 x 4.9 us */
    r.median_ns = 14000;
    anchors_compare(&s, "clang-native", &r, &c);
    assert_int_equal(c.floor_pass, 1);
    r = row("idsva", "autotree:N=20,bf=2,skew=0,taper=1", 2, 20, 20, 5000);
    anchors_compare(&s, "clang-native", &r, &c);
    assert_true(isnan(c.target) && c.pass == -1 && isnan(c.floor_us));
    r = row("idsva", "urdf:tests/models/hyq.urdf,freeflyer", NAN, 13, 18, 6000);
    assert_int_equal(anchors_compare(&s, "clang-native", &r, &c), 0);
    assert_true(fabs(c.ratio - 6.0 / 8.4) < 1e-12 && c.pass == 1);
    r = row("idsva", "urdf:tests/models/hyq.urdf", NAN, 13, 12, 6000);  /* no fixed-base hyq */
    assert_int_equal(anchors_compare(&s, "clang-native", &r, &c), 1);
    r = row("rnea", "urdf:/x/ur5.urdf", NAN, 6, 6, 370);
    assert_int_equal(anchors_compare(&s, "clang-native", &r, &c), 0);
    assert_true(fabs(c.ratio - 0.5) < 1e-12 && c.pass == -1);
    r = row("pin26-fd", "autotree:N=500,bf=5,skew=0,taper=1", 5, 500, 500, 1e7);
    anchors_compare(&s, "clang-native", &r, &c);
    assert_string_equal(c.column, "fd_via_id");
    assert_true(fabs(c.pin_us - 19862.6) < 1e-9);
    r = row("fdsva", "autotree:N=500,bf=5,skew=0,taper=1", 5, 500, 500, 5e6);
    anchors_compare(&s, "clang-native", &r, &c);
    assert_true(c.target == 0.25 && c.pass == 1 && isnan(c.floor_us));
    r = row("idsva", "autotree:N=10,bf=1,skew=0.5,taper=1", 1, 10, 10, 4000);   /* not the anchors' model */
    assert_int_equal(anchors_compare(&s, "clang-native", &r, &c), 1);
    r = row("rneacr", "autotree:N=10,bf=1,skew=0,taper=1", 1, 10, 10, 4000);     /* no counterpart */
    assert_int_equal(anchors_compare(&s, "clang-native", &r, &c), 1);
    /* the markdown: one line per row with a counterpart, misses counted */
    timing_row rows[3] = { row("idsva", "autotree:N=10,bf=1,skew=0,taper=1", 1, 10, 10, 4200),
                           row("rneacr", "autotree:N=10,bf=1,skew=0,taper=1", 1, 10, 10, 1e5),
                           row("idsva", "autotree:N=100,bf=1,skew=0,taper=1", 1, 100, 100, 14000) };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(anchors_write_markdown(f, &s, "clang-native", rows, 3, "run"), 1);
    fclose(f);
    assert_non_null(strstr(buf, "| idsva | autoTree bf=1 | 10 | 10 | 4.2 | 5.1 | rnea_derivs | 0.82 | <= 0.8 | FAIL |"));
    assert_non_null(strstr(buf, "| idsva | autoTree bf=1 | 100 | 100 | 14 | 121 | rnea_derivs | 0.12 | <= 0.5 | pass | 4.9 | 2.9 | <= 3 | pass |"));
    assert_null(strstr(buf, "rneacr"));
    assert_non_null(strstr(buf, "2 rows with a counterpart; Pinocchio targets: 1 met, 1 missed; floor targets: 1 met, 0 missed."));
    assert_null(strstr(buf, "Calibration"));     /* no base algorithm among the rows */
    free(buf);
    /* with base algorithms: their median ratio to Pinocchio calibrates the machines */
    timing_row cal[3] = { row("rnea", "urdf:/x/ur5.urdf", NAN, 6, 6, 370),                        /* 0.5 */
                          row("aba", "autotree:N=10,bf=1,skew=0,taper=1", 1, 10, 10, 2700),       /* 1.0 */
                          row("minv", "autotree:N=10,bf=1,skew=0,taper=1", 1, 10, 10, 480) };     /* 0.2 */
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    anchors_write_markdown(f, &s, "clang-native", cal, 3, "run");
    fclose(f);
    assert_non_null(strstr(buf, "run at a median 0.50 of Pinocchio's figures (3 points, 0.20-1.00)"));
    free(buf);
    anchors_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_files),
        cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
