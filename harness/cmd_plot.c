/* rbdiff plot DIR: the paper's figures from a results directory.  This file
 * extracts one data file per series into DIR/plots/data/ and runs the
 * gnuplot scripts of plots/ (parameterised by files, titles and styles); a
 * figure whose data is missing is skipped with a note. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "atomicio.h"
#include "cli.h"
#include <jansson.h>
#include "modelspec.h"
#include "plot_style.h"
#include "report_ratios.h"
#include "results.h"

#ifndef RBD_SOURCE_DIR
#define RBD_SOURCE_DIR "."
#endif

static const char help[] =
    "Usage: rbdiff plot DIR [--with DIR2] [--out PLOTDIR] [--scripts GPDIR] [--gnuplot PROG]\n\n"
    "Renders PNG and SVG figures from the results directory DIR into\n"
    "PLOTDIR (default DIR/plots), with the gnuplot scripts in GPDIR (default\n"
    "plots/ of the source tree).  Serial chain solid, bf = 2 dashed, bf = 5\n"
    "dotted, as in the paper:\n"
    "  fig2_id        idsva and rneacr, time vs N (log-log)\n"
    "  fig2_fd        fdsva, fdcr and abacr, time vs N\n"
    "  fig3_frames    speedup t(idsva-body) / t(idsva) vs N\n"
    "  fig4_pin26     speedup t(pin26) / t(idsva)\n"
    "  fig6_pin26fd   speedup t(pin26-fd) / t(fdsva)\n"
    "  fig7_times     fdsva-dmm and fdsva-aza, crossover marked (crossover.csv: a line at\n"
    "                 N_cross, a band over an unresolved bracket), and the search's probes\n"
    "                 (crossover_probes.csv), so the axis reaches past the crossover\n"
    "  fig7_speedup   t(fdsva-dmm) / t(fdsva-aza), log-log, the same marks and probes\n"
    "  times_all      every method in timings.csv: a row of panels per method family\n"
    "  fig5_id        robots (timings rows of URDF models): idsva, pin26, rneacr bars;\n"
    "                 with --with DIR2 (the same robots timed by another build, e.g.\n"
    "                 clang) its bars beside, lighter, as the paper's gcc and clang\n"
    "  fig5_fd        robots: fdsva, pin26-fd, abacr bars\n"
    "  vs_PEER_derivs ours / peer for the derivative functions of a live peer (sweep\n"
    "                 --peers), one line per function and bf, < 1: ours faster\n"
    "  vs_PEER_base   the same for its base algorithms (rnea, aba, M, M^-1)\n"
    "Speedups and peer ratios are paired, as in tables.md and vs-PEER.md: the\n"
    "median over the rounds of the per-round ratio (median of medians where a\n"
    "run kept no per-batch samples).\n"
    "  accuracy_OUT   RMS relative error vs N from accuracy.csv, one figure per\n"
    "                 output (dtau_dq, dtau_dv, dqdd_dq, ..., tau, M, Minv, qdd): a row\n"
    "                 of panels per method family, a column per bf, one y range\n"
    "Speed-ups carry the interquartile band of the per-round ratios; a method\n"
    "has one colour in every figure (harness/plot_style.c).\n"
    "A figure without data is skipped with a note.\n";

typedef struct {
    const char *name, *title;
    int speedup;                /* 0: times of methods; 1: pairs (A over B) */
    const char *m[4];           /* times: methods; speedup: A, B */
    int logy, mark_xo;
} figure;

static const figure figures[] = {
    { "fig2_id", "ID derivatives: IDSVA vs RNEACR (Fig. 2 analogue)", 0, { "idsva", "rneacr" }, 1, 0 },
    { "fig2_fd", "FD derivatives: FDSVA vs FDCR and ABACR (Fig. 2 analogue)", 0, { "fdsva", "fdcr", "abacr" }, 1, 0 },
    { "fig3_frames", "IDSVA: body-frame time / ground-frame time (Fig. 3 analogue)", 1, { "idsva", "idsva-body" }, 0, 0 },
    { "fig4_pin26", "Speedup of IDSVA over Pinocchio 2.6 ID derivatives (Fig. 4 analogue)", 1, { "idsva", "pin26" }, 0, 0 },
    { "fig6_pin26fd", "Speedup of FDSVA over Pinocchio 2.6 FD derivatives (Fig. 6 analogue)", 1, { "fdsva", "pin26-fd" }, 0, 0 },
    { "fig7_times", "FDSVA: DMM vs AZA (Fig. 7 analogue; open symbols: probes of the crossover search)", 0, { "fdsva-dmm", "fdsva-aza" }, 1, 1 },
    { "fig7_speedup", "Speedup of AZA over DMM, t(DMM) / t(AZA) (Fig. 7 analogue; open symbols: probes of the crossover search)", 1, { "fdsva-aza", "fdsva-dmm" }, 1, 1 },
};

typedef struct {
    char files[32768], titles[8192], colors[2048], dts[512], prow[1024], pcol[1024];
    int n;
} series;

static int dash_of(double bf)
{
    return bf == 1 ? 1 : bf == 2 ? 2 : bf == 5 ? 3 : 4;
}

static void cat(char *buf, size_t size, int first, const char *fmt, const char *v)
{
    size_t l = strlen(buf);
    if (l < size) snprintf(buf + l, size - l, "%s", first ? "" : " ");
    l = strlen(buf);
    if (l < size) snprintf(buf + l, size - l, fmt, v);
}

static void add_word(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_word(char *buf, size_t size, const char *fmt, ...)
{
    size_t l = strlen(buf);
    if (l + 1 >= size) return;
    if (l) buf[l++] = ' ', buf[l] = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + l, size - l, fmt, ap);
    va_end(ap);
}

/* color: "#rrggbb" (plot_style.c); row, col: the panel (panels.gp; 0 elsewhere). */
static void add_series_at(series *s, const char *file, const char *title, const char *color, int dt, int row, int col)
{
    char d[32], r[16], c[16];
    snprintf(d, sizeof d, "%d", dt);
    snprintf(r, sizeof r, "%d", row);
    snprintf(c, sizeof c, "%d", col);
    cat(s->files, sizeof s->files, !s->n, "%s", file);
    cat(s->titles, sizeof s->titles, !s->n, "%s", title);
    cat(s->colors, sizeof s->colors, !s->n, "%s", color);
    cat(s->dts, sizeof s->dts, !s->n, "%s", d);
    cat(s->prow, sizeof s->prow, !s->n, "%s", r);
    cat(s->pcol, sizeof s->pcol, !s->n, "%s", c);
    s->n++;
}

static void add_series(series *s, const char *file, const char *title, const char *color, int dt)
{
    add_series_at(s, file, title, color, dt, 0, 0);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int cmp_row_N(const void *a, const void *b)
{
    const timing_row *x = *(timing_row *const *)a, *y = *(timing_row *const *)b;
    return x->N - y->N;
}

/* autoTree rows of method at bf, sorted by N; returns the count. */
static int rows_of(const timing_row *rows, int n, const char *method, double bf, const timing_row **out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(rows[i].method, method) || rows[i].bf != bf) continue;
        int dup = 0;
        for (int j = 0; j < k && !dup; j++) dup = out[j]->N == rows[i].N;
        if (!dup) out[k++] = &rows[i];
    }
    qsort(out, (size_t)k, sizeof *out, cmp_row_N);
    return k;
}

typedef struct {
    const timing_row **a, **b;
    int na, nb, pair;
} dat_ctx;

/* t_B / t_A of rows taken in the same rounds: the median over the rounds
 * of the per-round ratio and its quartiles, as tables.md and vs-<peer>.md
 * report it (report_paired); the ratio of the medians, without a band, for
 * rows without samples.  Returns the rounds compared (0: no samples). */
static int paired_over(const timing_row *a, const timing_row *b, double *q, double *q1, double *q3, int *w)
{
    int K = report_paired_q(b, a, q, q1, q3, w);
    if (!K) { *q = b->median_ns / a->median_ns; *q1 = *q3 = NAN; *w = 0; }
    return K;
}

static int write_dat(FILE *f, void *p)
{
    const dat_ctx *c = p;
    if (!c->pair) {
        fputs("# N median_ns min_ns q1_ns q3_ns\n", f);
        for (int k = 0; k < c->na; k++)
            fprintf(f, "%d %.6g %.6g %.6g %.6g\n", c->a[k]->N, c->a[k]->median_ns, c->a[k]->min_ns, c->a[k]->q1_ns,
                    c->a[k]->q3_ns);
        return RBD_OK;
    }
    fputs("# N tA_ns tB_ns (medians) tB/tA (median of the per-round ratios) q1 q3 (their quartiles) "
          "w K (in w of K rounds A was the faster)\n", f);
    for (int k = 0; k < c->na; k++)
        for (int j = 0; j < c->nb; j++)
            if (c->b[j]->N == c->a[k]->N) {
                double q, q1, q3;
                int w, K = paired_over(c->a[k], c->b[j], &q, &q1, &q3, &w);
                fprintf(f, "%d %.6g %.6g %.6g %.6g %.6g %d %d\n", c->a[k]->N, c->a[k]->median_ns, c->b[j]->median_ns,
                        q, q1, q3, w, K);
            }
    return RBD_OK;
}

static int run_gnuplot(const char *prog, const char *script, const char *vars)
{
    pid_t pid = fork();
    if (pid < 0) return rbd_fail(RBD_EIO, "fork: %s", strerror(errno));
    if (pid == 0) {
        execlp(prog, prog, "-e", vars, script, (char *)NULL);
        fprintf(stderr, "rbdiff plot: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0) return rbd_fail(RBD_EIO, "waitpid: %s", strerror(errno));
    if (!WIFEXITED(st) || WEXITSTATUS(st)) return rbd_fail(RBD_EIO, "%s %s failed (status %d)", prog, script, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return RBD_OK;
}

typedef struct {
    const char *gnuplot, *gpdir, *outdir, *datadir;
    const timing_row *rows;
    int nrows;
    double bfs[16];
    int nbf;
    /* Fig. 7: the crossover searches of fdsva-aza vs fdsva-dmm (crossover_marks.gp) and their probes */
    char xckind[64], xcross[256], xclo[256], xchi[256], xcbf[256], xcdts[64];
    char pfiles[8192], ptitles[1024];
    double xmax;
    /* --with DIR: a second build's run (Fig. 5 side by side); labels from the meta.json compilers */
    const timing_row *wrows;
    int nwrows;
    char label[64], wlabel[64];
} plot_env;

static int render_at(const plot_env *e, const char *script, const char *outname, const series *s, const char *ttl,
                     const char *ylab, int logy, int mark, const char *keypos)
{
    size_t len = strlen(s->files) + strlen(s->titles) + sizeof e->pfiles + 4096 + strlen(e->outdir);
    char *vars = malloc(len), gp[1024];
    if (!vars) return rbd_fail(RBD_ENOMEM, "out of memory");
    int l = snprintf(vars, len, "outbase='%s/%s'; gpdir='%s'; files='%s'; titles='%s'; colors='%s'; dts='%s'; "
                     "ttl='%s'; ylab='%s'; logy=%d; keypos='%s'", e->outdir, outname, e->gpdir, s->files, s->titles,
                     s->colors, s->dts, ttl, ylab ? ylab : "", logy, keypos);
    if (mark && l > 0 && (size_t)l < len)
        snprintf(vars + l, len - (size_t)l, "; xckind='%s'; xcross='%s'; xclo='%s'; xchi='%s'; xcbf='%s'; "
                 "xcdts='%s'; xmax=%g; pfiles='%s'; ptitles='%s'; pcola='%s'; pcolb='%s'", e->xckind, e->xcross,
                 e->xclo, e->xchi, e->xcbf, e->xcdts, e->xmax, e->pfiles, e->ptitles,
                 plot_method_color("fdsva-aza"), plot_method_color("fdsva-dmm"));
    snprintf(gp, sizeof gp, "%s/%s", e->gpdir, script);
    int rc = run_gnuplot(e->gnuplot, gp, vars);
    free(vars);
    if (!rc) printf("%s/%s.png\n%s/%s.svg\n", e->outdir, outname, e->outdir, outname);
    return rc;
}

static int render(const plot_env *e, const char *script, const char *outname, const series *s, const char *ttl,
                  const char *ylab, int logy, int mark)
{
    return render_at(e, script, outname, s, ttl, ylab, logy, mark, "below");
}

static int plot_figure(const plot_env *e, const figure *fg)
{
    series s;
    memset(&s, 0, sizeof s);
    const timing_row **a = malloc(sizeof *a * (size_t)(e->nrows + 1)), **b = malloc(sizeof *b * (size_t)(e->nrows + 1));
    if (!a || !b) { free(a); free(b); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = RBD_OK;
    char missing[256] = "";
    if (!fg->speedup) {
        for (int m = 0; m < 4 && fg->m[m] && !rc; m++) {
            int any = 0;
            for (int k = 0; k < e->nbf && !rc; k++) {
                int na = rows_of(e->rows, e->nrows, fg->m[m], e->bfs[k], a);
                if (!na) continue;
                any = 1;
                char file[1024], title[128];
                snprintf(file, sizeof file, "%s/time_%s_bf%g.dat", e->datadir, fg->m[m], e->bfs[k]);
                snprintf(title, sizeof title, "%s,bf=%g", fg->m[m], e->bfs[k]);
                dat_ctx c = { a, NULL, na, 0, 0 };
                if (!(rc = atomic_write(file, write_dat, &c)))
                    add_series(&s, file, title, plot_method_color(fg->m[m]), dash_of(e->bfs[k]));
            }
            if (!any) snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", fg->m[m]);
        }
    } else {
        for (int k = 0; k < e->nbf && !rc; k++) {
            int na = rows_of(e->rows, e->nrows, fg->m[0], e->bfs[k], a);
            int nb = rows_of(e->rows, e->nrows, fg->m[1], e->bfs[k], b);
            int common = 0;
            for (int i = 0; i < na; i++)
                for (int j = 0; j < nb; j++) common += a[i]->N == b[j]->N;
            if (!common) continue;
            char file[1024], title[160];
            snprintf(file, sizeof file, "%s/speedup_%s_over_%s_bf%g.dat", e->datadir, fg->m[0], fg->m[1], e->bfs[k]);
            snprintf(title, sizeof title, "bf=%g", e->bfs[k]);
            dat_ctx c = { a, b, na, nb, 1 };
            if (!(rc = atomic_write(file, write_dat, &c)))
                add_series(&s, file, title, plot_method_color(fg->m[0]), dash_of(e->bfs[k]));
        }
        if (!s.n) snprintf(missing, sizeof missing, " %s and %s at a common N", fg->m[0], fg->m[1]);
    }
    free(a);
    free(b);
    if (rc) return rc;
    if (!s.n) {
        printf("plot %s: skipped (no timings for%s)\n", fg->name, missing);
        return RBD_OK;
    }
    if (*missing) printf("plot %s: no timings for%s; plotted the rest\n", fg->name, missing);
    char ylab[160];
    snprintf(ylab, sizeof ylab, "speedup t(%s) / t(%s)", fg->m[1], fg->m[0]);
    return render(e, fg->speedup ? "speedup_vs_n.gp" : "time_vs_n.gp", fg->name, &s, fg->title, ylab, fg->logy,
                  fg->mark_xo);
}

/* One series of a small-multiples figure: its data file, method and bf. */
typedef struct {
    char file[1024];
    const char *method;
    double bf;
} pentry;

/* panels.gp: a row of panels per method family present, a column per bf. */
static int render_panels(const plot_env *e, const char *name, const char *ttl, const char *ylab, int ycol,
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
    qsort(bfs, (size_t)ncols, sizeof bfs[0], cmp_double);
    series *s = calloc(1, sizeof *s);
    size_t len = 4096 + 2 * sizeof *s;
    char *vars = malloc(len), gp[1024];
    if (!s || !vars) { free(s); free(vars); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int f = 0; f < PLOT_NFAMILIES; f++)
        for (int i = 0; i < n; i++) {
            if (plot_method_family(pe[i].method) != f) continue;
            int col = 0, first = 1;
            while (col < ncols && bfs[col] != pe[i].bf) col++;
            for (int j = 0; j < i && first; j++) first = strcmp(pe[j].method, pe[i].method) != 0;
            add_series_at(s, pe[i].file, first ? pe[i].method : "-", plot_method_color(pe[i].method), 1, fam_row[f],
                          col + 1);
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
                     "ylo=%g; yhi=%g; nrows=%d; ncols=%d; files='%s'; titles='%s'; colors='%s'; prow='%s'; pcol='%s'",
                     e->outdir, name, ttl, ylab, ycol, yscale, yfloor, ylo / 1.5, yhi * 1.5, nrows, ncols, s->files,
                     s->titles, s->colors, s->prow, s->pcol);
    for (int f = 0; f < PLOT_NFAMILIES; f++)
        if (fam_row[f] && l > 0 && (size_t)l < len)
            l += snprintf(vars + l, len - (size_t)l, "; rowttl%d='%s'", fam_row[f], plot_family_name(f));
    for (int c = 0; c < ncols && l > 0 && (size_t)l < len; c++) {
        if (bfs[c] == 1) l += snprintf(vars + l, len - (size_t)l, "; colttl%d='serial chain'", c + 1);
        else l += snprintf(vars + l, len - (size_t)l, "; colttl%d='bf = %g'", c + 1, bfs[c]);
    }
    snprintf(gp, sizeof gp, "%s/panels.gp", e->gpdir);
    int rc = l > 0 && (size_t)l < len ? run_gnuplot(e->gnuplot, gp, vars) : rbd_fail(RBD_EINVAL, "%s: too many series", name);
    free(s);
    free(vars);
    if (!rc) printf("%s/%s.png\n%s/%s.svg\n", e->outdir, name, e->outdir, name);
    return rc;
}

static int plot_all_times(const plot_env *e)
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
            int na = rows_of(e->rows, e->nrows, meth[m], e->bfs[k], a);
            if (!na) continue;
            snprintf(pe[np].file, sizeof pe[np].file, "%s/time_%s_bf%g.dat", e->datadir, meth[m], e->bfs[k]);
            pe[np].method = meth[m];
            pe[np].bf = e->bfs[k];
            dat_ctx c = { a, NULL, na, 0, 0 };
            if (!(rc = atomic_write(pe[np].file, write_dat, &c))) np++;
        }
    if (!rc && !np) printf("plot times_all: skipped (no autoTree timings)\n");
    else if (!rc)
        rc = render_panels(e, "times_all", "Time per call of every method (median over the batches)",
                           "time per call (us)", 2, 1000, 1e-9, pe, np);
    free(a);
    free(meth);
    free(pe);
    return rc;
}

/* vs_<peer>_derivs and vs_<peer>_base: ours / peer per function (meta.json
 * peers.<peer>.functions) and bf, from the live rounds. */
static int plot_peer(const plot_env *e, const char *peer, json_t *fns, int derivs)
{
    series s;
    memset(&s, 0, sizeof s);
    const timing_row **a = malloc(sizeof *a * (size_t)(e->nrows + 1)), **b = malloc(sizeof *b * (size_t)(e->nrows + 1));
    if (!a || !b) { free(a); free(b); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = RBD_OK;
    size_t i;
    json_t *fn;
    json_array_foreach(fns, i, fn) {
        const char *row = json_string_value(json_object_get(fn, "name"));
        const char *ours = json_string_value(json_object_get(fn, "ours"));
        if (!row || !ours || derivs != (!strcmp(ours, "idsva") || !strcmp(ours, "fdsva"))) continue;
        for (int k = 0; k < e->nbf && !rc; k++) {
            int na = rows_of(e->rows, e->nrows, row, e->bfs[k], a);
            int nb = rows_of(e->rows, e->nrows, ours, e->bfs[k], b);
            if (!na || !nb) continue;
            char file[1024], title[200];
            snprintf(file, sizeof file, "%s/%s_over_%s_bf%g.dat", e->datadir, ours, row, e->bfs[k]);
            snprintf(title, sizeof title, "%s/%s,bf=%g", ours, row + strlen(peer) + 1, e->bfs[k]);
            dat_ctx c = { a, b, na, nb, 1 };
            if (!(rc = atomic_write(file, write_dat, &c))) add_series(&s, file, title, plot_method_color(row), dash_of(e->bfs[k]));
        }
    }
    free(a);
    free(b);
    if (rc || !s.n) return rc;
    char name[96], ttl[200], ylab[160];
    snprintf(name, sizeof name, "vs_%s_%s", peer, derivs ? "derivs" : "base");
    snprintf(ttl, sizeof ttl, "rbdiff / %s, live in the same rounds (%s; below 1: ours faster)", peer,
             derivs ? "derivatives" : "base algorithms");
    snprintf(ylab, sizeof ylab, "t(ours) / t(%s), median of per-round ratios", peer);
    return render(e, "speedup_vs_n.gp", name, &s, ttl, ylab, 1, 0);     /* key below the frame, as every figure */
}

static int plot_peers(const plot_env *e, const char *dir)
{
    char *path = results_path(dir, "meta.json");
    json_t *meta = path ? json_load_file(path, 0, NULL) : NULL;
    free(path);
    json_t *peers = json_object_get(meta, "peers");
    const char *peer;
    json_t *p;
    int rc = RBD_OK;
    json_object_foreach(peers, peer, p) {
        json_t *fns = json_object_get(p, "functions");
        if (!json_is_array(fns)) continue;
        if ((rc = plot_peer(e, peer, fns, 1)) || (rc = plot_peer(e, peer, fns, 0))) break;
    }
    json_decref(meta);
    return rc;
}

/* Fig. 5: the models that are not autoTree (robots), one bar per method and
 * build (this run's, and the --with run's, e.g. a clang build, lighter),
 * clusters ordered by nv then name; each bar's label is its paired ratio
 * to the first method of the same build (the median over the rounds). */
typedef struct {
    const plot_env *e;
    const char *const *m;
    int nm;
    const timing_row **robots;
    int nr;
} fig5_ctx;

static const timing_row *robot_row(const timing_row *rows, int n, const char *model, const char *method)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(rows[k].bf) && !strcmp(rows[k].model, model) && !strcmp(rows[k].method, method))
            return &rows[k];
    return NULL;
}

static void fig5_cells(FILE *f, const timing_row *rows, int n, const char *model, const char *const *m, int j)
{
    const timing_row *t = robot_row(rows, n, model, m[j]), *t0 = robot_row(rows, n, model, m[0]);
    double q;
    int w;
    if (!t) { fputs(" - -", f); return; }
    fprintf(f, " %.6g", t->median_ns / 1e3);
    if (j && t0 && report_paired(t, t0, &q, &w) && isfinite(q)) fprintf(f, " %.2fx", q);
    else if (j && t0) fprintf(f, " %.2fx", t->median_ns / t0->median_ns);
    else fputs(" -", f);
}

static int write_fig5(FILE *f, void *p)
{
    const fig5_ctx *c = p;
    const plot_env *e = c->e;
    fputs("# robot nv, then per method (and build): median_us, its paired ratio to the first method's ('-': none)\n", f);
    for (int r = 0; r < c->nr; r++) {
        char lab[256];
        spec_label(c->robots[r]->model, lab, sizeof lab);
        fprintf(f, "%s %d", lab, c->robots[r]->nv);
        for (int j = 0; j < c->nm; j++) {
            fig5_cells(f, e->rows, e->nrows, c->robots[r]->model, c->m, j);
            if (e->wrows) fig5_cells(f, e->wrows, e->nwrows, c->robots[r]->model, c->m, j);
        }
        fputc('\n', f);
    }
    return RBD_OK;
}

static int cmp_robot(const void *a, const void *b)
{
    const timing_row *x = *(timing_row *const *)a, *y = *(timing_row *const *)b;
    return x->nv != y->nv ? x->nv - y->nv : strcmp(x->model, y->model);
}

/* "#rrggbb" mixed halfway with white: the second build's bars. */
static void lighter(const char *hex, char out[8])
{
    unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
    unsigned r = (v >> 16) & 255, g = (v >> 8) & 255, b = v & 255;
    snprintf(out, 8, "#%02x%02x%02x", (r + 255) / 2, (g + 255) / 2, (b + 255) / 2);
}

static int plot_fig5(const plot_env *e, const char *name, const char *ttl, const char *const *m, int nm)
{
    const timing_row **rob = malloc(sizeof *rob * (size_t)(e->nrows + 1));
    if (!rob) return rbd_fail(RBD_ENOMEM, "out of memory");
    int nr = 0, has_first = 0;
    for (int k = 0; k < e->nrows; k++) {
        const timing_row *r = &e->rows[k];
        if (isfinite(r->bf)) continue;
        int j = 0;
        while (j < nm && strcmp(m[j], r->method)) j++;
        if (j == nm) continue;
        has_first |= j == 0;
        int dup = 0;
        for (int i = 0; i < nr && !dup; i++) dup = !strcmp(rob[i]->model, r->model);
        if (!dup) rob[nr++] = r;
    }
    if (!nr || !has_first) {
        printf("plot %s: skipped (no robot timings for %s)\n", name, m[0]);
        free(rob);
        return RBD_OK;
    }
    qsort(rob, (size_t)nr, sizeof *rob, cmp_robot);
    char file[1024], titles[1024] = "", colors[512] = "", vars[4096];
    snprintf(file, sizeof file, "%s/%s.dat", e->datadir, name);
    for (int j = 0; j < nm; j++) {
        char lc[8];
        lighter(plot_method_color(m[j]), lc);
        add_word(titles, sizeof titles, "%s%s%s", m[j], e->wrows ? "," : "", e->wrows ? e->label : "");
        add_word(colors, sizeof colors, "%s", plot_method_color(m[j]));
        if (e->wrows) {
            add_word(titles, sizeof titles, "%s,%s", m[j], e->wlabel);
            add_word(colors, sizeof colors, "%s", lc);
        }
    }
    fig5_ctx c = { e, m, nm, rob, nr };
    int rc = atomic_write(file, write_fig5, &c);
    free(rob);
    if (rc) return rc;
    snprintf(vars, sizeof vars, "outbase='%s/%s'; file='%s'; titles='%s'; colors='%s'; ttl='%s'", e->outdir, name,
             file, titles, colors, ttl);
    char gp[1024];
    snprintf(gp, sizeof gp, "%s/fig5.gp", e->gpdir);
    if ((rc = run_gnuplot(e->gnuplot, gp, vars))) return rc;
    printf("%s/%s.png\n%s/%s.svg\n", e->outdir, name, e->outdir, name);
    return RBD_OK;
}

/* accuracy.csv -> one figure per output (accuracy_<output>): small
 * multiples, a row of panels per method family and a column per bf, one
 * series per method (its colour in every figure). */
static int plot_accuracy_output(const plot_env *e, const csvlog *t, const char *output)
{
    int *used = calloc((size_t)t->nrows + 1, sizeof *used), rc = RBD_OK, np = 0;
    pentry *pe = malloc(sizeof *pe * ((size_t)t->nrows + 1));
    if (!used || !pe) { free(used); free(pe); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int i = 0; i < t->nrows && !rc; i++) {
        if (used[i] || !*t->rows[i][3] || strcmp(t->rows[i][1], output)) continue;
        /* every row with the same method, output and bf, sorted by N */
        char *file = pe[np].file;
        snprintf(file, sizeof pe[np].file, "%s/acc_%s_%s_bf%s.dat", e->datadir, t->rows[i][0], output, t->rows[i][3]);
        FILE *f = fopen(file, "w");
        if (!f) { rc = rbd_fail(RBD_EIO, "%s: %s", file, strerror(errno)); break; }
        fputs("# N rms_rel max_abs normwise\n", f);
        for (;;) {
            int best = -1;
            for (int j = i; j < t->nrows; j++)
                if (!used[j] && !strcmp(t->rows[j][0], t->rows[i][0]) && !strcmp(t->rows[j][1], output) &&
                    !strcmp(t->rows[j][3], t->rows[i][3]) && (best < 0 || atoi(t->rows[j][4]) < atoi(t->rows[best][4])))
                    best = j;
            if (best < 0) break;
            used[best] = 1;
            fprintf(f, "%s %s %s %s\n", t->rows[best][4], t->rows[best][7], t->rows[best][8], t->rows[best][9]);
        }
        if (fclose(f) != 0) { rc = rbd_fail(RBD_EIO, "%s: write error", file); break; }
        pe[np].method = t->rows[i][0];
        pe[np].bf = atof(t->rows[i][3]);
        np++;
    }
    if (!rc && np) {
        char name[64], ttl[200];
        snprintf(name, sizeof name, "accuracy_%s", output);
        snprintf(ttl, sizeof ttl, "%s: term-wise RMS relative error against the MPFR reference (worst over states; "
                 "an exact 0 drawn at 1e-18)", output);
        rc = render_panels(e, name, ttl, "RMS relative error", 2, 1, 1e-18, pe, np);
    }
    free(used);
    free(pe);
    return rc;
}

static int plot_accuracy(const plot_env *e, const char *dir)
{
    char *path = results_path(dir, ACCURACY_CSV);
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    if (access(path, R_OK) != 0) {
        printf("plot accuracy: skipped (no %s)\n", path);
        free(path);
        return RBD_OK;
    }
    csvlog t;
    int rc = csvlog_read(&t, path, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY);
    free(path);
    if (rc) return rc;
    int any = 0;
    for (int i = 0; i < t.nrows && !rc; i++) {
        if (!*t.rows[i][3]) continue;
        int first = 1;
        for (int k = 0; k < i && first; k++) first = !*t.rows[k][3] || strcmp(t.rows[k][1], t.rows[i][1]);
        if (first) { any = 1; rc = plot_accuracy_output(e, &t, t.rows[i][1]); }
    }
    csvlog_close(&t);
    if (!rc && !any) printf("plot accuracy: skipped (no autoTree rows in accuracy.csv)\n");
    return rc;
}

/* The searches of fdsva-aza (A) against fdsva-dmm (B) per bf, for Fig. 7:
 * found or at the bottom: a line at N_cross; unresolved: the bracket; none:
 * a note.  The x axis reaches past each (xmax). */
static void load_crossovers(plot_env *e, const char *dir)
{
    char *path = results_path(dir, CROSSOVER_CSV);
    csvlog t;
    if (!path || access(path, R_OK) != 0 || csvlog_read(&t, path, crossover_cols, CROSSOVER_NCOLS, CROSSOVER_NKEY)) {
        free(path);
        return;
    }
    free(path);
    for (int i = 0; i < t.nrows; i++) {
        const char *const *r = (const char *const *)t.rows[i];
        if (strcmp(r[0], "fdsva-aza") || strcmp(r[1], "fdsva-dmm")) continue;
        const char *st = r[7];
        char kind = !strcmp(st, "found") || !strcmp(st, "at-lo") ? 'f' : !strcmp(st, "none") ? 'n'
                    : !strncmp(st, "unresolved", 10) ? 'u' : 0;
        if (!kind || (kind == 'f' && !*r[4])) continue;
        add_word(e->xckind, sizeof e->xckind, "%c", kind);
        add_word(e->xcross, sizeof e->xcross, "%s", kind == 'f' ? r[4] : "0");
        add_word(e->xclo, sizeof e->xclo, "%s", r[5]);
        add_word(e->xchi, sizeof e->xchi, "%s", r[6]);
        add_word(e->xcbf, sizeof e->xcbf, "%s", r[2]);
        add_word(e->xcdts, sizeof e->xcdts, "%d", dash_of(atof(r[2])));
        double right = 1.25 * atof(r[6]);
        if (right > e->xmax) e->xmax = right;
    }
    csvlog_close(&t);
}

typedef struct {
    const csvlog *t;
    const char *bf;
} probes_ctx;

static int write_probes(FILE *f, void *p)
{
    const probes_ctx *c = p;
    fputs("# N tA_ns tB_ns tB/tA (median over the pairs) q1 q3 A_faster pairs (A = fdsva-aza, B = fdsva-dmm)\n", f);
    int last = 0;
    for (;;) {      /* in increasing N */
        int best = -1;
        for (int i = 0; i < c->t->nrows; i++) {
            char *const *r = c->t->rows[i];
            if (strcmp(r[0], "fdsva-aza") || strcmp(r[1], "fdsva-dmm") || strcmp(r[2], c->bf)) continue;
            int N = atoi(r[3]);
            if (N > last && (best < 0 || N < atoi(c->t->rows[best][3]))) best = i;
        }
        if (best < 0) break;
        char *const *r = c->t->rows[best];
        fprintf(f, "%s %s %s %s %s %s %s %s\n", r[3], r[5], r[6], r[7], r[8], r[9], r[10], r[4]);
        last = atoi(r[3]);
    }
    return RBD_OK;
}

/* crossover_probes.csv -> one data file per bf for Fig. 7's probe points. */
static int load_probes(plot_env *e, const char *dir)
{
    char *path = results_path(dir, CROSSOVER_PROBES_CSV);
    csvlog t;
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    if (access(path, R_OK) != 0) { free(path); return RBD_OK; }
    int rc = csvlog_read(&t, path, crossover_probes_cols, CROSSOVER_PROBES_NCOLS, CROSSOVER_PROBES_NKEY);
    free(path);
    if (rc) return rc;
    for (int i = 0; i < t.nrows && !rc; i++) {
        char *const *r = t.rows[i];
        if (strcmp(r[0], "fdsva-aza") || strcmp(r[1], "fdsva-dmm")) continue;
        int first = 1;
        for (int j = 0; j < i && first; j++)
            first = strcmp(t.rows[j][0], r[0]) || strcmp(t.rows[j][1], r[1]) || strcmp(t.rows[j][2], r[2]);
        if (first) {
            char file[1024];
            snprintf(file, sizeof file, "%s/xo_probes_bf%s.dat", e->datadir, r[2]);
            probes_ctx c = { &t, r[2] };
            if ((rc = atomic_write(file, write_probes, &c))) break;
            add_word(e->pfiles, sizeof e->pfiles, "%s", file);
            add_word(e->ptitles, sizeof e->ptitles, "probes,bf=%s", r[2]);
        }
        if (1.1 * atof(r[3]) > e->xmax) e->xmax = 1.1 * atof(r[3]);
    }
    csvlog_close(&t);
    return rc;
}

/* "gcc-12.2.0" from meta.json's "GNU 12.2.0" ("clang-14.0.6" from "Clang
 * ..."); "build" when there is none. */
static void build_label(const char *dir, char *out, size_t len)
{
    char *path = results_path(dir, "meta.json");
    json_t *meta = path ? json_load_file(path, 0, NULL) : NULL;
    free(path);
    const char *cc = json_string_value(json_object_get(meta, "compiler"));
    char id[32] = "", ver[32] = "";
    if (!cc || sscanf(cc, "%31s %31s", id, ver) < 1) snprintf(out, len, "build");
    else snprintf(out, len, "%s%s%s", !strcmp(id, "GNU") ? "gcc" : !strcmp(id, "Clang") ? "clang" : id,
                  *ver ? "-" : "", ver);
    for (char *p = out; *p; p++)
        if (*p == ' ' || *p == '\'') *p = '_';
    json_decref(meta);
}

int cmd_plot(int argc, char **argv)
{
    static const struct option opts[] = { { "out", required_argument, 0, 'o' }, { "scripts", required_argument, 0, 's' },
                                          { "gnuplot", required_argument, 0, 'g' }, { "help", no_argument, 0, 'h' },
                                          { "with", required_argument, 0, 'w' },
                                          { 0, 0, 0, 0 } };
    plot_env e;
    memset(&e, 0, sizeof e);
    e.gnuplot = "gnuplot";
    e.gpdir = RBD_SOURCE_DIR "/plots";
    const char *outdir = NULL, *with = NULL;
    timing_row *wrows = NULL;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (ch) {
        case 'h': fputs(help, stdout); return EXIT_OK;
        case 'o': outdir = optarg; break;
        case 's': e.gpdir = optarg; break;
        case 'g': e.gnuplot = optarg; break;
        case 'w': with = optarg; break;
        default: return cli_bad_option("plot", ch, argv);
        }
    }
    if (argc - optind != 1) {
        cli_error("plot", EXIT_USAGE, "needs one results directory");
        return cli_usage_error("plot");
    }
    const char *dir = argv[optind];
    for (const char *p = dir; *p; p++)
        if (*p == '\'') return cli_error("plot", EXIT_USAGE, "'%s': a path with a single quote cannot go to gnuplot", dir);
    if (outdir && strchr(outdir, '\'')) return cli_error("plot", EXIT_USAGE, "'%s': a path with a single quote cannot go to gnuplot", outdir);
    char *tpath = results_path(dir, TIMINGS_CSV);
    if (!tpath) return cli_error("plot", EXIT_FAIL, "out of memory");
    timing_row *rows = NULL;
    int nrows = 0, status = EXIT_FAIL;
    char *od = NULL, *dd = NULL;
    if (access(tpath, R_OK) == 0) {
        /* the directory, so the per-batch samples (samples.csv) come along */
        if (timing_rows_load(dir, &rows, &nrows)) { cli_lib_error("plot", 0); goto done; }
    } else {
        printf("plot: no %s; only accuracy can be plotted\n", tpath);
    }
    od = outdir ? strdup(outdir) : results_path(dir, "plots");
    dd = od ? results_path(od, "data") : NULL;
    if (!dd) { cli_error("plot", 0, "out of memory"); goto done; }
    if (mkdir_p(dd)) { cli_lib_error("plot", 0); goto done; }
    e.outdir = od;
    e.datadir = dd;
    e.rows = rows;
    e.nrows = nrows;
    for (int i = 0; i < nrows; i++) {
        if (!isfinite(rows[i].bf)) continue;
        int j = 0;
        while (j < e.nbf && e.bfs[j] != rows[i].bf) j++;
        if (j == e.nbf && e.nbf < 16) e.bfs[e.nbf++] = rows[i].bf;
    }
    qsort(e.bfs, (size_t)e.nbf, sizeof e.bfs[0], cmp_double);
    build_label(dir, e.label, sizeof e.label);
    if (with) {
        if (timing_rows_load(with, &wrows, &e.nwrows)) { cli_lib_error("plot", 0); goto done; }
        e.wrows = wrows;
        build_label(with, e.wlabel, sizeof e.wlabel);
        if (!strcmp(e.wlabel, e.label)) snprintf(e.wlabel + strlen(e.wlabel), sizeof e.wlabel - strlen(e.wlabel), "(2)");
    }
    load_crossovers(&e, dir);
    if (load_probes(&e, dir)) { cli_lib_error("plot", 0); goto done; }
    for (int i = 0; i < nrows && e.xmax > 0; i++)     /* the marks widen the axis, never cut the data */
        if (isfinite(rows[i].bf) && 1.1 * rows[i].N > e.xmax) e.xmax = 1.1 * rows[i].N;
    for (size_t k = 0; k < sizeof figures / sizeof figures[0]; k++)
        if (plot_figure(&e, &figures[k])) { cli_lib_error("plot", 0); goto done; }
    static const char *const f5id[] = { "idsva", "pin26", "rneacr" }, *const f5fd[] = { "fdsva", "pin26-fd", "abacr" };
    if (plot_fig5(&e, "fig5_id", "ID derivatives on robots (Fig. 5 analogue; label: time / time of idsva in the same rounds and build)", f5id, 3) ||
        plot_fig5(&e, "fig5_fd", "FD derivatives on robots (Fig. 5 analogue; label: time / time of fdsva in the same rounds and build)", f5fd, 3)) {
        cli_lib_error("plot", 0);
        goto done;
    }
    if (plot_all_times(&e) || plot_peers(&e, dir) || plot_accuracy(&e, dir)) { cli_lib_error("plot", 0); goto done; }
    status = EXIT_OK;
done:
    free(tpath);
    free(rows);
    free(wrows);
    free(od);
    free(dd);
    return status;
}
