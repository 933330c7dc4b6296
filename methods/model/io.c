/* State files and output blocks (README.md, "Conventions"). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd_io.h"
#include "model/text.h"

/* Reads one line of any length; returns NULL at EOF.  *buf grows as needed;
 * *bad is the 1-based column of its first NUL or control byte (0: none;
 * the one rule for bytes, text.h), found before '#' cuts the comment. */
static char *read_line(FILE *f, char **buf, size_t *cap, int *bad, char *why, size_t whylen)
{
    size_t n = 0;
    int ch;
    while ((ch = fgetc(f)) != EOF) {
        if (n + 2 > *cap) {
            size_t c = *cap ? 2 * *cap : 256;
            char *b = realloc(*buf, c);
            if (!b) return NULL;
            *buf = b; *cap = c;
        }
        if (ch == '\n') break;
        (*buf)[n++] = (char)ch;
    }
    if (ch == EOF && n == 0) return NULL;
    if (n && (*buf)[n - 1] == '\r') n--;      /* a CRLF file */
    (*buf)[n] = 0;
    *bad = 0;
    rbd_text_line_bytes(*buf, n, bad, why, whylen);
    char *hash = strchr(*buf, '#');
    if (hash) *hash = 0;
    return *buf;
}

/* Parses up to max numbers from s into x; returns the count or an error.
 * The numbers are a blank-separated list read by the one list rule
 * (text.h; an item over 400 bytes is refused as such, not cut), each by
 * the one number rule. */
static int parse_numbers(const char *path, int line, const char *field, char *s, double *x, int max, int *count)
{
    int n = 0, more;
    rbd_text_list l;
    rbd_text_list_begin(&l, s, "", 1, 0, 400);
    const char *tok;
    size_t len;
    while ((more = rbd_text_list_next(&l, &tok, &len)) == 1) {
        double val = 0;
        int rc = rbd_text_number(tok, len, &val);    /* the one rule (text.h) */
        if (rc == RBD_EPARSE)
            return rbd_fail(RBD_EPARSE, "%s:%d: field '%s': '%.*s' is not a number", path, line, field, (int)len, tok);
        if (rc)
            return rbd_fail(RBD_ENONFINITE, "%s:%d: field '%s': value '%.*s' is not finite", path, line, field,
                            (int)len, tok);
        if (n < max) x[n] = val;
        n++;
    }
    if (more) return rbd_fail(RBD_EPARSE, "%s:%d: field '%s': %s", path, line, field, l.why);
    *count = n;
    return RBD_OK;
}

void rbd_state_file_free(rbd_state_file *s)
{
    if (!s) return;
    free(s->q); free(s->v); free(s->a); free(s->tau);
    memset(s, 0, sizeof *s);
}

int rbd_state_file_read(const char *path, const rbd_model *m, rbd_state_file *out)
{
    if (!path || !m || !out) return rbd_fail(RBD_EINVAL, "rbd_state_file_read: null argument");
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) return rbd_fail(RBD_EIO, "%s: cannot open state file: %s", path, strerror(errno));
    int rc = rbd_state_file_read_stream(f, path, m, out);
    fclose(f);
    return rc;
}

int rbd_state_file_read_stream(FILE *f, const char *path, const rbd_model *m, rbd_state_file *out)
{
    if (!f || !path || !m || !out) return rbd_fail(RBD_EINVAL, "rbd_state_file_read_stream: null argument");
    memset(out, 0, sizeof *out);
    char *buf = NULL;
    size_t cap = 0;
    int line = 0, rc = RBD_OK, bad;
    char *s, why[48];
    while ((s = read_line(f, &buf, &cap, &bad, why, sizeof why))) {
        line++;
        if (bad) { rc = rbd_fail(RBD_EPARSE, "%s:%d: a %s at column %d", path, line, why, bad); break; }
        while (isspace((unsigned char)*s)) s++;
        if (!*s) continue;
        char *name = s;
        while (*s && !isspace((unsigned char)*s)) s++;
        if (*s) *s++ = 0;
        double **dst;
        int want;
        if (!strcmp(name, "q")) { dst = &out->q; want = m->nq; }
        else if (!strcmp(name, "v")) { dst = &out->v; want = m->nv; }
        else if (!strcmp(name, "a")) { dst = &out->a; want = m->nv; }
        else if (!strcmp(name, "tau")) { dst = &out->tau; want = m->nv; }
        else { rc = rbd_fail(RBD_EPARSE, "%s:%d: unknown field '%s' (valid: q, v, a, tau)", path, line, name); break; }
        if (*dst) { rc = rbd_fail(RBD_EPARSE, "%s:%d: field '%s' given twice", path, line, name); break; }
        double *x = calloc((size_t)want, sizeof *x);
        if (!x) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        int n;
        if ((rc = parse_numbers(path, line, name, s, x, want, &n))) { free(x); break; }
        if (n != want) {
            free(x);
            rc = rbd_fail(RBD_EPARSE, "%s:%d: field '%s' has %d values, the model needs %d (%s = %d)", path, line,
                          name, n, want, strcmp(name, "q") ? "nv" : "nq", want);
            break;
        }
        *dst = x;
    }
    if (!rc && ferror(f)) rc = rbd_fail(RBD_EIO, "%s: read error", path);
    if (!rc && !out->q) rc = rbd_fail(RBD_EPARSE, "%s: no 'q' line", path);
    free(buf);
    if (rc) rbd_state_file_free(out);
    return rc;
}

void rbd_blocks_free(rbd_block *blocks, int nblocks)
{
    for (int k = 0; k < nblocks; k++) free(blocks[k].x);
    free(blocks);
}

const rbd_block *rbd_blocks_find(const rbd_block *blocks, int nblocks, const char *name)
{
    if (!name || (!blocks && nblocks > 0)) {
        rbd_fail(RBD_EINVAL, "rbd_blocks_find: null argument");
        return NULL;
    }
    for (int k = 0; k < nblocks; k++)
        if (!strcmp(blocks[k].name, name)) return &blocks[k];
    return NULL;
}

int rbd_blocks_read(const char *path, rbd_block **blocks, int *nblocks)
{
    if (!path || !blocks || !nblocks) return rbd_fail(RBD_EINVAL, "rbd_blocks_read: null argument");
    *blocks = NULL;
    *nblocks = 0;
    FILE *f = fopen(path, "r");
    if (!f) return rbd_fail(RBD_EIO, "%s: cannot open: %s", path, strerror(errno));
    int rc = rbd_blocks_read_stream(f, path, blocks, nblocks);
    fclose(f);
    return rc;
}

/* Row-major rows of the block being read -> its column-major x. */
static int finish_block(rbd_block *b, const double *rm)
{
    b->x = malloc(((size_t)b->rows * (size_t)b->cols + 1) * sizeof *b->x);
    if (!b->x) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int i = 0; i < b->rows; i++)
        for (int j = 0; j < b->cols; j++) b->x[i + (size_t)b->rows * j] = rm[(size_t)i * b->cols + j];
    return RBD_OK;
}

int rbd_blocks_read_stream(FILE *f, const char *path, rbd_block **blocks, int *nblocks)
{
    if (!f || !path || !blocks || !nblocks) return rbd_fail(RBD_EINVAL, "rbd_blocks_read_stream: null argument");
    *blocks = NULL;
    *nblocks = 0;
    char *buf = NULL;
    size_t cap = 0;
    /* The rows are kept as they arrive: memory grows with the file, never
     * with what a header claims (a 1e9-entry header cost 8 GB before a row
     * was read; found by fuzz_state). */
    double *rm = NULL;
    size_t rmcap = 0;
    int line = 0, rc = RBD_OK, row = 0, bad;
    rbd_block *cur = NULL;
    char *s, why[48];
    while ((s = read_line(f, &buf, &cap, &bad, why, sizeof why))) {
        line++;
        if (bad) { rc = rbd_fail(RBD_EPARSE, "%s:%d: a %s at column %d", path, line, why, bad); break; }
        while (isspace((unsigned char)*s)) s++;
        if (!*s) continue;
        if (!cur || row == cur->rows) {
            char name[64];
            int r, c, used = 0;
            if (sscanf(s, "%63s %d %d %n", name, &r, &c, &used) != 3 || s[used] || r < 0 || c < 0 ||
                (double)r * c > 1e9 || strlen(name) >= sizeof cur->name) {
                rc = rbd_fail(RBD_EPARSE, "%s:%d: expected a block header '<name> <rows> <cols>'", path, line);
                break;
            }
            rbd_block *nb = realloc(*blocks, (size_t)(*nblocks + 1) * sizeof *nb);
            if (!nb) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
            *blocks = nb;
            cur = &nb[(*nblocks)++];
            memset(cur, 0, sizeof *cur);
            strcpy(cur->name, name);
            cur->rows = r; cur->cols = c;
            row = 0;
            if (r == 0 && (rc = finish_block(cur, rm))) break;
            continue;
        }
        /* a row of c numbers has at least 2c - 1 characters */
        int n;
        if ((size_t)cur->cols > strlen(s) / 2 + 1) {
            n = 0;
            if ((rc = parse_numbers(path, line, cur->name, s, NULL, 0, &n))) break;
            rc = rbd_fail(RBD_EPARSE, "%s:%d: block '%s' row %d has %d values, expected %d", path, line, cur->name,
                          row + 1, n, cur->cols);
            break;
        }
        size_t need = ((size_t)row + 1) * (size_t)cur->cols + 1;
        if (need > rmcap) {
            size_t nc = 2 * rmcap > need ? 2 * rmcap : need;
            double *p = realloc(rm, nc * sizeof *p);
            if (!p) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
            rm = p;
            rmcap = nc;
        }
        rc = parse_numbers(path, line, cur->name, s, rm + (size_t)row * cur->cols, cur->cols, &n);
        if (!rc && n != cur->cols)
            rc = rbd_fail(RBD_EPARSE, "%s:%d: block '%s' row %d has %d values, expected %d", path, line, cur->name,
                          row + 1, n, cur->cols);
        if (rc) break;
        if (++row == cur->rows && (rc = finish_block(cur, rm))) break;
    }
    if (!rc && cur && row < cur->rows)
        rc = rbd_fail(RBD_EPARSE, "%s: block '%s' ends after %d of %d rows", path, cur->name, row, cur->rows);
    free(buf);
    free(rm);
    if (rc) { rbd_blocks_free(*blocks, *nblocks); *blocks = NULL; *nblocks = 0; }
    return rc;
}

int rbd_block_write(FILE *f, const char *name, int rows, int cols, const double *x)
{
    if (!f || !name || (!x && rows > 0 && cols > 0) || rows < 0 || cols < 0)
        return rbd_fail(RBD_EINVAL, "rbd_block_write: null argument or negative size");
    if (fprintf(f, "%s %d %d\n", name, rows, cols) < 0) return RBD_EIO;
    for (int i = 0; i < rows; i++) {
        for (int j = 0; j < cols; j++)
            if (fprintf(f, j ? " %.17g" : "%.17g", x[i + (size_t)rows * j]) < 0) return RBD_EIO;
        if (fputc('\n', f) == EOF) return RBD_EIO;
    }
    return RBD_OK;
}
