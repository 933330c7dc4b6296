/* The accuracy audit over a config's models (accuracy_sweep.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "accuracy/accuracy_run.h"
#include "accuracy/accuracy_sweep.h"
#include "plan/modelspec.h"
#include "measure/progress.h"
#include "accuracy/accuracy_summary.h"
#include "store/meta.h"

int accuracy_wanted(const sweep_config *c)
{
    return c->nacc_N > 0 || c->nacc_models > 0;
}

json_t *accuracy_identity(const sweep_config *c)
{
    char cache[4096];
    audit_opts o;       /* the options the audit runs with, as it takes them */
    audit_opts_from_config(c, cache, sizeof cache, &o);
    return json_pack("{s:i, s:I, s:i, s:I}", "states", o.states, "seed", (json_int_t)o.seed, "prec_bits",
                     o.ref.prec, "h_log2", (json_int_t)(o.ref.h_log2 ? o.ref.h_log2 : -o.ref.prec));
}

int accuracy_models(const sweep_config *c, bench_model **out, int *n)
{
    static const double one = 1;
    const double *bfs = c->nacc_bf ? c->acc_bf : &one;
    int nbf = c->nacc_bf ? c->nacc_bf : 1;
    int cnt = nbf * c->nacc_N + c->nacc_models + c->nrobots;
    bench_model *m = calloc((size_t)cnt + 1, sizeof *m);
    if (!m) return rbd_fail(RBD_ENOMEM, "out of memory");
    int k = 0;
    for (int b = 0; b < nbf; b++)
        for (int i = 0; i < c->nacc_N; i++, k++) {
            bench_autotree_spec(m[k].spec, sizeof m[k].spec, c->acc_N[i], bfs[b], c->acc_skew, c->acc_taper);
            m[k].bf = bfs[b];
        }
    for (int j = 0; j < c->nacc_models; j++, k++) {
        snprintf(m[k].spec, sizeof m[k].spec, "%s", c->acc_models[j]);
        m[k].bf = spec_bf(c->acc_models[j]);
    }
    for (int j = 0; j < c->nrobots; j++, k++) {
        snprintf(m[k].spec, sizeof m[k].spec, "%s", c->robots[j]);
        m[k].bf = NAN;
    }
    *out = m;
    *n = k;
    return RBD_OK;
}

typedef struct {
    csvlog *log, *cond, *eps;
    const char *cmd;
    const bench_model *bm;
    progress *pg;
    int done;
    char label[600];
    json_t *notes;      /* the notes, for accuracy.json's not_audited */
} sink_ctx;

/* The key of a row not yet measured: the row with its key fields set. */
static int have_row(void *p, const char *method, const char *output)
{
    sink_ctx *s = p;
    accuracy_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.method, sizeof r.method, "%s", method);
    snprintf(r.output, sizeof r.output, "%s", output);
    snprintf(r.model, sizeof r.model, "%s", s->bm->spec);
    r.bf = s->bm->bf;
    return csvlog_find_row(s->log, &r) >= 0;
}

static int emit_row(void *p, const accuracy_row *r)
{
    sink_ctx *s = p;
    return csvlog_append_row(s->log, r);
}

static int have_cond(void *p)
{
    sink_ctx *s = p;
    cond_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.model, sizeof r.model, "%s", s->bm->spec);
    r.bf = s->bm->bf;
    return csvlog_find_row(s->cond, &r) >= 0;
}

static int emit_cond(void *p, const cond_row *r)
{
    sink_ctx *s = p;
    return csvlog_append_row(s->cond, r);
}

static int emit_eps(void *p, const peer_eps_row *r)
{
    sink_ctx *s = p;
    if (csvlog_find_row(s->eps, r) >= 0) return RBD_OK;   /* a resumed model scores its steps again */
    return csvlog_append_row(s->eps, r);
}

static void note(void *p, const char *msg)
{
    sink_ctx *s = p;
    fprintf(stderr, "rbdiff %s: %s\n", s->cmd, msg);
    json_array_append_new(s->notes, json_string(msg));   /* out of memory: on stderr only */
}

/* The peers of the config (`peers`) and their targets; peer_eps.csv is
 * opened only when one is, so an audit without peers writes no such file. */
static int open_peers(const char *cmd, const sweep_config *c, const char *dir, bench_target **tg, int *ntg,
                      rbd_peer **peers, int *npeers, csvlog *eps)
{
    if (!c->npeers) return RBD_OK;
    int rc = bench_peers_open(cmd, c, peers, npeers);
    if (!rc) rc = bench_add_peer_targets(tg, ntg, *peers, *npeers);
    if (rc || !*npeers) return rc;
    char *p = results_path(dir, PEER_EPS_CSV);
    rc = p ? csvlog_open(eps, p, peer_eps_cols, PEER_EPS_NCOLS, PEER_EPS_NKEY) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(p);
    return rc;
}

static void on_ref(void *p, int state, int states, int hit)
{
    sink_ctx *s = p;
    char msg[700];
    snprintf(msg, sizeof msg, "%s reference %d/%d%s", s->label, state + 1, states,
             hit < 0 ? "" : hit ? " (cached)" : " done");
    progress_update(s->pg, s->done, msg);
}

int accuracy_sweep(const char *cmd, const sweep_config *c, const char *dir, volatile sig_atomic_t *stop)
{
    bench_target *tg = NULL;
    bench_model *bm = NULL;
    int ntg = 0, nbm = 0, cache_failed = 0, npeers = 0, rc;
    rbd_peer *peers = NULL;
    csvlog log, cond, eps;
    memset(&log, 0, sizeof log);
    memset(&cond, 0, sizeof cond);
    memset(&eps, 0, sizeof eps);
    char cache[4096];
    audit_opts o;
    audit_opts_from_config(c, cache, sizeof cache, &o);
    if ((rc = bench_targets(c, &tg, &ntg)) || (rc = accuracy_models(c, &bm, &nbm))) goto done;
    if ((rc = results_open_table(&log, dir, ACCURACY_CSV, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY)) ||
        (rc = results_open_table(&cond, dir, CONDITIONING_CSV, conditioning_cols, CONDITIONING_NCOLS,
                                 CONDITIONING_NKEY)) ||
        (rc = open_peers(cmd, c, dir, &tg, &ntg, &peers, &npeers, &eps)))
        goto done;
    if (log.dropped_partial)
        fprintf(stderr, "rbdiff %s: %s:%d: dropped a truncated line (interrupted write); it is computed again\n", cmd,
                log.path, log.dropped_partial);
    bench_target *fit = malloc(sizeof *fit * ((size_t)ntg + 1));
    if (!fit) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); goto done; }
    progress pg;
    progress_start(&pg, nbm, "accuracy models");
    sink_ctx sc = { &log, &cond, &eps, cmd, NULL, &pg, 0, "", json_array() };
    audit_sink sink = { .have = have_row, .emit = emit_row, .ctx = &sc, .have_cond = have_cond,
                        .emit_cond = emit_cond, .on_ref = on_ref, .emit_eps = npeers ? emit_eps : NULL,
                        .note = note };
    for (int j = 0; j < nbm && !rc && !*stop; j++) {
        rbd_model *m = NULL;
        if ((rc = model_from_spec(bm[j].spec, &m))) break;
        sc.bm = &bm[j];
        sc.done = j;
        spec_label(bm[j].spec, sc.label, sizeof sc.label);
        progress_update(&pg, j, sc.label);
        int nfit = 0;       /* the targets of this model: second order only up to accuracy_so_nv_max */
        for (int i = 0; i < ntg; i++)
            if (bench_target_fits(c, &tg[i], m->nv, 1)) fit[nfit++] = tg[i];
        rc = audit_model(m, bm[j].spec, bm[j].bf, fit, nfit, &o, &sink, stop, &cache_failed);
        rbd_model_free(m);
    }
    free(fit);
    progress_update(&pg, nbm, "");
    progress_end(&pg);
    if (rc < 0) {
        char why[1024];
        snprintf(why, sizeof why, "%s", rbd_last_error());
        rc = rbd_fail(rc, "accuracy: %s", why);
        json_decref(sc.notes);
        goto done;
    }
    if (cache_failed) fprintf(stderr, "rbdiff %s: could not write the reference cache in %s\n", cmd, cache);
    json_t *settings = json_pack("{s:i, s:I, s:f, s:f, s:i, s:s, s:o}", "states", o.states, "seed",
                                 (json_int_t)o.seed, "skew", c->acc_skew, "taper", c->acc_taper, "prec_bits",
                                 o.ref.prec, "step", "h = 2^-prec (complex step, reference/README.md)", "cache",
                                 meta_json_text(cache));
    rc = accuracy_write_json(dir, &log, &cond, settings, sc.notes);
    json_decref(settings);
    json_decref(sc.notes);
    if (!rc && *stop) rc = 1;
done:
    csvlog_close(&log);
    csvlog_close(&cond);
    csvlog_close(&eps);
    free(tg);
    bench_peers_close(peers, npeers);
    free(bm);
    return rc;
}
