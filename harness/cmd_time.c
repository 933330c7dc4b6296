/* rbdiff time: times methods on autoTree models and prints a table with
 * ratios to a baseline (issue 3, item 5). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cli.h"

static const char help[] =
    "Usage: rbdiff time --N LIST [--bf LIST] [--methods LIST] [--baseline NAME] [options]\n\n"
    "Times every applicable registered method (and the base algorithms) on\n"
    "autotree:N=..,bf=.. for each bf and N, and prints median and min ns per\n"
    "call, the inter-quartile range, and the ratio of each median to the\n"
    "baseline's (default idsva for ID methods, fdsva for FD methods).\n"
    "Nothing is written to disk; `rbdiff sweep` records results.\n\n"
    "  --N LIST         e.g. 10,50,100 or 10:10:100 (A:STEP:B)\n"
    "  --bf LIST        branching factors (default 1)\n"
    "  --methods LIST   names or 'all' (default all; see rbdiff methods)\n"
    "  --base no        leave out the base algorithms\n"
    "  --model SPEC     time on this model as well (repeatable)\n"
    "  --robots LIST    robots too: ur5,hyq:freeflyer (tests/models/NAME.urdf) or paths\n"
    "  --baseline NAME  ratios to NAME (for its kind)\n"
    "  --skew X --taper X --seed S --pool P --batches K --batch-ms MS --warmup-ms MS\n"
    "  --pin CPU        pin to one CPU;  --blas-threads N (default 1)\n"
    "  --minv KIND      M^-1 of the FD methods: analytic (default), ltdl, lapack\n"
    "  --fdsva-crossover N  fdsva: DMM below N dofs, AZA at and above (0: built-in)\n"
    "  --counters no    skip hardware counters\n"
    "  -h, --help\n";

static const timing_row *find(const timing_row *rows, int n, const char *method, const char *model)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(rows[k].method, method) && !strcmp(rows[k].model, model)) return &rows[k];
    return NULL;
}

int cmd_time(int argc, char **argv)
{
    static const struct option extra[] = { { "baseline", required_argument, 0, 'B' }, { "help", no_argument, 0, 'h' } };
    struct option *opts = sweep_options(extra, 2);
    if (!opts) return cli_error("time", EXIT_FAIL, "out of memory");
    sweep_config c;
    sweep_config_init(&c);
    const char *baseline = NULL;
    int ch, status = EXIT_USAGE;
    optind = 1;
    opterr = 0;
    bench_target *tg = NULL;
    bench_model *bm = NULL;
    timing_row *rows = NULL;
    int ntg = 0, nbm = 0, nrows = 0;
    perfctr *pc = NULL;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch == 'B') { baseline = optarg; continue; }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("time", 0); goto done; }
            continue;
        }
        cli_bad_option("time", ch, argv);
        goto done;
    }
    if (optind < argc) { cli_error("time", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("time"); goto done; }
    if (!c.nN && !c.nmodels && !c.nrobots) { cli_error("time", 0, "--N LIST is required (e.g. --N 10,50,100)"); goto done; }
    if (!c.nbf && sweep_config_set(&c, "bf", "1", "--bf")) { cli_lib_error("time", 0); goto done; }
    if (baseline) {
        cli_target t;
        if (cli_find_target("time", baseline, &t)) goto done;
    }
    if (bench_targets(&c, &tg, &ntg) || bench_models(&c, &bm, &nbm)) { cli_lib_error("time", 0); goto done; }
    status = EXIT_FAIL;
    if (bench_setup("time", &c)) goto done;
    pc = bench_counters("time", c.counters);
    rows = calloc((size_t)(ntg * nbm) + 1, sizeof *rows);
    if (!rows) { cli_error("time", 0, "out of memory"); goto done; }
    cli_catch_interrupt();
    const char *idb = baseline ? baseline : rbd_method_find("idsva") ? "idsva" : NULL;
    const char *fdb = baseline ? baseline : rbd_method_find("fdsva") ? "fdsva" : NULL;
    for (int j = 0; j < nbm && !cli_interrupted; j++) {
        rbd_model *m;
        if (cli_model("time", bm[j].spec, &m)) goto done;
        printf("\n%s  (nv = %d)\n%-14s %-4s %12s %12s %10s %8s %12s\n", bm[j].spec, m->nv, "method", "kind",
               "median_ns", "min_ns", "iqr_%", "ratio", "instr/call");
        for (int i = 0; i < ntg && !cli_interrupted; i++) {
            int rc = bench_measure(&tg[i], m, &bm[j], &c, pc, &cli_interrupted, &rows[nrows]);
            if (rc == 1) break;
            if (rc == RBD_ENOTSUP) { printf("%-14s (%s)\n", tg[i].name, rbd_last_error()); continue; }
            if (rc) { cli_error("time", 0, "%s on %s: %s", tg[i].name, bm[j].spec, rbd_last_error()); rbd_model_free(m); goto done; }
            nrows++;
        }
        /* ratios once the whole model is measured, so the baseline may come last */
        for (int k = 0; k < nrows; k++) {
            const timing_row *r = &rows[k];
            if (strcmp(r->model, bm[j].spec)) continue;
            const char *bn = !strcmp(r->kind, "ID") ? idb : !strcmp(r->kind, "FD") ? fdb : baseline;
            const timing_row *b = bn ? find(rows, nrows, bn, r->model) : NULL;
            char ratio[32] = "-", ins[32] = "-";
            if (b) snprintf(ratio, sizeof ratio, "%.3f", r->median_ns / b->median_ns);
            if (isfinite(r->instructions)) snprintf(ins, sizeof ins, "%.0f", r->instructions);
            printf("%-14s %-4s %12.1f %12.1f %10.1f %8s %12s\n", r->method, r->kind, r->median_ns, r->min_ns,
                   100 * r->iqr_ns / r->median_ns, ratio, ins);
        }
        fflush(stdout);
        rbd_model_free(m);
    }
    if (idb) printf("\nratio = median / median of %s on the same model (%s rows)\n", idb, baseline ? "all" : "ID");
    if (fdb && !baseline) printf("ratio = median / median of %s on the same model (FD rows)\n", fdb);
    status = cli_interrupted ? cli_error("time", EXIT_INTERRUPTED, "interrupted") : EXIT_OK;
done:
    perfctr_close(pc);
    free(rows);
    free(tg);
    free(bm);
    free(opts);
    sweep_config_free(&c);
    return status;
}
