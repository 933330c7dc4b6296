/* The claims file read through its column description (report_claims.h):
 * a header line names the columns, each row's fields are found by those
 * names, never by position, as store/rows.h reads the results' tables. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rbdiff/rbd.h"
#include "report/report_claims.h"

/* One description of the claims file's columns: name, the claim's field. */
static const csv_col claim_cols[] = {
    CSV_COL_STR("figure", claim, figure), CSV_COL_STR("source", claim, source), CSV_COL_STR("kind", claim, kind),
    CSV_COL_STR("A", claim, A),           CSV_COL_STR("B", claim, B),           CSV_COL_STR("where", claim, where),
    CSV_COL_STR("paper", claim, paper),   CSV_COL_STR("tol", claim, tol),       CSV_COL_STR("claim", claim, claim),
    CSV_COL_STR("setup", claim, setup),
};
enum { NCOLS = sizeof claim_cols / sizeof claim_cols[0], MAXF = 32 };

static const char *const kinds[] = { "ratio", "min", "range", "crossover", "accuracy", "ratio-with", "min-with",
                                     "range-with", "crossover-with", NULL };

/* A line cut at its tabs, in place: the count, or MAXF + 1 when more. */
static int split_tabs(char *line, char **f)
{
    int n = 0;
    for (char *p = line; p; n++) {
        if (n == MAXF) return MAXF + 1;
        f[n] = p;
        char *tab = strchr(p, '\t');
        if (tab) *tab = 0;
        p = tab ? tab + 1 : NULL;
    }
    return n;
}

/* The header line: at[k] = the position of claim_cols[k] in a row. */
static int read_header(const char *path, int line, char *buf, int *at, int *nf)
{
    char *f[MAXF + 1];
    int n = split_tabs(buf, f);
    if (n > MAXF) return rbd_fail(RBD_EPARSE, "%s:%d: the header has more than %d columns", path, line, MAXF);
    for (int k = 0; k < NCOLS; k++) at[k] = -1;
    for (int i = 0; i < n; i++) {
        int k = 0;
        while (k < NCOLS && strcmp(claim_cols[k].name, f[i])) k++;
        if (k == NCOLS)
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: column '%s' is not a claims column (figure, source, kind, A, "
                            "B, where, paper, tol, claim, setup; the first line that is not a comment names them)", path, line, i + 1, f[i]);
        if (at[k] >= 0) return rbd_fail(RBD_EPARSE, "%s:%d:%d: column '%s' twice", path, line, i + 1, f[i]);
        at[k] = i;
    }
    for (int k = 0; k < NCOLS; k++)
        if (at[k] < 0)
            return rbd_fail(RBD_EPARSE, "%s:%d: the header names no column '%s' (the first line that is not a "
                            "comment names the columns)", path, line, claim_cols[k].name);
    *nf = n;
    return RBD_OK;
}

/* The index of column name in claim_cols. */
static int col(const char *name)
{
    int k = 0;
    while (k < NCOLS - 1 && strcmp(claim_cols[k].name, name)) k++;
    return k;
}

/* kind one of kinds, paper a number (a range lo:hi), tol a factor >= 1 or -. */
static int check_claim(const char *path, int line, const int *at, const claim *x)
{
    int j = 0;
    while (kinds[j] && strcmp(kinds[j], x->kind)) j++;
    if (!kinds[j]) return rbd_fail(RBD_EPARSE, "%s:%d:%d: kind: unknown '%s'", path, line, at[col("kind")] + 1, x->kind);
    char *end;
    if (strcmp(x->kind, "range") && strcmp(x->kind, "range-with")) {
        double v = strtod(x->paper, &end);
        if (end == x->paper || *end || !isfinite(v))
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: paper: '%s' is not a number", path, line, at[col("paper")] + 1, x->paper);
    } else {
        double lo, hi;
        char extra;
        if (sscanf(x->paper, "%lf:%lf%c", &lo, &hi, &extra) != 2 || !(lo <= hi))
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: paper: '%s' is not lo:hi", path, line, at[col("paper")] + 1, x->paper);
    }
    if (strcmp(x->tol, "-") && !(strtod(x->tol, &end) >= 1 && !*end))
        return rbd_fail(RBD_EPARSE, "%s:%d:%d: tol: '%s' is not a factor >= 1 (or -)", path, line, at[col("tol")] + 1, x->tol);
    return RBD_OK;
}

/* One row into x by the header's positions; every field non-empty and
 * short enough for its place in the claim. */
static int read_row(const char *path, int line, char *buf, const int *at, int nf, claim *x)
{
    char *f[MAXF + 1];
    int n = split_tabs(buf, f);
    if (n != nf) return rbd_fail(RBD_EPARSE, "%s:%d: %d tab-separated fields, the header names %d", path, line, n, nf);
    char *byname[NCOLS];
    for (int k = 0; k < NCOLS; k++) {
        const char *s = byname[k] = f[at[k]];
        if (!*s) return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s' is empty", path, line, at[k] + 1, claim_cols[k].name);
        if (strlen(s) >= claim_cols[k].size)
            return rbd_fail(RBD_EPARSE, "%s:%d:%d: field '%s' is longer than %zu characters", path, line, at[k] + 1,
                            claim_cols[k].name, claim_cols[k].size - 1);
    }
    memset(x, 0, sizeof *x);
    csv_row_decode(claim_cols, NCOLS, byname, x);
    x->line = line;
    return check_claim(path, line, at, x);
}

static int read_lines(FILE *f, const char *path, claim **out, int *n)
{
    claim *c = NULL;
    int k = 0, cap = 0, line = 0, nf = 0, have_header = 0, rc = RBD_OK;
    int at[NCOLS];
    char buf[2048];
    while (!rc && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            rc = rbd_fail(RBD_EPARSE, "%s:%d: a line longer than %zu characters", path, line, sizeof buf - 2);
            break;
        }
        buf[strcspn(buf, "\r\n")] = 0;
        if (!buf[0] || buf[0] == '#') continue;
        if (!have_header) { rc = read_header(path, line, buf, at, &nf); have_header = 1; continue; }
        if (k == cap) {
            cap = cap ? 2 * cap : 32;
            claim *nc = realloc(c, sizeof *c * (size_t)cap);
            if (!nc) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
            c = nc;
        }
        if (!(rc = read_row(path, line, buf, at, nf, &c[k]))) k++;
    }
    if (rc) { free(c); return rc; }
    *out = c;
    *n = k;
    return RBD_OK;
}

int claims_read(const char *path, claim **out, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f) return rbd_fail(RBD_EIO, "%s: cannot read the claims: %s", path, strerror(errno));
    struct stat st;     /* a directory opens and reads as no claims at all */
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        return rbd_fail(RBD_EPARSE, "%s: is a directory, not a claims file", path);
    }
    int rc = read_lines(f, path, out, n);
    fclose(f);
    return rc;
}
