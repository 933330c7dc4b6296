/* rbdiff sweep: methods x bf x N (x extra models) into a results directory,
 * interrupt-safe and resumable: its flags, then the sweep's run
 * (commands/sweep_run.h: the plan, the set, the cells, crossovers and the
 * accuracy audit, then the derived files and the tally). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "commands/sweep_run.h"
#include "store/meta.h"

static const char help[] =
    "Usage: rbdiff sweep [--config FILE] [--out DIR] [--KEY VALUE ...]\n\n"
    "Times every method (default: all registered and the base algorithms) on\n"
    "autotree:N,bf for each bf and N (and any extra --model and --robots), then\n"
    "runs the configured crossover searches, then the accuracy audit when\n"
    "accuracy_N or accuracy_model is set (see rbdiff accuracy --help; rows in\n"
    "DIR/accuracy.csv, the summary in tables.md).  Each finished measurement is appended to\n"
    "DIR/timings.csv and flushed to disk at once; Ctrl-C stops after the current\n"
    "one.  Rerunning the same sweep into the same DIR resumes: rows already\n"
    "there are skipped, a line cut short by a kill is dropped and re-measured.\n"
    "At the end tables.md, benchmarks.json (Google Benchmark format) and\n"
    "meta.json are (re)written atomically.\n\n"
    "  -c, --config FILE  key = value file (harness/sweeps/default.conf shows every key);\n"
    "                     flags given as well override its values\n"
    "  -o, --out DIR      results directory (default results/<date>-<name>)\n"
    "  --N LIST --bf LIST --methods LIST --base yes|no --model SPEC --skew X --taper X\n"
    "  --seed S --pool P --batches K --batch-ms MS --warmup-ms MS --pin CPU\n"
    "  --blas-threads N --counters yes|no --name NAME\n"
    "  --crossover 'A B' --crossover-range LO:HI\n"
    "  --robots LIST      e.g. ur5,hyq:freeflyer (tests/models/NAME.urdf), timed and audited\n"
    "  --robot-methods LIST  only these methods (and PEER.FUNCTIONs) on the robots\n"
    "  --so-methods LIST  second-order methods (idsva-so, ..., all, none), timed with the peers'\n"
    "                     second-order functions on models with nv <= --so-nv-max (0: all)\n"
    "                     and audited where nv <= --accuracy-so-nv-max (0: all)\n"
    "  --peers LIST       pinocchio, mujoco, NAME@VERSION, all (every version) or none: other\n"
    "                     libraries timed in the same rounds,\n"
    "                     each checked against ours on every model first (DIR/peer_checks.csv)\n"
    "  --accuracy-N LIST --accuracy-bf LIST --accuracy-skew X --accuracy-taper X\n"
    "  --accuracy-model SPEC --accuracy-states K --cache DIR   the accuracy audit\n"
    "  --minv analytic|ltdl|lapack  --fdsva-crossover N   FD-method options (meta.json)\n"
    "  --fdsva-dmm measure|rule   fdsva's DMM below the crossover: timed at init, or the size rule\n"
    "  --zeros-preset yes|no   timed ID outputs keep their structural zeros between calls\n"
    "  --shard K/N        measure only shard K of N: cell c (timings in sweep order,\n"
    "                     then crossovers) when c mod N = K-1; `rbdiff merge` joins shards\n"
    "  -h, --help\n\n"
    "Lists: 1,2,5 or ranges A:B, A:STEP:B.  Exit status: 0 done, 1 the run\n"
    "failed (a measurement, an unwritable DIR), 2 the input is wrong (flags,\n"
    "config, model specs or files, a DIR of another build), 130 interrupted\n"
    "(rerun to resume).\n";

/* --shard K/N, sweep's own flag. */
static int take_shard(int ch, char *arg, void *sh)
{
    (void)ch;
    return shard_parse(arg, sh) ? cli_lib_error("sweep", EXIT_USAGE) : 0;
}

int cmd_sweep(int argc, char **argv)
{
    static const struct option shard_opt[] = { { "shard", required_argument, 0, 'S' } };
    sweep_config c;
    sweep_config_init(&c);
    const char *out = NULL;
    shard_spec sh = { 1, 1 };
    sweep_plan p;
    memset(&p, 0, sizeof p);
    sweep_set set;
    memset(&set, 0, sizeof set);
    results_lock lk = { -1, NULL, NULL, 0 };
    perfctr *pc = NULL;
    sweep_tally t = { 0, 0 };
    char *dir = NULL, *cl = NULL;
    const cli_flags fl = { .own = shard_opt, .nown = 1, .take = take_shard, .ctx = &sh };
    int bad_input = 0, status = cli_config_args("sweep", argc, argv, help, &fl, &c, &out);
    if (!status && sweep_check("sweep", &c, sh, &p, &bad_input)) status = cli_lib_error("sweep", bad_input ? EXIT_USAGE : EXIT_FAIL);
    if (!status && (!(dir = out ? strdup(out) : cli_results_dir(c.name)) || !(cl = meta_cmdline(cli_argc, cli_argv))))
        status = cli_error("sweep", EXIT_FAIL, "out of memory");
    if (!status && sweep_open("sweep", &p, dir, cl, &lk, &set, &pc, &bad_input))
        status = cli_lib_error("sweep", bad_input ? EXIT_USAGE : EXIT_FAIL);
    if (!status) {
        cli_catch_interrupt();
        int rc = sweep_measure("sweep", &p, dir, &set, pc, &cli_interrupted, &t);
        status = rc == SWEEP_REPORTED ? EXIT_FAIL : rc ? cli_lib_error("sweep", EXIT_FAIL) : sweep_finish(dir, cl, &set, &t);
    }
    results_lock_release(&lk, status == EXIT_USAGE);
    perfctr_close(pc);
    sweep_set_close(&set);
    sweep_plan_free(&p);
    free(cl);
    free(dir);
    sweep_config_free(&c);
    return status < 0 ? EXIT_OK : status;
}
