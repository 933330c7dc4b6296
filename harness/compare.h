/* Noise-aware comparison of two timings of the same benchmark. */
#ifndef RBD_COMPARE_H
#define RBD_COMPARE_H

#include "results.h"

typedef enum { CMP_SAME = 0, CMP_FASTER, CMP_SLOWER } cmp_verdict;

typedef struct {
    double ratio;           /* new median / base median                     */
    cmp_verdict verdict;    /* SAME when the two [q1, q3] intervals overlap */
    int regression;         /* SLOWER and ratio > 1 + threshold             */
} cmp_result;

const char *cmp_verdict_name(cmp_verdict v);   /* "faster", "slower", "same within noise" */

/* threshold: allowed slow-down as a fraction (0.10 = 10%). */
void compare_rows(const timing_row *base, const timing_row *neu, double threshold, cmp_result *r);

#endif
