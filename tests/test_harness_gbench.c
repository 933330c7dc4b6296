/* Google Benchmark JSON: rbdiff's writer read back by its reader, and a
 * foreign Google Benchmark file (repetitions only) read. */
#define _GNU_SOURCE
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "store/gbench.h"
#include "store/results.h"

static char dir[64];

static int setup(void **s)
{
    (void)s;
    snprintf(dir, sizeof dir, "/tmp/rbd_gb_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static timing_row mk(const char *method, const char *model, double bf, int N, double med)
{
    timing_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.method, sizeof r.method, "%s", method);
    snprintf(r.kind, sizeof r.kind, "ID");
    snprintf(r.model, sizeof r.model, "%s", model);
    r.bf = bf;
    r.N = r.nv = N;
    r.median_ns = med;
    r.min_ns = 0.9 * med;
    r.q1_ns = 0.95 * med;
    r.q3_ns = 1.1 * med;
    r.iqr_ns = r.q3_ns - r.q1_ns;
    r.batches = 11;
    r.calls_per_batch = 1000;
    r.instructions = NAN;
    r.cycles = NAN;
    return r;
}

static void test_round_trip(void **s)
{
    (void)s;
    timing_row rows[3] = { mk("idsva", "autotree:N=10,bf=2,skew=0,taper=1", 2, 10, 1500.25),
                           mk("rneacr", "autotree:N=7,bf=1,skew=0.5,taper=0.9", 1, 7, 900),
                           mk("idsva", "urdf:/m/ur5.urdf", NAN, 6, 321) };
    rows[0].instructions = 12345;
    char p[128];
    snprintf(p, sizeof p, "%s/benchmarks.json", dir);
    assert_int_equal(gbench_write(p, rows, 3, "rbdiff sweep --N 10"), 0);

    /* the shape Google Benchmark's tools expect */
    json_error_t err;
    json_t *root = json_load_file(p, 0, &err);
    assert_non_null(root);
    assert_true(json_is_object(json_object_get(root, "context")));
    json_t *b = json_object_get(root, "benchmarks");
    assert_int_equal(json_array_size(b), 15);   /* per row: 1 iteration + 4 aggregates */
    json_t *e0 = json_array_get(b, 0), *e1 = json_array_get(b, 1);
    assert_string_equal(json_string_value(json_object_get(e0, "name")), "idsva/bf:2/N:10");
    assert_string_equal(json_string_value(json_object_get(e0, "run_type")), "iteration");
    assert_string_equal(json_string_value(json_object_get(e0, "time_unit")), "ns");
    assert_true(json_real_value(json_object_get(e0, "real_time")) == 1500.25);
    assert_int_equal(json_integer_value(json_object_get(e0, "iterations")), 1000);
    assert_string_equal(json_string_value(json_object_get(e1, "name")), "idsva/bf:2/N:10_median");
    assert_string_equal(json_string_value(json_object_get(e1, "aggregate_name")), "median");
    json_decref(root);

    timing_row *back;
    int n;
    assert_int_equal(timing_rows_load(p, &back, &n), 0);
    assert_int_equal(n, 3);
    for (int k = 0; k < 3; k++) {
        char a[300], b2[300];
        timing_row_name(&rows[k], a, sizeof a);
        timing_row_name(&back[k], b2, sizeof b2);
        assert_string_equal(a, b2);
        assert_string_equal(back[k].method, rows[k].method);
        assert_true(back[k].median_ns == rows[k].median_ns && back[k].min_ns == rows[k].min_ns);
        assert_true(back[k].q1_ns == rows[k].q1_ns && back[k].q3_ns == rows[k].q3_ns);
    }
    assert_true(back[0].bf == 2 && back[0].N == 10 && back[0].instructions == 12345);
    assert_string_equal(back[1].model, "autotree:N=7,bf=1,skew=0.5,taper=0.9");
    assert_string_equal(back[2].model, "urdf:/m/ur5.urdf");
    free(back);
    /* no temporary file left behind by the atomic write */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test -z \"$(ls -A '%s' | grep -v '^benchmarks.json$')\"", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_foreign_file(void **s)
{
    (void)s;
    char p[128];
    snprintf(p, sizeof p, "%s/gb.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("{\"context\": {\"date\": \"x\"}, \"benchmarks\": ["
          "{\"name\": \"BM_Rnea/64\", \"run_name\": \"BM_Rnea/64\", \"run_type\": \"iteration\", \"iterations\": 10,"
          " \"real_time\": 1.0, \"cpu_time\": 1.0, \"time_unit\": \"us\"},"
          "{\"name\": \"BM_Rnea/64\", \"run_name\": \"BM_Rnea/64\", \"run_type\": \"iteration\", \"iterations\": 10,"
          " \"real_time\": 3.0, \"cpu_time\": 3.0, \"time_unit\": \"us\"},"
          "{\"name\": \"BM_Rnea/64\", \"run_name\": \"BM_Rnea/64\", \"run_type\": \"iteration\", \"iterations\": 10,"
          " \"real_time\": 2.0, \"cpu_time\": 2.0, \"time_unit\": \"us\"},"
          "{\"name\": \"BM_Rnea/64_mean\", \"run_name\": \"BM_Rnea/64\", \"run_type\": \"aggregate\","
          " \"aggregate_name\": \"mean\", \"real_time\": 2.0, \"time_unit\": \"us\"}]}", f);
    fclose(f);
    timing_row *rows;
    int n;
    assert_int_equal(gbench_read(p, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(rows[0].method, "BM_Rnea");
    assert_true(rows[0].median_ns == 2000 && rows[0].min_ns == 1000);   /* us -> ns, median of the repetitions */
    assert_true(rows[0].q1_ns == 1500 && rows[0].q3_ns == 2500);
    free(rows);

    f = fopen(p, "w");
    fputs("{\"benchmarks\": [{\"name\": \"x\", \"real_time\": 1, \"time_unit\": \"fortnights\"}]}", f);
    fclose(f);
    assert_int_equal(gbench_read(p, &rows, &n), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "benchmarks[0]"));
    f = fopen(p, "w");
    fputs("{\"benchmarks\": [", f);
    fclose(f);
    assert_int_equal(gbench_read(p, &rows, &n), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "gb.json:1:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_foreign_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
