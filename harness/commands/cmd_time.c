/* rbdiff time: times methods on autoTree models and prints a table with
 * ratios to a baseline (issue 3, item 5). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/bench.h"
#include "commands/cli.h"
#include "measure/method_facts.h"
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
    int any = 0, wn = (int)strlen("peer function");   /* as wide as the longest name, so no row shifts */
    const char *said = "";
    for (int i = 0; i < ntg; i++)
        if (tg[i].peer && (int)strlen(tg[i].name) > wn) wn = (int)strlen(tg[i].name);
    for (int i = 0; i < ntg; i++) {
        if (!tg[i].peer) continue;
        if (!any++)
            printf("%-*s %9s %12s %-14s %10s %6s\n", wn, "peer function", "check", "median_ns", "ours", "ours/peer", "w/K");
        const char *ours = tg[i].peer->api->func[tg[i].peer_func].ours;
        if (st[i] == BENCH_NOT_TIMED) {
            printf("%-*s not timed: %s\n", wn, tg[i].name, strcmp(said, notes[i].why) ? notes[i].why : "the same");
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
        printf("%-*s %9.1e %12.1f %-14s %s\n", wn, tg[i].name, notes[i].chk.err, r->median_ns, ours, ratio);
    }
}

/* What `time` runs: the targets (and dgemm with --roofline, the peers'
 * functions) and the models, with the baselines of the ratios. */
typedef struct {
    sweep_config c;
    const char *baseline, *idb, *fdb;
    int roofline;
    bench_target *tg;
    int ntg;
    bench_model *bm;
    int nbm;
    rbd_peer *peers;
    int npeers;
} time_plan;

/* The flags.  0 to go on, else the exit status (-1: --help). */
static int read_args(int argc, char **argv, time_plan *tp)
{
    static const struct option extra[] = { { "baseline", required_argument, 0, 'B' }, { "help", no_argument, 0, 'h' },
                                           { "roofline", no_argument, 0, 'R' } };
    struct option *opts = sweep_options(extra, 3);
    if (!opts) return cli_error("time", EXIT_FAIL, "out of memory");
    int ch, status = EXIT_USAGE;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = -1; goto done; }
        if (ch == 'B') { tp->baseline = optarg; continue; }
        if (ch == 'R') { tp->roofline = 1; continue; }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&tp->c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("time", 0); goto done; }
            continue;
        }
        cli_bad_option("time", ch, argv);
        goto done;
    }
    if (optind < argc) { cli_error("time", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("time"); goto done; }
    status = 0;
done:
    free(opts);
    return status;
}

/* Targets and models, every model built once up front: a bad one is named
 * before anything is timed. */
static int plan_time(time_plan *tp)
{
    sweep_config *c = &tp->c;
    if (!c->nN && !c->nmodels && !c->nrobots)
        return cli_error("time", EXIT_USAGE, "nothing to time: give --N LIST (autoTree sizes), --robots LIST or --model SPEC");
    if (!c->nbf && sweep_config_set(c, "bf", "1", "--bf")) return cli_lib_error("time", EXIT_USAGE);
    cli_target t;
    if (tp->baseline && cli_find_target("time", tp->baseline, &t)) return EXIT_USAGE;
    if (bench_targets(c, &tp->tg, &tp->ntg) || bench_models(c, &tp->bm, &tp->nbm)) return cli_lib_error("time", EXIT_USAGE);
    int bad = bench_models_check(tp->bm, tp->nbm) ? cli_lib_error("time", EXIT_USAGE) : EXIT_OK;
    if (!bad && bench_so_sizes_check(&tp->c, tp->bm, tp->nbm, 0)) bad = cli_lib_error("time", EXIT_FAIL);
    if (bad) return bad;
    if (bench_peers_open("time", c, &tp->peers, &tp->npeers) ||
        bench_add_peer_targets(&tp->tg, &tp->ntg, tp->peers, tp->npeers))
        return cli_lib_error("time", EXIT_FAIL);
    if (c->npeers && !tp->npeers) fprintf(stderr, "rbdiff time: no peer found; timing rbdiff's methods alone\n");
    int have = 0;
    for (int i = 0; i < tp->ntg; i++) have |= tp->tg[i].dgemm;
    if (tp->roofline && !have) {   /* bench_targets leaves room for it */
        bench_target *d = &tp->tg[tp->ntg++];
        memset(d, 0, sizeof *d);
        d->name = ROOFLINE_NAME;
        d->kind = ROOFLINE_KIND;
        d->dgemm = 1;
    }
    const char *idb = method_kind_baseline("ID"), *fdb = method_kind_baseline("FD");
    tp->idb = tp->baseline ? tp->baseline : rbd_method_find(idb) ? idb : NULL;
    tp->fdb = tp->baseline ? tp->baseline : rbd_method_find(fdb) ? fdb : NULL;
    return bench_setup(c) ? cli_lib_error("time", EXIT_USAGE) : EXIT_OK;    /* --pin: refused (2) before the table starts */
}

/* One of our rows of the model: ns per call, the paired ratio to its
 * baseline, counters, flops and the rate against dgemm's. */
static void print_row(const time_plan *tp, const timing_row *r, const timing_row *rows, int nrows, int wn)
{
    const char *bn = !strcmp(r->kind, "ID") ? tp->idb : !strcmp(r->kind, "FD") ? tp->fdb : tp->baseline;
    if (!bn) bn = method_kind_baseline(r->kind);    /* ID2, FD2: idsva-so, fdsva-so */
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

/* Model j: every target measured together (one batch of each per round),
 * then its table; rows[*nrows..] receive its rows.  0, 1 when interrupted,
 * or the exit status. */
static int time_model(const time_plan *tp, int j, perfctr *pc, const bench_target **t, int *st,
                      bench_peer_note *notes, timing_row *rows, int *nrows)
{
    const bench_model *bm = &tp->bm[j];
    rbd_model *m;
    if (cli_model("time", bm->spec, &m)) return EXIT_FAIL;
    int wn = 14;   /* the method column as wide as the longest name, so no row shifts */
    for (int i = 0; i < tp->ntg; i++) wn = (int)strlen(tp->tg[i].name) > wn ? (int)strlen(tp->tg[i].name) : wn;
    printf("\n%s  (nv = %d)\n%-*s %-4s %12s %12s %7s %8s %6s %12s %11s %7s %7s\n", bm->spec, m->nv, wn, "method",
           "kind", "median_ns", "min_ns", "iqr_%", "ratio", "w/K", "instr/call", "flops/call", "GFLOP/s", "%dgemm");
    timing_row *mr = &rows[*nrows];
    int rc = bench_measure_set(t, tp->ntg, m, bm, &tp->c, pc, &cli_interrupted, mr, st, notes);
    rbd_model_free(m);
    if (rc == 1) return 1;
    if (rc) {
        for (int i = 0; i < tp->ntg; i++)
            if (st[i] && st[i] != RBD_ENOTSUP) cli_error("time", 0, "%s on %s: %s", tp->tg[i].name, bm->spec, rbd_last_error());
        return EXIT_FAIL;
    }
    for (int i = 0; i < tp->ntg; i++) {
        if (st[i] == RBD_ENOTSUP) { printf("%-*s (not applicable to this model's joints)\n", wn, tp->tg[i].name); continue; }
        if (st[i] == BENCH_NOT_TIMED) continue;
        if (&rows[*nrows] != &mr[i]) rows[*nrows] = mr[i];
        (*nrows)++;
    }
    /* ratios once the whole model is measured, so the baseline may come last */
    for (int k = 0; k < *nrows; k++)
        if (!strcmp(rows[k].model, bm->spec) && strcmp(rows[k].kind, "peer")) print_row(tp, &rows[k], rows, *nrows, wn);
    print_peers(tp->tg, tp->ntg, st, notes, rows, *nrows, bm->spec);
    fflush(stdout);
    return 0;
}

/* What the columns mean. */
static void print_legend(const time_plan *tp)
{
    if (tp->npeers) printf("\npeer rows: ours / peer = median over rounds of our counterpart's ns over the peer's in\n"
                           "the same round; w/K: in w of K rounds ours was the faster; check = max relative\n"
                           "difference of the peer's outputs from ours at one state, before timing\n");
    if (tp->idb) printf("\nratio w/K = median over rounds of ns / ns of %s in the same round (%s rows); in w of K\n"
                        "rounds %s was the faster\n", tp->idb, tp->baseline ? "all" : "ID", tp->idb);
    if (tp->fdb && !tp->baseline) printf("the same against %s for the FD rows\n", tp->fdb);
    int so = 0;
    for (int i = 0; i < tp->ntg; i++) so |= tp->tg[i].method && rbd_output_order(tp->tg[i].method->output) == 2;
    if (so && !tp->baseline)
        printf("and against %s for the ID2 rows, %s for the FD2 rows (second order)\n", method_kind_baseline("ID2"),
               method_kind_baseline("FD2"));
    printf("GFLOP/s = analytic flops per call (harness/measure/flops.h) / median; %%dgemm = that rate over dgemm's\n"
           "(n = nv, 2 n^3 flops) in this run, from nv = %d (below, dgemm is far from its rate)\n", ROOFLINE_MIN_N);
}

/* Every model in turn; the legend once all are printed. */
static int time_all(const time_plan *tp)
{
    size_t n = (size_t)tp->ntg + 1;
    perfctr *pc = bench_counters("time", tp->c.counters);
    timing_row *rows = calloc((size_t)(tp->ntg * tp->nbm) + 1, sizeof *rows);
    const bench_target **t = malloc(sizeof *t * n);
    int *st = malloc(sizeof *st * n), nrows = 0, status = EXIT_OK;
    bench_peer_note *notes = calloc(n, sizeof *notes);
    if (!rows || !t || !st || !notes) status = cli_error("time", EXIT_FAIL, "out of memory");
    for (int i = 0; !status && i < tp->ntg; i++) t[i] = &tp->tg[i];
    if (!status) cli_catch_interrupt();
    for (int j = 0; !status && j < tp->nbm && !cli_interrupted; j++) {
        int rc = time_model(tp, j, pc, t, st, notes, rows, &nrows);
        if (rc == 1) break;
        status = rc;
    }
    if (!status) {
        print_legend(tp);
        status = cli_interrupted ? cli_error("time", EXIT_INTERRUPTED, "interrupted") : EXIT_OK;
    }
    perfctr_close(pc);
    free(notes);
    free(rows);
    free(t);
    free(st);
    return status;
}

int cmd_time(int argc, char **argv)
{
    time_plan tp;
    memset(&tp, 0, sizeof tp);
    sweep_config_init(&tp.c);
    int status = read_args(argc, argv, &tp);
    if (!status) status = plan_time(&tp);
    if (!status) status = time_all(&tp);
    bench_peers_close(tp.peers, tp.npeers);
    free(tp.tg);
    free(tp.bm);
    sweep_config_free(&tp.c);
    return status < 0 ? EXIT_OK : status;
}
