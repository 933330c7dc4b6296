/* The anchors parser on the real shared files (values spot-checked against
 * the markdown), malformed copies (errors name file:line), and the
 * comparison of timing rows with the tables and the floor. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* Writes src with the first `from` replaced by `to` into tmp/name; *line is
 * the 1-based line of the change. */
static const char *corrupt(const char *src, const char *name, const char *from, const char *to, int *line)
{
    static char path[128];
    char *text = slurp(src), *at = strstr(text, from);
    if (!at) fail_msg("'%s' not in %s", from, src);
    *line = 1;
    for (const char *p = text; p < at; p++) *line += *p == '\n';
    snprintf(path, sizeof path, "%s/%s", tmp, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fwrite(text, 1, (size_t)(at - text), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    free(text);
    return path;
}

static double value(const anchor_set *s, const char *key, int robots, double bf, int N, const char *robot,
                    const char *col)
{
    const anchor_table *t = anchors_find(s, key, robots);
    if (!t) fail_msg("no table %s (robots %d)", key, robots);
    for (int r = 0; r < t->nrow; r++) {
        const anchor_row *w = &t->rows[r];
        if (robots ? strcmp(w->robot, robot) : !(w->bf == bf && w->N == N)) continue;
        for (int k = 0; k < t->ncol; k++)
            if (!strcmp(t->col[k], col)) return w->us[k];
    }
    fail_msg("no value %s bf %g N %d %s %s", key, bf, N, robot ? robot : "", col);
    return NAN;
}

static void test_real_files(void **st)
{
    (void)st;
    anchor_set s;
    memset(&s, 0, sizeof s);
    int rc = anchors_load(tu_shared_path(0, "anchors/pinocchio-timings.md"), &s);
    if (rc) fail_msg("%s", rbd_last_error());
    assert_int_equal(s.ntab, 5);
    assert_non_null(anchors_find(&s, "clang-native", 0));
    assert_non_null(anchors_find(&s, "gcc-native", 0));
    assert_non_null(anchors_find(&s, "gcc-plain", 0));
    assert_non_null(anchors_find(&s, "clang-native", 1));
    assert_non_null(anchors_find(&s, "gcc-native", 1));
    assert_null(anchors_find(&s, "gcc-plain", 1));
    assert_int_equal(anchors_find(&s, "clang-native", 0)->nrow, 21);
    assert_int_equal(anchors_find(&s, "clang-native", 0)->ncol, 6);
    assert_int_equal(anchors_find(&s, "clang-native", 1)->nrow, 6);
    /* spot checks against the markdown */
    assert_true(value(&s, "clang-native", 0, 1, 10, NULL, "rnea_derivs") == 5.1);
    assert_true(value(&s, "clang-native", 0, 1, 500, NULL, "rnea_derivs") == 4618.8);
    assert_true(value(&s, "clang-native", 0, 2, 200, NULL, "aba_derivs") == 1293.4);
    assert_true(value(&s, "gcc-plain", 0, 5, 500, NULL, "minv") == 1729.7);
    assert_true(value(&s, "gcc-native", 0, 5, 2, NULL, "fd_via_id") == 2.2);
    assert_true(value(&s, "clang-native", 1, NAN, 0, "hyq", "rnea_derivs") == 8.40);
    assert_true(value(&s, "gcc-native", 1, NAN, 0, "double_pendulum", "minv") == 0.49);
    const anchor_table *r = anchors_find(&s, "clang-native", 1);
    assert_string_equal(r->rows[3].robot, "hyq");
    assert_string_equal(r->rows[3].base, "freeflyer");
    assert_int_equal(r->rows[3].N, 18);
    rc = anchors_load_floors(tu_shared_path(0, "anchors/machine-limits.md"), &s);
    if (rc) fail_msg("%s", rbd_last_error());
    assert_int_equal(s.nfloor, 5);
    assert_int_equal(s.floor_N[2], 100);
    assert_true(fabs(s.floor_ns[0] - 120) < 1e-9);
    assert_true(fabs(s.floor_ns[2] - 4900) < 1e-9);
    assert_true(fabs(s.floor_ns[4] - 230000) < 1e-6);
    anchors_free(&s);
}

static void expect_error(int rc, int code, const char *path, int line, const char *also)
{
    assert_int_equal(rc, code);
    char want[256];
    snprintf(want, sizeof want, "%s:%d:", path, line);
    const char *msg = rbd_last_error();
    if (!strstr(msg, want) || (also && !strstr(msg, also)))
        fail_msg("message '%s' lacks '%s'%s%s", msg, want, also ? " or " : "", also ? also : "");
}

static void test_malformed(void **st)
{
    (void)st;
    const char *pin = tu_shared_path(0, "anchors/pinocchio-timings.md");
    const char *lim = tu_shared_path(1, "anchors/machine-limits.md");
    anchor_set s;
    memset(&s, 0, sizeof s);
    int line;
    const char *p = corrupt(pin, "notnum.md", "| 1 | 10 | 5.1 |", "| 1 | 10 | 5.1x |", &line);
    expect_error(anchors_load(p, &s), RBD_EPARSE, p, line, "rnea_derivs '5.1x'");
    assert_int_equal(s.ntab, 0);
    p = corrupt(pin, "cells.md", "| 2 | 50 | 28.2 | 70.4 |", "| 2 | 50 | 70.4 |", &line);
    expect_error(anchors_load(p, &s), RBD_EPARSE, p, line, "cells");
    p = corrupt(pin, "sep.md", "|---|---|---|---|---|---|---|---|\n| 1 | 2 |", "| 1 | 2 |", &line);
    expect_error(anchors_load(p, &s), RBD_EPARSE, p, line, "|---|");
    p = corrupt(pin, "base.md", "| hyq | freeflyer |", "| hyq | floating |", &line);
    expect_error(anchors_load(p, &s), RBD_EPARSE, p, line, "floating");
    p = corrupt(lim, "floor.md", "| 4.9 us |", "| 4.9 parsecs |", &line);
    expect_error(anchors_load_floors(p, &s), RBD_EPARSE, p, line, "4.9 parsecs");
    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.md", tmp);
    assert_int_equal(anchors_load(missing, &s), RBD_EIO);
    assert_non_null(strstr(rbd_last_error(), missing));
    assert_int_equal(anchors_load_floors(missing, &s), RBD_EIO);
    /* a file without any timing table */
    p = corrupt(lim, "none.md", "| quantity |", "| something |", &line);
    assert_int_equal(anchors_load(p, &s), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "no timing table"));
    assert_int_equal(anchors_load_floors(p, &s), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "no output-write floor"));
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
    memset(&s, 0, sizeof s);
    if (anchors_load(tu_shared_path(0, "anchors/pinocchio-timings.md"), &s) ||
        anchors_load_floors(tu_shared_path(1, "anchors/machine-limits.md"), &s))
        fail_msg("%s", rbd_last_error());
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
