/*
 * The stored peer figures and the machine's floors, and a run's timings
 * against them (issue 10's targets); `rbdiff anchors` prints it when no
 * live Pinocchio was timed.  Two CSV tables of the anchors directory
 * (tests/pinocchio/anchors, its README.md says where the figures come from),
 * each read through one column description (anchors_load.c), as the results
 * tables are (store/rows.h):
 *
 *   pinocchio-timings.csv  Pinocchio 3.7.0 on the anchors' machine kind: per
 *                          build, model (autotree or a robot's URDF name)
 *                          and base, microseconds per call of six functions
 *   machine-limits.csv     per N, the time to write dtau/dq and dtau/dv
 *                          (2 N^2 doubles) and OpenBLAS dgemm's rate
 */
#ifndef RBD_ANCHORS_H
#define RBD_ANCHORS_H

#include <stdio.h>
#include "store/results.h"

#define ANCHORS_TIMINGS_CSV "pinocchio-timings.csv"
#define ANCHORS_LIMITS_CSV "machine-limits.csv"

/* One pinocchio-timings.csv row; key: build, model, base, bf, N. */
typedef struct {
    char build[24];             /* clang-native, gcc-native, gcc-plain      */
    char model[64];             /* autotree, or a robot's URDF file name    */
    char base[16];              /* fixed or freeflyer                       */
    double bf;                  /* autotree; NAN for a robot                */
    int N;                      /* autotree bodies; 0 for a robot           */
    int nq, nv;
    int runs;                   /* each figure is the median over these     */
    char compiler[64];          /* the compiler and flags the build names   */
    /* microseconds per call; NAN where not measured.  rnea_derivs =
     * computeRNEADerivatives, aba_derivs = computeABADerivatives, fd_via_id
     * = computeRNEADerivatives + computeMinverse + two products (the paper's
     * "Pinocchio FD Derivs"), minv = computeMinverse */
    double rnea_derivs, aba_derivs, fd_via_id, rnea, aba, minv;
} anchor_row;

/* One machine-limits.csv row; key: N. */
typedef struct {
    int N;
    double write_us;            /* writing 2 N^2 doubles: the output floor  */
    int dgemm_n;                /* OpenBLAS dgemm, 1 thread, n x n x n ...   */
    double dgemm_gflops;        /* ... at this rate                         */
} anchor_limit;

enum { ANCHORS_NCOLS = 15, ANCHORS_NKEY = 5, LIMITS_NCOLS = 4, LIMITS_NKEY = 1 };
extern const csv_col anchors_cols[ANCHORS_NCOLS];
extern const csv_col limits_cols[LIMITS_NCOLS];

typedef struct {
    anchor_row *rows;
    int nrow;
    anchor_limit *limits;
    int nlimit;
} anchor_set;

/* Reads both tables of the anchors directory dir.  Errors name file:line
 * (and the field): RBD_EIO a file missing or unreadable, RBD_EPARSE a
 * malformed one; on error s is empty. */
int anchors_load(const char *dir, anchor_set *s);
void anchors_free(anchor_set *s);

/* 1 when the set has a row of this build (robots: a robot row, else an
 * autotree row). */
int anchors_has(const anchor_set *s, const char *build, int robots);
/* A row's figure of a quantity by its column name (rnea_derivs, ...);
 * NAN when there is no such column or it was not measured. */
double anchors_us(const anchor_row *r, const char *quantity);

/* The Pinocchio quantity a method is compared with (idsva -> rnea_derivs,
 * ...), or NULL when it has none. */
const char *anchors_column_of(const char *method);

/* One timing row against the anchors. */
typedef struct {
    const char *column;         /* Pinocchio quantity                   */
    double ours_us, pin_us;     /* NAN when missing                     */
    double ratio, target;       /* ours / Pinocchio; target NAN if none */
    int pass;                   /* -1 no target, 0 fail, 1 pass         */
    double floor_us, floor_ratio, floor_target;  /* idsva: output-write floor */
    int floor_pass;
} anchor_cmp;

/* Compares r with the rows of this build; 0 when the row has a
 * counterpart (r's method maps to a column and the model is among the rows
 * or has a floor), else 1. */
int anchors_compare(const anchor_set *s, const char *build, const timing_row *r, anchor_cmp *c);

/* The comparison of every row as a markdown table (one line per row with a
 * counterpart) and a summary of the targets; returns the number of targets
 * missed. */
int anchors_write_markdown(FILE *f, const anchor_set *s, const char *build, const timing_row *rows, int n,
                           const char *source);

#endif
