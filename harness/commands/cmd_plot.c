/* rbdiff plot DIR: the paper's figures from a results directory.  Each
 * figure writes one data file per series into DIR/plots/data/ and runs a
 * gnuplot script of plots/ (parameterised by files, titles and styles); a
 * figure whose data is missing is skipped with a note.  This file: the
 * options, the times and speed-up figures and the peers'; plot_panels.c,
 * plot_fig5.c and plot_fig7.c the rest (plot.h). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "store/atomicio.h"
#include "commands/cli.h"
#include <jansson.h>
#include "plan/modelspec.h"
#include "plot/plot.h"
#include "plot/plot_style.h"
#include "report/report_ratios.h"
#include "store/results.h"
#include "plan/datadir.h"

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
    "has one colour in every figure (harness/plot/plot_style.c).\n"
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
                    plot_add_series(&s, file, title, plot_method_color(fg->m[m]), plot_dash_of(e->bfs[k]));
            }
            if (!any) snprintf(missing + strlen(missing), sizeof missing - strlen(missing), " %s", fg->m[m]);
        }
    } else {
        for (int k = 0; k < e->nbf && !rc; k++) {
            int na = plot_rows_of(e->rows, e->nrows, fg->m[0], e->bfs[k], a);
            int nb = plot_rows_of(e->rows, e->nrows, fg->m[1], e->bfs[k], b);
            int common = 0;
            for (int i = 0; i < na; i++)
                for (int j = 0; j < nb; j++) common += a[i]->N == b[j]->N;
            if (!common) continue;
            char file[1024], title[160];
            snprintf(file, sizeof file, "%s/speedup_%s_over_%s_bf%g.dat", e->datadir, fg->m[0], fg->m[1], e->bfs[k]);
            snprintf(title, sizeof title, "bf=%g", e->bfs[k]);
            dat_ctx c = { a, b, na, nb, 1 };
            if (!(rc = atomic_write(file, plot_write_dat, &c)))
                plot_add_series(&s, file, title, plot_method_color(fg->m[0]), plot_dash_of(e->bfs[k]));
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
    return plot_render(e, fg->speedup ? "speedup_vs_n.gp" : "time_vs_n.gp", fg->name, &s, fg->title, ylab, fg->logy,
                  fg->mark_xo);
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
            int na = plot_rows_of(e->rows, e->nrows, row, e->bfs[k], a);
            int nb = plot_rows_of(e->rows, e->nrows, ours, e->bfs[k], b);
            if (!na || !nb) continue;
            char file[1024], title[200];
            snprintf(file, sizeof file, "%s/%s_over_%s_bf%g.dat", e->datadir, ours, row, e->bfs[k]);
            snprintf(title, sizeof title, "%s/%s,bf=%g", ours, row + strlen(peer) + 1, e->bfs[k]);
            dat_ctx c = { a, b, na, nb, 1 };
            if (!(rc = atomic_write(file, plot_write_dat, &c))) plot_add_series(&s, file, title, plot_method_color(row), plot_dash_of(e->bfs[k]));
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
    return plot_render(e, "speedup_vs_n.gp", name, &s, ttl, ylab, 1, 0);     /* key below the frame, as every figure */
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

/* The scripts are an input: every one the figures use must be there
 * before a data file is written (a missing GPDIR wrote plots/data first). */
static int check_scripts(const char *gpdir)
{
    static const char *const scripts[] = { "time_vs_n.gp", "speedup_vs_n.gp", "crossover_marks.gp", "fig5.gp",
                                           "panels.gp", "table3.gp" };
    if (strchr(gpdir, '\''))
        return cli_error("plot", EXIT_USAGE, "'%s': a path with a single quote cannot go to gnuplot", gpdir);
    for (size_t k = 0; k < sizeof scripts / sizeof *scripts; k++) {
        char gp[4400];
        snprintf(gp, sizeof gp, "%s/%s", gpdir, scripts[k]);
        if (access(gp, R_OK) != 0)
            return cli_error("plot", EXIT_USAGE, "--scripts %s: %s: %s (GPDIR holds the gnuplot scripts of plots/)",
                             gpdir, gp, strerror(errno));
    }
    return 0;
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
    char gpdir[4200];
    data_path(gpdir, sizeof gpdir, "plots");
    e.gpdir = gpdir;
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
    if (check_scripts(e.gpdir)) return EXIT_USAGE;
    /* DIR is an input: it must be a results directory already; nothing is
     * created when it is not */
    struct stat sb;
    if (stat(dir, &sb)) return cli_error("plot", EXIT_USAGE, "results directory '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return cli_error("plot", EXIT_USAGE, "'%s' is not a directory (plot reads a results directory)", dir);
    char *tpath = results_path(dir, TIMINGS_CSV), *apath = results_path(dir, ACCURACY_CSV);
    int have_acc = apath && access(apath, F_OK) == 0;
    if (have_acc) {   /* a malformed accuracy.csv refused before any figure is drawn */
        csvlog t;
        int arc = csvlog_read(&t, apath, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY);
        csvlog_close(&t);
        if (arc) { free(apath); free(tpath); return cli_lib_error("plot", EXIT_USAGE); }
    }
    free(apath);
    if (!tpath) return cli_error("plot", EXIT_FAIL, "out of memory");
    if (access(tpath, F_OK) && !have_acc) {
        cli_error("plot", EXIT_USAGE, "'%s' holds neither %s nor %s: not a results directory", dir, TIMINGS_CSV,
                  ACCURACY_CSV);
        free(tpath);
        return EXIT_USAGE;
    }
    timing_row *rows = NULL;
    int nrows = 0, status = EXIT_FAIL;
    char *od = NULL, *dd = NULL;
    if (access(tpath, R_OK) == 0) {
        /* the directory, so the per-batch samples (samples.csv) come along */
        if (timing_rows_load(dir, &rows, &nrows)) { status = cli_lib_error("plot", EXIT_USAGE); goto done; }
    } else {
        printf("plot: no %s; only accuracy can be plotted\n", tpath);
    }
    /* DIR2 is an input too: read before anything is written */
    if (with && timing_rows_load(with, &wrows, &e.nwrows)) { status = cli_lib_error("plot", EXIT_USAGE); goto done; }
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
    qsort(e.bfs, (size_t)e.nbf, sizeof e.bfs[0], plot_cmp_double);
    build_label(dir, e.label, sizeof e.label);
    if (with) {
        e.wrows = wrows;
        build_label(with, e.wlabel, sizeof e.wlabel);
        if (!strcmp(e.wlabel, e.label)) snprintf(e.wlabel + strlen(e.wlabel), sizeof e.wlabel - strlen(e.wlabel), "(2)");
    }
    plot_load_crossovers(&e, dir);
    if (plot_load_probes(&e, dir)) { cli_lib_error("plot", 0); goto done; }
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

