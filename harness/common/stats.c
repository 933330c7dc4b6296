/* Order statistics of timing samples. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "common/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_quantile_sorted(const double *sorted, int n, double p)
{
    if (n <= 0) return NAN;
    double h = (n - 1) * p;
    int lo = (int)floor(h);
    if (lo >= n - 1) return sorted[n - 1];
    return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

int stats_compute(const double *x, int n, double *scratch, rbd_stats *out)
{
    if (n < 1 || !x || !scratch || !out) return rbd_fail(RBD_EINVAL, "stats: no samples");
    for (int k = 0; k < n; k++)
        if (!isfinite(x[k])) return rbd_fail(RBD_EINVAL, "stats: sample %d is not finite", k);
    memcpy(scratch, x, sizeof *x * (size_t)n);
    qsort(scratch, (size_t)n, sizeof *scratch, cmp_double);
    out->n = n;
    out->min = scratch[0];
    out->max = scratch[n - 1];
    out->median = stats_quantile_sorted(scratch, n, 0.5);
    out->q1 = stats_quantile_sorted(scratch, n, 0.25);
    out->q3 = stats_quantile_sorted(scratch, n, 0.75);
    out->iqr = out->q3 - out->q1;
    return RBD_OK;
}
