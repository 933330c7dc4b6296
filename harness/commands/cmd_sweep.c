/* rbdiff sweep: methods x bf x N (x extra models) into a results directory,
 * interrupt-safe and resumable (results.h, csvlog.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "accuracy/accuracy_sweep.h"
#include "measure/bench.h"
#include "rbdiff/check.h"
#include "commands/cli.h"
#include "store/pack.h"
#include "store/meta.h"
#include "plan/modelspec.h"
#include "measure/progress.h"
#include "store/shard.h"
#include "store/lock.h"
#include "store/resume.h"

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

static int run_crossovers(const sweep_config *c, const char *dir, const shard_spec *sh, long cell0)
{
    char *p = results_path(dir, CROSSOVER_CSV), *pp = results_path(dir, CROSSOVER_PROBES_CSV);
    csvlog log, plog;
    memset(&plog, 0, sizeof plog);
    if (!p || !pp) { free(p); free(pp); return cli_error("sweep", EXIT_FAIL, "out of memory"); }
    if (csvlog_open(&log, p, crossover_cols, CROSSOVER_NCOLS, CROSSOVER_NKEY)) {
        free(p);
        free(pp);
        return cli_lib_error("sweep", EXIT_FAIL);
    }
    free(p);
    if (csvlog_open(&plog, pp, crossover_probes_cols, CROSSOVER_PROBES_NCOLS, CROSSOVER_PROBES_NKEY)) {
        free(pp);
        csvlog_close(&log);
        return cli_lib_error("sweep", EXIT_FAIL);
    }
    free(pp);
    xo_probes *pr = malloc(sizeof *pr);
    if (!pr) { csvlog_close(&log); csvlog_close(&plog); return cli_error("sweep", EXIT_FAIL, "out of memory"); }
    xo_opts xo;
    xo_opts_default(&xo);
    xo.lo = c->xo_lo;
    xo.hi = c->xo_hi;
    int status = EXIT_OK;
    for (int k = 0; k < c->nxo && !cli_interrupted; k++) {
        const rbd_method *A = rbd_method_find(c->xo_a[k]), *B = rbd_method_find(c->xo_b[k]);
        for (int b = 0; b < c->nbf && !cli_interrupted; b++) {
            crossover_row row;
            xo_result r;
            memset(&r, 0, sizeof r);
            crossover_row_make(A->name, B->name, c->bf[b], &xo, &r, &row);
            if (!shard_owns(sh, cell0 + (long)k * c->nbf + b)) continue;
            if (csvlog_find_row(&log, &row) >= 0) continue;
            fprintf(stderr, "crossover %s vs %s, bf = %g ...\n", A->name, B->name, c->bf[b]);
            int rc = crossover_run(A, B, c->bf[b], c, &xo, &cli_interrupted, &r, pr);
            if (rc == 1) break;
            if (rc) { status = cli_lib_error("sweep", EXIT_FAIL); goto done; }
            crossover_row_make(A->name, B->name, c->bf[b], &xo, &r, &row);
            /* the row, then its probes: a kill in between loses only the probes (Fig. 7's extra points) */
            if (csvlog_append_row(&log, &row) || crossover_log_probes(&plog, A->name, B->name, c->bf[b], pr)) {
                status = cli_lib_error("sweep", EXIT_FAIL);
                goto done;
            }
        }
    }
done:
    free(pr);
    csvlog_close(&plog);
    csvlog_close(&log);
    return status;
}

/* samples.csv beside timings.csv: every batch of each row, for the rank
 * test of `compare`.  Appended after the row, so a kill in between leaves a
 * row without samples (compare then uses its quartiles); batches already
 * there (a rerun after such a kill) are kept. */
static int open_samples(const char *dir, csvlog *slog)
{
    int rc = samples_unpack(dir);      /* a packed directory (rbdiff pack) */
    if (rc) return rc;
    char *p = results_path(dir, SAMPLES_CSV);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    rc = csvlog_open(slog, p, samples_cols, SAMPLES_NCOLS, SAMPLES_NKEY);
    free(p);
    return rc;
}


static int write_derived(const char *dir, const csvlog *t)
{
    void *a = NULL;
    if (csvlog_rows(t, sizeof(timing_row), &a)) return cli_lib_error("sweep", EXIT_FAIL);
    timing_row *rows = a;
    if (timing_rows_attach(dir, rows, t->nrows)) { free(rows); return cli_lib_error("sweep", EXIT_FAIL); }
    char *cl = meta_cmdline(cli_argc, cli_argv);
    char *gb = results_path(dir, "benchmarks.json");
    int rc = !gb || report_write_tables(dir, rows, t->nrows) || gbench_write(gb, rows, t->nrows, cl);
    free(gb);
    free(cl);
    free(rows);
    return rc ? cli_lib_error("sweep", EXIT_FAIL) : EXIT_OK;
}

/* peer_checks.csv: one row per peer function and model, whether timed or
 * not, with the cross-check's figure. */
static int log_peer_check(csvlog *log, const bench_target *t, const bench_peer_note *nt, const char *model, int nv)
{
    const rbd_peer_func *pf = &t->peer->api->func[t->peer_func];
    peer_check_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.function, sizeof r.function, "%s", t->name);
    snprintf(r.model, sizeof r.model, "%s", model);
    r.nv = nv;
    snprintf(r.ours, sizeof r.ours, "%s", pf->ours);
    r.err = nt->checked ? nt->chk.err : NAN;
    r.tol = nt->checked ? nt->chk.tol : pf->tol;
    snprintf(r.timed, sizeof r.timed, "%s", *nt->why ? "no" : "yes");
    snprintf(r.detail, sizeof r.detail, "%s", *nt->why ? nt->why : nt->chk.worst);
    if (csvlog_find_row(log, &r) >= 0) return RBD_OK;
    return csvlog_append_row(log, &r);
}

/* meta.json "peers": what was built, how, and what each function writes. */
/* "not timed" lines, one per run of the same peer and reason (pinocchio-cg
 * on trees it has no generated code for: once, with how many cells). */
typedef struct { char last[700]; int repeats; } not_timed_log;

static void not_timed(not_timed_log *l, const bench_target *t, const char *spec, const char *why)
{
    char key[700] = "";
    if (t) snprintf(key, sizeof key, "%.*s: %s", (int)peer_row_peer_len(t->name), t->name, why);
    if (t && !strcmp(key, l->last)) { l->repeats++; return; }
    if (l->repeats)
        fprintf(stderr, "rbdiff sweep: (%d more cells not timed for the same reason: %.200s)\n", l->repeats, l->last);
    l->repeats = 0;
    snprintf(l->last, sizeof l->last, "%s", key);
    if (t) fprintf(stderr, "rbdiff sweep: %s on %s: not timed: %s\n", t->name, spec, why);
}

static json_t *peers_meta(const rbd_peer *p, int n)
{
    json_t *o = json_object();
    for (int k = 0; o && k < n; k++) {
        json_t *fs = json_array();
        for (int f = 0; f < p[k].api->nfunc; f++) {
            const rbd_peer_func *pf = &p[k].api->func[f];
            json_array_append_new(fs, json_pack("{s:s, s:s, s:s, s:f}", "name", p[k].row[f], "ours", pf->ours,
                                                "writes", pf->writes, "tol", pf->tol));
        }
        json_object_set_new(o, p[k].name, json_pack("{s:s, s:s, s:s, s:o}", "version", p[k].api->version, "build",
                                                    p[k].api->build, "module", p[k].path, "functions", fs));
    }
    return o;
}

int cmd_sweep(int argc, char **argv)
{
    static const struct option extra[] = { { "config", required_argument, 0, 'c' }, { "out", required_argument, 0, 'o' },
                                           { "help", no_argument, 0, 'h' }, { "shard", required_argument, 0, 'S' } };
    struct option *opts = sweep_options(extra, 4);
    if (!opts) return cli_error("sweep", EXIT_FAIL, "out of memory");
    sweep_config c;
    sweep_config_init(&c);
    const char *config = NULL, *out = NULL;
    char *dir = NULL;
    int ch, status = EXIT_USAGE;
    bench_target *tg = NULL, **tp = NULL;
    bench_model *bm = NULL;
    timing_row *mrows = NULL;
    int *st = NULL;
    int ntg = 0, nbm = 0;
    perfctr *pc = NULL;
    csvlog log, slog, plog;
    memset(&log, 0, sizeof log);
    memset(&slog, 0, sizeof slog);
    memset(&plog, 0, sizeof plog);
    rbd_peer *peers = NULL;
    int npeers = 0;
    bench_peer_note *notes = NULL;
    json_t *extra_meta = NULL;
    shard_spec sh = { 1, 1 };
    results_lock lk = { -1, NULL, NULL, 0 };
    /* Pass 1: the config file, so that flags (pass 2) override it. */
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch == 'c') config = optarg;
        else if (ch == 'o') out = optarg;
        else if (ch == 'S') { if (shard_parse(optarg, &sh)) { cli_lib_error("sweep", 0); goto done; } }
        else if (ch < SWEEP_OPT_BASE) { cli_bad_option("sweep", ch, argv); goto done; }
    }
    if (optind < argc) { cli_error("sweep", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("sweep"); goto done; }
    if (config) {
        int rc = sweep_config_read(&c, config);
        if (rc) { status = cli_lib_error("sweep", EXIT_USAGE); goto done; }
        sweep_config_allow_override(&c);
    }
    optind = 1;
    while ((ch = getopt_long(argc, argv, ":hc:o:", opts, NULL)) != -1)
        if (ch >= SWEEP_OPT_BASE && sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) {
            cli_lib_error("sweep", 0);
            goto done;
        }
    if (!c.nN && !c.nmodels && !c.nrobots && !accuracy_wanted(&c)) {
        cli_error("sweep", 0, "nothing to sweep: give N (--N LIST or 'N =' in a config)");
        goto done;
    }
    if (c.nN && !c.nbf && sweep_config_set(&c, "bf", "1", "--bf")) { cli_lib_error("sweep", 0); goto done; }
    if (bench_targets(&c, &tg, &ntg) || bench_models(&c, &bm, &nbm)) { cli_lib_error("sweep", 0); goto done; }
    if (bench_peers_open("sweep", &c, &peers, &npeers) || bench_add_peer_targets(&tg, &ntg, peers, npeers)) {
        status = cli_lib_error("sweep", EXIT_FAIL);
        goto done;
    }
    /* robot_methods' PEER.FUNCTION names: the peer must be one rbdiff knows,
     * and, when it loaded, the function one of its own (a typo would time
     * nothing); a known peer that is not built is left out, as everywhere */
    for (int r = 0; r < c.nrobot_methods; r++) {
        const char *name = c.robot_methods[r];
        size_t plen = peer_row_peer_len(name);
        if (!name[plen]) continue;
        char peer[64];   /* the PEER of PEER.FUNCTION: pinocchio or pinocchio@4.1.0 */
        snprintf(peer, sizeof peer, "%.*s", (int)(plen < sizeof peer ? plen : sizeof peer - 1), name);
        int fam = peer_family(peer), known = fam >= 0 && plen < sizeof peer, loaded = 0, found = 0;
        for (int k = 0; k < npeers; k++)
            loaded |= strlen(peers[k].name) == plen && !strncmp(peers[k].name, name, plen);
        for (int k = 0; k < npeers; k++)
            loaded |= !memchr(name, '@', plen) && peer_family(peers[k].name) == fam;
        for (int i = 0; i < ntg; i++) found |= tg[i].peer && peer_row_matches(name, tg[i].name);
        if (!known || (loaded && !found)) {
            status = cli_error("sweep", EXIT_USAGE, "robot_methods: '%s' is not a function of a %s peer", name,
                               known ? "loaded" : "known");
            goto done;
        }
    }
    /* Every model spec must parse, and every model fit in memory, before
     * anything is written: a method's outputs are 4 dense nv x nv blocks, a
     * base algorithm's one, and the dynamics scratch two more. */
    int any_method = 0;
    for (int i = 0; i < ntg; i++) any_method |= tg[i].method != NULL;
    for (int j = 0; j < nbm; j++) {
        rbd_model *m;
        int crc = cli_model("sweep", bm[j].spec, &m);
        if (crc) { status = crc; goto done; }
        double nn = (double)m->nv * m->nv;
        char what[600];
        snprintf(what, sizeof what, "timing on %s (nv = %d, %d dense nv x nv blocks)", bm[j].spec, m->nv,
                 any_method ? 6 : 3);
        int mrc = rbd_check_memory(what, 8.0 * nn * (any_method ? 6 : 3));
        rbd_model_free(m);
        if (mrc) { status = cli_lib_error("sweep", EXIT_FAIL); goto done; }
    }
    if (accuracy_wanted(&c)) {
        bench_model *am = NULL;
        int nam = 0;
        if (accuracy_models(&c, &am, &nam)) { cli_lib_error("sweep", 0); goto done; }
        int bad = bench_models_check("sweep", am, nam);
        free(am);
        if (bad) goto done;
    }
    if (bench_setup("sweep", &c)) goto done;    /* --pin to a CPU that is not there: refused before any write */
    status = EXIT_FAIL;
    dir = out ? strdup(out) : cli_results_dir(c.name);
    if (!dir) { cli_error("sweep", 0, "out of memory"); goto done; }
    /* one writer for the whole run (lock.h): a second one is refused here */
    char *lcl = meta_cmdline(cli_argc, cli_argv);
    int lrc = results_lock_take(&lk, dir, lcl);
    free(lcl);
    if (lrc) { status = cli_lib_error("sweep", lrc == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL); goto done; }
    if (results_prepare_dir(dir)) { cli_lib_error("sweep", 0); goto done; }
    /* a directory to resume is an input: another build's, other settings,
     * a garbage meta.json or a malformed table are refused before any file
     * is opened for writing (resume.h) */
    extra_meta = resume_settings(&c);
    int irc = extra_meta ? resume_check(dir, extra_meta) : rbd_fail(RBD_ENOMEM, "out of memory");
    if (irc) { status = cli_lib_error("sweep", irc == RBD_ENOMEM ? EXIT_FAIL : EXIT_USAGE); goto done; }
    char *tpath = results_path(dir, TIMINGS_CSV);
    if (!tpath || csvlog_open(&log, tpath, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY)) {
        free(tpath);
        cli_lib_error("sweep", 0);
        goto done;
    }
    free(tpath);
    if (open_samples(dir, &slog)) { cli_lib_error("sweep", 0); goto done; }
    if (npeers) {
        char *pp = results_path(dir, PEER_CHECKS_CSV);
        int prc = !pp || csvlog_open(&plog, pp, peer_checks_cols, PEER_CHECKS_NCOLS, PEER_CHECKS_NKEY);
        free(pp);
        if (prc) { cli_lib_error("sweep", 0); goto done; }
    }
    if (log.dropped_partial)
        fprintf(stderr, "rbdiff sweep: %s:%d: dropped a truncated line (interrupted write); it is measured again\n",
                log.path, log.dropped_partial);
    pc = bench_counters("sweep", c.counters);
    json_object_set_new(extra_meta, "hardware_counters", json_boolean(pc != NULL));
    /* how the batches were taken: all methods of a model in rounds (paired) */
    json_object_set_new(extra_meta, "timing", json_string("rounds: one batch of every method of a model per round"));
    if (npeers) json_object_set_new(extra_meta, "peers", peers_meta(peers, npeers));
    if (sh.n > 1) json_object_set_new(extra_meta, "shard", json_sprintf("%d/%d", sh.k, sh.n));
    char *cl = meta_cmdline(cli_argc, cli_argv);
    int mrc = meta_write(dir, cl, extra_meta);
    free(cl);
    if (mrc) { cli_lib_error("sweep", 0); goto done; }

    tp = malloc(sizeof *tp * ((size_t)ntg + 1));
    mrows = calloc((size_t)ntg + 1, sizeof *mrows);
    st = malloc(sizeof *st * ((size_t)ntg + 1));
    notes = calloc((size_t)ntg + 1, sizeof *notes);
    if (!tp || !mrows || !st || !notes) { cli_error("sweep", 0, "out of memory"); goto done; }
    cli_catch_interrupt();
    int total = ntg * nbm, done_n = 0, skipped = 0, measured = 0;
    not_timed_log ntl = { "", 0 };
    progress pg;
    progress_start(&pg, total, "cells (method x model)");
    for (int j = 0; j < nbm && !cli_interrupted; j++) {
        /* the targets of this model still to measure (this shard's, not in
         * timings.csv yet), timed together: one batch of each per round */
        int np = 0, ours_there = 0;
        for (int i = 0; i < ntg; i++) {
            const char *key[3] = { tg[i].name, tg[i].kind, bm[j].spec };
            if (!shard_owns(&sh, (long)j * ntg + i)) continue;
            if (j >= nbm - c.nrobots && !sweep_config_robot_times(&c, tg[i].name)) continue;  /* robot_methods */
            if (csvlog_find(&log, key) >= 0) { skipped++; ours_there |= !tg[i].peer; continue; }
            tp[np++] = &tg[i];
        }
        /* A peer is timed only in the rounds of our methods: not on a model
         * whose rows of ours an earlier run wrote (the ratios would not be
         * paired). */
        for (int i = 0; ours_there && i < np; i++)
            if (tp[i]->peer) {
                fprintf(stderr, "rbdiff sweep: %s on %s: not timed: our methods' rows for this model are from an "
                        "earlier run, and a peer is only timed in the same rounds (use a fresh --out)\n",
                        tp[i]->name, bm[j].spec);
                tp[i--] = tp[--np];
            }
        done_n += ntg - np;
        if (!np) continue;
        rbd_model *m = NULL;
        if (model_from_spec(bm[j].spec, &m)) { progress_end(&pg); cli_lib_error("sweep", 0); goto done; }
        char label[600];
        snprintf(label, sizeof label, "%d methods on %s", np, bm[j].spec + (strncmp(bm[j].spec, "autotree:", 9) ? 0 : 9));
        progress_update(&pg, done_n, label);
        int rc = bench_measure_set((const bench_target *const *)tp, np, m, &bm[j], &c, pc, &cli_interrupted, mrows, st,
                                   notes);
        int mnv = m->nv;
        rbd_model_free(m);
        if (rc == 1) break;
        if (rc) {
            progress_end(&pg);
            for (int i = 0; i < np; i++)
                if (st[i] && st[i] != RBD_ENOTSUP) cli_error("sweep", 0, "%s on %s: %s", tp[i]->name, bm[j].spec, rbd_last_error());
            goto done;
        }
        for (int i = 0; i < np; i++, done_n++) {
            if (tp[i]->peer && st[i] != RBD_ENOTSUP) {
                if (st[i] == BENCH_NOT_TIMED) not_timed(&ntl, tp[i], bm[j].spec, notes[i].why);
                if (log_peer_check(&plog, tp[i], &notes[i], bm[j].spec, mnv)) {
                    progress_end(&pg);
                    cli_lib_error("sweep", 0);
                    goto done;
                }
            }
            if (st[i] == RBD_ENOTSUP || st[i] == BENCH_NOT_TIMED) continue;  /* not applicable, or a peer not timed */
            if (timings_append(&log, &mrows[i]) || samples_append(&slog, &mrows[i])) {
                progress_end(&pg);
                cli_lib_error("sweep", 0);
                goto done;
            }
            measured++;
        }
    }
    progress_update(&pg, done_n, "");
    progress_end(&pg);
    not_timed(&ntl, NULL, NULL, NULL);
    if (!cli_interrupted && c.nxo && (status = run_crossovers(&c, dir, &sh, (long)ntg * nbm)) != EXIT_OK) goto done;
    if (!cli_interrupted && accuracy_wanted(&c) && accuracy_sweep("sweep", &c, dir) == EXIT_FAIL) {
        status = EXIT_FAIL;
        goto done;
    }
    status = write_derived(dir, &log);
    if (status) goto done;
    fprintf(stderr, "rbdiff sweep: %d measured, %d already present, %d rows in %s\n", measured, skipped, log.nrows,
            log.path);
    if (cli_interrupted) {
        status = cli_error("sweep", EXIT_INTERRUPTED, "interrupted; every finished row is in %s; rerun to resume",
                           log.path);
        goto done;
    }
    printf("%s\n", dir);
    status = EXIT_OK;
done:
    results_lock_release(&lk, status == EXIT_USAGE);
    json_decref(extra_meta);
    perfctr_close(pc);
    csvlog_close(&log);
    csvlog_close(&slog);
    csvlog_close(&plog);
    bench_peers_close(peers, npeers);
    free(notes);
    free(dir);
    free(tg);
    free(tp);
    free(mrows);
    free(st);
    free(bm);
    free(opts);
    sweep_config_free(&c);
    return status;
}
