/*
 * The crossover searches' side of a results set, shared by `crossover`
 * and the sweep engine: crossover.csv (one row per search, keyed by A, B,
 * bf and the search's options) and crossover_probes.csv (each probe's
 * pairs summarised), the options from the config, and one search run and
 * appended: its row, then its probes, so a kill in between loses only the
 * probes (Fig. 7's extra points).
 */
#ifndef RBD_CROSSOVER_SET_H
#define RBD_CROSSOVER_SET_H

#include "measure/bench.h"

typedef struct {
    csvlog rows, probes;    /* open when the set has a directory */
    int open;
    xo_probes *pr;          /* the current search's probes */
} xo_set;

/* xo_opts_default with the config's crossover_range. */
void xo_opts_from_config(xo_opts *xo, const sweep_config *c);
/* Opens dir's two tables for appending (dir NULL: a search printed only).
 * RBD_OK or the code with the message set; close it either way. */
int xo_set_open(xo_set *s, const char *dir);
void xo_set_close(xo_set *s);
/* 1 when the set already holds the row of A vs B at bf with these options
 * (row receives its key). */
int xo_set_has(const xo_set *s, const char *A, const char *B, double bf, const xo_opts *xo, crossover_row *row);
/* Runs the search (crossover_run): 0 with r and row filled, 1 when
 * interrupted, or a negative code (message set). */
int xo_set_search(xo_set *s, const rbd_method *A, const rbd_method *B, double bf, const sweep_config *c,
                  const xo_opts *xo, volatile sig_atomic_t *stop, xo_result *r, crossover_row *row);
/* Appends the search's row, then its probes (nothing without a directory). */
int xo_set_append(xo_set *s, const crossover_row *row);
/* `crossover`'s searches of A vs B, one per bf of c: each printed on out as
 * it ends and appended; a search the set holds already is skipped with a
 * line on stderr.  0, 1 when *stop ended it, or a negative code. */
int xo_set_search_all(xo_set *s, const rbd_method *A, const rbd_method *B, const sweep_config *c,
                      const xo_opts *xo, volatile sig_atomic_t *stop, FILE *out);

#endif
