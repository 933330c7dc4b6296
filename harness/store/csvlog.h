/*
 * Append-only CSV tables that survive interruption (timings.csv,
 * accuracy.csv, crossover.csv).  Every row is written whole and flushed to
 * disk before the next measurement starts; reopening a table validates each
 * row against the column types, drops a truncated last line (a SIGKILL in
 * the middle of a write) and remembers the keys already present, so a rerun
 * of the same sweep skips them instead of duplicating them.
 *
 * Fields are RFC 4180: a field holding a comma or a quote is quoted (model
 * specs such as "autotree:N=10,bf=2" are).
 */
#ifndef RBD_CSVLOG_H
#define RBD_CSVLOG_H

#include <stdio.h>

typedef enum {
    CSV_STR,        /* any text, non-empty */
    CSV_INT,        /* whole number */
    CSV_NUM,        /* finite number */
    CSV_OPTNUM      /* finite number or empty (a measurement not available) */
} csv_type;

typedef struct {
    const char *name;
    csv_type type;
} csv_col;

typedef struct {
    char *path;
    FILE *f;
    const csv_col *cols;
    int ncols;
    int nkey;               /* the first nkey columns identify a row */
    char ***rows;           /* [nrows][ncols] every valid row on disk */
    int nrows, caprows;
    int dropped_partial;    /* a truncated last line was removed on open */
} csvlog;

/* Opens (creating it with a header if absent or empty) for appending.
 * Errors name the file, the line and the field. */
int csvlog_open(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey);
/* 1 when the table path, or its packed form path.gz (pack.h), exists. */
int csvlog_exists(const char *path);
/* Reads an existing table without opening it for writing (a truncated last
 * line is ignored, not removed); path.gz when path is absent. */
int csvlog_read(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey);
/* Index of the row whose key columns equal key[0..nkey-1], or -1. */
int csvlog_find(const csvlog *t, const char *const *key);
/* Validates, writes, flushes and fsyncs one row; a duplicate key is an error. */
int csvlog_append(csvlog *t, const char *const *fields);
void csvlog_close(csvlog *t);

/* Column index by name, or -1. */
int csvlog_col(const csvlog *t, const char *name);

/* Splits one CSV line (no newline) into at most max freshly allocated
 * fields; returns the count or a negative code. */
int csv_split(const char *line, char **fields, int max);
/* Writes one field, quoting it when needed. */
void csv_write_field(FILE *f, const char *s);

#endif
