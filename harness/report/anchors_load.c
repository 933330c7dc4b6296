/* The anchors' two tables read through their column descriptions
 * (anchors.h), and what a row must say to be compared with: the CSV
 * reader checks each field's type, these checks what the fields mean. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "report/anchors.h"

/* The first of the quantity columns (microseconds per call). */
enum { FIRST_QUANTITY = 9 };

#define T anchor_row
#define US(name) CSV_COL_OPTNUM(#name, T, name, "%g")
const csv_col anchors_cols[ANCHORS_NCOLS] = {
    CSV_COL_STR("build", T, build), CSV_COL_STR("model", T, model), CSV_COL_STR("base", T, base),
    CSV_COL_OPTNUM("bf", T, bf, "%g"), CSV_COL_OPTINT("N", T, N), CSV_COL_INT("nq", T, nq), CSV_COL_INT("nv", T, nv),
    CSV_COL_INT("runs", T, runs), CSV_COL_STR("compiler", T, compiler),
    US(rnea_derivs), US(aba_derivs), US(fd_via_id), US(rnea), US(aba), US(minv),
};
#undef US
#undef T

#define T anchor_limit
const csv_col limits_cols[LIMITS_NCOLS] = {
    CSV_COL_INT("N", T, N), CSV_COL_NUM("write_us", T, write_us, "%g"), CSV_COL_INT("dgemm_n", T, dgemm_n),
    CSV_COL_NUM("dgemm_gflops", T, dgemm_gflops, "%g"),
};
#undef T

void anchors_free(anchor_set *s)
{
    if (!s) return;
    free(s->rows);
    free(s->limits);
    memset(s, 0, sizeof *s);
}

/* What a pinocchio-timings.csv row must mean: an autotree row has bf >= 1
 * and N = nq = nv bodies (one 1-dof joint each); a robot row no bf, no N;
 * the base is fixed or freeflyer. */
static int check_row(const void *row, const char *path, int line)
{
    const anchor_row *r = row;
    if (strcmp(r->base, "fixed") && strcmp(r->base, "freeflyer"))
        return rbd_fail(RBD_EPARSE, "%s:%d: base '%s' is neither fixed nor freeflyer", path, line, r->base);
    if (r->runs < 1) return rbd_fail(RBD_EPARSE, "%s:%d: runs %d: a figure is the median of at least one", path, line,
                                     r->runs);
    if (!strcmp(r->model, "autotree")) {
        if (!(r->bf >= 1)) return rbd_fail(RBD_EPARSE, "%s:%d: an autotree row needs bf >= 1", path, line);
        if (r->N < 1 || r->nq != r->N || r->nv != r->N)
            return rbd_fail(RBD_EPARSE, "%s:%d: an autotree row has N >= 1 bodies and nq = nv = N (N %d, nq %d, nv %d)",
                            path, line, r->N, r->nq, r->nv);
        if (strcmp(r->base, "fixed"))
            return rbd_fail(RBD_EPARSE, "%s:%d: an autotree row has a fixed base", path, line);
    } else if (!isnan(r->bf) || r->N) {
        return rbd_fail(RBD_EPARSE, "%s:%d: robot '%s': bf and N are for autotree rows (leave them empty)", path, line,
                        r->model);
    } else if (r->nv < 1 || r->nq < r->nv) {
        return rbd_fail(RBD_EPARSE, "%s:%d: robot '%s': nv %d, nq %d (want 1 <= nv <= nq)", path, line, r->model,
                        r->nv, r->nq);
    }
    for (int c = FIRST_QUANTITY; c < ANCHORS_NCOLS; c++)
        if (!isnan(anchors_us(r, anchors_cols[c].name))) return RBD_OK;
    return rbd_fail(RBD_EPARSE, "%s:%d: no figure in any of %s ... %s", path, line, anchors_cols[FIRST_QUANTITY].name,
                    anchors_cols[ANCHORS_NCOLS - 1].name);
}

static int check_limit(const void *row, const char *path, int line)
{
    const anchor_limit *r = row;
    if (r->N < 1 || r->dgemm_n < 1) return rbd_fail(RBD_EPARSE, "%s:%d: N and dgemm_n are >= 1", path, line);
    if (!(r->write_us > 0) || !(r->dgemm_gflops > 0))
        return rbd_fail(RBD_EPARSE, "%s:%d: write_us and dgemm_gflops are > 0", path, line);
    return RBD_OK;
}

/* dir/file read through cols into *rows (n of them), each row checked by
 * check (its file line named): a table the anchors cannot do without, so
 * an empty one, or a last line cut short, is refused too. */
static int read_table(const char *dir, const char *file, const csv_col *cols, int ncols, int nkey, size_t size,
                      int (*check)(const void *, const char *, int), void **rows, int *n)
{
    char *path = results_path(dir, file);
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    csvlog log;
    int rc = csvlog_read(&log, path, cols, ncols, nkey);
    if (!rc && log.unread_partial)
        rc = rbd_fail(RBD_EPARSE, "%s:%d: the last line has no newline (a file cut short?)", path, log.unread_partial);
    if (!rc && !log.nrows) rc = rbd_fail(RBD_EPARSE, "%s: no rows under the header", path);
    void *a = NULL;
    if (!rc) rc = csvlog_rows(&log, size, &a);
    for (int k = 0; !rc && k < log.nrows; k++) rc = check((const char *)a + size * (size_t)k, path, log.line[k]);
    if (rc) { free(a); a = NULL; }
    *rows = a;
    *n = rc ? 0 : log.nrows;
    csvlog_close(&log);
    free(path);
    return rc;
}

int anchors_load(const char *dir, anchor_set *s)
{
    memset(s, 0, sizeof *s);
    void *rows = NULL, *limits = NULL;
    int rc = read_table(dir, ANCHORS_TIMINGS_CSV, anchors_cols, ANCHORS_NCOLS, ANCHORS_NKEY, sizeof(anchor_row),
                        check_row, &rows, &s->nrow);
    if (!rc)
        rc = read_table(dir, ANCHORS_LIMITS_CSV, limits_cols, LIMITS_NCOLS, LIMITS_NKEY, sizeof(anchor_limit),
                        check_limit, &limits, &s->nlimit);
    s->rows = rows;
    s->limits = limits;
    if (rc) anchors_free(s);
    return rc;
}

int anchors_has(const anchor_set *s, const char *build, int robots)
{
    for (int k = 0; k < s->nrow; k++)
        if (!strcmp(s->rows[k].build, build) && (strcmp(s->rows[k].model, "autotree") != 0) == (robots != 0)) return 1;
    return 0;
}

double anchors_us(const anchor_row *r, const char *quantity)
{
    for (int c = FIRST_QUANTITY; c < ANCHORS_NCOLS; c++)
        if (!strcmp(anchors_cols[c].name, quantity))
            return *(const double *)(const void *)((const char *)r + anchors_cols[c].offset);
    return NAN;
}
