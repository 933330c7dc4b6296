/*
 * What `rbdiff pair` reports of its rounds (measure/pairing.h): per cell,
 * each build against the reference build (pair_judge: the median over the
 * rounds of t_build / t_reference, its quartiles, w/K, the sign tests and
 * the verdict), as a table on stdout and, with --out DIR, as DIR/pair.csv
 * and DIR/pair_samples.csv (every batch), written through their column
 * descriptions (store/results.h: pair_cols, pair_samples_cols).
 */
#ifndef RBD_PAIR_TABLE_H
#define RBD_PAIR_TABLE_H

#include "measure/pair_run.h"

/* How the builds are judged: their labels, the reference, the rounds and
 * the SLOWER / faster criterion. */
typedef struct {
    const char *const *labels;
    int nb, ref, rounds;
    double threshold, alpha;
} pair_judging;

/* The table on stdout; returns the number of SLOWER cells. */
int pair_print_table(const pair_judging *j, const pair_cell *c, int nc);
/* DIR (made if absent)/pair.csv and pair_samples.csv, each written whole
 * (atomic_write); 0 or the error (message set). */
int pair_write_tables(const char *dir, const pair_judging *j, const pair_cell *c, int nc);
/* pair_run's cells judged as a asks: the table on stdout, then, with
 * a->out, the two tables there.  The number of SLOWER cells, or a negative
 * code (message set) when a table cannot be written. */
int pair_report(const pair_args *a, const pair_result *r);

#endif
