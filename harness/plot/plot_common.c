/* rbdiff plot: series, data files and the gnuplot call every figure uses
 * (plot.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "plot/plot.h"
#include "plot/plot_style.h"
#include "report/report_ratios.h"

int plot_dash_of(double bf)
{
    return bf == 1 ? 1 : bf == 2 ? 2 : bf == 5 ? 3 : 4;
}

const char *plot_color(const plot_env *e, const char *name)
{
    return plot_palette_color(e->pal, name);
}

static void cat(char *buf, size_t size, int first, const char *fmt, const char *v)
{
    size_t l = strlen(buf);
    if (l < size) snprintf(buf + l, size - l, "%s", first ? "" : " ");
    l = strlen(buf);
    if (l < size) snprintf(buf + l, size - l, fmt, v);
}

void plot_add_word(char *buf, size_t size, const char *fmt, ...)
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
void plot_add_series_at(series *s, const char *file, const char *title, const char *color, int dt, int row, int col)
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

void plot_add_series(series *s, const char *file, const char *title, const char *color, int dt)
{
    plot_add_series_at(s, file, title, color, dt, 0, 0);
}

int plot_cmp_double(const void *a, const void *b)
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
int plot_rows_of(const timing_row *rows, int n, const char *method, double bf, const timing_row **out)
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

/* t_B / t_A of rows taken in the same rounds: the median over the rounds
 * of the per-round ratio and its quartiles, as tables.md and vs-<peer>.md
 * report it (report_paired); the ratio of the medians, without a band, for
 * rows without samples.  Returns the rounds compared (0: no samples). */
static int plot_paired_over(const timing_row *a, const timing_row *b, double *q, double *q1, double *q3, int *w)
{
    int K = report_paired_q(b, a, q, q1, q3, w);
    if (!K) { *q = b->median_ns / a->median_ns; *q1 = *q3 = NAN; *w = 0; }
    return K;
}

int plot_write_dat(FILE *f, void *p)
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
                /* the ratios in full, so a reader rounding them (tests/cli/plot_ratios.sh) gets tables.md's digits */
                int w, K = plot_paired_over(c->a[k], c->b[j], &q, &q1, &q3, &w);
                fprintf(f, "%d %.6g %.6g %.17g %.17g %.17g %d %d\n", c->a[k]->N, c->a[k]->median_ns, c->b[j]->median_ns,
                        q, q1, q3, w, K);
            }
    return RBD_OK;
}

int plot_run_gnuplot(const char *prog, const char *script, const char *vars)
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

int plot_x_span(const char *files, double *lo, double *hi)
{
    int n = 0;
    *lo = INFINITY, *hi = -INFINITY;
    for (const char *p = files; *p;) {
        size_t len = strcspn(p, " ");
        char path[1024], line[1024];
        snprintf(path, sizeof path, "%.*s", (int)(len < sizeof path ? len : sizeof path - 1), p);
        FILE *f = len ? fopen(path, "r") : NULL;
        while (f && fgets(line, sizeof line, f)) {
            char *end;
            double x = strtod(line, &end);
            if (line[0] == '#' || end == line || !isfinite(x)) continue;
            n++;
            if (x < *lo) *lo = x;
            if (x > *hi) *hi = x;
        }
        if (f) fclose(f);
        p += len;
        p += strspn(p, " ");
    }
    return n;
}

int plot_render_at(const plot_env *e, const char *script, const char *outname, const series *s, const char *ttl,
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
                 "xcdts='%s'; xmax=%g; pfiles='%s'; ptitles='%s'; pcola='%s'; pcolb='%s'; xcname='%s'", e->xckind,
                 e->xcross, e->xclo, e->xchi, e->xcbf, e->xcdts, e->xmax, e->pfiles, e->ptitles,
                 plot_color(e, e->xcA ? e->xcA : "fdsva-aza"), plot_color(e, e->xcB ? e->xcB : "fdsva-dmm"),
                 e->xcname ? e->xcname : "AZA");
    /* every series at one N (a peer timed at N = 10 only): a range around
     * it, not gnuplot's "empty x range" */
    double xlo, xhi;
    l = (int)strlen(vars);
    if (plot_x_span(s->files, &xlo, &xhi) && xlo == xhi && xlo > 0 && (size_t)l < len)
        snprintf(vars + l, len - (size_t)l, "; xone=%g", xlo);
    snprintf(gp, sizeof gp, "%s/%s", e->gpdir, script);
    int rc = plot_run_gnuplot(e->gnuplot, gp, vars);
    free(vars);
    if (!rc) printf("%s/%s.png\n%s/%s.svg\n", e->outdir, outname, e->outdir, outname);
    return rc;
}

int plot_render(const plot_env *e, const char *script, const char *outname, const series *s, const char *ttl,
                  const char *ylab, int logy, int mark)
{
    return plot_render_at(e, script, outname, s, ttl, ylab, logy, mark, "below");
}

