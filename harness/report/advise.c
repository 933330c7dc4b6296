/* advise's plan, its run model by model, its table and choices (advise.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "accuracy/advise_errors.h"
#include "plan/modelspec.h"
#include "report/advise.h"
#include "report/report_ratios.h"

enum { ADVISE_SLICES = 5 };     /* a batch: the fastest of this many slices (advise_defaults) */
#define ADVISE_MARGIN 0.03      /* the least lead over idsva / fdsva that changes the answer (fastest) */

/* A target's time relative to the kind's default method (idsva, fdsva):
 * the paired ratio, median over rounds (harness/README.md, "Timing"), so the
 * ranking holds on a machine whose speed drifts between batches. */
static double rel_time(const timing_row *r, const timing_row *base, int *w, int *K)
{
    double q;
    *w = *K = 0;
    if (base && (*K = report_paired(r, base, &q, w))) return q;
    return base ? r->median_ns / base->median_ns : r->median_ns;
}

static int find_target(const bench_target *tg, int ntg, const int *st, const char *name)
{
    for (int i = 0; i < ntg; i++)
        if (!st[i] && !strcmp(tg[i].name, name)) return i;
    return -1;
}

/* The fastest target of kind whose error is within tol, or -1.  The
 * default method (base, when within tol) stays the answer unless another
 * beats it in at least 3/4 of the paired rounds and by more than
 * ADVISE_MARGIN (pair's threshold): a ratio of 0.98 won in 4 of 7 rounds is
 * a tie on a drifting machine, and 0.99 won in 7 of 7 is within what the
 * placement of a binary's code moves a method (README.md, "False alarms
 * and power"), not a reason to switch. */
static int fastest(const bench_target *tg, int ntg, const int *st, const timing_row *rows, const double *err,
                   const char *kind, double tol, int d)
{
    int within_d = d >= 0 && err[d] >= 0 && err[d] <= tol, best = within_d ? d : -1, w, K;
    const timing_row *base = d >= 0 ? &rows[d] : NULL;
    double bq = within_d ? 1 : INFINITY;
    for (int i = 0; i < ntg; i++) {
        if (st[i] || !tg[i].method || strcmp(tg[i].kind, kind) || !(err[i] >= 0 && err[i] <= tol)) continue;
        double q = rel_time(&rows[i], base, &w, &K);
        if (within_d && !(K && 4 * (K - w) >= 3 * K && q < 1 - ADVISE_MARGIN)) continue;
        if (q < bq) bq = q, best = i;
    }
    return best;
}

/* "fastest ID derivatives within 1e-08: idsva, 1.2 us, error 3e-16", its
 * paired ratio to the default method of its kind and to the peers. */
static void print_choice(const bench_target *tg, int ntg, const int *st, const timing_row *rows, const double *err,
                         const char *kind, double tol)
{
    const char *dflt = !strcmp(kind, "ID") ? "idsva" : "fdsva";
    int d = find_target(tg, ntg, st, dflt);
    const timing_row *base = d >= 0 ? &rows[d] : NULL;
    int b = fastest(tg, ntg, st, rows, err, kind, tol, d), w, K;
    if (b < 0) { printf("fastest %s derivatives within %.0e: none\n", kind, tol); return; }
    printf("fastest %s derivatives within %.0e: %s, %.2f us, error %.1e\n", kind, tol, tg[b].name,
           rows[b].median_ns / 1e3, err[b]);
    double q = rel_time(&rows[b], base, &w, &K);
    if (b != d && K)
        printf("    %s / %s = %.3f (paired, %d rounds; %s faster in %d)\n", tg[b].name, dflt, q, K, tg[b].name, K - w);
    for (int i = 0; i < ntg; i++) {
        if (!tg[i].peer || st[i]) continue;
        const rbd_method *o = rbd_method_find(tg[i].peer->api->func[tg[i].peer_func].ours);
        if (!o || strcmp(rbd_output_name(o->output), kind)) continue;
        if ((K = report_vs_peer(&rows[b], &rows[i], &q, &w)))
            printf("    %s / %s = %.3f (paired, %d rounds; %s faster in %d), the peer %.2f us\n", tg[b].name,
                   tg[i].name, q, K, tg[b].name, w, rows[i].median_ns / 1e3);
    }
}

/* Times and scores the targets on one model, prints the table and choices. */
static int advise_model(const bench_target *tg, int ntg, const bench_model *bm, const sweep_config *c, double tol,
                        volatile sig_atomic_t *stop, int *bad_input)
{
    rbd_model *m = NULL;
    int rc = model_from_spec(bm->spec, &m);
    if (rc) return *bad_input = 1, rc;
    timing_row *rows = calloc((size_t)ntg + 1, sizeof *rows);
    int *st = calloc((size_t)ntg + 1, sizeof *st);
    double *err = calloc((size_t)ntg + 1, sizeof *err);
    const bench_target **tp = malloc(sizeof *tp * ((size_t)ntg + 1));
    bench_peer_note *notes = calloc((size_t)ntg + 1, sizeof *notes);
    int status = RBD_ENOMEM;
    if (!rows || !st || !err || !tp || !notes) { rbd_fail(RBD_ENOMEM, "out of memory"); goto done; }
    for (int i = 0; i < ntg; i++) tp[i] = &tg[i];
    fprintf(stderr, "rbdiff advise: %s: timing %d targets in paired rounds\n", bm->spec, ntg);
    status = bench_measure_set(tp, ntg, m, bm, c, NULL, stop, rows, st, notes);
    if (status) goto done;
    fprintf(stderr, "rbdiff advise: %s: scoring against the MPFR reference (%d states)\n", bm->spec, c->acc_states);
    status = advise_errors(m, bm, tg, ntg, c, stop, err);
    if (status) goto done;
    int wn = (int)strlen("method");    /* as wide as the longest name (a peer's with its version), so no row shifts */
    for (int i = 0; i < ntg; i++) wn = (int)strlen(tg[i].name) > wn ? (int)strlen(tg[i].name) : wn;
    printf("\n%s  (nq = %d, nv = %d)\n%-*s %-4s %10s %13s %9s\n", bm->spec, m->nq, m->nv, wn, "method", "kind",
           "median_us", "/idsva,fdsva", "error");
    int di = find_target(tg, ntg, st, "idsva"), df = find_target(tg, ntg, st, "fdsva");
    for (int i = 0; i < ntg; i++) {
        if (st[i] == RBD_ENOTSUP) {
            printf("%-*s (" BENCH_NOT_APPLICABLE ")\n", wn, tg[i].name);
            continue;
        }
        if (st[i]) {    /* once per reason, on one line (MuJoCo's load errors hold newlines) */
            char why[sizeof notes[i].why];
            snprintf(why, sizeof why, "%s", notes[i].why);
            for (char *p = why; *p; p++) *p = *p == '\n' ? ' ' : *p;
            printf("%-*s not timed: %s\n", wn, tg[i].name, i && !strcmp(notes[i].why, notes[i - 1].why) ? "the same" : why);
            continue;
        }
        char e[32] = "-";
        if (tg[i].method && err[i] >= 0) snprintf(e, sizeof e, "%.1e", err[i]);
        else if (tg[i].peer && notes[i].checked) snprintf(e, sizeof e, "=%.0e", notes[i].chk.err);
        int d = tg[i].method ? (!strcmp(tg[i].kind, "ID") ? di : df) : -1, w, K;
        char q[32] = "-";
        if (d >= 0) snprintf(q, sizeof q, "%.3f", rel_time(&rows[i], &rows[d], &w, &K));
        printf("%-*s %-4s %10.3f %13s %9s%s\n", wn, tg[i].name, tg[i].peer ? "peer" : tg[i].kind,
               rows[i].median_ns / 1e3, q, e, tg[i].method && err[i] > tol ? "  (beyond tol)" : "");
    }
    printf("\n");
    print_choice(tg, ntg, st, rows, err, "ID", tol);
    print_choice(tg, ntg, st, rows, err, "FD", tol);
    fflush(stdout);
    status = RBD_OK;
done:
    rbd_model_free(m);
    free(rows), free(st), free(err), free(tp), free(notes);
    return status;
}


/* The defaults of a short run (seconds on a robot), for the keys the flags
 * did not set (sweep_config_given). */
static int advise_defaults(sweep_config *c)
{
    static const char *const kv[][2] = { { "base", "no" },       { "batches", "7" },  { "batch_ms", "2" },
                                         { "warmup_ms", "5" },   { "pool", "16" },    { "counters", "no" },
                                         { "peers", "all" },     { "accuracy_states", "2" } };
    for (size_t k = 0; k < sizeof kv / sizeof kv[0]; k++) {
        if (sweep_config_given(c, kv[k][0])) continue;
        int rc = sweep_config_set(c, kv[k][0], kv[k][1], "advise defaults");
        if (rc) return rc;
    }
    /* each batch the fastest of 5 slices, as `pair` times: at a load of 18
     * on 2 cores whole 2 ms batches put fdsva-dmm at 0.18 of fdsva (the same
     * product) in 6 of 7 rounds, and advise chose it */
    c->slices = ADVISE_SLICES;
    return 0;
}


int advise_plan_make(advise_plan *ap, sweep_config *c, int *bad_input)
{
    int rc;
    ap->c = c;
    *bad_input = 1;
    if ((rc = advise_defaults(c))) return rc;
    if (!c->nmodels && !c->nrobots) return rbd_fail(RBD_EINVAL, "no model: give --model SPEC or --robots LIST");
    if (c->nN) return rbd_fail(RBD_EINVAL, "--N: advise is for a given model (--model, --robots); rbdiff time takes N");
    if ((rc = bench_targets(c, &ap->tg, &ap->ntg)) || (rc = bench_models(c, &ap->bm, &ap->nbm))) return rc;
    int keep = 0;   /* the derivative methods only: advise answers for ID and FD */
    for (int i = 0; i < ap->ntg; i++)
        if (ap->tg[i].method) ap->tg[keep++] = ap->tg[i];
    ap->ntg = keep;
    if (!ap->ntg) return rbd_fail(RBD_EINVAL, "--methods: no ID or FD derivative method in the list");
    if ((rc = bench_models_check(ap->bm, ap->nbm))) return rc;
    *bad_input = 0;
    if ((rc = bench_peers_open("advise", c, &ap->peers, &ap->npeers)) ||
        (rc = bench_add_peer_targets(&ap->tg, &ap->ntg, ap->peers, ap->npeers)))
        return rc;
    *bad_input = 1;
    return bench_setup(c);
}

void advise_plan_free(advise_plan *ap)
{
    bench_peers_close(ap->peers, ap->npeers);
    free(ap->tg);
    free(ap->bm);
}

int advise_run(const advise_plan *ap, double tol, volatile sig_atomic_t *stop, int *bad_input)
{
    const sweep_config *c = ap->c;
    *bad_input = 0;
    for (int j = 0; j < ap->nbm; j++) {
        int rc = advise_model(ap->tg, ap->ntg, &ap->bm[j], c, tol, stop, bad_input);
        if (rc) return rc;
    }
    printf("\nmedian_us: median over %d batches, each the fastest of %d slices back to back; error: worst\n"
           "normwise relative error of the outputs against the MPFR reference at %d random states (a peer's:\n"
           "'=' its largest difference from ours, checked before timing); /idsva,fdsva and the ratios: median\n"
           "over rounds of the per-round ratio, paired (harness/README.md, \"Timing\"); the fastest: idsva /\n"
           "fdsva unless a method within tol beat it by more than %.0f%% (ratio below %.2f) in at least 3/4 of\n"
           "the rounds (then the least ratio of those)\n",
           c->batches, c->slices, c->acc_states, 100 * ADVISE_MARGIN, 1 - ADVISE_MARGIN);
    return RBD_OK;
}
