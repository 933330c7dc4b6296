/* The accuracy audit's derived outputs: summary tables (per group of
 * autoTree models, N columns; robots, a column per model) and accuracy.json,
 * both made from accuracy.csv so a resumed run reports every row. */
#ifndef RBD_REPORT_ACCURACY_H
#define RBD_REPORT_ACCURACY_H

#include <stdio.h>
#include <jansson.h>
#include "csvlog.h"

/* Reads DIR/accuracy.csv if it exists (*present = 1). */
int accuracy_read(const char *dir, csvlog *t, int *present);
/* Markdown: one table per group, rows method/output, cells worst rms_rel. */
void accuracy_summary(FILE *f, const csvlog *t);
/* DIR/accuracy.json (atomic): {metric, settings, rows: [...]}. */
int accuracy_write_json(const char *dir, const csvlog *t, json_t *settings);

#endif
