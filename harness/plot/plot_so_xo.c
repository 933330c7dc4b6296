/* rbdiff plot: the second-order crossover searches (issue 33: IDSVA-SO
 * against central differences and the complex step, FD-SO with AZA against
 * the dense composition), one figure each, so_xo_<A>_vs_<B>: the
 * search's probes (crossover_probes.csv: t_B / t_A as the median of the per-round
 * ratios, with its quartiles), the sweep's paired ratios of B over A at its
 * N (timings.csv, as tables.md), both as lines with their interquartile
 * bands, and crossover.csv's N_cross, bracket or "not faster" note per bf,
 * the very row report.md tabulates beside it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/method.h"
#include "rbdiff/rbd.h"
#include "plot/plot.h"
#include "store/atomicio.h"
#include "store/results_set.h"

static int is_so(const char *name)
{
    const rbd_method *m = rbd_method_find(name);
    return m && rbd_output_order(m->output) == 2;
}

/* The sweep's paired ratios of B over A per bf, where both were timed at a
 * common N (the speed-up figures' data, plot_write_dat). */
static int ratio_series(plot_env *x, const char *A, const char *B, series *s)
{
    const timing_row **a = malloc(sizeof *a * (size_t)(x->nrows + 1)), **b = malloc(sizeof *b * (size_t)(x->nrows + 1));
    if (!a || !b) { free(a); free(b); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = RBD_OK;
    for (int k = 0; k < x->nbf && !rc; k++) {
        int na = plot_rows_of(x->rows, x->nrows, A, x->bfs[k], a), nb = plot_rows_of(x->rows, x->nrows, B, x->bfs[k], b);
        int common = 0;
        for (int i = 0; i < na; i++)
            for (int j = 0; j < nb; j++)
                if (a[i]->N == b[j]->N) {
                    common++;
                    if (x->xmax > 0 && 1.1 * a[i]->N > x->xmax) x->xmax = 1.1 * a[i]->N;
                }
        if (!common) continue;
        char file[1024], title[160];
        snprintf(file, sizeof file, "%s/so_xo_%s_over_%s_bf%g.dat", x->datadir, A, B, x->bfs[k]);
        snprintf(title, sizeof title, "sweep,bf=%g", x->bfs[k]);
        dat_ctx c = { a, b, na, nb, 1 };
        if (!(rc = atomic_write(file, plot_write_dat, &c)))
            plot_add_series(s, file, title, plot_color(x, A), plot_dash_of(x->bfs[k]));
    }
    free(a);
    free(b);
    return rc;
}

/* The probes (plot_load_probes' files, one per bf) as series of their own,
 * line and interquartile band: the search's statistics drawn as the sweep's
 * are (speedup_vs_n.gp reads the same columns). */
static void probe_series(plot_env *x, const char *B, series *s)
{
    char *fsave = NULL, *tsave = NULL;
    char *f = strtok_r(x->pfiles, " ", &fsave), *t = strtok_r(x->ptitles, " ", &tsave);
    for (; f && t; f = strtok_r(NULL, " ", &fsave), t = strtok_r(NULL, " ", &tsave)) {
        double bf = 0;
        char title[64];
        if (sscanf(t, "probes,bf=%lf", &bf) != 1) continue;
        snprintf(title, sizeof title, "search,bf=%g", bf);
        plot_add_series(s, f, title, plot_color(x, B), plot_dash_of(bf));
    }
    x->pfiles[0] = x->ptitles[0] = 0;
}

static int plot_pair(const plot_env *e, const char *dir, const char *A, const char *B)
{
    plot_env *x = malloc(sizeof *x);
    if (!x) return rbd_fail(RBD_ENOMEM, "out of memory");
    *x = *e;   /* the set's rows, palette and places; this pair's marks and probes alone */
    x->xckind[0] = x->xcross[0] = x->xclo[0] = x->xchi[0] = x->xcbf[0] = x->xcdts[0] = 0;
    x->pfiles[0] = x->ptitles[0] = 0;
    x->xmax = 0;
    x->xcA = A;
    x->xcB = B;
    x->xcname = A;
    char tag[160], name[200];
    snprintf(tag, sizeof tag, "%s_vs_%s_", A, B);
    snprintf(name, sizeof name, "so_xo_%s_vs_%s", A, B);
    plot_load_crossovers(x, dir, A, B);
    int rc = plot_load_probes(x, dir, A, B, tag);
    series s;
    memset(&s, 0, sizeof s);
    if (!rc) rc = ratio_series(x, A, B, &s);
    if (!rc) probe_series(x, B, &s);
    if (!rc && !s.n) printf("plot %s: skipped (no probes of the search or paired timings)\n", name);
    else if (!rc) {
        char ttl[400], ylab[160];
        snprintf(ttl, sizeof ttl, "Second-order crossover search: %s against %s (above 1: %s faster)", A, B, A);
        snprintf(ylab, sizeof ylab, "t(%s) / t(%s), median of per-round ratios", B, A);
        rc = plot_render(x, "speedup_vs_n.gp", name, &s, ttl, ylab, 1, 1);
    }
    free(x);
    return rc;
}

int plot_so_crossovers(const plot_env *e, const char *dir)
{
    void *a = NULL;
    int n = 0, present = 0;
    if (results_table_read(dir, CROSSOVER_CSV, &a, &n, &present) || !present) { free(a); return RBD_OK; }
    const crossover_row *xo = a;
    int rc = RBD_OK;
    for (int i = 0; i < n && !rc; i++) {
        if (!is_so(xo[i].A) && !is_so(xo[i].B)) continue;
        int seen = 0;   /* one figure per pair, every bf on it */
        for (int j = 0; j < i && !seen; j++) seen = !strcmp(xo[j].A, xo[i].A) && !strcmp(xo[j].B, xo[i].B);
        if (!seen) rc = plot_pair(e, dir, xo[i].A, xo[i].B);
    }
    free(a);
    return rc;
}
