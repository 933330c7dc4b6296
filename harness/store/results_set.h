/*
 * A results directory opened once: every table it holds, typed (rows.h),
 * read through the tables' column descriptions (results.c), plain or packed
 * (samples.csv.gz) alike, and meta.json.  Readers (report, plot, compare,
 * anchors) take what they need from here instead of parsing CSV fields by
 * position.  A table that is absent is an empty array; one that is
 * malformed (a field of the wrong type, a negative time, a directory where
 * a file belongs) is an error naming file:line:column.
 */
#ifndef RBD_RESULTS_SET_H
#define RBD_RESULTS_SET_H

#include <jansson.h>
#include "store/results.h"

typedef struct {
    char *dir;
    timing_row *timings;            /* with their samples and instruction counts */
    int ntimings;
    crossover_row *crossovers;
    int ncrossovers;
    probe_row *probes;
    int nprobes;
    accuracy_row *accuracy;
    int naccuracy;
    cond_row *conditioning;
    int nconditioning;
    peer_check_row *peer_checks;
    int npeer_checks;
    json_t *meta;                   /* NULL when absent or not JSON */
    unsigned present;               /* bit RESULTS_HAVE_* per table found */
} results_set;

enum {
    RESULTS_HAVE_TIMINGS = 1u << 0,
    RESULTS_HAVE_CROSSOVER = 1u << 1,
    RESULTS_HAVE_PROBES = 1u << 2,
    RESULTS_HAVE_ACCURACY = 1u << 3,
    RESULTS_HAVE_CONDITIONING = 1u << 4,
    RESULTS_HAVE_PEER_CHECKS = 1u << 5,
};

/* Reads every table of dir; on error nothing is kept (results_close is
 * still safe). */
int results_open(const char *dir, results_set *s);
void results_close(results_set *s);

/* One table of dir by its file name (results_tables), typed: *rows a fresh
 * array of *n rows of that table's row struct; *present 0 (and no error)
 * when dir holds neither the file nor its packed form. */
int results_table_read(const char *dir, const char *file, void **rows, int *n, int *present);

#endif
