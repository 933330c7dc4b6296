/* The sweep's cells, model by model (sweep.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "measure/progress.h"
#include "measure/sweep.h"
#include "peers/peer.h"
#include "plan/modelspec.h"

/* What one model's round takes: its targets still to measure and what
 * the measurement gives back for each. */
typedef struct {
    const bench_target **tp;
    timing_row *rows;
    int *st;
    bench_peer_note *notes;
    int np;
    char said[700];     /* the last "not timed" line's peer and reason, */
    int repeats;        /* and how many cells since had the same */
} model_cells;

/* "not timed" lines, one per run of the same peer and reason: pinocchio-cg
 * on the trees it has no generated code for says so once, with how many
 * cells (t NULL: the end, say the count). */
static void not_timed(const char *cmd, model_cells *mc, const bench_target *t, const char *spec, const char *why)
{
    char key[700] = "";
    peer_name pn;
    if (t) {
        peer_name_parse(t->name, &pn);
        snprintf(key, sizeof key, "%s: %s", pn.peer, why);
    }
    if (t && !strcmp(key, mc->said)) { mc->repeats++; return; }
    if (mc->repeats)
        fprintf(stderr, "rbdiff %s: (%d more cells not timed for the same reason: %.200s)\n", cmd, mc->repeats, mc->said);
    mc->repeats = 0;
    snprintf(mc->said, sizeof mc->said, "%s", key);
    if (t) fprintf(stderr, "rbdiff %s: %s on %s: not timed: %s\n", cmd, t->name, spec, why);
}

/* The targets of model j still to measure (this shard's, not in
 * timings.csv yet), timed together: one batch of each per round.  A peer
 * is timed only in the rounds of our methods: not on a model whose rows of
 * ours an earlier run wrote (the ratios would not be paired). */
static void pick_targets(const char *cmd, const sweep_plan *p, const csvlog *timings, int j, model_cells *mc,
                         sweep_tally *t)
{
    int ours_there = 0;
    mc->np = 0;
    for (int i = 0; i < p->ntg; i++) {
        const bench_target *tg = &p->tg[i];
        const char *key[3] = { tg->name, tg->kind, p->bm[j].spec };
        if (!shard_owns(&p->sh, (long)j * p->ntg + i)) continue;
        if (j >= p->nbm - p->c->nrobots && !sweep_config_robot_times(p->c, tg->name)) continue;  /* robot_methods */
        if (!bench_target_fits(p->c, tg, p->bm[j].nv, 0)) continue;                           /* so_nv_max */
        if (csvlog_find(timings, key) >= 0) { t->skipped++; ours_there |= !tg->peer; continue; }
        mc->tp[mc->np++] = tg;
    }
    for (int i = 0; ours_there && i < mc->np; i++)
        if (mc->tp[i]->peer) {
            fprintf(stderr, "rbdiff %s: %s on %s: not timed: our methods' rows for this model are from an "
                    "earlier run, and a peer is only timed in the same rounds (use a fresh --out)\n", cmd,
                    mc->tp[i]->name, p->bm[j].spec);
            mc->tp[i--] = mc->tp[--mc->np];
        }
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

/* Model j's measured targets into the set: the peers' checks, then the
 * rows of those timed (not those that do not apply or were not timed). */
static int write_model(const char *cmd, const char *spec, int nv, sweep_set *s, model_cells *mc, sweep_tally *t)
{
    for (int i = 0; i < mc->np; i++) {
        const bench_target *tg = mc->tp[i];
        int st = mc->st[i];
        if (tg->peer && st != RBD_ENOTSUP) {
            if (st == BENCH_NOT_TIMED) not_timed(cmd, mc, tg, spec, mc->notes[i].why);
            int rc = log_peer_check(&s->peer_checks, tg, &mc->notes[i], spec, nv);
            if (rc) return rc;
        }
        if (st == RBD_ENOTSUP || st == BENCH_NOT_TIMED) continue;
        int rc = timings_append(&s->timings, &mc->rows[i]);
        if (!rc) rc = samples_append(&s->samples, &mc->rows[i]);
        if (rc) return rc;
        t->measured++;
    }
    return RBD_OK;
}

/* Times model j's cells in mc: 0, 1 when interrupted, SWEEP_REPORTED or a
 * negative code. */
static int run_model(const char *cmd, const sweep_plan *p, int j, sweep_set *s, perfctr *pc,
                     volatile sig_atomic_t *stop, model_cells *mc, sweep_tally *t)
{
    rbd_model *m = NULL;
    int rc = model_from_spec(p->bm[j].spec, &m);
    if (rc) return rc;
    rc = bench_measure_set(mc->tp, mc->np, m, &p->bm[j], p->c, pc, stop, mc->rows, mc->st, mc->notes);
    int nv = m->nv;
    rbd_model_free(m);
    if (rc == 1) return 1;
    if (rc) {
        for (int i = 0; i < mc->np; i++)
            if (mc->st[i] && mc->st[i] != RBD_ENOTSUP)
                fprintf(stderr, "rbdiff %s: %s on %s: %s\n", cmd, mc->tp[i]->name, p->bm[j].spec, rbd_last_error());
        return SWEEP_REPORTED;
    }
    return write_model(cmd, p->bm[j].spec, nv, s, mc, t);
}

int sweep_cells_run(const char *cmd, const sweep_plan *p, sweep_set *s, perfctr *pc, volatile sig_atomic_t *stop,
                    sweep_tally *t)
{
    size_t n = (size_t)p->ntg + 1;
    model_cells mc = { malloc(sizeof *mc.tp * n), calloc(n, sizeof *mc.rows), malloc(sizeof *mc.st * n),
                       calloc(n, sizeof *mc.notes), 0, "", 0 };
    int rc = mc.tp && mc.rows && mc.st && mc.notes ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
    int done_n = 0;
    progress pg;
    if (!rc) progress_start(&pg, p->ntg * p->nbm, "cells (method x model)");
    for (int j = 0; !rc && j < p->nbm && !*stop; j++) {
        pick_targets(cmd, p, &s->timings, j, &mc, t);
        done_n += p->ntg - mc.np;
        if (!mc.np) continue;
        const char *spec = p->bm[j].spec;
        char label[600];
        snprintf(label, sizeof label, "%d methods on %s", mc.np, spec + (strncmp(spec, "autotree:", 9) ? 0 : 9));
        progress_update(&pg, done_n, label);
        rc = run_model(cmd, p, j, s, pc, stop, &mc, t);
        if (!rc) done_n += mc.np;
    }
    not_timed(cmd, &mc, NULL, NULL, NULL);
    if (rc == 1) rc = RBD_OK;       /* interrupted: the caller looks at *stop */
    if (!rc) progress_update(&pg, done_n, "");
    if (mc.tp && mc.rows && mc.st && mc.notes) progress_end(&pg);
    free(mc.tp);
    free(mc.rows);
    free(mc.st);
    free(mc.notes);
    return rc;
}
