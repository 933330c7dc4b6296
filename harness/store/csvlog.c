/* Append-only CSV tables with validation and resume. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/csvlog.h"

/* Errors name file:line:column and the column's name. */
static int check_field(const csvlog *t, int line, int c, const char *s)
{
    const csv_col *col = &t->cols[c];
    char *end;
    if ((col->type == CSV_OPTNUM || col->type == CSV_OPTINT) && !*s) return RBD_OK;
    if (col->type == CSV_STR) {
        if (!*s) return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s' is empty", t->path, line, c + 1, col->name);
        if (col->size && strlen(s) >= col->size)
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s' is longer than %zu characters", t->path, line, c + 1,
                            col->name, col->size - 1);
        return RBD_OK;
    }
    errno = 0;
    double x;
    if (col->type == CSV_INT || col->type == CSV_OPTINT) {
        long v = strtol(s, &end, 10);
        if (!*s || *end || errno || (col->size == sizeof(int) && (v > INT_MAX || v < INT_MIN)))
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s': '%s' is not a whole number", t->path, line, c + 1,
                            col->name, s);
        x = (double)v;
    } else {
        x = strtod(s, &end);
        if (!*s || *end || errno || !isfinite(x))
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s': '%s' is not a finite number", t->path, line, c + 1,
                            col->name, s);
    }
    if ((col->flags & CSV_NONNEG) && x < 0)
        return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s': '%s' is negative", t->path, line, c + 1, col->name, s);
    return RBD_OK;
}

static int add_row(csvlog *t, char **fields, int line)
{
    if (t->nrows == t->caprows) {
        int cap = t->caprows ? 2 * t->caprows : 64;
        char ***r = realloc(t->rows, sizeof *r * (size_t)cap);
        if (r) t->rows = r;
        int *l = r ? realloc(t->line, sizeof *l * (size_t)cap) : NULL;
        if (!l) return rbd_fail(RBD_ENOMEM, "out of memory");
        t->line = l;
        t->caprows = cap;
    }
    t->rows[t->nrows] = fields;
    t->line[t->nrows] = line;
    int rc = csv_keyidx_add(&t->idx, t->rows, t->nkey, t->nrows);
    if (!rc) t->nrows++;
    return rc;
}

static void free_fields(char **fields, int n)
{
    for (int k = 0; k < n; k++) free(fields[k]);
    free(fields);
}

/* Parses the whole file; *partial is the number of a last line that has no
 * newline (0 if none). */
/* Reading (not appending), a file may lack trailing optional columns that a
 * later version added: its rows are padded with empty fields. */
static int short_ok(const csvlog *t, int n, int write)
{
    if (write || n < t->nkey || n >= t->ncols) return 0;
    for (int c = n; c < t->ncols; c++)
        if (t->cols[c].type != CSV_OPTNUM && t->cols[c].type != CSV_OPTINT) return 0;
    return 1;
}

static const volatile sig_atomic_t *read_stop;

void csvlog_stop_on(const volatile sig_atomic_t *stop)
{
    read_stop = stop;
}

static int load(csvlog *t, FILE *f, int *partial, int write)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int line = 0, rc = RBD_OK, nfile = t->ncols;
    *partial = 0;
    while ((len = getline(&buf, &cap, f)) > 0) {
        line++;
        if (!(line & 4095) && read_stop && *read_stop) {
            rc = rbd_fail(RBD_EIO, "%s:%d: reading stopped by a signal", t->path, line);
            break;
        }
        if (buf[len - 1] != '\n') { *partial = line; break; }  /* cut short by a kill */
        buf[--len] = 0;
        if (len && buf[len - 1] == '\r') buf[--len] = 0;
        if (len == 0 && line > 1) continue;   /* a blank line (hand edits) carries no row */
        char **fields = calloc((size_t)t->ncols + 1, sizeof *fields);
        if (!fields) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        int n = csv_split(buf, fields, t->ncols + 1);
        if (n == RBD_ENOMEM) { free(fields); rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        if (n < 0) { free(fields); rc = rbd_fail(RBD_EPARSE, "%s:%d: malformed quoting", t->path, line); break; }
        if (line == 1 && short_ok(t, n, write)) nfile = n;
        if (n == nfile && n < t->ncols) {
            for (; n < t->ncols; n++)
                if (!(fields[n] = strdup(""))) break;
            if (n < t->ncols) { free_fields(fields, n); rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        }
        if (n != t->ncols) {
            free_fields(fields, n);
            rc = rbd_fail(RBD_EPARSE, "%s:%d: %d fields, expected %d (%s ... %s)", t->path, line, n, t->ncols,
                          t->cols[0].name, t->cols[t->ncols - 1].name);
            break;
        }
        if (line == 1) {
            for (int c = 0; c < nfile && !rc; c++)
                if (strcmp(fields[c], t->cols[c].name))
                    rc = rbd_fail(RBD_EPARSE, "%s:1:%d: header column %d is '%s', expected '%s'", t->path, c + 1,
                                  c + 1, fields[c], t->cols[c].name);
            free_fields(fields, n);
            if (rc) break;
        } else {
            for (int c = 0; c < n && !rc; c++) rc = check_field(t, line, c, fields[c]);
            if (!rc && csvlog_find(t, (const char *const *)fields) >= 0)
                rc = rbd_fail(RBD_EPARSE, "%s:%d: duplicate row for key '%s'", t->path, line, fields[0]);
            if (rc || (rc = add_row(t, fields, line))) { free_fields(fields, n); break; }
        }
    }
    free(buf);
    return rc;
}

/* path for reading; if it does not exist, path.gz (a packed table, pack.h)
 * inflated into *mem and read from there.  NULL with errno set when
 * neither opens; NULL with *mem = (char *)-1 and a message when path.gz is
 * not a whole gzip file. */
static FILE *open_read(const char *path, char **mem)
{
    FILE *f = fopen(path, "r");
    if (f || errno != ENOENT) return f;
    *mem = NULL;
    size_t pl = strlen(path);
    char *gz = malloc(pl + 4);
    if (!gz) return NULL;
    memcpy(gz, path, pl);
    memcpy(gz + pl, ".gz", 4);
    gzFile z = access(gz, F_OK) == 0 ? gzopen(gz, "rb") : NULL;
    if (!z) { free(gz); errno = ENOENT; return NULL; }
    size_t len = 0, cap = 1 << 16;
    char *buf = malloc(cap);
    int n = 0;
    while (buf && (n = gzread(z, buf + len, (unsigned)(cap - len))) > 0) {
        len += (size_t)n;
        if (len == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) { free(buf); buf = NULL; }
            buf = nb;
        }
    }
    gzclose(z);
    if (buf && n == 0 && len > 0) f = fmemopen(buf, len, "r");
    if (!f) {
        free(buf);
        rbd_fail(RBD_EIO, "%s: not a readable gzip file of a table", gz);
        *mem = (char *)-1;
    } else {
        *mem = buf;
    }
    free(gz);
    return f;
}

static int open_common(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey, int write)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    t->ncols = ncols;
    t->nkey = nkey;
    t->path = strdup(path);
    if (!t->path) return rbd_fail(RBD_ENOMEM, "out of memory");
    char *mem = NULL;
    FILE *f = write ? fopen(path, "a+") : open_read(path, &mem);
    if (!f && mem == (char *)-1) return RBD_EIO;    /* open_read's message */
    if (!f) return rbd_fail(RBD_EIO, "%s: cannot open: %s", path, strerror(errno));
    /* a directory opens for reading and reads as empty: a table that is
     * not a file is malformed input, not an empty set */
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        free(mem);
        return rbd_fail(RBD_EPARSE, "%s: is a directory, not a table", path);
    }
    rewind(f);
    int partial;
    int rc = load(t, f, &partial, write);
    if (!rc && partial && write) {
        /* Keep every complete line; the cut one is dropped and re-measured. */
        long keep = 0;
        rewind(f);
        char *buf = NULL;
        size_t cap = 0;
        ssize_t len;
        for (int line = 1; line < partial && (len = getline(&buf, &cap, f)) > 0; line++) keep += len;
        free(buf);
        if (ftruncate(fileno(f), keep) != 0)
            rc = rbd_fail(RBD_EIO, "%s: cannot drop the truncated line %d: %s", path, partial, strerror(errno));
        t->dropped_partial = partial;
    }
    if (!write) t->unread_partial = partial;
    if (rc || !write) {
        fclose(f);
        free(mem);
        return rc;
    }
    fseek(f, 0, SEEK_END);
    if (ftell(f) == 0) {
        for (int c = 0; c < ncols; c++) {
            if (c) fputc(',', f);
            csv_write_field(f, cols[c].name);
        }
        fputc('\n', f);
        if ((rc = flush_to_disk(f, path))) {
            /* the table was empty: remove it rather than leave a cut header
             * (a regular file only: never a device such as /dev/full) */
            struct stat st;
            int regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
            fclose(f);
            if (regular) unlink(path);
            return rc;
        }
    }
    t->f = f;
    return RBD_OK;
}

int csvlog_open(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey)
{
    int rc = open_common(t, path, cols, ncols, nkey, 1);
    if (rc) csvlog_close(t);
    return rc;
}

int csvlog_exists(const char *path)
{
    if (access(path, F_OK) == 0) return 1;
    size_t pl = strlen(path);
    char *gz = malloc(pl + 4);
    if (!gz) return 0;
    memcpy(gz, path, pl);
    memcpy(gz + pl, ".gz", 4);
    int ok = access(gz, F_OK) == 0;
    free(gz);
    return ok;
}

int csvlog_read(csvlog *t, const char *path, const csv_col *cols, int ncols, int nkey)
{
    int rc = open_common(t, path, cols, ncols, nkey, 0);
    if (rc) csvlog_close(t);
    return rc;
}

int csvlog_find(const csvlog *t, const char *const *key)
{
    return csv_keyidx_find(&t->idx, t->rows, t->nkey, key);
}

int csvlog_col(const csvlog *t, const char *name)
{
    for (int c = 0; c < t->ncols; c++)
        if (!strcmp(t->cols[c].name, name)) return c;
    return -1;
}

int csvlog_append(csvlog *t, const char *const *fields)
{
    if (!t->f) return rbd_fail(RBD_EINVAL, "%s: not open for writing", t->path);
    int line = t->nrows ? t->line[t->nrows - 1] + 1 : 2;   /* the line this row will take */
    for (int c = 0; c < t->ncols; c++) {
        int rc = check_field(t, line, c, fields[c]);
        if (rc) return rc;
    }
    if (csvlog_find(t, fields) >= 0) return rbd_fail(RBD_EINVAL, "%s: row for '%s' already present", t->path, fields[0]);
    char **copy = calloc((size_t)t->ncols, sizeof *copy);
    if (!copy) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int c = 0; c < t->ncols; c++)
        if (!(copy[c] = strdup(fields[c]))) { free_fields(copy, c); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int c = 0; c < t->ncols; c++) {
        if (c) fputc(',', t->f);
        csv_write_field(t->f, fields[c]);
    }
    fputc('\n', t->f);
    int rc = flush_to_disk(t->f, t->path);
    if (!rc) rc = add_row(t, copy, line);
    if (rc) free_fields(copy, t->ncols);
    return rc;
}

void csvlog_close(csvlog *t)
{
    if (t->f) fclose(t->f);
    for (int r = 0; r < t->nrows; r++) free_fields(t->rows[r], t->ncols);
    free(t->rows);
    free(t->line);
    csv_keyidx_free(&t->idx);
    free(t->path);
    memset(t, 0, sizeof *t);
}

int csvlog_append_row(csvlog *t, const void *row)
{
    char (*buf)[64] = malloc(sizeof *buf * (size_t)t->ncols);
    const char **f = malloc(sizeof *f * (size_t)t->ncols);
    int rc = buf && f ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc) {
        csv_row_encode(t->cols, t->ncols, row, buf, f);
        rc = csvlog_append(t, f);
    }
    free(buf);
    free(f);
    return rc;
}

int csvlog_find_row(const csvlog *t, const void *row)
{
    char (*buf)[64] = malloc(sizeof *buf * (size_t)t->ncols);
    const char **f = malloc(sizeof *f * (size_t)t->ncols);
    int r = -1;
    if (buf && f) {
        csv_row_encode(t->cols, t->ncols, row, buf, f);
        r = csvlog_find(t, f);
    }
    free(buf);
    free(f);
    return r;
}

int csvlog_rows(const csvlog *t, size_t size, void **rows)
{
    char *a = calloc((size_t)t->nrows + 1, size);
    if (!a) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = 0; k < t->nrows; k++) csv_row_decode(t->cols, t->ncols, t->rows[k], a + (size_t)k * size);
    *rows = a;
    return RBD_OK;
}
