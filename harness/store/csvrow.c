/* The key index of a table, the row codec (a row struct to and from its
 * CSV fields by the table's column description), a line split into fields
 * and a field quoted (csvrow.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "store/csvrow.h"

/* FNV-1a over the key fields, each ended by its NUL. */
static size_t key_hash(const char *const *key, int nkey)
{
    size_t h = 1469598103934665603ull;
    for (int c = 0; c < nkey; c++)
        for (const unsigned char *p = (const unsigned char *)key[c];; p++) {
            h = (h ^ *p) * 1099511628211ull;
            if (!*p) break;
        }
    return h;
}

static int key_equal(const char *const *a, const char *const *b, int nkey)
{
    for (int c = 0; c < nkey; c++)
        if (strcmp(a[c], b[c])) return 0;
    return 1;
}

int csv_keyidx_find(const csv_keyidx *x, char **const *rows, int nkey, const char *const *key)
{
    if (!x->cap) return -1;
    for (size_t i = key_hash(key, nkey) & (x->cap - 1);; i = (i + 1) & (x->cap - 1)) {
        int r = x->slot[i] - 1;
        if (r < 0) return -1;
        if (key_equal((const char *const *)rows[r], key, nkey)) return r;
    }
}

static void keyidx_put(csv_keyidx *x, char **const *rows, int nkey, int r)
{
    size_t i = key_hash((const char *const *)rows[r], nkey) & (x->cap - 1);
    while (x->slot[i]) i = (i + 1) & (x->cap - 1);
    x->slot[i] = r + 1;
}

int csv_keyidx_add(csv_keyidx *x, char **const *rows, int nkey, int r)
{
    if ((size_t)(r + 1) * 2 > x->cap) {     /* at most half full: short probes */
        size_t cap = x->cap ? 2 * x->cap : 64;
        while ((size_t)(r + 1) * 2 > cap) cap *= 2;
        int *slot = calloc(cap, sizeof *slot);
        if (!slot) return rbd_fail(RBD_ENOMEM, "out of memory");
        csv_keyidx nx = { slot, cap };
        for (size_t i = 0; i < x->cap; i++)
            if (x->slot[i]) keyidx_put(&nx, rows, nkey, x->slot[i] - 1);
        free(x->slot);
        *x = nx;
    }
    keyidx_put(x, rows, nkey, r);
    return RBD_OK;
}

void csv_keyidx_free(csv_keyidx *x)
{
    free(x->slot);
    x->slot = NULL;
    x->cap = 0;
}

void csv_row_decode(const csv_col *cols, int ncols, char *const *fields, void *row)
{
    for (int c = 0; c < ncols; c++) {
        const csv_col *col = &cols[c];
        char *at = (char *)row + col->offset;
        const char *s = fields[c];
        if (!col->size) continue;     /* a column with no field in the struct */
        switch (col->type) {
        case CSV_STR:
            snprintf(at, col->size, "%s", s);
            break;
        case CSV_INT:
        case CSV_OPTINT:
            if (col->size == sizeof(long)) *(long *)(void *)at = strtol(s, NULL, 10);
            else *(int *)(void *)at = (int)strtol(s, NULL, 10);
            break;
        case CSV_NUM:
        case CSV_OPTNUM:
            *(double *)(void *)at = *s ? strtod(s, NULL) : NAN;
            break;
        }
    }
}

void csv_row_encode(const csv_col *cols, int ncols, const void *row, char (*buf)[64], const char **fields)
{
    for (int c = 0; c < ncols; c++) {
        const csv_col *col = &cols[c];
        const char *at = (const char *)row + col->offset;
        buf[c][0] = 0;
        fields[c] = buf[c];
        if (col->type == CSV_STR) {
            fields[c] = at;
        } else if (col->type == CSV_INT || col->type == CSV_OPTINT) {
            long v = col->size == sizeof(long) ? *(const long *)(const void *)at : *(const int *)(const void *)at;
            snprintf(buf[c], 64, "%ld", v);
        } else {
            double x = *(const double *)(const void *)at;
            if (isfinite(x)) snprintf(buf[c], 64, col->fmt ? col->fmt : "%.17g", x);
            else if ((col->flags & CSV_DBLMAX) && !(col->type == CSV_OPTNUM && isnan(x)))
                snprintf(buf[c], 64, "%.17g", DBL_MAX);
            /* else empty: an optional number not measured (a required one
             * is refused by csvlog_append) */
        }
    }
}

void csv_write_header(FILE *f, const csv_col *cols, int ncols)
{
    for (int c = 0; c < ncols; c++) {
        if (c) fputc(',', f);
        csv_write_field(f, cols[c].name);
    }
    fputc('\n', f);
}

int csv_write_row(FILE *f, const csv_col *cols, int ncols, const void *row)
{
    char (*buf)[64] = malloc(sizeof *buf * (size_t)ncols);
    const char **fl = malloc(sizeof *fl * (size_t)ncols);
    if (!buf || !fl) { free(buf); free(fl); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    csv_row_encode(cols, ncols, row, buf, fl);
    for (int c = 0; c < ncols; c++) {
        if (c) fputc(',', f);
        csv_write_field(f, fl[c]);
    }
    fputc('\n', f);
    free(buf);
    free(fl);
    return RBD_OK;
}

int csv_split(const char *line, char **fields, int max)
{
    int n = 0;
    const char *p = line;
    size_t cap = strlen(line) + 1;
    for (;;) {
        char *buf = malloc(cap);
        if (!buf) goto nomem;
        size_t k = 0;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p) { free(buf); while (n) free(fields[--n]); return RBD_EPARSE; }
                if (*p == '"') {
                    if (p[1] == '"') { buf[k++] = '"'; p += 2; continue; }
                    p++;
                    break;
                }
                buf[k++] = *p++;
            }
            if (*p && *p != ',') { free(buf); while (n) free(fields[--n]); return RBD_EPARSE; }
        } else {
            while (*p && *p != ',') {
                if (*p == '"') { free(buf); while (n) free(fields[--n]); return RBD_EPARSE; }
                buf[k++] = *p++;
            }
        }
        buf[k] = 0;
        if (n == max) { free(buf); while (n) free(fields[--n]); return RBD_EPARSE; }
        fields[n++] = buf;
        if (!*p) return n;
        p++;  /* the comma */
    }
nomem:
    while (n) free(fields[--n]);
    return RBD_ENOMEM;
}

void csv_write_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
