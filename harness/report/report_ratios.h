/* Paired ratios to idsva / fdsva for tables.md (report_ratios.c). */
#ifndef RBD_REPORT_RATIOS_H
#define RBD_REPORT_RATIOS_H

#include <stdio.h>
#include "store/results.h"

/* Ratio of r to b from their per-batch samples (median over rounds of
 * r_b / b_b) and the number of rounds in which b was faster; returns the
 * number of rounds compared (0: no samples). */
int report_paired(const timing_row *r, const timing_row *b, double *ratio, int *base_faster);

/* report_paired with the quartiles of the per-round ratios (*q1, *q3): the
 * interquartile band the speed-up figures draw. */
int report_paired_q(const timing_row *r, const timing_row *b, double *ratio, double *q1, double *q3,
                    int *base_faster);

/* Ours against a peer's function timed in the same rounds: the median over
 * rounds of ours / peer, and the rounds in which ours was the faster;
 * returns the number of rounds compared (0: no samples). */
int report_vs_peer(const timing_row *ours, const timing_row *peer, double *ratio, int *ours_faster);

/* "## Paired ratios to idsva (ID methods)", the same for fdsva, and
 * "## Paired ratios DMM over AZA (Fig. 7)": each DMM flavour's time over
 * fdsva-aza's, the ratio fig7_speedup plots. */
void report_ratios(FILE *f, const timing_row *rows, int n);

#endif
