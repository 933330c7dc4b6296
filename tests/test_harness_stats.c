/* Order statistics of timing samples and the compare verdicts. */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "report/compare.h"
#include "common/stats.h"

static void test_odd_count(void **s)
{
    (void)s;
    double x[] = { 9, 1, 5, 3, 7 }, scratch[5];
    rbd_stats st;
    assert_int_equal(stats_compute(x, 5, scratch, &st), 0);
    assert_int_equal(st.n, 5);
    assert_true(st.min == 1 && st.max == 9 && st.median == 5);
    /* type 7: h = (n-1) p -> q1 at sorted[1] = 3, q3 at sorted[3] = 7 */
    assert_true(st.q1 == 3 && st.q3 == 7 && st.iqr == 4);
    assert_true(x[0] == 9 && x[4] == 7);   /* input untouched */
}

static void test_even_count_interpolates(void **s)
{
    (void)s;
    double x[] = { 4, 1, 3, 2 }, scratch[4];
    rbd_stats st;
    assert_int_equal(stats_compute(x, 4, scratch, &st), 0);
    assert_true(st.median == 2.5);
    assert_true(fabs(st.q1 - 1.75) < 1e-15);   /* h = 0.75 */
    assert_true(fabs(st.q3 - 3.25) < 1e-15);   /* h = 2.25 */
    assert_true(fabs(st.iqr - 1.5) < 1e-15);
}

static void test_single_and_ties(void **s)
{
    (void)s;
    double one = 42, scratch[8];
    rbd_stats st;
    assert_int_equal(stats_compute(&one, 1, scratch, &st), 0);
    assert_true(st.median == 42 && st.q1 == 42 && st.q3 == 42 && st.iqr == 0 && st.min == 42);
    double t[] = { 2, 2, 2, 10, 2, 2, 2 };
    assert_int_equal(stats_compute(t, 7, scratch, &st), 0);
    assert_true(st.median == 2 && st.iqr == 0 && st.max == 10);
}

static void test_rejects_bad_samples(void **s)
{
    (void)s;
    double x[] = { 1, NAN, 3 }, scratch[3];
    rbd_stats st;
    assert_int_equal(stats_compute(x, 0, scratch, &st), RBD_EINVAL);
    assert_int_equal(stats_compute(x, 3, scratch, &st), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "sample 1 is not finite"));
}

static timing_row row(double q1, double med, double q3)
{
    timing_row r;
    memset(&r, 0, sizeof r);
    r.q1_ns = q1;
    r.median_ns = med;
    r.q3_ns = q3;
    return r;
}

static void test_compare_verdicts(void **s)
{
    (void)s;
    cmp_result c;
    cmp_opts o;
    cmp_opts_default(&o);
    timing_row base = row(95, 100, 105);
    timing_row same = row(100, 108, 112);       /* overlapping IQRs: noise even at +8% */
    compare_rows(&base, &same, &o, &c);
    assert_int_equal(c.verdict, CMP_SAME);
    assert_false(c.regression);
    timing_row slow5 = row(106, 106, 107);      /* disjoint, +6%: slower, under threshold */
    compare_rows(&base, &slow5, &o, &c);
    assert_int_equal(c.verdict, CMP_SLOWER);
    assert_false(c.regression);
    timing_row slow = row(118, 120, 125);       /* disjoint, +20%: regression */
    compare_rows(&base, &slow, &o, &c);
    assert_int_equal(c.verdict, CMP_SLOWER);
    assert_true(c.regression);
    assert_true(fabs(c.ratio - 1.2) < 1e-12);
    timing_row wide = row(80, 130, 200);        /* +30% but its spread covers base: not called */
    compare_rows(&base, &wide, &o, &c);
    assert_int_equal(c.verdict, CMP_SAME);
    assert_false(c.regression);
    timing_row fast = row(60, 62, 64);
    compare_rows(&base, &fast, &o, &c);
    assert_int_equal(c.verdict, CMP_FASTER);
    assert_string_equal(cmp_verdict_name(c.verdict), "faster");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_odd_count),
        cmocka_unit_test(test_even_count_interpolates),
        cmocka_unit_test(test_single_and_ties),
        cmocka_unit_test(test_rejects_bad_samples),
        cmocka_unit_test(test_compare_verdicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
