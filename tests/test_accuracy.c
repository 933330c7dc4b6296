/* The accuracy metrics of reference/accuracy.h (reference/README.md) on hand-made cases. */
#include <math.h>
#include "testutil.h"
#include "accuracy.h"

static void test_metrics(void **st)
{
    (void)st;
    /* R has a structural zero, a tiny entry below 1e-12 max|R| and three normal ones */
    const double R[6] = { 2.0, -4.0, 0.0, 1e-15, 8.0, 1.0 };
    const double X[6] = { 2.0 * (1 + 1e-10), -4.0 * (1 - 3e-10), 5e-14, 2e-15, 8.0, 1.0 };
    rbd_accuracy a;
    assert_int_equal(rbd_accuracy_eval(X, R, 6, &a), 0);
    assert_int_equal(a.n_rel, 4);                   /* 2, -4, 8, 1: 1e-15 is below 8e-12 */
    double rms = sqrt((1e-20 + 9e-20) / 4);
    assert_true(fabs(a.rms_rel - rms) <= 1e-6 * rms);
    assert_int_equal(a.n_zero, 1);
    assert_true(a.max_zero == 5e-14);
    assert_true(fabs(a.max_abs - 1.2e-9) <= 1e-15);
    double num = sqrt(4e-20 + 144e-20 + 25e-28 + 1e-30), den = sqrt(4 + 16 + 1e-30 + 64 + 1);
    assert_true(fabs(a.normwise - num / den) <= 1e-6 * num / den);
    assert_true(a.max_ref == 8.0);
    assert_int_equal(a.n_nonfinite, 0);
}

static void test_exact_and_edge(void **st)
{
    (void)st;
    const double R[3] = { 1.0, 0.0, -3.0 }, Z[3] = { 0, 0, 0 };
    rbd_accuracy a;
    assert_int_equal(rbd_accuracy_eval(R, R, 3, &a), 0);
    assert_true(a.rms_rel == 0 && a.max_abs == 0 && a.normwise == 0 && a.max_zero == 0);
    /* all-zero reference: only structural zeros */
    assert_int_equal(rbd_accuracy_eval(Z, Z, 3, &a), 0);
    assert_true(a.n_rel == 0 && a.n_zero == 3 && a.normwise == 0);
    assert_int_equal(rbd_accuracy_eval(R, Z, 3, &a), 0);
    assert_true(isinf(a.normwise) && a.max_zero == 3.0);
    /* large values: no overflow in the Frobenius norms */
    const double B[2] = { 1e300, -1e300 }, BX[2] = { 1e300 * (1 + 1e-12), -1e300 };
    assert_int_equal(rbd_accuracy_eval(BX, B, 2, &a), 0);
    assert_true(isfinite(a.normwise) && a.normwise > 0 && a.normwise < 1e-12);
    /* non-finite X: inf, counted; non-finite R: an error */
    const double N[3] = { NAN, 0.0, -3.0 };
    assert_int_equal(rbd_accuracy_eval(N, R, 3, &a), 0);
    assert_int_equal(a.n_nonfinite, 1);
    assert_true(isinf(a.rms_rel) && isinf(a.max_abs) && isinf(a.normwise));
    assert_int_equal(a.n_rel, 2);
    assert_true(rbd_accuracy_eval(R, N, 3, &a) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_exact_and_edge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
