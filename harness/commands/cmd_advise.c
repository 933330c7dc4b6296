/* rbdiff advise: the user's first question in one command: which method to
 * use for this robot on this machine, how fast against the peers, how
 * accurate.  Times every ID and FD derivative method and the peers on the
 * model in the same rounds (paired, as `time`), scores our methods against
 * the MPFR complex-step reference (as `accuracy`, through its cache), and
 * prints the fastest of each kind whose error is within --tol. */
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "accuracy/accuracy_run.h"
#include "measure/bench.h"
#include "plan/modelspec.h"
#include "report/report_ratios.h"

static const char help[] =
    "Usage: rbdiff advise (--model SPEC | --robots LIST)... [--tol X] [options]\n\n"
    "Which derivative method to use on this model, on this machine.  Every ID\n"
    "and FD derivative method and the peers (Pinocchio, MuJoCo; those that\n"
    "load) are timed on the model in the same rounds; our methods are scored\n"
    "against the 256-bit MPFR complex-step reference at random states (cached,\n"
    "as `rbdiff accuracy`).  The error of a method is the worst over its\n"
    "outputs and the states of the normwise relative error ||X - R||_F / ||R||_F.\n"
    "Printed per model: every method's median time and error, then the fastest\n"
    "ID and the fastest FD method with error <= tol, its paired ratio to the\n"
    "peer's function of the same kind (median over rounds of ours / peer, and in\n"
    "how many rounds ours was faster), and its error.  Nothing is written.\n\n"
    "  --model SPEC     e.g. urdf:my_robot.urdf,freeflyer,nonphysical (repeatable)\n"
    "  --robots LIST    ur5,hyq:freeflyer (tests/models/NAME.urdf) or PATH:OPTION:...\n"
    "  --tol X          accuracy asked for (default 1e-8)\n"
    "  --peers LIST     default all (those built; scripts/peers); none; or names (then required)\n"
    "  --methods LIST   default every ID and FD method\n"
    "  --batches K --batch-ms MS --warmup-ms MS --pool P --seed S  timing (default 7, 2, 5, 16, 1;\n"
    "                   a batch is the fastest of 5 slices of MS / 5 each, as `rbdiff pair` times)\n"
    "  --accuracy-states S  reference states per model (default 2)\n"
    "  --cache DIR      reference cache (default ~/.cache/rbdiff)\n"
    "  -h, --help       this text\n";

enum { ADVISE_SLICES = 5 };     /* a batch: the fastest of this many slices (advise_defaults) */
#define ADVISE_MARGIN 0.03      /* the least lead over idsva / fdsva that changes the answer (fastest) */

/* The worst normwise error of each target over its outputs (audit sink). */
typedef struct {
    const bench_target *tg;
    int ntg;
    double *err;
} advise_errs;

static int emit_err(void *ctx, const accuracy_row *r)
{
    advise_errs *e = ctx;
    for (int i = 0; i < e->ntg; i++)
        if (!strcmp(e->tg[i].name, r->method) && !(r->normwise <= e->err[i])) e->err[i] = r->normwise;
    return 0;
}

/* Our ID/FD methods against the reference on m; err[i] = -1 where none. */
static int advise_accuracy(const rbd_model *m, const bench_model *bm, const bench_target *tg, int ntg,
                           const sweep_config *c, double *err)
{
    bench_target *ours = malloc(sizeof *ours * (size_t)(ntg + 1));
    if (!ours) return rbd_fail(RBD_ENOMEM, "out of memory");
    int n = 0;
    for (int i = 0; i < ntg; i++)
        if (tg[i].method) ours[n++] = tg[i];
    char cache[4096];
    if (c->cache) snprintf(cache, sizeof cache, "%s", c->cache);
    else audit_default_cache(cache, sizeof cache);
    audit_opts o;
    memset(&o, 0, sizeof o);
    o.states = c->acc_states;
    o.seed = c->seed;
    o.cache = cache;
    rbdref_opts_default(&o.ref);
    for (int i = 0; i < ntg; i++) err[i] = -1;
    advise_errs e = { tg, ntg, err };
    audit_sink sink = { .emit = emit_err, .ctx = &e };
    int cache_failed = 0;
    int rc = audit_model(m, bm->spec, bm->bf, ours, n, &o, &sink, &cli_interrupted, &cache_failed);
    free(ours);
    return rc;
}

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
static int advise_model(const bench_target *tg, int ntg, const bench_model *bm, const sweep_config *c, double tol)
{
    rbd_model *m = NULL;
    int rc = cli_model("advise", bm->spec, &m);
    if (rc) return rc;
    timing_row *rows = calloc((size_t)ntg + 1, sizeof *rows);
    int *st = calloc((size_t)ntg + 1, sizeof *st);
    double *err = calloc((size_t)ntg + 1, sizeof *err);
    const bench_target **tp = malloc(sizeof *tp * ((size_t)ntg + 1));
    bench_peer_note *notes = calloc((size_t)ntg + 1, sizeof *notes);
    int status = EXIT_FAIL;
    if (!rows || !st || !err || !tp || !notes) { cli_error("advise", 0, "out of memory"); goto done; }
    for (int i = 0; i < ntg; i++) tp[i] = &tg[i];
    fprintf(stderr, "rbdiff advise: %s: timing %d targets in paired rounds\n", bm->spec, ntg);
    rc = bench_measure_set(tp, ntg, m, bm, c, NULL, &cli_interrupted, rows, st, notes);
    if (rc == 1) { status = cli_error("advise", EXIT_INTERRUPTED, "interrupted"); goto done; }
    if (rc) { cli_lib_error("advise", 0); goto done; }
    fprintf(stderr, "rbdiff advise: %s: scoring against the MPFR reference (%d states)\n", bm->spec, c->acc_states);
    rc = advise_accuracy(m, bm, tg, ntg, c, err);
    if (rc == 1) { status = cli_error("advise", EXIT_INTERRUPTED, "interrupted"); goto done; }
    if (rc) { cli_lib_error("advise", 0); goto done; }
    int wn = (int)strlen("method");    /* as wide as the longest name (a peer's with its version), so no row shifts */
    for (int i = 0; i < ntg; i++) wn = (int)strlen(tg[i].name) > wn ? (int)strlen(tg[i].name) : wn;
    printf("\n%s  (nq = %d, nv = %d)\n%-*s %-4s %10s %13s %9s\n", bm->spec, m->nq, m->nv, wn, "method", "kind",
           "median_us", "/idsva,fdsva", "error");
    int di = find_target(tg, ntg, st, "idsva"), df = find_target(tg, ntg, st, "fdsva");
    for (int i = 0; i < ntg; i++) {
        if (st[i] == RBD_ENOTSUP) { printf("%-*s (not applicable to this model's joints)\n", wn, tg[i].name); continue; }
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
    status = EXIT_OK;
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
        if (sweep_config_set(c, kv[k][0], kv[k][1], "advise defaults")) return -1;
    }
    /* each batch the fastest of 5 slices, as `pair` times: at a load of 18
     * on 2 cores whole 2 ms batches put fdsva-dmm at 0.18 of fdsva (the same
     * product) in 6 of 7 rounds, and advise chose it */
    c->slices = ADVISE_SLICES;
    return 0;
}

int cmd_advise(int argc, char **argv)
{
    static const struct option extra[] = { { "tol", required_argument, 0, 'T' }, { "help", no_argument, 0, 'h' } };
    struct option *opts = sweep_options(extra, 2);
    if (!opts) return cli_error("advise", EXIT_FAIL, "out of memory");
    sweep_config c;
    sweep_config_init(&c);
    double tol = 1e-8;
    int ch, status = EXIT_USAGE, ntg = 0, nbm = 0, npeers = 0;
    bench_target *tg = NULL;
    bench_model *bm = NULL;
    rbd_peer *peers = NULL;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch == 'T') {
            if (cli_num("advise", "--tol", optarg, &tol)) goto done;
            if (!(tol > 0)) { cli_error("advise", 0, "--tol: %s is not a positive number", optarg); goto done; }
            continue;
        }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("advise", 0); goto done; }
            continue;
        }
        cli_bad_option("advise", ch, argv);
        goto done;
    }
    if (advise_defaults(&c)) { cli_lib_error("advise", 0); goto done; }
    if (optind < argc) { cli_error("advise", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("advise"); goto done; }
    if (!c.nmodels && !c.nrobots) { cli_error("advise", 0, "no model: give --model SPEC or --robots LIST"); goto done; }
    if (c.nN) { cli_error("advise", 0, "--N: advise is for a given model (--model, --robots); rbdiff time takes N"); goto done; }
    if (bench_targets(&c, &tg, &ntg) || bench_models(&c, &bm, &nbm)) { cli_lib_error("advise", 0); goto done; }
    int keep = 0;   /* the derivative methods only: advise answers for ID and FD */
    for (int i = 0; i < ntg; i++)
        if (tg[i].method) tg[keep++] = tg[i];
    ntg = keep;
    if (!ntg) { cli_error("advise", 0, "--methods: no ID or FD derivative method in the list"); goto done; }
    int bad = bench_models_check(bm, nbm) ? cli_lib_error("advise", EXIT_USAGE) : EXIT_OK;
    if (bad) { status = bad; goto done; }
    if (bench_peers_open("advise", &c, &peers, &npeers) || bench_add_peer_targets(&tg, &ntg, peers, npeers)) {
        status = cli_lib_error("advise", EXIT_FAIL);
        goto done;
    }
    status = EXIT_FAIL;
    if (bench_setup(&c)) { status = cli_lib_error("advise", EXIT_USAGE); goto done; }
    cli_catch_interrupt();
    for (int j = 0; j < nbm; j++)
        if ((status = advise_model(tg, ntg, &bm[j], &c, tol)) != EXIT_OK) goto done;
    printf("\nmedian_us: median over %d batches, each the fastest of %d slices back to back; error: worst\n"
           "normwise relative error of the outputs against the MPFR reference at %d random states (a peer's:\n"
           "'=' its largest difference from ours, checked before timing); /idsva,fdsva and the ratios: median\n"
           "over rounds of the per-round ratio, paired (harness/README.md, \"Timing\"); the fastest: idsva /\n"
           "fdsva unless a method within tol beat it by more than %.0f%% (ratio below %.2f) in at least 3/4 of\n"
           "the rounds (then the least ratio of those)\n",
           c.batches, c.slices, c.acc_states, 100 * ADVISE_MARGIN, 1 - ADVISE_MARGIN);
done:
    bench_peers_close(peers, npeers);
    free(tg);
    free(bm);
    sweep_config_free(&c);
    free(opts);
    return status;
}
