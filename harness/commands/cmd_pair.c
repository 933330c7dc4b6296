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

/* The verdicts' table on stdout and --out's tables; exit 1 on a cell
 * slower than the reference. */
static int judge(const pair_args *a, const pair_cell *cells, int nc)
{
    pair_judging jd = { a->labels, a->nb, a->ref, a->rounds, a->threshold, a->alpha };
    int slower = pair_print_table(&jd, cells, nc);
    if (a->out && pair_write_tables(a->out, &jd, cells, nc)) return cli_lib_error("pair", EXIT_FAIL);
    if (slower) fprintf(stderr, "rbdiff pair: %d cell%s SLOWER than %s\n", slower, slower > 1 ? "s" : "", a->labels[a->ref]);
    return slower ? EXIT_FAIL : EXIT_OK;
}

int cmd_pair(int argc, char **argv)
{
    static const struct option extra[] = { { "build", required_argument, 0, 'b' }, { "reference", required_argument, 0, 'r' },
                                           { "rounds", required_argument, 0, 'k' }, { "threshold", required_argument, 0, 't' },
                                           { "alpha", required_argument, 0, 'a' }, { "out", required_argument, 0, 'o' },
                                           { "instances", required_argument, 0, 'i' }, { "help", no_argument, 0, 'h' } };
    struct option *opts = sweep_options(extra, 8);
    if (!opts) return cli_error("pair", EXIT_FAIL, "out of memory");
    sweep_config c;
    sweep_config_init(&c);
    pair_args a = { .rounds = 18, .instances = 3, .threshold = 0.03, .alpha = 0.05 };
    int ch, status = EXIT_USAGE;
    long K = 18;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("pair", 0); goto done; }
            continue;
        }
        double x;
        switch (ch) {
        case 'b': if (pair_add_build(&a, optarg)) { cli_lib_error("pair", 0); goto done; } break;
        case 'r': a.reference = optarg; break;
        case 'k': if (cli_int("pair", "--rounds", optarg, 1, PAIR_MAX_ROUNDS, &K)) goto done; a.rounds = (int)K; break;
        case 't':
            if (cli_num("pair", "--threshold", optarg, &x)) goto done;
            if (!(x >= 0 && x < 100)) { cli_error("pair", 0, "--threshold %s: want a percentage in [0, 100)", optarg); goto done; }
            a.threshold = x / 100;
            break;
        case 'a':
            if (cli_num("pair", "--alpha", optarg, &x)) goto done;
            if (!(x > 0 && x < 1)) { cli_error("pair", 0, "--alpha %s: want a level in (0, 1)", optarg); goto done; }
            a.alpha = x;
            break;
        case 'o': a.out = optarg; break;
        case 'i':
            if (cli_int("pair", "--instances", optarg, 1, PAIR_MAX_INSTANCES, &K)) goto done;
            a.instances = (int)K;
            break;
        default: cli_bad_option("pair", ch, argv); goto done;
        }
    }
    if (optind < argc) { cli_error("pair", 0, "unexpected argument '%s'", argv[optind]); goto done; }
    pair_result r;
    int bad_input = 0;
    cli_catch_interrupt();
    int rc = pair_run("pair", &a, &c, &cli_interrupted, &r, &bad_input);
    if (rc == 1) status = cli_error("pair", EXIT_INTERRUPTED, "interrupted; nothing written");
    else status = rc ? cli_lib_error("pair", bad_input ? EXIT_USAGE : EXIT_FAIL) : judge(&a, r.cells, r.nc);
    pair_result_free(&r);
done:
    sweep_config_free(&c);
    free(opts);
    return status;
}
