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

#include <signal.h>
#include <stdio.h>
#include "store/csvrow.h"

typedef struct {
    char *path;
    FILE *f;
    const csv_col *cols;
    int ncols;
    int nkey;               /* the first nkey columns identify a row */
    char ***rows;           /* [nrows][ncols] every valid row on disk */
    int *line;              /* [nrows] the file line of each row (messages) */
    int nrows, caprows;
    csv_keyidx idx;         /* of rows by their key */
    int dropped_partial;    /* a truncated last line was removed on open */
    int unread_partial;     /* csvlog_read: a last line without a newline,
                             * left unread (a table still being written) */
} csvlog;

/* Opens (creating it with a header if absent or empty) for appending.
 * Errors name the file, the line and the field. */
int csvlog_open(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey);
/* 1 when the table path, or its packed form path.gz (pack.h), exists. */
int csvlog_exists(const char *path);
/* Reads an existing table without opening it for writing (a truncated last
 * line is ignored, not removed); path.gz when path is absent. */
/* A flag (a SIGINT handler's) that the readers look at every 4096 lines:
 * once set, a read stops with RBD_EIO ("reading stopped by a signal"), so
 * that a command reading large tables honours Ctrl-C within a few
 * milliseconds (merge).  NULL (the default): never. */
void csvlog_stop_on(const volatile sig_atomic_t *stop);
int csvlog_read(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey);
/* Index of the row whose key columns equal key[0..nkey-1], or -1. */
int csvlog_find(const csvlog *t, const char *const *key);
/* Validates, writes, flushes and fsyncs one row; a duplicate key is an error. */
int csvlog_append(csvlog *t, const char *const *fields);
void csvlog_close(csvlog *t);

/* Column index by name, or -1. */
int csvlog_col(const csvlog *t, const char *name);


/* csvlog_append / csvlog_find of a row struct. */
int csvlog_append_row(csvlog *t, const void *row);
int csvlog_find_row(const csvlog *t, const void *row);
/* Every row of t decoded into a fresh array of n structs of size each. */
int csvlog_rows(const csvlog *t, size_t size, void **rows);


#endif
