/* Order statistics of timing samples: median, min, quartiles (harness/README.md,
 * "Timing"). */
#ifndef RBD_STATS_H
#define RBD_STATS_H

typedef struct {
    int n;
    double min, max, median, q1, q3, iqr;
} rbd_stats;

/* Quantile p in [0, 1] of n sorted samples, linear interpolation between
 * order statistics (Hyndman & Fan type 7, the R and NumPy default). */
double stats_quantile_sorted(const double *sorted, int n, double p);

/* Summary of x[0..n-1]; x is left untouched (a sorted copy goes in scratch,
 * n doubles).  Returns 0, or RBD_EINVAL for n < 1 or a non-finite sample. */
int stats_compute(const double *x, int n, double *scratch, rbd_stats *out);

#endif
