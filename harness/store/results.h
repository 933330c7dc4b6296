/*
 * A results directory (one per run, results/<date>-<name> by default):
 *
 *   timings.csv     one row per method x model (N, bf): ns per call
 *   samples.csv     ns per call of every timed batch of each timings row
 *                   (the rank test of `compare`)
 *   accuracy.csv    one row per method x model: errors against the reference
 *   conditioning.csv one row per audited model: cond(M) over its states
 *   crossover.csv   one row per crossover search
 *   peer_checks.csv one row per peer function x model: its outputs against
 *                   ours before timing, and whether it was timed
 *   meta.json       how the numbers were made (meta.c)
 *   tables.md       median us per call, N rows x method columns, per bf
 *                   (report/report.c)
 *   benchmarks.json the same in Google Benchmark's format (store/gbench.h)
 *
 * The CSV files are appended row by row and survive interruption (csvlog.h);
 * the other three are derived from them and replaced atomically.
 */
#ifndef RBD_RESULTS_H
#define RBD_RESULTS_H

#include "store/csvlog.h"
#include "store/rows.h"

#define TIMINGS_CSV "timings.csv"
#define ACCURACY_CSV "accuracy.csv"
#define CROSSOVER_CSV "crossover.csv"
#define SAMPLES_CSV "samples.csv"
#define INSTRUCTIONS_CSV "instructions.csv"
#define PEER_CHECKS_CSV "peer_checks.csv"
#define CONDITIONING_CSV "conditioning.csv"
#define CROSSOVER_PROBES_CSV "crossover_probes.csv"
#define PEER_EPS_CSV "peer_eps.csv"

/* nq came with the robots, fp_ops and flops later: files without the last
 * two still read (csvlog_read pads trailing optional columns). */
enum { TIMINGS_NCOLS = 18, TIMINGS_NKEY = 3 };
extern const csv_col timings_cols[TIMINGS_NCOLS];
enum { ACCURACY_NCOLS = 11, ACCURACY_NKEY = 4 };
extern const csv_col accuracy_cols[ACCURACY_NCOLS];
/* conditioning.csv (the audit, accuracy_run.h): model, bf, N, nv, states,
 * cond_M (the largest 2-norm condition number of M over the states),
 * cond_M_min (the smallest). */
enum { CONDITIONING_NCOLS = 7, CONDITIONING_NKEY = 2 };
extern const csv_col conditioning_cols[CONDITIONING_NCOLS];
enum { CROSSOVER_NCOLS = 11, CROSSOVER_NKEY = 4 };
extern const csv_col crossover_cols[CROSSOVER_NCOLS];
/* The probes of each crossover search (the N it timed, the pairs there and
 * their t_B / t_A, median and quartiles), so Fig. 7 shows data on both
 * sides of the crossover even where the sweep's N stop short of it. */
enum { CROSSOVER_PROBES_NCOLS = 11, CROSSOVER_PROBES_NKEY = 4 };
extern const csv_col crossover_probes_cols[CROSSOVER_PROBES_NCOLS];
/* samples.csv: method, kind, model, batch, ns (per call in that batch). */
enum { SAMPLES_NCOLS = 5, SAMPLES_NKEY = 4 };
extern const csv_col samples_cols[SAMPLES_NCOLS];
/* instructions.csv (scripts/instructions, valgrind): method, model, bf, N,
 * calls_lo, calls_hi, instructions (per call), tool. */
enum { INSTRUCTIONS_NCOLS = 8, INSTRUCTIONS_NKEY = 2 };
extern const csv_col instructions_cols[INSTRUCTIONS_NCOLS];

/* peer_checks.csv: function (row name), model, nv, ours (the counterpart),
 * err (max relative difference; empty when the check could not run), tol,
 * timed (yes/no), detail (the worst entry, or why it was not timed). */
enum { PEER_CHECKS_NCOLS = 8, PEER_CHECKS_NKEY = 2 };
extern const csv_col peer_checks_cols[PEER_CHECKS_NCOLS];

/* peer_eps.csv (the audit's sweep over a peer's finite-difference step):
 * method (row name), model, bf, eps, N, nv, states, rms_rel and normwise
 * (the worst over the states and the derivative outputs), role (default:
 * the peer's own step; best: the step with the least rms_rel; swept: neither). */
enum { PEER_EPS_NCOLS = 10, PEER_EPS_NKEY = 4 };
extern const csv_col peer_eps_cols[PEER_EPS_NCOLS];

/* pair.csv and pair_samples.csv, the tables `rbdiff pair --out DIR`
 * writes (rows.h: pair_row, pair_sample_row). */
enum { PAIR_NCOLS = 15, PAIR_SAMPLES_NCOLS = 6 };
extern const csv_col pair_cols[PAIR_NCOLS];
extern const csv_col pair_samples_cols[PAIR_SAMPLES_NCOLS];

/* Creates dir (and parents) and proves it writable; errors name the path. */
int results_prepare_dir(const char *dir);
/* Every table a results directory may hold, with its columns and key
 * (checked on resume, joined by merge); terminated by a NULL file. */
typedef struct {
    const char *file;
    const csv_col *cols;
    int ncols, nkey;
    size_t row_size;        /* of its row struct (rows.h) */
} results_table;
extern const results_table results_tables[];

/* Reads every table of results_tables present in dir (or packed, pack.h);
 * the first malformed one is the
 * error (file:line:field).  A directory to resume is checked so before
 * anything is written into it. */
int results_check_tables(const char *dir);
/* dir + "/" + name in a fresh allocation (NULL on out of memory). */
char *results_path(const char *dir, const char *name);
/* dir/file opened for appending (csvlog_open) with its columns. */
int results_open_table(csvlog *log, const char *dir, const char *file, const csv_col *cols, int ncols, int nkey);

/* Converts between a row and its CSV fields (fields[k] point into buf or
 * r), by timings_cols. */
int timing_row_from_fields(char *const *fields, timing_row *r);
void timing_row_to_fields(const timing_row *r, char buf[TIMINGS_NCOLS][64], const char *fields[TIMINGS_NCOLS]);
/* Appends r to timings.csv, and its nsamples batches to samples.csv. */
int timings_append(csvlog *log, const timing_row *r);
int samples_append(csvlog *log, const timing_row *r);

/* Reads timings from a results directory, a timings.csv or a Google
 * Benchmark JSON file; *rows is malloc'ed. */
int timing_rows_load(const char *path, timing_row **rows, int *n);
/* The row of method on model among rows[0..n), or NULL. */
const timing_row *timing_rows_find(const timing_row *rows, int n, const char *method, const char *model);
/* Adds the per-batch samples of dir/samples.csv (if present) to rows whose
 * method, kind and model match, and instruction counts of
 * dir/instructions.csv to rows that have none. */
int timing_rows_attach(const char *dir, timing_row *rows, int n);

/* "method/bf:B/N:N" for autoTree rows (plus /skew:S/taper:T when not the
 * defaults), "method/model:SPEC" otherwise: the Google Benchmark name. */
void timing_row_name(const timing_row *r, char *buf, size_t len);
/* Parses a name made by timing_row_name back into method, bf, N, model. */
int timing_row_parse_name(const char *name, timing_row *r);

#endif
