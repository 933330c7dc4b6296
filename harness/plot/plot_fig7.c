/* rbdiff plot: the crossover marks (crossover.csv) and the probes of the
 * searches (crossover_probes.csv) of one pair, for time_vs_n.gp and
 * speedup_vs_n.gp: Fig. 7's (fdsva-aza against fdsva-dmm) and the
 * second-order ones (plot_so_xo.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/atomicio.h"
#include "plot/plot.h"
#include "store/results_set.h"

/* The searches of A against B per bf (Fig. 7: fdsva-aza, fdsva-dmm):
 * found or at the bottom: a line at N_cross; unresolved: the bracket; none:
 * a note.  The x axis reaches past each (xmax). */
void plot_load_crossovers(plot_env *e, const char *dir, const char *A, const char *B)
{
    void *a = NULL;
    int n = 0, present = 0;
    if (results_table_read(dir, CROSSOVER_CSV, &a, &n, &present)) return;   /* plot checked it before */
    const crossover_row *xo = a;
    for (int i = 0; i < n; i++) {
        const crossover_row *r = &xo[i];
        if (strcmp(r->A, A) || strcmp(r->B, B)) continue;
        const char *st = r->status;
        char kind = !strcmp(st, "found") || !strcmp(st, "at-lo") ? 'f' : !strcmp(st, "none") ? 'n'
                    : !strncmp(st, "unresolved", 10) ? 'u' : 0;
        if (!kind || (kind == 'f' && !isfinite(r->N_cross))) continue;
        plot_add_word(e->xckind, sizeof e->xckind, "%c", kind);
        plot_add_word(e->xcross, sizeof e->xcross, "%.17g", kind == 'f' ? r->N_cross : 0);
        plot_add_word(e->xclo, sizeof e->xclo, "%d", r->bracket_lo);
        plot_add_word(e->xchi, sizeof e->xchi, "%d", r->bracket_hi);
        plot_add_word(e->xcbf, sizeof e->xcbf, "%g", r->bf);
        plot_add_word(e->xcdts, sizeof e->xcdts, "%d", plot_dash_of(r->bf));
        double right = 1.25 * r->bracket_hi;
        if (right > e->xmax) e->xmax = right;
    }
    free(a);
}

static int cmp_probe(const void *pa, const void *pb)
{
    const probe_row *a = pa, *b = pb;
    if (a->bf != b->bf) return a->bf < b->bf ? -1 : 1;
    return (a->N > b->N) - (a->N < b->N);
}

typedef struct {
    const probe_row *p;     /* the probes of one bf, in increasing N */
    int n;
} probes_ctx;

static int write_probes(FILE *f, void *p)
{
    const probes_ctx *c = p;
    fprintf(f, "# N tA_ns tB_ns tB/tA (median over the pairs) q1 q3 A_faster pairs (A = %s, B = %s)\n", c->p->A,
            c->p->B);
    for (int i = 0; i < c->n; i++) {
        const probe_row *r = &c->p[i];
        if (i && r->N == c->p[i - 1].N) continue;   /* one line per N */
        fprintf(f, "%d %.6g %.6g %.6g %.6g %.6g %d %d\n", r->N, r->tA_median_ns, r->tB_median_ns, r->ratio_BA,
                r->ratio_q1, r->ratio_q3, r->A_faster, r->pairs);
    }
    return RBD_OK;
}

/* crossover_probes.csv -> one data file per bf (in order of first
 * appearance) for the probe points of A against B: xo_probes_<tag>bf<bf>.dat
 * (tag "" for Fig. 7's). */
int plot_load_probes(plot_env *e, const char *dir, const char *A, const char *B, const char *tag)
{
    void *a = NULL;
    int n = 0, present = 0, rc = results_table_read(dir, CROSSOVER_PROBES_CSV, &a, &n, &present);
    if (rc) return rc;
    probe_row *all = a, *fig7 = calloc((size_t)n + 1, sizeof *fig7);
    double *order = calloc((size_t)n + 1, sizeof *order);
    if (!fig7 || !order) { free(a); free(fig7); free(order); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int m = 0, nbf = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(all[i].A, A) || strcmp(all[i].B, B)) continue;
        fig7[m++] = all[i];
        int seen = 0;
        for (int b = 0; b < nbf && !seen; b++) seen = order[b] == all[i].bf;   /* a few bf */
        if (!seen) order[nbf++] = all[i].bf;
        if (1.1 * all[i].N > e->xmax) e->xmax = 1.1 * all[i].N;
    }
    qsort(fig7, (size_t)m, sizeof *fig7, cmp_probe);
    for (int b = 0; b < nbf && !rc; b++) {
        probes_ctx c = { fig7, 0 };
        while (c.p < fig7 + m && c.p->bf != order[b]) c.p++;
        while (c.p + c.n < fig7 + m && c.p[c.n].bf == order[b]) c.n++;
        char file[1024];
        snprintf(file, sizeof file, "%s/xo_probes_%sbf%g.dat", e->datadir, tag, order[b]);
        if ((rc = atomic_write(file, write_probes, &c))) break;
        plot_add_word(e->pfiles, sizeof e->pfiles, "%s", file);
        plot_add_word(e->ptitles, sizeof e->ptitles, "probes,bf=%g", order[b]);
    }
    free(a);
    free(fig7);
    free(order);
    return rc;
}
