/* `rbdiff time`'s plan and models timed one after the other (time_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/method_facts.h"
#include "measure/roofline.h"
#include "measure/time_run.h"
#include "plan/modelspec.h"

int time_plan_make(time_plan *tp, const char *cmd, int *bad_input)
{
    sweep_config *c = &tp->c;
    int rc;
    *bad_input = 1;
    if (!c->nbf && (rc = sweep_config_set(c, "bf", "1", "--bf"))) return rc;
    if ((rc = bench_targets(c, &tp->tg, &tp->ntg)) || (rc = bench_models(c, &tp->bm, &tp->nbm))) return rc;
    if ((rc = bench_models_check(tp->bm, tp->nbm))) return rc;
    *bad_input = 0;
    if ((rc = bench_so_sizes_check(&tp->c, tp->bm, tp->nbm, 0))) return rc;
    if ((rc = bench_peers_open(cmd, c, &tp->peers, &tp->npeers)) ||
        (rc = bench_add_peer_targets(&tp->tg, &tp->ntg, tp->peers, tp->npeers)))
        return rc;
    if (c->npeers && !tp->npeers) fprintf(stderr, "rbdiff %s: no peer found; timing rbdiff's methods alone\n", cmd);
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
    *bad_input = 1;
    return bench_setup(c);    /* --pin: refused (2) before the table starts */
}

void time_plan_free(time_plan *tp)
{
    bench_peers_close(tp->peers, tp->npeers);
    free(tp->tg);
    free(tp->bm);
    sweep_config_free(&tp->c);
}

/* Model j: every target measured together (one batch of each per round);
 * rows[*nrows..] receive its rows.  0, 1 when interrupted, or the code. */
static int time_model(const time_plan *tp, int j, perfctr *pc, const bench_target **t, int *st,
                      bench_peer_note *notes, timing_row *rows, int *nrows, volatile sig_atomic_t *stop,
                      const time_sink *s, int *said)
{
    const bench_model *bm = &tp->bm[j];
    rbd_model *m;
    int rc = model_from_spec(bm->spec, &m);
    if (rc) return rc;
    s->begin(s->ctx, tp, bm, m->nv);
    timing_row *mr = &rows[*nrows];
    rc = bench_measure_set(t, tp->ntg, m, bm, &tp->c, pc, stop, mr, st, notes);
    rbd_model_free(m);
    if (rc == 1) return 1;
    if (rc) {
        for (int i = 0; i < tp->ntg; i++)
            if (st[i] && st[i] != RBD_ENOTSUP) s->failed(s->ctx, &tp->tg[i], bm);
        *said = 1;
        return rc < 0 ? rc : RBD_EINVAL;
    }
    for (int i = 0; i < tp->ntg; i++) {
        if (st[i] == RBD_ENOTSUP || st[i] == BENCH_NOT_TIMED) continue;
        if (&rows[*nrows] != &mr[i]) rows[*nrows] = mr[i];
        (*nrows)++;
    }
    s->end(s->ctx, tp, bm, st, notes, rows, *nrows);
    return 0;
}

int time_run(const time_plan *tp, const char *cmd, volatile sig_atomic_t *stop, const time_sink *s, int *said)
{
    size_t n = (size_t)tp->ntg + 1;
    perfctr *pc = bench_counters(cmd, tp->c.counters);
    timing_row *rows = calloc((size_t)(tp->ntg * tp->nbm) + 1, sizeof *rows);
    const bench_target **t = malloc(sizeof *t * n);
    int *st = malloc(sizeof *st * n), nrows = 0, rc = RBD_OK;
    bench_peer_note *notes = calloc(n, sizeof *notes);
    *said = 0;
    if (!rows || !t || !st || !notes) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    for (int i = 0; !rc && i < tp->ntg; i++) t[i] = &tp->tg[i];
    for (int j = 0; !rc && j < tp->nbm && !*stop; j++) {
        int r = time_model(tp, j, pc, t, st, notes, rows, &nrows, stop, s, said);
        if (r == 1) break;
        rc = r;
    }
    perfctr_close(pc);
    free(notes);
    free(rows);
    free(t);
    free(st);
    return rc;
}
