/* The times and speed-up figures (Fig. 2, 3, 4, 6, 7 analogues, the
 * second-order ones) and the live peers' ratios (plot.h): one data file per series into the plot
 * directory's data/, then a gnuplot script of plots/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "rbdiff/rbd.h"
#include "plot/plot.h"
#include "plot/plot_style.h"
#include "store/atomicio.h"
#include "store/results.h"

typedef struct {
    const char *name, *title;
    int speedup;                /* 0: times of methods; 1: pairs (each B over A) */
    const char *m[4];           /* times: methods; speedup: A, then one to three B */
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
    { "so_times", "Second-order derivatives: IDSVA-SO, the FD-SO composition and central differences of idsva and fdsva", 0, { "idsva-so", "id2-fd", "fdsva-so", "fd2-fd" }, 1, 0 },
    { "so_id_speedup", "Speedup of IDSVA-SO over central differences (id2-fd) and the complex step (id2-cs) of first-order derivatives", 1, { "idsva-so", "id2-fd", "id2-cs" }, 1, 0 },
    { "so_fd_speedup", "Speedup of the FD-SO composition (fdsva-so, T-RO 2024) over central differences of fdsva (fd2-fd)", 1, { "fdsva-so", "fd2-fd" }, 0, 0 },
};

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
                int na = plot_rows_of(e->rows, e->nrows, fg->m[m], e->bfs[k], a);
                if (!na) continue;
                any = 1;
                char file[1024], title[128];
                snprintf(file, sizeof file, "%s/time_%s_bf%g.dat", e->datadir, fg->m[m], e->bfs[k]);
                snprintf(title, sizeof title, "%s,bf=%g", fg->m[m], e->bfs[k]);
                dat_ctx c = { a, NULL, na, 0, 0 };
                if (!(rc = atomic_write(file, plot_write_dat, &c)))
                    plot_add_series(&s, file, title, plot_color(e, fg->m[m]), plot_dash_of(e->bfs[k]));
            }
            if (!any) snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", fg->m[m]);
        }
    } else {
        int manyb = fg->m[2] != NULL;   /* several B: each its own colour, named in the key */
        for (int m = 1; m < 4 && fg->m[m] && !rc; m++)
            for (int k = 0; k < e->nbf && !rc; k++) {
                int na = plot_rows_of(e->rows, e->nrows, fg->m[0], e->bfs[k], a);
                int nb = plot_rows_of(e->rows, e->nrows, fg->m[m], e->bfs[k], b);
                int common = 0;
                for (int i = 0; i < na; i++)
                    for (int j = 0; j < nb; j++) common += a[i]->N == b[j]->N;
                if (!common) continue;
                char file[1024], title[160];
                snprintf(file, sizeof file, "%s/speedup_%s_over_%s_bf%g.dat", e->datadir, fg->m[0], fg->m[m], e->bfs[k]);
                snprintf(title, sizeof title, "%s%sbf=%g", manyb ? fg->m[m] : "", manyb ? "," : "", e->bfs[k]);
                dat_ctx c = { a, b, na, nb, 1 };
                if (!(rc = atomic_write(file, plot_write_dat, &c)))
                    plot_add_series(&s, file, title, plot_color(e, fg->m[manyb ? m : 0]), plot_dash_of(e->bfs[k]));
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
    snprintf(ylab, sizeof ylab, "speedup t(%s) / t(%s)", fg->m[2] ? "B" : fg->m[1], fg->m[0]);
    return plot_render(e, fg->speedup ? "speedup_vs_n.gp" : "time_vs_n.gp", fg->name, &s, fg->title, ylab, fg->logy,
                  fg->mark_xo);
}

/* What a peer function's figure is, from its counterpart among ours. */
enum { PEER_BASE, PEER_DERIVS, PEER_SO };
static int peer_figure_of(const char *ours)
{
    if (!strcmp(ours, "idsva") || !strcmp(ours, "fdsva")) return PEER_DERIVS;
    if (!strcmp(ours, "idsva-so") || !strcmp(ours, "fdsva-so")) return PEER_SO;
    return PEER_BASE;
}

/* vs_<peer>_derivs, vs_<peer>_so and vs_<peer>_base: ours / peer per
 * function (meta.json peers.<peer>.functions) and bf, from the live rounds. */
static int plot_peer(const plot_env *e, const char *peer, json_t *fns, int which)
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
        if (!row || !ours || peer_figure_of(ours) != which) continue;
        for (int k = 0; k < e->nbf && !rc; k++) {
            int na = plot_rows_of(e->rows, e->nrows, row, e->bfs[k], a);
            int nb = plot_rows_of(e->rows, e->nrows, ours, e->bfs[k], b);
            if (!na || !nb) continue;
            char file[1024], title[200];
            snprintf(file, sizeof file, "%s/%s_over_%s_bf%g.dat", e->datadir, ours, row, e->bfs[k]);
            snprintf(title, sizeof title, "%s/%s,bf=%g", ours, row + strlen(peer) + 1, e->bfs[k]);
            dat_ctx c = { a, b, na, nb, 1 };
            if (!(rc = atomic_write(file, plot_write_dat, &c))) plot_add_series(&s, file, title, plot_color(e, row), plot_dash_of(e->bfs[k]));
        }
    }
    free(a);
    free(b);
    if (rc || !s.n) return rc;
    char name[96], ttl[200], ylab[160];
    static const char *const suffix[] = { "base", "derivs", "so" };
    static const char *const what[] = { "base algorithms", "derivatives", "second-order derivatives" };
    snprintf(name, sizeof name, "vs_%s_%s", peer, suffix[which]);
    snprintf(ttl, sizeof ttl, "rbdiff / %s, live in the same rounds (%s; below 1: ours faster)", peer, what[which]);
    snprintf(ylab, sizeof ylab, "t(ours) / t(%s), median of per-round ratios", peer);
    return plot_render(e, "speedup_vs_n.gp", name, &s, ttl, ylab, 1, 0);     /* key below the frame, as every figure */
}

int plot_peers(const plot_env *e, const char *dir)
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
        if ((rc = plot_peer(e, peer, fns, PEER_DERIVS)) || (rc = plot_peer(e, peer, fns, PEER_SO)) ||
            (rc = plot_peer(e, peer, fns, PEER_BASE)))
            break;
    }
    json_decref(meta);
    return rc;
}

int plot_time_figures(const plot_env *e)
{
    int rc = RBD_OK;
    for (size_t k = 0; k < sizeof figures / sizeof figures[0] && !rc; k++) rc = plot_figure(e, &figures[k]);
    return rc;
}
