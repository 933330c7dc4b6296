/* rbdiff plot: Fig. 7's crossover marks (crossover.csv) and the probes of
 * the searches (crossover_probes.csv), for time_vs_n.gp and speedup_vs_n.gp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "store/atomicio.h"
#include "plot/plot.h"

/* The searches of fdsva-aza (A) against fdsva-dmm (B) per bf, for Fig. 7:
 * found or at the bottom: a line at N_cross; unresolved: the bracket; none:
 * a note.  The x axis reaches past each (xmax). */
void plot_load_crossovers(plot_env *e, const char *dir)
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
        plot_add_word(e->xckind, sizeof e->xckind, "%c", kind);
        plot_add_word(e->xcross, sizeof e->xcross, "%s", kind == 'f' ? r[4] : "0");
        plot_add_word(e->xclo, sizeof e->xclo, "%s", r[5]);
        plot_add_word(e->xchi, sizeof e->xchi, "%s", r[6]);
        plot_add_word(e->xcbf, sizeof e->xcbf, "%s", r[2]);
        plot_add_word(e->xcdts, sizeof e->xcdts, "%d", plot_dash_of(atof(r[2])));
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
int plot_load_probes(plot_env *e, const char *dir)
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
            plot_add_word(e->pfiles, sizeof e->pfiles, "%s", file);
            plot_add_word(e->ptitles, sizeof e->ptitles, "probes,bf=%s", r[2]);
        }
        if (1.1 * atof(r[3]) > e->xmax) e->xmax = 1.1 * atof(r[3]);
    }
    csvlog_close(&t);
    return rc;
}

