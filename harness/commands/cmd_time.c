/* rbdiff time: times methods on autoTree models and prints a table with
 * ratios to a baseline (issue 3, item 5). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/bench.h"
#include "commands/cli.h"
#include "measure/roofline.h"
#include "report/report_ratios.h"

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

/* The peers' rows of one model: each against our counterpart in the same
 * rounds, or why it was not timed. */
static void print_peers(const bench_target *tg, int ntg, const int *st, const bench_peer_note *notes,
                        const timing_row *rows, int nrows, const char *model)
{
    int any = 0;
    const char *said = "";
    for (int i = 0; i < ntg; i++) {
        if (!tg[i].peer) continue;
        if (!any++)
            printf("%-34s %9s %12s %-14s %10s %6s\n", "peer function", "check", "median_ns", "ours", "ours/peer", "w/K");
        const char *ours = tg[i].peer->api->func[tg[i].peer_func].ours;
        if (st[i] == BENCH_NOT_TIMED) {
            printf("%-34s not timed: %s\n", tg[i].name, strcmp(said, notes[i].why) ? notes[i].why : "the same");
            said = notes[i].why;
            continue;
        }
        const timing_row *r = timing_rows_find(rows, nrows, tg[i].name, model);
        const timing_row *o = timing_rows_find(rows, nrows, ours, model);
        if (!r) continue;
        char ratio[48] = "- (not timed here)";
        double q;
        int w, K = o ? report_vs_peer(o, r, &q, &w) : 0;
        if (K) snprintf(ratio, sizeof ratio, "%10.3f %2d/%d", q, w, K);
        printf("%-34s %9.1e %12.1f %-14s %s\n", tg[i].name, notes[i].chk.err, r->median_ns, ours, ratio);
    }
}

int cmd_time(int argc, char **argv)
{
    static const struct option extra[] = { { "baseline", required_argument, 0, 'B' }, { "help", no_argument, 0, 'h' },
                                           { "roofline", no_argument, 0, 'R' } };
    struct option *opts = sweep_options(extra, 3);
    int roofline = 0;
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
    bench_target **tp = NULL;
    int *st = NULL;
    rbd_peer *peers = NULL;
    int npeers = 0;
    bench_peer_note *notes = NULL;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch == 'B') { baseline = optarg; continue; }
        if (ch == 'R') { roofline = 1; continue; }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("time", 0); goto done; }
            continue;
        }
        cli_bad_option("time", ch, argv);
        goto done;
    }
    if (optind < argc) { cli_error("time", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("time"); goto done; }
    if (!c.nN && !c.nmodels && !c.nrobots) {
        cli_error("time", 0, "nothing to time: give --N LIST (autoTree sizes), --robots LIST or --model SPEC");
        goto done;
    }
    if (!c.nbf && sweep_config_set(&c, "bf", "1", "--bf")) { cli_lib_error("time", 0); goto done; }
    if (baseline) {
        cli_target t;
        if (cli_find_target("time", baseline, &t)) goto done;
    }
    if (bench_targets(&c, &tg, &ntg) || bench_models(&c, &bm, &nbm)) { cli_lib_error("time", 0); goto done; }
    /* every model up front: a bad one named before anything is timed */
    int bad = bench_models_check("time", bm, nbm);
    if (bad) { status = bad; goto done; }
    if (bench_peers_open("time", &c, &peers, &npeers) || bench_add_peer_targets(&tg, &ntg, peers, npeers)) {
        status = cli_lib_error("time", EXIT_FAIL);
        goto done;
    }
    if (c.npeers && !npeers) fprintf(stderr, "rbdiff time: no peer found; timing rbdiff's methods alone\n");
    if (roofline) {
        int have = 0;
        for (int i = 0; i < ntg; i++) have |= tg[i].dgemm;
        if (!have) {   /* bench_targets leaves room for it */
            memset(&tg[ntg], 0, sizeof tg[ntg]);
            tg[ntg].name = ROOFLINE_NAME;
            tg[ntg].kind = ROOFLINE_KIND;
            tg[ntg++].dgemm = 1;
        }
    }
    if (bench_setup("time", &c)) goto done;    /* --pin: refused (2) before the table starts */
    status = EXIT_FAIL;
    pc = bench_counters("time", c.counters);
    rows = calloc((size_t)(ntg * nbm) + 1, sizeof *rows);
    tp = malloc(sizeof *tp * ((size_t)ntg + 1));
    st = malloc(sizeof *st * ((size_t)ntg + 1));
    notes = calloc((size_t)ntg + 1, sizeof *notes);
    if (!rows || !tp || !st || !notes) { cli_error("time", 0, "out of memory"); goto done; }
    for (int i = 0; i < ntg; i++) tp[i] = &tg[i];
    cli_catch_interrupt();
    const char *idb = baseline ? baseline : rbd_method_find("idsva") ? "idsva" : NULL;
    const char *fdb = baseline ? baseline : rbd_method_find("fdsva") ? "fdsva" : NULL;
    for (int j = 0; j < nbm && !cli_interrupted; j++) {
        rbd_model *m;
        if (cli_model("time", bm[j].spec, &m)) goto done;
        int wn = 14;   /* the method column as wide as the longest name, so no row shifts */
        for (int i = 0; i < ntg; i++) wn = (int)strlen(tg[i].name) > wn ? (int)strlen(tg[i].name) : wn;
        printf("\n%s  (nv = %d)\n%-*s %-4s %12s %12s %7s %8s %6s %12s %11s %7s %7s\n", bm[j].spec, m->nv, wn, "method",
               "kind", "median_ns", "min_ns", "iqr_%", "ratio", "w/K", "instr/call", "flops/call", "GFLOP/s", "%dgemm");
        /* every target of the model measured together: one batch of each per round */
        timing_row *mr = &rows[nrows];
        int rc = bench_measure_set((const bench_target *const *)tp, ntg, m, &bm[j], &c, pc, &cli_interrupted, mr, st,
                                   notes);
        if (rc == 1) { rbd_model_free(m); break; }
        if (rc) {
            for (int i = 0; i < ntg; i++)
                if (st[i] && st[i] != RBD_ENOTSUP) cli_error("time", 0, "%s on %s: %s", tg[i].name, bm[j].spec, rbd_last_error());
            rbd_model_free(m);
            goto done;
        }
        for (int i = 0; i < ntg; i++) {
            if (st[i] == RBD_ENOTSUP) { printf("%-*s (not applicable to this model's joints)\n", wn, tg[i].name); continue; }
            if (st[i] == BENCH_NOT_TIMED) continue;
            if (&rows[nrows] != &mr[i]) rows[nrows] = mr[i];
            nrows++;
        }
        /* ratios once the whole model is measured, so the baseline may come last */
        for (int k = 0; k < nrows; k++) {
            const timing_row *r = &rows[k];
            if (strcmp(r->model, bm[j].spec) || !strcmp(r->kind, "peer")) continue;
            const char *bn = !strcmp(r->kind, "ID") ? idb : !strcmp(r->kind, "FD") ? fdb : baseline;
            const timing_row *b = bn ? timing_rows_find(rows, nrows, bn, r->model) : NULL;
            const timing_row *roof = timing_rows_find(rows, nrows, ROOFLINE_NAME, r->model);
            char ratio[32] = "-", wk[32] = "-", ins[32] = "-", fl[32] = "-", gf[32] = "-", frac[32] = "-";
            double q;
            int w, K = b ? report_paired(r, b, &q, &w) : 0;
            if (K) snprintf(ratio, sizeof ratio, "%.3f", q), snprintf(wk, sizeof wk, "%d/%d", w, K);
            if (isfinite(r->instructions)) snprintf(ins, sizeof ins, "%.0f", r->instructions);
            if (isfinite(r->flops)) {
                snprintf(fl, sizeof fl, "%.4g", r->flops);
                snprintf(gf, sizeof gf, "%.2f", r->flops / r->median_ns);
                if (roof && isfinite(roof->flops) && roof->nv >= ROOFLINE_MIN_N)
                    snprintf(frac, sizeof frac, "%.1f", 100 * (r->flops / r->median_ns) / (roof->flops / roof->median_ns));
            }
            printf("%-*s %-4s %12.1f %12.1f %7.1f %8s %6s %12s %11s %7s %7s\n", wn, r->method, r->kind, r->median_ns,
                   r->min_ns, 100 * r->iqr_ns / r->median_ns, ratio, wk, ins, fl, gf, frac);
        }
        print_peers(tg, ntg, st, notes, rows, nrows, bm[j].spec);
        fflush(stdout);
        rbd_model_free(m);
    }
    if (npeers) printf("\npeer rows: ours / peer = median over rounds of our counterpart's ns over the peer's in\n"
                       "the same round; w/K: in w of K rounds ours was the faster; check = max relative\n"
                       "difference of the peer's outputs from ours at one state, before timing\n");
    if (idb) printf("\nratio w/K = median over rounds of ns / ns of %s in the same round (%s rows); in w of K\n"
                    "rounds %s was the faster\n", idb, baseline ? "all" : "ID", idb);
    if (fdb && !baseline) printf("the same against %s for the FD rows\n", fdb);
    printf("GFLOP/s = analytic flops per call (harness/measure/flops.h) / median; %%dgemm = that rate over dgemm's\n"
           "(n = nv, 2 n^3 flops) in this run, from nv = %d (below, dgemm is far from its rate)\n", ROOFLINE_MIN_N);
    status = cli_interrupted ? cli_error("time", EXIT_INTERRUPTED, "interrupted") : EXIT_OK;
done:
    perfctr_close(pc);
    bench_peers_close(peers, npeers);
    free(notes);
    free(rows);
    free(tp);
    free(st);
    free(tg);
    free(bm);
    free(opts);
    sweep_config_free(&c);
    return status;
}
