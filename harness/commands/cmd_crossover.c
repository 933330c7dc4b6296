/* rbdiff crossover A B: the smallest N at which A becomes faster than B. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "measure/crossover_search.h"
#include "store/meta.h"

static const char help[] =
    "Usage: rbdiff crossover A B [--bf LIST] [--range LO:HI] [--out DIR] [options]\n\n"
    "Finds the smallest N in [LO, HI] at which method A is faster than B on\n"
    "autotree:N,bf, by bisection over N.  At every probe A and B are timed in\n"
    "pairs (alternating order) and a one-sided sign test decides once one\n"
    "method wins improbably often under 'equally fast' (p <= --alpha); else\n"
    "more pairs, up to --max-reps, after which the probe is 'unresolved'.\n"
    "The confidence printed is 1 - the sum of the decisions' p-values.\n\n"
    "  --bf LIST          branching factors (default 1), one search each\n"
    "  --range LO:HI      N range (default 2:200)\n"
    "  --alpha P          per-decision error (default 0.01)\n"
    "  --min-reps R       pairs before the first test (default 7)\n"
    "  --max-reps R       pairs before giving up on a probe (default 41)\n"
    "  --out DIR          append rows to DIR/crossover.csv, each probe's pairs summarised to\n"
    "                     DIR/crossover_probes.csv (a rerun skips done rows)\n"
    "  --skew X --taper X --seed S --pool P --batch-ms MS --pin CPU --blas-threads N\n"
    "  --minv KIND      M^-1 of the FD methods: analytic (default), ltdl, lapack\n"
    "  --fdsva-crossover N  fdsva: DMM below this dense size of dID/du (nv on a chain), the\n"
    "                   factored product at and above (0: built-in)\n"
    "  -h, --help\n\n"
    "crossover.csv: A, B, bf, range, N_cross, bracket_lo, bracket_hi, status\n"
    "(found | at-lo | none | unresolved@N), probes, repetitions, confidence.\n";

typedef struct {
    sweep_config c;
    xo_opts xo;
    const char *out;
    const rbd_method *m[2];     /* A, B */
} xo_args;

/* crossover's own flags: --out, the search's --alpha, --min-reps,
 * --max-reps, and --range (the config's crossover_range, as
 * --crossover-range sets it). */
static int take(int ch, char *arg, void *ctx)
{
    xo_args *a = ctx;
    long v;
    switch (ch) {
    case 'o': a->out = arg; break;
    case 'a': if (cli_num_in("crossover", "--alpha", arg, "()", 0, 0.5, &a->xo.alpha)) return EXIT_USAGE; break;
    case 'r': if (cli_int("crossover", "--min-reps", arg, 1, 10000, &v)) return EXIT_USAGE; a->xo.min_reps = (int)v; break;
    case 'R': if (cli_int("crossover", "--max-reps", arg, 1, 100000, &v)) return EXIT_USAGE; a->xo.max_reps = (int)v; break;
    default:    /* 'g' */
        if (sweep_config_set(&a->c, "crossover_range", arg, "--range")) return cli_lib_error("crossover", EXIT_USAGE);
    }
    return 0;
}

/* The flags: A and B, the search's options, the sweep keys.  0 to go on,
 * else the exit status (-1: --help). */
static int read_args(int argc, char **argv, xo_args *a)
{
    static const struct option own[] = {
        { "out", required_argument, 0, 'o' }, { "alpha", required_argument, 0, 'a' },
        { "min-reps", required_argument, 0, 'r' }, { "max-reps", required_argument, 0, 'R' },
        { "range", required_argument, 0, 'g' } };
    const cli_flags fl = { .no_config = 1, .shortopts = "o:", .own = own, .nown = 5, .take = take, .ctx = a };
    int status = cli_config_args("crossover", argc, argv, help, &fl, &a->c, NULL);
    if (status) return status;
    if (argc - optind != 2) { cli_error("crossover", 0, "needs two methods, A and B"); return cli_usage_error("crossover"); }
    if (a->xo.max_reps < a->xo.min_reps) return cli_error("crossover", EXIT_USAGE, "--max-reps must be >= --min-reps");
    for (int k = 0; k < 2; k++) {
        cli_target t;
        if (cli_find_target("crossover", argv[optind + k], &t)) return EXIT_USAGE;
        if (!t.method)
            return cli_error("crossover", EXIT_USAGE, "'%s' is a base algorithm; crossover compares methods", argv[optind + k]);
        a->m[k] = t.method;
    }
    a->xo.lo = a->c.xo_lo;
    a->xo.hi = a->c.xo_hi;
    return 0;
}

int cmd_crossover(int argc, char **argv)
{
    xo_args a = { .out = NULL };
    sweep_config_init(&a.c);
    xo_opts_from_config(&a.xo, &a.c);
    char *cl = meta_cmdline(cli_argc, cli_argv);
    int status = read_args(argc, argv, &a), bad_input = 0;
    if (!status) {
        cli_catch_interrupt();
        int rc = crossover_search(a.out, cl, a.m[0], a.m[1], &a.c, &a.xo, &cli_interrupted, stdout, &bad_input);
        if (rc < 0) status = cli_lib_error("crossover", bad_input ? EXIT_USAGE : EXIT_FAIL);
        else if (cli_interrupted)
            status = cli_error("crossover", EXIT_INTERRUPTED, "interrupted; finished rows are on disk");
    }
    free(cl);
    sweep_config_free(&a.c);
    return status < 0 ? EXIT_OK : status;
}
