/* rbdiff pair: several builds timed in the same rounds (measure/pairing.h),
 * each build's time over the reference build's per round; exit 1 on a
 * regression. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "measure/pair_run.h"
#include "report/pair_table.h"

static const char help[] =
    "Usage: rbdiff pair --build LABEL=PATH --build LABEL=PATH [...] --methods LIST\n"
    "                   (--N LIST [--bf LIST] | --model SPEC | --robots LIST) [options]\n\n"
    "Times the same methods on the same models in several builds of rbdiff\n"
    "(compilers, flags, commits) in the same rounds.  Each PATH is started once as\n"
    "`PATH worker` (a long-lived process, pinned with --pin as `rbdiff time` is);\n"
    "each worker warms up and calibrates every cell, then every round asks each\n"
    "build for one batch of each cell, the builds' order rotating; a batch is 5\n"
    "slices back to back and counts the fastest (harness/measure/worker.h).  Per method and\n"
    "model it prints each build's median over the rounds of its time over the\n"
    "reference build's in the same round, the quartiles of that ratio, w/K (the\n"
    "rounds in which the build was the slower), the one-sided sign test and, where\n"
    "the machine has hardware counters, the median ratio of instructions per call.\n"
    "A cell is SLOWER when the median ratio exceeds 1 + threshold and the sign test\n"
    "gives p <= alpha; FASTER likewise below 1 - threshold.\n\n"
    "  --build LABEL=PATH  a build's rbdiff program (repeatable, 2 to 16)\n"
    "  --reference LABEL   the build the others are divided by (default the first)\n"
    "  --rounds K          rounds (default 18, at most 201)\n"
    "  --instances M       worker processes per build (default 3, at most 8): round k\n"
    "                      pairs different processes, so no one process's memory layout\n"
    "                      decides the ratio (harness/measure/pairing.h)\n"
    "  --threshold PCT     regression threshold on the median ratio (default 3)\n"
    "  --alpha P           sign-test level (default 0.05)\n"
    "  --out DIR           also write DIR/pair.csv (one row per cell and build) and\n"
    "                      DIR/pair_samples.csv (every batch: ns and instructions per call)\n"
    "  --methods LIST --N LIST --bf LIST --model SPEC --robots LIST --skew X --taper X\n"
    "  --seed S --pool P --batch-ms MS --warmup-ms MS --pin CPU --counters no, and the\n"
    "  method options of `rbdiff time` (--minv, --fdsva-crossover, --fdsva-dmm,\n"
    "  --zeros-preset): passed to every worker\n"
    "  -h, --help\n\n"
    "Exit status: 0 no cell slower; 1 a cell SLOWER (a regression) or a worker\n"
    "failed; 2 the input is wrong; 130 interrupted.\n";

/* pair's own flags: the builds, the reference, rounds, instances, the
 * verdicts' threshold and level, --out. */
static int take(int ch, char *arg, void *ctx)
{
    pair_args *a = ctx;
    double x;
    long K;
    switch (ch) {
    case 'b': if (pair_add_build(a, arg)) return cli_lib_error("pair", EXIT_USAGE); break;
    case 'r': a->reference = arg; break;
    case 'k': if (cli_int("pair", "--rounds", arg, 1, PAIR_MAX_ROUNDS, &K)) return EXIT_USAGE; a->rounds = (int)K; break;
    case 't': if (cli_num_in("pair", "--threshold", arg, "[)", 0, 100, &x)) return EXIT_USAGE; a->threshold = x / 100; break;
    case 'a': if (cli_num_in("pair", "--alpha", arg, "()", 0, 1, &a->alpha)) return EXIT_USAGE; break;
    case 'o': a->out = arg; break;
    default: if (cli_int("pair", "--instances", arg, 1, PAIR_MAX_INSTANCES, &K)) return EXIT_USAGE; a->instances = (int)K;
    }
    return 0;
}

int cmd_pair(int argc, char **argv)
{
    static const struct option own[] = { { "build", required_argument, 0, 'b' }, { "reference", required_argument, 0, 'r' },
                                         { "rounds", required_argument, 0, 'k' }, { "threshold", required_argument, 0, 't' },
                                         { "alpha", required_argument, 0, 'a' }, { "out", required_argument, 0, 'o' },
                                         { "instances", required_argument, 0, 'i' } };
    sweep_config c;
    sweep_config_init(&c);
    pair_args a = { .rounds = 18, .instances = 3, .threshold = 0.03, .alpha = 0.05 };
    const cli_flags fl = { .no_config = 1, .own = own, .nown = 7, .take = take, .ctx = &a };
    int status = cli_config_args("pair", argc, argv, help, &fl, &c, NULL);
    if (!status && optind < argc) status = cli_error("pair", EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
    if (!status) {
        pair_result r;
        int bad_input = 0, slower = 0;
        cli_catch_interrupt();
        int rc = pair_run("pair", &a, &c, &cli_interrupted, &r, &bad_input);
        if (rc == 1) status = cli_error("pair", EXIT_INTERRUPTED, "interrupted; nothing written");
        else if (rc || (slower = pair_report(&a, &r)) < 0) status = cli_lib_error("pair", bad_input ? EXIT_USAGE : EXIT_FAIL);
        else if (slower)    /* a regression: exit 1 */
            status = cli_error("pair", EXIT_FAIL, "%d cell%s SLOWER than %s", slower, slower > 1 ? "s" : "", a.labels[a.ref]);
        pair_result_free(&r);
    }
    sweep_config_free(&c);
    return status < 0 ? EXIT_OK : status;
}
