/* The accuracy audit's derived outputs: summary tables (per group of
 * autoTree models, N columns; robots, a column per model) and accuracy.json,
 * both made from accuracy.csv so a resumed run reports every row. */
#ifndef RBD_ACCURACY_SUMMARY_H
#define RBD_ACCURACY_SUMMARY_H

#include <stdio.h>
#include <jansson.h>
#include "store/csvlog.h"

/* A row is flagged when it is more than this many times less accurate than
 * the complex step on the same output and model, in rms_rel or normwise. */
#define ACCURACY_FLAG_RATIO 100

/* Reads DIR/accuracy.csv if it exists (*present = 1). */
int accuracy_read(const char *dir, csvlog *t, int *present);
/* Reads DIR/conditioning.csv if it exists (*present = 1). */
int conditioning_read(const char *dir, csvlog *t, int *present);
/* Markdown: per group, a table of worst rms_rel and one of worst normwise
 * with cond(M) and u cond(M) above it (cond may be NULL: no such rows),
 * cells marked ! when flagged; then the flagged rows. */
void accuracy_summary(FILE *f, const csvlog *t, const csvlog *cond);
/* DIR/accuracy.json (atomic): {metric, settings, rows: [...]}, and with
 * cond the conditioning rows and, per row, cond_M, expected_normwise,
 * cs_ratio_rms, cs_ratio_normwise, flag_vs_cs; not_audited (NULL: none):
 * the audit's lines saying which peer functions it left out on which
 * model, and why (a peer without generated code for it, ...). */
int accuracy_write_json(const char *dir, const csvlog *t, const csvlog *cond, json_t *settings, json_t *not_audited);

/* The conditioning-based expectation (the audit's README section): u cond(M),
 * u = 2^-53, for an output that solves with M (qdd, dqdd_dq, dqdd_dv,
 * dqdd_dtau, Minv); NAN for the others (tau, dtau_*, M solve nothing). */
int accuracy_solves_with_M(const char *output);
double accuracy_expected(const char *output, double cond_M);
/* The complex-step row a (method, output) is compared with: fd-cs for FD
 * outputs, qdd and Minv (as dqdd_dtau), id-cs for ID outputs and tau; 0 for
 * M and for the complex-step methods themselves. */
int accuracy_cs_counterpart(const char *method, const char *output, const char **cs_method, const char **cs_output);
/* err / err_cs, err_cs raised to u first (an exact complex step is no
 * yardstick below rounding). */
double accuracy_cs_ratio(double err, double err_cs);

#endif
