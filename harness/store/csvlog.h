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

#include <stddef.h>
#include <signal.h>
#include <stdio.h>

typedef enum {
    CSV_STR,        /* any text, non-empty */
    CSV_INT,        /* whole number */
    CSV_NUM,        /* finite number */
    CSV_OPTNUM,     /* finite number or empty (a measurement not available) */
    CSV_OPTINT      /* whole number or empty (a column older files lack) */
} csv_type;

enum {
    CSV_NONNEG = 1, /* a negative value is refused (times, counts, errors) */
    CSV_DBLMAX = 2  /* a non-finite value is written as DBL_MAX in full (an
                     * unbounded error stays a number the readers accept) */
};

/* One column: its name and type, and where it lives in the table's row
 * struct (offset, size) and how it is printed (fmt, e.g. "%.6g"), so a row
 * is read and written by this description, never by position.  A table
 * without a row struct (tests, ad-hoc tables) leaves offset, size, fmt 0. */
typedef struct {
    const char *name;
    csv_type type;
    size_t offset, size;
    const char *fmt;
    unsigned flags;
} csv_col;

/* A column of a table read as strings alone (no row struct). */
#define CSV_COL(name, type) { name, type, 0, 0, NULL, 0 }
/* Column descriptions of a field f of row struct T. */
#define CSV_AT(T, f) offsetof(T, f), sizeof(((T *)0)->f)
#define CSV_COL_STR(name, T, f) { name, CSV_STR, CSV_AT(T, f), NULL, 0 }
#define CSV_COL_INT(name, T, f) { name, CSV_INT, CSV_AT(T, f), NULL, CSV_NONNEG }
#define CSV_COL_OPTINT(name, T, f) { name, CSV_OPTINT, CSV_AT(T, f), NULL, CSV_NONNEG }
#define CSV_COL_NUM(name, T, f, fmt) { name, CSV_NUM, CSV_AT(T, f), fmt, CSV_NONNEG }
#define CSV_COL_OPTNUM(name, T, f, fmt) { name, CSV_OPTNUM, CSV_AT(T, f), fmt, CSV_NONNEG }

/* Where each key lives among a table's rows (open addressing on a hash of
 * the key columns), so finding a row or a duplicate is O(1) and reading
 * n rows O(n). */
typedef struct {
    int *slot;              /* row index + 1; 0: empty */
    size_t cap;
} csv_keyidx;

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

/* Row r of rows[] (whose first nkey fields are its key) into x; the index
 * of an equal key among rows[] through x, or -1. */
int csv_keyidx_add(csv_keyidx *x, char **const *rows, int nkey, int r);
int csv_keyidx_find(const csv_keyidx *x, char **const *rows, int nkey, const char *const *key);
void csv_keyidx_free(csv_keyidx *x);

/* A validated row's fields into the row struct by the columns' offsets
 * (strings copied, an empty optional number NAN, an empty optional whole
 * number 0). */
void csv_row_decode(const csv_col *cols, int ncols, char *const *fields, void *row);
/* A row struct into fields: strings point into row, numbers are printed
 * into buf[k] by the column's fmt. */
void csv_row_encode(const csv_col *cols, int ncols, const void *row, char (*buf)[64], const char **fields);
/* A table written whole (atomic_write), not appended: its header line, and
 * one row struct as a line by the columns (csv_row_encode). */
void csv_write_header(FILE *f, const csv_col *cols, int ncols);
int csv_write_row(FILE *f, const csv_col *cols, int ncols, const void *row);
/* csvlog_append / csvlog_find of a row struct. */
int csvlog_append_row(csvlog *t, const void *row);
int csvlog_find_row(const csvlog *t, const void *row);
/* Every row of t decoded into a fresh array of n structs of size each. */
int csvlog_rows(const csvlog *t, size_t size, void **rows);

/* Splits one CSV line (no newline) into at most max freshly allocated
 * fields; returns the count or a negative code. */
int csv_split(const char *line, char **fields, int max);
/* Writes one field, quoting it when needed. */
void csv_write_field(FILE *f, const char *s);

#endif
