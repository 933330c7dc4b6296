/* rbdiff time: times methods on autoTree models and prints a table with
 * ratios to a baseline (issue 3, item 5). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "measure/time_run.h"
#include "report/time_table.h"

static const char help[] =
    "Usage: rbdiff time (--N LIST [--bf LIST] | --robots LIST | --model SPEC)... [--methods LIST]\n"
    "                   [--baseline NAME] [options]\n\n"
    "Times every applicable registered method (and the base algorithms) on\n"
    "autotree:N=..,bf=.. for each bf and N, and prints median and min ns per\n"
    "call, the inter-quartile range, and the ratio to a baseline (default\n"
    "idsva for ID methods, fdsva for FD methods).  The methods of one model\n"
    "are timed together, one batch of each per round, and the ratio is the\n"
    "median over rounds of the two batches' ns per call (paired).  Where\n"
    "flops per call are known (harness/measure/flops.h: counted from the algorithm),\n"
    "the achieved GFLOP/s and its fraction of what OpenBLAS dgemm (n = nv)\n"
    "reaches in the same run.\n"
    "Nothing is written to disk; `rbdiff sweep` records results.\n\n"
    "  --N LIST         e.g. 10,50,100 or 10:10:100 (A:STEP:B)\n"
    "  --bf LIST        branching factors (default 1)\n"
    "  --methods LIST   names or 'all' (default all; see rbdiff methods)\n"
    "  --base no        leave out the base algorithms\n"
    "  --model SPEC     time on this model as well (repeatable)\n"
    "  --robots LIST    robots too: ur5,hyq:freeflyer (tests/models/NAME.urdf) or paths,\n"
    "                   each with model options after ':' (my.urdf:nonphysical:freeflyer)\n"
    "  --peers LIST     other libraries timed in the same rounds: pinocchio, mujoco (the newest\n"
    "                   version built), NAME@VERSION (pinocchio@3.7.0), all (every version)\n"
    "                   (modules in $RBD_PEER_DIR, default build/peers; scripts/peers builds\n"
    "                   them); each is checked against ours on the model first\n"
    "  --baseline NAME  ratios to NAME (for its kind)\n"
    "  --skew X --taper X --seed S --pool P --batches K --batch-ms MS --warmup-ms MS\n"
    "  --pin CPU        pin to one CPU;  --blas-threads N (default 1)\n"
    "  --minv KIND      M^-1 of the FD methods: analytic (default), ltdl, lapack\n"
    "  --fdsva-crossover N  fdsva: DMM below this dense size of dID/du (nv on a chain), the\n"
    "                   factored product at and above (0: built-in)\n"
    "  --fdsva-dmm measure|rule  fdsva's DMM below it: the faster of the sparse loop and\n"
    "                   dgemm timed at init (default), or the fixed size rule\n"
    "  --zeros-preset yes   ID outputs cleared once and reused, so idsva and pin26 skip\n"
    "                   their structural zeros as Pinocchio does (default no)\n"
    "  --counters no    skip hardware counters\n"
    "  --roofline       also time OpenBLAS dgemm (n = nv) when --methods leaves it out\n"
    "                   (it is part of the default list)\n"
    "  -h, --help\n";

/* time's own flags: --baseline NAME, --roofline. */
static int take(int ch, char *arg, void *ctx)
{
    time_plan *tp = ctx;
    if (ch == 'B') tp->baseline = arg;
    else tp->roofline = 1;
    return 0;
}

/* The flags, something to time and a known baseline.  0 to go on, else
 * the exit status (-1: --help). */
static int read_args(int argc, char **argv, time_plan *tp)
{
    static const struct option own[] = { { "baseline", required_argument, 0, 'B' }, { "roofline", no_argument, 0, 'R' } };
    const cli_flags fl = { .no_config = 1, .own = own, .nown = 2, .take = take, .ctx = tp };
    int status = cli_config_args("time", argc, argv, help, &fl, &tp->c, NULL);
    if (status) return status;
    if (optind < argc) { cli_error("time", 0, "unexpected argument '%s'", argv[optind]); return cli_usage_error("time"); }
    const sweep_config *c = &tp->c;
    if (!c->nN && !c->nmodels && !c->nrobots)
        return cli_error("time", EXIT_USAGE, "nothing to time: give --N LIST (autoTree sizes), --robots LIST or --model SPEC");
    cli_target t;
    if (tp->baseline && cli_find_target("time", tp->baseline, &t)) return EXIT_USAGE;
    return 0;
}

int cmd_time(int argc, char **argv)
{
    time_plan tp;
    memset(&tp, 0, sizeof tp);
    sweep_config_init(&tp.c);
    int status = read_args(argc, argv, &tp), bad_input = 0, said = 0;
    if (!status && time_plan_make(&tp, "time", &bad_input))
        status = cli_lib_error("time", bad_input ? EXIT_USAGE : EXIT_FAIL);
    if (!status) {
        time_sink sink = time_table_sink("time");
        cli_catch_interrupt();
        if (time_run(&tp, "time", &cli_interrupted, &sink, &said))
            status = said ? EXIT_FAIL : cli_lib_error("time", EXIT_FAIL);
    }
    if (!status) {
        time_table_legend(&tp);
        if (cli_interrupted) status = cli_error("time", EXIT_INTERRUPTED, "interrupted");
    }
    time_plan_free(&tp);
    return status < 0 ? EXIT_OK : status;
}
