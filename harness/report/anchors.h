/*
 * The stored peer figures (tests/pinocchio/anchors/pinocchio-timings.md: Pinocchio
 * 3.7.0 on this machine kind) and the machine's floors (machine-limits.md),
 * read from their markdown tables, and the comparison of a run's timings
 * against them (issue 10's targets).  `rbdiff anchors` prints it.
 *
 * pinocchio-timings.md: each `## ` or `### ` heading names a table; an
 * autoTree table has columns bf | N | <quantities>, a robot table robot |
 * base | nq | nv | <quantities>; values in microseconds.  A table's key is
 * <compiler>-<flags> from its heading: clang-native, gcc-native, gcc-plain.
 * machine-limits.md: the row whose first cell mentions writing (the
 * output-write floor of dtau/dq + dtau/dv) under a header `| quantity | N = 10
 * | ...`, values with units ns, us or ms.
 */
#ifndef RBD_ANCHORS_H
#define RBD_ANCHORS_H

#include <stdio.h>
#include "store/results.h"

enum { ANCHOR_MAXCOL = 16 };

typedef struct {
    double bf;                  /* autoTree rows; NAN in robot rows     */
    int N;                      /* autoTree bodies, robot nv            */
    char robot[64], base[16];   /* robot rows                           */
    double us[ANCHOR_MAXCOL];   /* per quantity column; NAN for "-"     */
} anchor_row;

typedef struct {
    char key[24];               /* clang-native, gcc-native, gcc-plain  */
    char title[160];            /* the heading                          */
    int robots;                 /* a robot table (else autoTree)        */
    int line;                   /* of the heading                       */
    int ncol;                   /* quantity columns                     */
    char col[ANCHOR_MAXCOL][24];
    int nrow;
    anchor_row *rows;
} anchor_table;

typedef struct {
    int ntab;
    anchor_table *tab;
    int nfloor;                 /* output-write floor, machine-limits.md */
    int floor_N[16];
    double floor_ns[16];
} anchor_set;

/* Reads the Pinocchio tables; errors (RBD_EIO, RBD_EPARSE) name path:line. */
int anchors_load(const char *path, anchor_set *s);
/* Reads the output-write floor into s; errors name path:line. */
int anchors_load_floors(const char *path, anchor_set *s);
void anchors_free(anchor_set *s);

/* The table with this key and kind, or NULL. */
const anchor_table *anchors_find(const anchor_set *s, const char *key, int robots);

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

/* Compares r with the autoTree or robot table of this key; 0 when the row
 * has a counterpart (r's method maps to a column and the model is in the
 * table or has a floor), else 1. */
int anchors_compare(const anchor_set *s, const char *key, const timing_row *r, anchor_cmp *c);

/* The comparison of every row as a markdown table (one line per row with a
 * counterpart) and a summary of the targets; returns the number of targets
 * missed. */
int anchors_write_markdown(FILE *f, const anchor_set *s, const char *key, const timing_row *rows, int n,
                           const char *source);

#endif
