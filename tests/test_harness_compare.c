/* compare's rank test and verdicts, analytic flop counts, shard partition,
 * older timings.csv files, and the hardware-counter refusal path. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "report/compare.h"
#include "store/csvlog.h"
#include "measure/method_facts.h"
#include "measure/perfctr.h"
#include "store/results.h"
#include "store/shard.h"

/* U statistic (pairs y > x, ties 1/2) by counting. */
static double u_count(const double *x, int nx, const double *y, int ny)
{
    double u = 0;
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) u += y[j] > x[i] ? 1 : y[j] == x[i] ? 0.5 : 0;
    return u;
}

/* Exact one-sided permutation p of U over every split of the pooled 10
 * values into 5 + 5: the normal approximation must be close to it. */
static void test_mann_whitney_matches_exact(void **s)
{
    (void)s;
    const double x[5] = { 10, 11, 12, 12, 14 }, y[5] = { 12, 13, 15, 16, 17 };
    double pool[10];
    memcpy(pool, x, sizeof x);
    memcpy(pool + 5, y, sizeof y);
    double u0 = u_count(x, 5, y, 5);
    int hits = 0, total = 0;
    for (int mask = 0; mask < 1024; mask++) {
        if (__builtin_popcount((unsigned)mask) != 5) continue;
        double a[5], b[5];
        int na = 0, nb = 0;
        for (int k = 0; k < 10; k++) {
            if (mask & (1 << k)) b[nb++] = pool[k];
            else a[na++] = pool[k];
        }
        total++;
        hits += u_count(a, 5, b, 5) >= u0 - 1e-12;
    }
    assert_int_equal(total, 252);
    double exact = (double)hits / total, p = mann_whitney_p_greater(x, 5, y, 5);
    assert_true(exact < 0.05);
    assert_true(fabs(p - exact) < 0.015);
    /* the other direction is the complement, near 1 */
    assert_true(mann_whitney_p_greater(y, 5, x, 5) > 0.95);
    /* all equal: no evidence */
    double e[6] = { 1, 1, 1, 1, 1, 1 };
    assert_true(mann_whitney_p_greater(e, 3, e + 3, 3) == 0.5);
    assert_true(isnan(mann_whitney_p_greater(x, 0, y, 5)));
}

static timing_row sampled(double base, double step, int n)
{
    timing_row r;
    memset(&r, 0, sizeof r);
    r.nsamples = n;
    for (int k = 0; k < n; k++) r.samples[k] = base + step * ((k * 5) % n);   /* a shuffled ramp (5 is prime to n) */
    double sorted[RBD_MAX_SAMPLES];
    memcpy(sorted, r.samples, sizeof(double) * (size_t)n);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) { double t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t; }
    r.median_ns = sorted[n / 2];
    r.min_ns = sorted[0];
    r.q1_ns = sorted[n / 4];
    r.q3_ns = sorted[3 * n / 4];
    r.instructions = r.cycles = NAN;
    return r;
}

static void test_rank_verdicts(void **s)
{
    (void)s;
    cmp_opts o;
    cmp_opts_default(&o);
    cmp_result c;
    timing_row base = sampled(1000, 10, 11);
    timing_row again = sampled(1003, 10, 11);          /* interleaved with base: noise */
    compare_rows(&base, &again, &o, &c);
    assert_int_equal(c.verdict, CMP_SAME);
    assert_true(c.p > o.alpha);
    assert_false(c.regression);
    timing_row slow = sampled(1500, 10, 11);            /* every batch slower, +50% */
    compare_rows(&base, &slow, &o, &c);
    assert_int_equal(c.verdict, CMP_SLOWER);
    assert_true(c.p < 1e-3);
    assert_true(c.time_regression && c.regression);
    timing_row slight = sampled(1120, 1, 11);           /* significant, but +7% < 10% */
    compare_rows(&base, &slight, &o, &c);
    assert_int_equal(c.verdict, CMP_SLOWER);
    assert_false(c.regression);
    timing_row quick = sampled(600, 10, 11);
    compare_rows(&base, &quick, &o, &c);
    assert_int_equal(c.verdict, CMP_FASTER);
    assert_false(c.regression);
    /* a wide, overlapping run: +30% median but not significant */
    timing_row wide = sampled(700, 120, 7);   /* 700 .. 1420 */
    compare_rows(&base, &wide, &o, &c);
    assert_int_equal(c.verdict, CMP_SAME);
    assert_false(c.regression);
    /* too few samples: the quartile rule decides, p is NAN */
    timing_row few = sampled(1500, 10, 3);
    compare_rows(&base, &few, &o, &c);
    assert_true(isnan(c.p));
    assert_int_equal(c.verdict, CMP_SLOWER);
}

static void test_instruction_rule(void **s)
{
    (void)s;
    cmp_opts o;
    cmp_opts_default(&o);
    cmp_result c;
    timing_row b = sampled(1000, 10, 11), n = sampled(1003, 10, 11);
    b.instructions = 10000;
    n.instructions = 10500;             /* +5% instructions, times the same */
    compare_rows(&b, &n, &o, &c);
    assert_int_equal(c.verdict, CMP_SAME);
    assert_true(c.ins_regression && c.regression && !c.time_regression);
    assert_true(fabs(c.ins_ratio - 1.05) < 1e-12);
    n.instructions = 10100;             /* +1%: within the 2% default */
    compare_rows(&b, &n, &o, &c);
    assert_false(c.regression);
    n.instructions = NAN;               /* one side without counts: time alone */
    compare_rows(&b, &n, &o, &c);
    assert_true(isnan(c.ins_ratio));
    assert_false(c.regression);
}

static void test_flops_tree(void **s)
{
    (void)s;
    rbd_model *m = tu_model("autotree:N=7,bf=2");
    flops_tree t;
    flops_tree_of(m, &t);
    /* depths 1, 2, 2, 3, 3, 3, 3 */
    assert_int_equal(t.N, 7);
    assert_int_equal(t.P, 17);
    assert_int_equal(t.R, 1);
    assert_true(t.revolute_only);
    assert_true(method_flops("dgemm", &t) == 2 * 343);
    assert_true(isnan(method_flops("id-fd", &t)));
    rbd_model_free(m);
    m = tu_model("autotree:N=100,bf=1");
    flops_tree_of(m, &t);
    assert_int_equal(t.P, 5050);
    /* chain: the O(N^2) pair terms make IDSVA ~10x cheaper than RNEACR and
     * DMM's 4 n^3 dominate FDSVA */
    double id = method_flops("idsva", &t), cr = method_flops("rneacr", &t);
    assert_true(id == 1388.0 * 100 - 78 + 68.0 * 5050);
    assert_true(cr > 5 * id);
    assert_true(method_flops("fdsva-dmm", &t) - method_flops("fdsva-aza", &t) ==
                4e6 - 139.0 * 100 * 200);
    assert_true(method_flops("fdsva-dmm-loop", &t) == method_flops("fdsva-dmm", &t));
    rbd_model_free(m);
    char path[512];
    snprintf(path, sizeof path, "urdf:%s/tests/models/solo12.urdf,freeflyer", RBD_SOURCE_DIR);
    assert_int_equal(rbd_model_from_spec(path, NULL, &m), 0);   /* a free-flyer: no formula */
    {
        flops_tree_of(m, &t);
        assert_false(t.revolute_only);
        assert_true(isnan(method_flops("idsva", &t)));
        rbd_model_free(m);
    }
}

static void test_shard_partition(void **s)
{
    (void)s;
    for (int n = 1; n <= 7; n++) {
        int owners[200] = { 0 };
        for (int k = 1; k <= n; k++) {
            shard_spec sh = { k, n };
            for (long c = 0; c < 200; c++) owners[c] += shard_owns(&sh, c);
        }
        for (int c = 0; c < 200; c++) assert_int_equal(owners[c], 1);   /* every cell exactly once */
    }
    shard_spec sh;
    assert_int_equal(shard_parse("3/8", &sh), 0);
    assert_true(sh.k == 3 && sh.n == 8);
    assert_int_equal(shard_parse("0/8", &sh), RBD_EINVAL);
    assert_int_equal(shard_parse("9/8", &sh), RBD_EINVAL);
    assert_int_equal(shard_parse("2/8x", &sh), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "--shard 2/8x"));
}

/* A timings.csv written before fp_ops and flops existed still reads; it is
 * not appended to (a resume needs the same build anyway). */
static void test_old_timings_file(void **s)
{
    (void)s;
    char path[512];
    snprintf(path, sizeof path, "%s/tests/old_timings.csv", RBD_BINARY_DIR);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("method,kind,model,bf,N,nv,median_ns,min_ns,q1_ns,q3_ns,iqr_ns,batches,calls_per_batch,instructions,cycles\n"
          "idsva,ID,\"autotree:N=5,bf=1\",1,5,5,100,90,95,105,10,11,1000,,\n", f);
    fclose(f);
    timing_row *rows;
    int n;
    assert_int_equal(timing_rows_load(path, &rows, &n), 0);
    assert_int_equal(n, 1);
    assert_true(rows[0].median_ns == 100 && isnan(rows[0].flops) && isnan(rows[0].fp_ops));
    free(rows);
    csvlog t;
    assert_int_not_equal(csvlog_open(&t, path, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY), 0);
    remove(path);
}

static void test_perfctr_refusal(void **s)
{
    (void)s;
    char why[256] = "";
    setenv("RBD_NO_PERFCTR", "1", 1);
    assert_null(perfctr_open(why, sizeof why));
    assert_string_equal(why, "disabled by RBD_NO_PERFCTR");
    unsetenv("RBD_NO_PERFCTR");
    why[0] = 0;
    perfctr *pc = perfctr_open(why, sizeof why);
    if (!pc) {   /* refused by this kernel (a VM without a PMU): a reason is given */
        assert_true(strlen(why) > 10);
        return;
    }
    volatile double x = 0;
    double ins, cyc, fp;
    perfctr_start(pc);
    for (int k = 0; k < 100000; k++) x += 1e-3 * k;
    assert_int_equal(perfctr_stop(pc, &ins, &cyc, &fp), 0);
    assert_true(x > 0);
    assert_true(ins > 100000 && cyc > 0);
    if (perfctr_has_fp(pc)) assert_true(fp >= 100000);
    perfctr_close(pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mann_whitney_matches_exact),
        cmocka_unit_test(test_rank_verdicts),
        cmocka_unit_test(test_instruction_rule),
        cmocka_unit_test(test_flops_tree),
        cmocka_unit_test(test_shard_partition),
        cmocka_unit_test(test_old_timings_file),
        cmocka_unit_test(test_perfctr_refusal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
