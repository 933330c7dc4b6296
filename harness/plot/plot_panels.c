/* rbdiff plot: small multiples (plots/panels.gp), times_all and the
 * accuracy figures, a row of panels per method family, a column per bf. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "store/atomicio.h"
#include "plot/plot.h"
#include "plot/plot_style.h"

static int first_of(const pentry *pe, int i)
{
    int j = 0;
    while (strcmp(pe[j].method, pe[i].method)) j++;
    return j;
}

/* The rank of pe[i].method among the methods of family f, in the order they
 * first appear. */
static int family_rank(const pentry *pe, int i, int f)
{
    int k = 0, fi = first_of(pe, i);
    for (int j = 0; j < fi; j++) k += plot_method_family(pe[j].method) == f && first_of(pe, j) == j;
    return k;
}

/* panels.gp: a row of panels per method family present, a column per bf. */
int plot_render_panels(const plot_env *e, const char *name, const char *ttl, const char *ylab, int ycol,
                         double yscale, double yfloor, const pentry *pe, int n)
{
    int fam_row[PLOT_NFAMILIES], nrows = 0, ncols = 0;
    double bfs[16];
    for (int f = 0; f < PLOT_NFAMILIES; f++) {
        fam_row[f] = 0;
        for (int i = 0; i < n && !fam_row[f]; i++)
            if (plot_method_family(pe[i].method) == f) fam_row[f] = ++nrows;
    }
    for (int i = 0; i < n; i++) {
        int j = 0;
        while (j < ncols && bfs[j] != pe[i].bf) j++;
        if (j == ncols && ncols < 16) bfs[ncols++] = pe[i].bf;
    }
    qsort(bfs, (size_t)ncols, sizeof bfs[0], plot_cmp_double);
    series *s = calloc(1, sizeof *s);
    size_t len = 4096 + 2 * sizeof *s;
    char *vars = malloc(len), gp[1024];
    if (!s || !vars) { free(s); free(vars); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    /* a marker per method within its row, so methods whose values coincide
     * (fdsva's variants on trees) show as stacked markers, not one line */
    static const int marker[] = { 7, 4, 6, 8, 10, 12, 1, 2, 3, 5, 9, 11, 13 };
    for (int f = 0; f < PLOT_NFAMILIES; f++)
        for (int i = 0; i < n; i++) {
            if (plot_method_family(pe[i].method) != f) continue;
            int col = 0, first = 1;
            while (col < ncols && bfs[col] != pe[i].bf) col++;
            for (int j = 0; j < i && first; j++) first = strcmp(pe[j].method, pe[i].method) != 0;
            int k = family_rank(pe, i, f) % (int)(sizeof marker / sizeof marker[0]);
            plot_add_series_at(s, pe[i].file, first ? pe[i].method : "-", plot_color(e, pe[i].method), marker[k],
                               fam_row[f], col + 1);
        }
    /* one y range for every panel, so rows and columns compare at a glance */
    double ylo = INFINITY, yhi = 0;
    for (int i = 0; i < n; i++) {
        FILE *f = fopen(pe[i].file, "r");
        char line[1024];
        while (f && fgets(line, sizeof line, f)) {
            if (line[0] == '#') continue;
            char *p = line, *end;
            double y = NAN;
            for (int c = 1; c <= ycol; c++, p = end) {
                y = strtod(p, &end);
                if (end == p) { y = NAN; break; }
            }
            if (!isfinite(y)) continue;
            y = y > 0 ? y / yscale : yfloor;
            if (y < ylo) ylo = y;
            if (y > yhi) yhi = y;
        }
        if (f) fclose(f);
    }
    if (!(ylo <= yhi)) ylo = yhi = 0;       /* no data: gnuplot autoscales */
    int l = snprintf(vars, len, "outbase='%s/%s'; ttl='%s'; ylab='%s'; ycol=%d; yscale=%g; yfloor=%g; logy=1; "
                     "ylo=%g; yhi=%g; nrows=%d; ncols=%d; files='%s'; titles='%s'; colors='%s'; pts='%s'; prow='%s'; "
                     "pcol='%s'", e->outdir, name, ttl, ylab, ycol, yscale, yfloor, ylo / 1.5, yhi * 1.5, nrows, ncols,
                     s->files, s->titles, s->colors, s->dts, s->prow, s->pcol);
    for (int f = 0; f < PLOT_NFAMILIES; f++)
        if (fam_row[f] && l > 0 && (size_t)l < len)
            l += snprintf(vars + l, len - (size_t)l, "; rowttl%d='%s'", fam_row[f], plot_family_name(f));
    for (int c = 0; c < ncols && l > 0 && (size_t)l < len; c++) {
        if (bfs[c] == 1) l += snprintf(vars + l, len - (size_t)l, "; colttl%d='serial chain'", c + 1);
        else l += snprintf(vars + l, len - (size_t)l, "; colttl%d='bf = %g'", c + 1, bfs[c]);
    }
    /* a panel whose series are all at one N (the second-order audit at
     * N = 10 only): its x range around it (panels.gp), not gnuplot's
     * "empty x range" */
    for (int r = 1; r <= nrows; r++)
        for (int c = 1; c <= ncols && l > 0 && (size_t)l < len; c++) {
            char files[8192] = "";
            for (int i = 0; i < n; i++) {
                int col = 0;
                while (col < ncols && bfs[col] != pe[i].bf) col++;
                if (fam_row[plot_method_family(pe[i].method)] == r && col + 1 == c)
                    plot_add_word(files, sizeof files, "%s", pe[i].file);
            }
            double xlo, xhi;
            if (plot_x_span(files, &xlo, &xhi) && xlo == xhi && xlo > 0)
                l += snprintf(vars + l, len - (size_t)l, "; xone%d_%d=%g", r, c, xlo);
        }
    snprintf(gp, sizeof gp, "%s/panels.gp", e->gpdir);
    int rc = l > 0 && (size_t)l < len ? plot_run_gnuplot(e->gnuplot, gp, vars) : rbd_fail(RBD_EINVAL, "%s: too many series", name);
    free(s);
    free(vars);
    if (!rc) printf("%s/%s.png\n%s/%s.svg\n", e->outdir, name, e->outdir, name);
    return rc;
}

int plot_all_times(const plot_env *e)
{
    const timing_row **a = malloc(sizeof *a * (size_t)(e->nrows + 1));
    const char **meth = malloc(sizeof *meth * (size_t)(e->nrows + 1));
    pentry *pe = malloc(sizeof *pe * (size_t)(e->nrows + 1));
    int nm = 0, np = 0, rc = RBD_OK;
    if (!a || !meth || !pe) { free(a); free(meth); free(pe); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int i = 0; i < e->nrows; i++) {
        int j = 0;
        while (j < nm && strcmp(meth[j], e->rows[i].method)) j++;
        if (j == nm) meth[nm++] = e->rows[i].method;
    }
    for (int m = 0; m < nm && !rc; m++)
        for (int k = 0; k < e->nbf && !rc; k++) {
            int na = plot_rows_of(e->rows, e->nrows, meth[m], e->bfs[k], a);
            if (!na) continue;
            snprintf(pe[np].file, sizeof pe[np].file, "%s/time_%s_bf%g.dat", e->datadir, meth[m], e->bfs[k]);
            pe[np].method = meth[m];
            pe[np].bf = e->bfs[k];
            dat_ctx c = { a, NULL, na, 0, 0 };
            if (!(rc = atomic_write(pe[np].file, plot_write_dat, &c))) np++;
        }
    if (!rc && !np) printf("plot times_all: skipped (no autoTree timings)\n");
    else if (!rc)
        rc = plot_render_panels(e, "times_all", "Time per call of every method (median over the batches)",
                           "time per call (us)", 2, 1000, 1e-9, pe, np);
    free(a);
    free(meth);
    free(pe);
    return rc;
}

/* The accuracy rows as typed rows (store/rows.h), and the text of a
 * row's numbers as accuracy.csv writes them (its column description). */
typedef struct {
    accuracy_row *r;
    int n;
} acc_rows;

/* Column name of r as accuracy.csv writes it (its column description). */
static void field_text(const accuracy_row *r, const char *name, char *out, size_t len)
{
    char buf[ACCURACY_NCOLS][64];
    const char *fields[ACCURACY_NCOLS];
    csv_row_encode(accuracy_cols, ACCURACY_NCOLS, r, buf, fields);
    *out = 0;
    for (int c = 0; c < ACCURACY_NCOLS; c++)
        if (!strcmp(accuracy_cols[c].name, name)) snprintf(out, len, "%s", fields[c]);
}

static void dat_line(FILE *f, const accuracy_row *r)
{
    static const char *const names[] = { "N", "rms_rel", "max_abs", "normwise" };
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        char v[64];
        field_text(r, names[k], v, sizeof v);
        fprintf(f, "%s%s", k ? " " : "", v);
    }
    fputc('\n', f);
}

/* accuracy.csv -> one figure per output (accuracy_<output>): small
 * multiples, a row of panels per method family and a column per bf, one
 * series per method (its colour in every figure). */
static int plot_accuracy_output(const plot_env *e, const acc_rows *t, const char *output)
{
    int *used = calloc((size_t)t->n + 1, sizeof *used), rc = RBD_OK, np = 0;
    pentry *pe = malloc(sizeof *pe * ((size_t)t->n + 1));
    if (!used || !pe) { free(used); free(pe); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int i = 0; i < t->n && !rc; i++) {
        const accuracy_row *ri = &t->r[i];
        if (used[i] || !isfinite(ri->bf) || strcmp(ri->output, output)) continue;
        /* every row with the same method, output and bf, sorted by N */
        char *file = pe[np].file, bf[64];
        field_text(ri, "bf", bf, sizeof bf);
        snprintf(file, sizeof pe[np].file, "%s/acc_%s_%s_bf%s.dat", e->datadir, ri->method, output, bf);
        FILE *f = fopen(file, "w");
        if (!f) { rc = rbd_fail(RBD_EIO, "%s: %s", file, strerror(errno)); break; }
        fputs("# N rms_rel max_abs normwise\n", f);
        for (;;) {
            int best = -1;
            for (int j = i; j < t->n; j++)
                if (!used[j] && !strcmp(t->r[j].method, ri->method) && !strcmp(t->r[j].output, output) &&
                    t->r[j].bf == ri->bf && (best < 0 || t->r[j].N < t->r[best].N))
                    best = j;
            if (best < 0) break;
            used[best] = 1;
            dat_line(f, &t->r[best]);
        }
        if (fclose(f) != 0) { rc = rbd_fail(RBD_EIO, "%s: write error", file); break; }
        pe[np].method = ri->method;
        pe[np].bf = ri->bf;
        np++;
    }
    if (!rc && np) {
        char name[64], ttl[200];
        snprintf(name, sizeof name, "accuracy_%s", output);
        snprintf(ttl, sizeof ttl, "%s: term-wise RMS relative error against the MPFR reference (worst over states; "
                 "an exact 0 drawn at 1e-18)", output);
        rc = plot_render_panels(e, name, ttl, "RMS relative error", 2, 1, 1e-18, pe, np);
    }
    free(used);
    free(pe);
    return rc;
}

int plot_accuracy(const plot_env *e, const char *dir)
{
    char *path = results_path(dir, ACCURACY_CSV);
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    if (access(path, R_OK) != 0) {
        printf("plot accuracy: skipped (no %s)\n", path);
        free(path);
        return RBD_OK;
    }
    csvlog t;
    void *rows = NULL;
    int rc = csvlog_read(&t, path, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY);
    free(path);
    if (!rc) rc = csvlog_rows(&t, sizeof(accuracy_row), &rows);
    acc_rows a = { rows, t.nrows };
    csvlog_close(&t);
    int any = 0;
    for (int i = 0; i < a.n && !rc; i++) {
        if (!isfinite(a.r[i].bf)) continue;
        int first = 1;
        for (int k = 0; k < i && first; k++) first = !isfinite(a.r[k].bf) || strcmp(a.r[k].output, a.r[i].output);
        if (first) { any = 1; rc = plot_accuracy_output(e, &a, a.r[i].output); }
    }
    free(rows);
    if (!rc && !any) printf("plot accuracy: skipped (no autoTree rows in accuracy.csv)\n");
    return rc;
}
