/* Append-only CSV tables: quoting, append, resume without duplicates,
 * recovery from a truncated last line, validation errors with file:line. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "store/csvlog.h"
#include "store/results.h"

static const csv_col cols[] = { { .name = "method", .type = CSV_STR }, { .name = "model", .type = CSV_STR },
                                { .name = "n", .type = CSV_INT }, { .name = "ns", .type = CSV_NUM },
                                { .name = "ins", .type = CSV_OPTNUM } };

static char dir[256];

static int setup(void **s)
{
    (void)s;
    snprintf(dir, sizeof dir, "/tmp/rbd_csv_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *path(const char *name)
{
    static char p[400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char *buf = calloc(1, 65536);
    size_t n = fread(buf, 1, 65535, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void spit(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_split_quoting(void **s)
{
    (void)s;
    char *f[8];
    int n = csv_split("a,\"autotree:N=3,bf=2\",\"say \"\"hi\"\"\",,x", f, 8);
    assert_int_equal(n, 5);
    assert_string_equal(f[0], "a");
    assert_string_equal(f[1], "autotree:N=3,bf=2");
    assert_string_equal(f[2], "say \"hi\"");
    assert_string_equal(f[3], "");
    assert_string_equal(f[4], "x");
    for (int k = 0; k < n; k++) free(f[k]);
    assert_true(csv_split("\"open,b", f, 8) < 0);
    assert_true(csv_split("a\"b,c", f, 8) < 0);
    assert_true(csv_split("a,b,c", f, 2) < 0);
}

static void test_append_and_resume(void **s)
{
    (void)s;
    csvlog t;
    const char *p = path("t1.csv");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), 0);
    const char *r1[] = { "idsva", "autotree:N=3,bf=2", "3", "120.5", "" };
    const char *r2[] = { "rneacr", "autotree:N=3,bf=2", "3", "900", "1234" };
    assert_int_equal(csvlog_append(&t, r1), 0);
    assert_int_equal(csvlog_append(&t, r2), 0);
    /* a duplicate key is refused, nothing written */
    assert_int_equal(csvlog_append(&t, r1), RBD_EINVAL);
    /* bad values are refused with the column name */
    const char *bad[] = { "x", "m", "three", "1", "" };
    assert_int_equal(csvlog_append(&t, bad), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "field 'n': 'three' is not a whole number"));
    csvlog_close(&t);
    char *text = slurp(p);
    assert_string_equal(text, "method,model,n,ns,ins\n"
                              "idsva,\"autotree:N=3,bf=2\",3,120.5,\n"
                              "rneacr,\"autotree:N=3,bf=2\",3,900,1234\n");
    free(text);
    /* reopening finds both keys; a new row goes after them */
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), 0);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(t.dropped_partial, 0);
    const char *k1[] = { "idsva", "autotree:N=3,bf=2" }, *k3[] = { "idsva", "autotree:N=4,bf=2" };
    assert_int_equal(csvlog_find(&t, k1), 0);
    assert_int_equal(csvlog_find(&t, k3), -1);
    const char *r3[] = { "idsva", "autotree:N=4,bf=2", "4", "150", "" };
    assert_int_equal(csvlog_append(&t, r3), 0);
    csvlog_close(&t);
    assert_int_equal(csvlog_read(&t, p, cols, 5, 2), 0);
    assert_int_equal(t.nrows, 3);
    assert_string_equal(t.rows[2][1], "autotree:N=4,bf=2");
    csvlog_close(&t);
}

static void test_truncated_last_line_dropped(void **s)
{
    (void)s;
    const char *p = path("t2.csv");
    /* a SIGKILL in the middle of the third row */
    spit(p, "method,model,n,ns,ins\nidsva,m1,1,10,\nidsva,m2,2,20,\nidsva,m3,3,3");
    csvlog t;
    assert_int_equal(csvlog_read(&t, p, cols, 5, 2), 0);   /* reading leaves the file alone */
    assert_int_equal(t.nrows, 2);
    csvlog_close(&t);
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), 0);
    assert_int_equal(t.nrows, 2);
    assert_int_equal(t.dropped_partial, 4);
    const char *r3[] = { "idsva", "m3", "3", "30", "" };
    assert_int_equal(csvlog_append(&t, r3), 0);
    csvlog_close(&t);
    char *text = slurp(p);
    assert_string_equal(text, "method,model,n,ns,ins\nidsva,m1,1,10,\nidsva,m2,2,20,\nidsva,m3,3,30,\n");
    free(text);
    /* a cut header: the file starts over */
    spit(p, "method,mod");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), 0);
    assert_int_equal(t.nrows, 0);
    csvlog_close(&t);
    text = slurp(p);
    assert_string_equal(text, "method,model,n,ns,ins\n");
    free(text);
}

static void test_validation_errors_name_file_and_line(void **s)
{
    (void)s;
    csvlog t;
    const char *p = path("t3.csv");
    spit(p, "method,model,n,ns,ins\nidsva,m1,1,10,\nidsva,m2,2\n");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "t3.csv:3: 3 fields, expected 5"));
    spit(p, "method,model,n,ns,ins\nidsva,m1,1,fast,\n");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "t3.csv:2:4: field 'ns': 'fast' is not a finite number"));
    spit(p, "method,model,N,ns,ins\n");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "t3.csv:1:3: header column 3 is 'N', expected 'n'"));
    spit(p, "method,model,n,ns,ins\nidsva,m1,1,10,\nidsva,m1,1,11,\n");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "t3.csv:3: duplicate row"));
    /* blank lines are tolerated */
    spit(p, "method,model,n,ns,ins\n\nidsva,m1,1,10,\n\n");
    assert_int_equal(csvlog_read(&t, p, cols, 5, 2), 0);
    assert_int_equal(t.nrows, 1);
    csvlog_close(&t);
    spit(p, "method,model,n,ns,ins\nidsva,m1,1,10,\nidsva,m1,1,11,\n");
    assert_int_equal(csvlog_open(&t, p, cols, 5, 2), RBD_EPARSE);
    /* the refused file is untouched */
    char *text = slurp(p);
    assert_string_equal(text, "method,model,n,ns,ins\nidsva,m1,1,10,\nidsva,m1,1,11,\n");
    free(text);
}

static void test_timing_rows_round_trip(void **s)
{
    (void)s;
    timing_row r;
    memset(&r, 0, sizeof r);
    strcpy(r.method, "idsva");
    strcpy(r.kind, "ID");
    strcpy(r.model, "autotree:N=10,bf=2,skew=0,taper=1");
    r.bf = 2;
    r.N = r.nv = 10;
    r.median_ns = 1234.5;
    r.min_ns = 1200;
    r.q1_ns = 1220;
    r.q3_ns = 1250;
    r.iqr_ns = 30;
    r.batches = 11;
    r.calls_per_batch = 8100;
    r.instructions = 5000;
    r.cycles = NAN;
    char buf[TIMINGS_NCOLS][64];
    const char *f[TIMINGS_NCOLS];
    timing_row_to_fields(&r, buf, f);
    csvlog t;
    const char *p = path("timings.csv");
    assert_int_equal(csvlog_open(&t, p, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY), 0);
    assert_int_equal(csvlog_append(&t, f), 0);
    csvlog_close(&t);
    timing_row *rows;
    int n;
    assert_int_equal(timing_rows_load(dir, &rows, &n), 0);   /* a directory reads its timings.csv */
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].model, r.model);
    assert_true(rows[0].bf == 2 && rows[0].N == 10 && rows[0].median_ns == 1234.5 && rows[0].calls_per_batch == 8100);
    assert_true(rows[0].instructions == 5000 && isnan(rows[0].cycles));
    char name[200];
    timing_row_name(&rows[0], name, sizeof name);
    assert_string_equal(name, "idsva/bf:2/N:10");
    free(rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_quoting),
        cmocka_unit_test(test_append_and_resume),
        cmocka_unit_test(test_truncated_last_line_dropped),
        cmocka_unit_test(test_validation_errors_name_file_and_line),
        cmocka_unit_test(test_timing_rows_round_trip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
