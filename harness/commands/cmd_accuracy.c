/* rbdiff accuracy: every method against the MPFR reference (issue 5). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/accuracy_audit.h"
#include "commands/cli.h"
#include "store/meta.h"

static const char help[] =
    "Usage: rbdiff accuracy [--N LIST] [--bf LIST] [--robots LIST] [--model SPEC] [options]\n\n"
    "Scores every registered method (and the base algorithms) against the MPFR\n"
    "complex-step reference (256 bits, reference/README.md) on autoTree models\n"
    "(each bf x N) and robots, at --states random states per model.  The\n"
    "reference of each (model, state) is computed once and cached on disk, so a\n"
    "rerun costs only the methods.  Per method and output (ID: tau, dtau_dq,\n"
    "dtau_dv; FD: qdd, dqdd_dq, dqdd_dv, dqdd_dtau; base: tau, M, qdd, Minv;\n"
    "second-order methods: tau or qdd and their four tensors, against the\n"
    "second-order reference, cached the same way) one\n"
    "row goes to DIR/accuracy.csv, flushed at once (a rerun into DIR resumes),\n"
    "with the worst over the states of: term-wise RMS relative error (entries\n"
    "with |R_ij| > 1e-12 max|R|), max absolute error, normwise relative error,\n"
    "max |X| on the reference's structural zeros.  Per model, cond(M) goes to\n"
    "DIR/conditioning.csv.  Then DIR/accuracy.json and DIR/tables.md are written\n"
    "and the summary printed: per group the worst RMS relative error and the\n"
    "worst normwise error under cond(M) and u cond(M), cells marked ! where a\n"
    "method is more than 100x less accurate than the complex step on that output,\n"
    "and a list of those rows.\n\n"
    "  --N LIST         autoTree N, e.g. 10,100,500 (A:B, A:STEP:B ranges)\n"
    "  --bf LIST        branching factors (default 1)\n"
    "  --skew X         autoTree skew (default pi/3: gravity loads every joint)\n"
    "  --taper X        autoTree taper (default 0.99)\n"
    "  --robots LIST    e.g. ur5,hyq:freeflyer (tests/models/NAME.urdf) or paths\n"
    "  --model SPEC     another model (repeatable)\n"
    "  --methods LIST   names or 'all' (default all);  --base no: no base algorithms\n"
    "  --peers LIST     peers scored beside ours, as their timing rows name them\n"
    "                   (pinocchio@4.1.0.computeABADerivatives): pinocchio, mujoco,\n"
    "                   NAME@VERSION, all (every version built) or none (default);\n"
    "                   MuJoCo's finite differences at its step and at the best of\n"
    "                   a sweep over steps (rows .best_eps; DIR/peer_eps.csv)\n"
    "  --so-methods LIST  second-order methods too (idsva-so, ..., all), as --methods takes them\n"
    "  --so-nv-max N    second-order methods only on models with nv <= N (0, the default: all);\n"
    "                   their reference grows as nv^3 (cached, so only the first run pays)\n"
    "  --states K       random states per model (default 3);  --seed S (default 1)\n"
    "  --cache DIR      reference cache (default $RBD_CACHE_DIR, else ~/.cache/rbdiff)\n"
    "  -c, --config F   a sweep config: its accuracy_*, robots, methods, seed, cache keys\n"
    "  -o, --out DIR    results directory (default results/<date>-accuracy)\n"
    "  -h, --help\n\n"
    "Exit status: 0 done, 1 the run failed, 2 the input is wrong (flags, config,\n"
    "models, a DIR of another build), 130 interrupted (rerun to resume).\n";

/* flag -> config key */
static const char *const keymap[][2] = {
    { "N", "accuracy_N" }, { "bf", "accuracy_bf" }, { "skew", "accuracy_skew" }, { "taper", "accuracy_taper" },
    { "robots", "robots" }, { "model", "accuracy_model" }, { "methods", "methods" }, { "base", "base" },
    { "states", "accuracy_states" }, { "seed", "seed" }, { "cache", "cache" }, { "peers", "peers" },
    { "so-methods", "so_methods" }, { "so-nv-max", "accuracy_so_nv_max" },
};
enum { NMAP = sizeof keymap / sizeof keymap[0] };

int cmd_accuracy(int argc, char **argv)
{
    sweep_config c;
    sweep_config_init(&c);
    const char *out = NULL;
    char *dir = NULL, *cl = NULL;
    results_lock lk = { -1, NULL, NULL, 0 };
    const cli_flags fl = { .keymap = keymap, .nmap = NMAP };
    int bad_input = 0, status = cli_config_args("accuracy", argc, argv, help, &fl, &c, &out);
    if (!status && !c.nacc_N && !c.nacc_models && !c.nrobots) {
        cli_error("accuracy", 0, "nothing to audit: give --N LIST, --robots LIST or --model SPEC");
        status = cli_usage_error("accuracy");
    }
    if (!status && accuracy_models_check(&c, &bad_input))   /* 2 a bad spec, 1 a size the machine lacks */
        status = cli_lib_error("accuracy", bad_input ? EXIT_USAGE : EXIT_FAIL);
    if (!status && !(dir = out ? strdup(out) : cli_results_dir("accuracy")))
        status = cli_error("accuracy", EXIT_FAIL, "out of memory");
    if (!status && !(cl = meta_cmdline(cli_argc, cli_argv))) status = cli_error("accuracy", EXIT_FAIL, "out of memory");
    if (!status) {
        cli_catch_interrupt();
        int st = accuracy_audit(stdout, "accuracy", &c, dir, &lk, cl, &cli_interrupted, &bad_input);
        if (st < 0) status = cli_lib_error("accuracy", bad_input ? EXIT_USAGE : EXIT_FAIL);
        else if (st == 1) status = cli_error("accuracy", EXIT_INTERRUPTED, "interrupted; rerun to resume");
    }
    results_lock_release(&lk, status == EXIT_USAGE);
    free(cl);
    free(dir);
    sweep_config_free(&c);
    return status < 0 ? EXIT_OK : status;
}
