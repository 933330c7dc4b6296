/* Noise-aware comparison of two timings of the same benchmark (issue 8).
 *
 * Time: with >= CMP_MIN_SAMPLES batch samples on both sides, a one-sided
 * Mann-Whitney U test on the batches' ns per call (each batch is one
 * independent measurement; ranks make no assumption on the noise's
 * distribution and resist the odd slow batch) calls "slower" / "faster" at
 * p <= alpha; without samples the runs' inter-quartile ranges must not
 * overlap.  A time regression is "slower" AND a median ratio beyond
 * 1 + threshold: significance alone is not enough (two runs of one build
 * differ by a few percent in a significant way when the machine drifts).
 * Instructions: when both runs counted them (PMU or valgrind), a count
 * beyond 1 + ins_threshold is a regression whatever the time says: counts
 * do not suffer from timing noise. */
#ifndef RBD_COMPARE_H
#define RBD_COMPARE_H

#include <stdio.h>
#include "store/results.h"

typedef enum { CMP_SAME = 0, CMP_FASTER, CMP_SLOWER } cmp_verdict;

enum { CMP_MIN_SAMPLES = 5 };

typedef struct {
    double threshold;       /* allowed slow-down of the median (0.10 = 10%)    */
    double ins_threshold;   /* allowed growth of instructions per call (0.02)  */
    double alpha;           /* one-sided significance of the U test (0.01)     */
} cmp_opts;

typedef struct {
    double ratio;           /* new median / base median (NAN without times)   */
    cmp_verdict verdict;    /* of the times                                    */
    double p;               /* one-sided p of the U test in the verdict's
                               direction; NAN when the IQR rule decided        */
    double ins_ratio;       /* new / base instructions per call, NAN if absent */
    int time_regression;    /* SLOWER and ratio > 1 + threshold                */
    int ins_regression;     /* ins_ratio > 1 + ins_threshold                   */
    int regression;         /* either                                          */
} cmp_result;

void cmp_opts_default(cmp_opts *o);
const char *cmp_verdict_name(cmp_verdict v);   /* "faster", "slower", "same within noise" */

void compare_rows(const timing_row *base, const timing_row *neu, const cmp_opts *o, cmp_result *r);

/* The two runs' rows side by side by benchmark name (timing_row_name), a
 * line each with both medians, the ratio, p, the instructions ratio and the
 * verdict, the rows of one run only marked so, then a summary line, on f.
 * Returns the number of regressions; RBD_EINVAL when the runs have no
 * benchmark in common (refused before anything is printed; base_name and
 * new_name name them), RBD_ENOMEM. */
int compare_runs(FILE *f, const timing_row *b, int nb, const timing_row *n, int nn, const cmp_opts *o,
                 const char *base_name, const char *new_name);

/* One-sided p-value that the y sample is stochastically larger than x
 * (Mann-Whitney U, normal approximation with tie and continuity
 * corrections; adequate from about 5 samples a side).  NAN if nx or ny < 1. */
double mann_whitney_p_greater(const double *x, int nx, const double *y, int ny);

#endif
