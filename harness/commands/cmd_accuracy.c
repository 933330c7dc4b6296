/* rbdiff accuracy: every method against the MPFR reference (issue 5). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "accuracy/accuracy_run.h"
#include "accuracy/accuracy_sweep.h"
#include "commands/cli.h"
#include "store/lock.h"
#include "store/meta.h"
#include "store/resume.h"
#include "plan/modelspec.h"
#include "report/report.h"
#include "report/report_accuracy.h"

static const char help[] =
    "Usage: rbdiff accuracy [--N LIST] [--bf LIST] [--robots LIST] [--model SPEC] [options]\n\n"
    "Scores every registered method (and the base algorithms) against the MPFR\n"
    "complex-step reference (256 bits, reference/README.md) on autoTree models\n"
    "(each bf x N) and robots, at --states random states per model.  The\n"
    "reference of each (model, state) is computed once and cached on disk, so a\n"
    "rerun costs only the methods.  Per method and output (ID: tau, dtau_dq,\n"
    "dtau_dv; FD: qdd, dqdd_dq, dqdd_dv, dqdd_dtau; base: tau, M, qdd, Minv;\n"
    "second-order methods: tau or qdd and their four tensors, against the\n"
    "second-order reference, computed per run and not cached) one\n"
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
    "                   their reference is not cached and grows as nv^3\n"
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
    struct option opts[NMAP + 4];
    memset(opts, 0, sizeof opts);
    for (int k = 0; k < NMAP; k++) opts[k] = (struct option){ keymap[k][0], required_argument, 0, 1000 + k };
    opts[NMAP] = (struct option){ "config", required_argument, 0, 'c' };
    opts[NMAP + 1] = (struct option){ "out", required_argument, 0, 'o' };
    opts[NMAP + 2] = (struct option){ "help", no_argument, 0, 'h' };
    sweep_config c;
    sweep_config_init(&c);
    const char *config = NULL, *out = NULL;
    char *dir = NULL;
    results_lock lk = { -1, NULL, NULL, 0 };
    int ch, status = EXIT_USAGE;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch == 'c') config = optarg;
        else if (ch == 'o') out = optarg;
        else if (ch < 1000) { cli_bad_option("accuracy", ch, argv); goto done; }
    }
    if (optind < argc) { cli_error("accuracy", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("accuracy"); goto done; }
    if (config) {
        int rc = sweep_config_read(&c, config);
        if (rc) { status = cli_lib_error("accuracy", EXIT_USAGE); goto done; }
        sweep_config_allow_override(&c);
    }
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1) {
        if (ch < 1000) continue;
        char where[64];
        snprintf(where, sizeof where, "--%s", keymap[ch - 1000][0]);
        if (sweep_config_set(&c, keymap[ch - 1000][1], optarg, where)) { cli_lib_error("accuracy", 0); goto done; }
    }
    if (!c.nacc_N && !c.nacc_models && !c.nrobots) {
        cli_error("accuracy", 0, "nothing to audit: give --N LIST, --robots LIST or --model SPEC");
        cli_usage_error("accuracy");
        goto done;
    }
    bench_model *bm = NULL;
    int nbm = 0;
    if (accuracy_models(&c, &bm, &nbm)) { cli_lib_error("accuracy", 0); goto done; }
    int bad = bench_models_check(bm, nbm) ? cli_lib_error("accuracy", EXIT_USAGE) : EXIT_OK;
    if (!bad && bench_so_sizes_check(&c, bm, nbm, 1)) bad = cli_lib_error("accuracy", EXIT_FAIL);
    free(bm);
    if (bad) { status = bad; goto done; }   /* 2 a bad spec, 1 a size the machine lacks */
    status = EXIT_FAIL;
    dir = out ? strdup(out) : cli_results_dir("accuracy");
    if (!dir) { cli_error("accuracy", 0, "out of memory"); goto done; }
    /* one writer for the whole run (lock.h); a directory to resume is an
     * input, and its rows were computed with settings that must be this
     * run's (resume.h) */
    json_t *ident = json_pack("{s:o}", "accuracy_settings", accuracy_identity(&c));
    char *lcl = meta_cmdline(cli_argc, cli_argv);
    int bad_input = 0, irc = ident ? resume_open(&lk, dir, lcl, ident, &bad_input) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(lcl);
    if (irc) { json_decref(ident); status = cli_lib_error("accuracy", bad_input ? EXIT_USAGE : EXIT_FAIL); goto done; }
    char *cl = meta_cmdline(cli_argc, cli_argv);
    int mrc = meta_write(dir, cl, ident);
    json_decref(ident);
    free(cl);
    if (mrc) { cli_lib_error("accuracy", 0); goto done; }
    cli_catch_interrupt();
    int st = accuracy_sweep("accuracy", &c, dir, &cli_interrupted);
    if (st < 0) { cli_lib_error("accuracy", 0); goto done; }
    /* tables.md: the timings of the directory (if any) and the audit */
    timing_row *rows = NULL;
    int nrows = 0;
    char *tp = results_path(dir, TIMINGS_CSV);
    FILE *tf = tp ? fopen(tp, "r") : NULL;
    if (tf) fclose(tf);
    if (tf && timing_rows_load(tp, &rows, &nrows)) { free(tp); cli_lib_error("accuracy", 0); goto done; }
    free(tp);
    int rc = report_write_tables(dir, rows, nrows);
    free(rows);
    if (rc) { cli_lib_error("accuracy", 0); goto done; }
    csvlog acc;
    int present = 0;
    if (accuracy_read(dir, &acc, &present)) { cli_lib_error("accuracy", 0); goto done; }
    csvlog cond;
    int have_cond = 0;
    if (present && conditioning_read(dir, &cond, &have_cond)) { csvlog_close(&acc); cli_lib_error("accuracy", 0); goto done; }
    if (present) {
        accuracy_summary(stdout, &acc, have_cond ? &cond : NULL);
        if (have_cond) csvlog_close(&cond);
        fflush(stdout);
        fprintf(stderr, "rbdiff accuracy: %d rows in %s\n", acc.nrows, acc.path);
        csvlog_close(&acc);
    }
    status = st == 1 ? cli_error("accuracy", EXIT_INTERRUPTED, "interrupted; rerun to resume") : EXIT_OK;
done:
    results_lock_release(&lk, status == EXIT_USAGE);
    free(dir);
    sweep_config_free(&c);
    return status;
}
