/*
 * Indexes of a timings set, sorted once and searched by bisection, so the
 * readers that match rows (compare, tables.md, the paired ratios) take
 * O(n log n) for n rows rather than O(n^2):
 *   timing_names   by Google Benchmark name (timing_row_name)
 *   timing_index   by method and model, and by bf, N and method
 * Where several rows match, the first in the set's order is found.
 */
#ifndef RBD_TIMING_INDEX_H
#define RBD_TIMING_INDEX_H

#include "store/results.h"

typedef struct {
    char **name;            /* name[k] of rows[order[k]], ascending */
    int *order;
    int n;
} timing_names;

int timing_names_build(const timing_row *rows, int n, timing_names *x);
/* The row index of name, or -1. */
int timing_names_find(const timing_names *x, const char *name);
void timing_names_free(timing_names *x);

typedef struct {
    const timing_row **by_mm;       /* by method, model, position */
    const timing_row **by_bnm;      /* autoTree rows by bf, N, method, position */
    int n, nb;
} timing_index;

int timing_index_build(const timing_row *rows, int n, timing_index *x);
const timing_row *timing_index_find(const timing_index *x, const char *method, const char *model);
const timing_row *timing_index_find_bnm(const timing_index *x, double bf, int N, const char *method);
/* A row of method (which row is not said: for what all rows of a method
 * share, such as its kind), or NULL. */
const timing_row *timing_index_of_method(const timing_index *x, const char *method);
/* The distinct N of the autoTree rows at bf, ascending, into Ns; their
 * count.  The largest N at bf (0 if none). */
int timing_index_Ns(const timing_index *x, double bf, int *Ns);
int timing_index_max_N(const timing_index *x, double bf);
void timing_index_free(timing_index *x);

#endif
