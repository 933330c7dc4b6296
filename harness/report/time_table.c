/* `rbdiff time`'s table (time_table.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "measure/method_facts.h"
#include "measure/roofline.h"
#include "report/report_ratios.h"
#include "report/time_table.h"

/* The method column as wide as the longest name, so no row shifts. */
static int name_width(const time_plan *tp)
{
    int wn = 14;
    for (int i = 0; i < tp->ntg; i++) wn = (int)strlen(tp->tg[i].name) > wn ? (int)strlen(tp->tg[i].name) : wn;
    return wn;
}

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
        /* the emitted counterpart (methods/emit) too, when it was timed: same rounds, paired */
        char emit[64];
        snprintf(emit, sizeof emit, "%.50s-emit", ours);
        const timing_row *e = timing_rows_find(rows, nrows, emit, model);
        if (e && (K = report_vs_peer(e, r, &q, &w)))
            printf("%-*s %9s %12.1f %-14s %10.3f %2d/%d\n", wn, tg[i].name, "", r->median_ns, emit, q, w, K);
    }
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

static void begin(void *ctx, const time_plan *tp, const bench_model *bm, int nv)
{
    (void)ctx;
    printf("\n%s  (nv = %d)\n%-*s %-4s %12s %12s %7s %8s %6s %12s %11s %7s %7s\n", bm->spec, nv, name_width(tp),
           "method", "kind", "median_ns", "min_ns", "iqr_%", "ratio", "w/K", "instr/call", "flops/call", "GFLOP/s",
           "%dgemm");
}

static void failed(void *ctx, const bench_target *t, const bench_model *bm)
{
    fprintf(stderr, "rbdiff %s: %s on %s: %s\n", (const char *)ctx, t->name, bm->spec, rbd_last_error());
}

/* The targets not applicable to the model, then our rows (the
 * ratios once the whole model is measured, so the baseline may come
 * last), then the peers'. */
static void end(void *ctx, const time_plan *tp, const bench_model *bm, const int *st, const bench_peer_note *notes,
                const timing_row *rows, int nrows)
{
    (void)ctx;
    int wn = name_width(tp);
    for (int i = 0; i < tp->ntg; i++)
        if (st[i] == RBD_ENOTSUP)
            printf("%-*s (" BENCH_NOT_APPLICABLE ")\n", wn, tp->tg[i].name);
    for (int k = 0; k < nrows; k++)
        if (!strcmp(rows[k].model, bm->spec) && strcmp(rows[k].kind, "peer")) print_row(tp, &rows[k], rows, nrows, wn);
    print_peers(tp->tg, tp->ntg, st, notes, rows, nrows, bm->spec);
    fflush(stdout);
}

time_sink time_table_sink(const char *cmd)
{
    return (time_sink){ begin, failed, end, (void *)cmd };
}

void time_table_legend(const time_plan *tp)
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
