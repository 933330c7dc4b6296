/*
 * One row of a CSV table and its columns: the column description (name,
 * type, the row struct's field, format) through which every table is read
 * and written, never by position; a row struct to and from its fields; a
 * line split into fields and a field quoted (RFC 4180: a field holding a
 * comma or a quote is quoted); the index of rows by their key.  The tables
 * themselves, appended and read back, are csvlog.h's.
 */
#ifndef RBD_CSVROW_H
#define RBD_CSVROW_H

#include <stddef.h>
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
/* Splits one CSV line (no newline) into at most max freshly allocated
 * fields; returns the count or a negative code. */
int csv_split(const char *line, char **fields, int max);
/* Writes one field, quoting it when needed. */
void csv_write_field(FILE *f, const char *s);

#endif
