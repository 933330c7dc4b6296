/* rbdiff plot DIR: the paper's figures from a results directory.  Each
 * figure writes one data file per series into DIR/plots/data/ and runs a
 * gnuplot script of plots/ (parameterised by files, titles and styles); a
 * figure whose data is missing is skipped with a note.  This file: the
 * options; the inputs checked and the figures are the plot wing's
 * (plot_run.h, plot.h). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands/cli.h"
#include "common/datadir.h"
#include "plot/plot_run.h"

static const char help[] =
    "Usage: rbdiff plot DIR [--with DIR2] [--out PLOTDIR] [--scripts GPDIR] [--gnuplot PROG]\n\n"
    "Renders PNG and SVG figures from the results directory DIR into\n"
    "PLOTDIR (default DIR/plots), with the gnuplot scripts in GPDIR (default\n"
    "plots/ of the data root that rbdiff --version prints: the source tree,\n"
    "or share/rbdiff of an installed rbdiff).  Serial chain solid, bf = 2 dashed, bf = 5\n"
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
    "  so_times, so_id_speedup, so_fd_speedup   second order: times and paired speed-ups\n"
    "  so_xo_A_vs_B   each second-order crossover search of crossover.csv: t(B) / t(A)\n"
    "                 at its probes and the sweep's N, N_cross or bracket marked per bf\n"
    "Speedups and peer ratios are paired, as in tables.md and vs-PEER.md: the\n"
    "median over the rounds of the per-round ratio (median of medians where a\n"
    "run kept no per-batch samples).\n"
    "  accuracy_OUT   RMS relative error vs N from accuracy.csv, one figure per\n"
    "                 output (dtau_dq, dtau_dv, dqdd_dq, ..., tau, M, Minv, qdd): a row\n"
    "                 of panels per method family, a column per bf, one y range\n"
    "Speed-ups carry the interquartile band of the per-round ratios; a method\n"
    "has one colour in every figure (harness/measure/method_facts.c).\n"
    "A figure without data is skipped with a note.\n";

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
    return plot_check_scripts(e->gpdir) ? cli_lib_error("plot", EXIT_USAGE) : 0;
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
    int has_timings = 0, bad_input = 0, status = read_args(argc, argv, &e, &outdir, &with);
    if (status) return status < 0 ? EXIT_OK : status;
    const char *dir = argv[optind];
    if (plot_check_dir(dir, &has_timings, &bad_input) || plot_run(&e, dir, with, outdir, has_timings, &bad_input))
        return cli_lib_error("plot", bad_input ? EXIT_USAGE : EXIT_FAIL);
    return EXIT_OK;
}
