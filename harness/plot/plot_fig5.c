/* rbdiff plot: Fig. 5, the robots as grouped bars (plots/fig5.gp). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/atomicio.h"
#include "plan/modelspec.h"
#include "plot/plot.h"
#include "plot/plot_style.h"
#include "report/report_ratios.h"

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

/* The log axis' lower end: the decade below the fastest robot bar (us). */
static double fig5_ymin(const plot_env *e, const char *const *m, int nm)
{
    double lo = INFINITY;
    for (int pass = 0; pass < 2; pass++) {
        const timing_row *rows = pass ? e->wrows : e->rows;
        int n = pass ? e->nwrows : e->nrows;
        for (int k = 0; rows && k < n; k++) {
            if (isfinite(rows[k].bf) || !(rows[k].median_ns > 0)) continue;
            for (int j = 0; j < nm; j++)
                if (!strcmp(m[j], rows[k].method) && rows[k].median_ns / 1e3 < lo) lo = rows[k].median_ns / 1e3;
        }
    }
    return isfinite(lo) ? pow(10, floor(log10(lo / 1.5))) : 0.1;
}

int plot_fig5(const plot_env *e, const char *name, const char *ttl, const char *const *m, int nm)
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
        lighter(plot_color(e, m[j]), lc);
        plot_add_word(titles, sizeof titles, "%s%s%s", m[j], e->wrows ? "," : "", e->wrows ? e->label : "");
        plot_add_word(colors, sizeof colors, "%s", plot_color(e, m[j]));
        if (e->wrows) {
            plot_add_word(titles, sizeof titles, "%s,%s", m[j], e->wlabel);
            plot_add_word(colors, sizeof colors, "%s", lc);
        }
    }
    fig5_ctx c = { e, m, nm, rob, nr };
    int rc = atomic_write(file, write_fig5, &c);
    free(rob);
    if (rc) return rc;
    snprintf(vars, sizeof vars, "outbase='%s/%s'; file='%s'; titles='%s'; colors='%s'; ttl='%s'; ymin=%g", e->outdir,
             name, file, titles, colors, ttl, fig5_ymin(e, m, nm));
    char gp[1024];
    snprintf(gp, sizeof gp, "%s/fig5.gp", e->gpdir);
    if ((rc = plot_run_gnuplot(e->gnuplot, gp, vars))) return rc;
    printf("%s/%s.png\n%s/%s.svg\n", e->outdir, name, e->outdir, name);
    return RBD_OK;
}

