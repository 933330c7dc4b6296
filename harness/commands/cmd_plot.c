/* rbdiff plot DIR: the paper's figures from a results directory.  Each
 * figure writes one data file per series into DIR/plots/data/ and runs a
 * gnuplot script of plots/ (parameterised by files, titles and styles); a
 * figure whose data is missing is skipped with a note.  This file: the
 * options and the inputs; the figures are the plot wing's (plot.h). */
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
    "has one colour in every figure (harness/measure/method_facts.c).\n"
    "A figure without data is skipped with a note.\n";

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

/* The flags.  0 to go on, else the exit status (-1: --help). */
static int read_args(int argc, char **argv, plot_env *e, const char **outdir, const char **with)
{
    static const struct option opts[] = { { "out", required_argument, 0, 'o' }, { "scripts", required_argument, 0, 's' },
                                          { "gnuplot", required_argument, 0, 'g' }, { "help", no_argument, 0, 'h' },
                                          { "with", required_argument, 0, 'w' },
                                          { 0, 0, 0, 0 } };
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (ch) {
        case 'h': fputs(help, stdout); return -1;
        case 'o': *outdir = optarg; break;
        case 's': e->gpdir = optarg; break;
        case 'g': e->gnuplot = optarg; break;
        case 'w': *with = optarg; break;
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
    if (*outdir && strchr(*outdir, '\'')) return cli_error("plot", EXIT_USAGE, "'%s': a path with a single quote cannot go to gnuplot", *outdir);
    return check_scripts(e->gpdir) ? EXIT_USAGE : 0;
}

/* DIR is an input: it must be a results directory already (nothing is
 * created when it is not), its accuracy.csv well-formed; *has_timings
 * when it holds timings.csv.  0 or the exit status. */
static int check_dir(const char *dir, int *has_timings)
{
    struct stat sb;
    if (stat(dir, &sb)) return cli_error("plot", EXIT_USAGE, "results directory '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return cli_error("plot", EXIT_USAGE, "'%s' is not a directory (plot reads a results directory)", dir);
    char *tpath = results_path(dir, TIMINGS_CSV), *apath = results_path(dir, ACCURACY_CSV);
    int have_acc = apath && access(apath, F_OK) == 0, status = 0;
    if (have_acc) {   /* a malformed accuracy.csv refused before any figure is drawn */
        csvlog t;
        int arc = csvlog_read(&t, apath, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY);
        csvlog_close(&t);
        if (arc) status = cli_lib_error("plot", EXIT_USAGE);
    }
    if (!status && !tpath) status = cli_error("plot", EXIT_FAIL, "out of memory");
    if (!status && access(tpath, F_OK) && !have_acc)
        status = cli_error("plot", EXIT_USAGE, "'%s' holds neither %s nor %s: not a results directory", dir,
                           TIMINGS_CSV, ACCURACY_CSV);
    *has_timings = !status && access(tpath, R_OK) == 0;
    if (!status && !*has_timings) printf("plot: no %s; only accuracy can be plotted\n", tpath);
    free(apath);
    free(tpath);
    return status;
}

/* What every figure reads: the rows' bf, the builds' labels, Fig. 7's
 * crossovers and probes, the N axis. */
static int set_up(plot_env *e, const char *dir, const char *with)
{
    for (int i = 0; i < e->nrows; i++) {
        if (!isfinite(e->rows[i].bf)) continue;
        int j = 0;
        while (j < e->nbf && e->bfs[j] != e->rows[i].bf) j++;
        if (j == e->nbf && e->nbf < 16) e->bfs[e->nbf++] = e->rows[i].bf;
    }
    qsort(e->bfs, (size_t)e->nbf, sizeof e->bfs[0], plot_cmp_double);
    build_label(dir, e->label, sizeof e->label);
    if (with) {
        build_label(with, e->wlabel, sizeof e->wlabel);
        if (!strcmp(e->wlabel, e->label)) snprintf(e->wlabel + strlen(e->wlabel), sizeof e->wlabel - strlen(e->wlabel), "(2)");
    }
    plot_load_crossovers(e, dir);
    if (plot_load_probes(e, dir)) return cli_lib_error("plot", EXIT_FAIL);
    for (int i = 0; i < e->nrows && e->xmax > 0; i++)     /* the marks widen the axis, never cut the data */
        if (isfinite(e->rows[i].bf) && 1.1 * e->rows[i].N > e->xmax) e->xmax = 1.1 * e->rows[i].N;
    return 0;
}

/* The set's colours: every method of both builds' timings (accuracy's own
 * names join as its figures meet them). */
static int palette_of(plot_palette *p, const timing_row *rows, int n, const timing_row *wrows, int nw)
{
    const char **names = malloc(sizeof *names * ((size_t)n + (size_t)nw + 1));
    if (!names) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) names[i] = rows[i].method;
    for (int i = 0; i < nw; i++) names[n + i] = wrows[i].method;
    int rc = plot_palette_build(p, names, n + nw);
    free(names);
    return rc;
}

/* Every figure in turn. */
static int draw(const plot_env *e, const char *dir)
{
    static const char *const f5id[] = { "idsva", "pin26", "rneacr" }, *const f5fd[] = { "fdsva", "pin26-fd", "abacr" };
    if (plot_time_figures(e) ||
        plot_fig5(e, "fig5_id", "ID derivatives on robots (Fig. 5 analogue; label: time / time of idsva in the same rounds and build)", f5id, 3) ||
        plot_fig5(e, "fig5_fd", "FD derivatives on robots (Fig. 5 analogue; label: time / time of fdsva in the same rounds and build)", f5fd, 3) ||
        plot_all_times(e) || plot_peers(e, dir) || plot_accuracy(e, dir))
        return cli_lib_error("plot", EXIT_FAIL);
    return EXIT_OK;
}

int cmd_plot(int argc, char **argv)
{
    plot_env e;
    memset(&e, 0, sizeof e);
    e.gnuplot = "gnuplot";
    char gpdir[4200];
    data_path(gpdir, sizeof gpdir, "plots");
    e.gpdir = gpdir;
    const char *outdir = NULL, *with = NULL;
    timing_row *rows = NULL, *wrows = NULL;
    char *od = NULL, *dd = NULL;
    int has_timings = 0, status = read_args(argc, argv, &e, &outdir, &with);
    if (status) return status < 0 ? EXIT_OK : status;
    const char *dir = argv[optind];
    if ((status = check_dir(dir, &has_timings))) return status;
    /* the directory, so the per-batch samples (samples.csv) come along;
     * DIR2 is an input too: read before anything is written */
    if ((has_timings && timing_rows_load(dir, &rows, &e.nrows)) || (with && timing_rows_load(with, &wrows, &e.nwrows)))
        status = cli_lib_error("plot", EXIT_USAGE);
    if (!status && (!(od = outdir ? strdup(outdir) : results_path(dir, "plots")) || !(dd = results_path(od, "data"))))
        status = cli_error("plot", EXIT_FAIL, "out of memory");
    int mk = status ? RBD_OK : mkdir_p(dd);     /* a read-only place is the input's (atomicio.h): 2 */
    if (mk) status = cli_lib_error("plot", mk == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL);
    e.outdir = od;
    e.datadir = dd;
    e.rows = rows;
    e.wrows = with ? wrows : NULL;
    plot_palette pal;
    memset(&pal, 0, sizeof pal);
    if (!status && (status = palette_of(&pal, rows, e.nrows, e.wrows, e.nwrows))) status = cli_lib_error("plot", EXIT_FAIL);
    e.pal = &pal;
    if (!status) status = set_up(&e, dir, with);
    if (!status) status = draw(&e, dir);
    plot_palette_free(&pal);
    free(rows);
    free(wrows);
    free(od);
    free(dd);
    return status;
}
