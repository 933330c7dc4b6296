/* advise's worst error per method against the reference (advise_errors.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "accuracy/advise_errors.h"

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

int advise_errors(const rbd_model *m, const bench_model *bm, const bench_target *tg, int ntg,
                  const sweep_config *c, volatile sig_atomic_t *stop, double *err)
{
    bench_target *ours = malloc(sizeof *ours * (size_t)(ntg + 1));
    if (!ours) return rbd_fail(RBD_ENOMEM, "out of memory");
    int n = 0;
    for (int i = 0; i < ntg; i++)
        if (tg[i].method) ours[n++] = tg[i];
    char cache[4096];
    audit_opts o;
    audit_opts_from_config(c, cache, sizeof cache, &o);
    for (int i = 0; i < ntg; i++) err[i] = -1;
    advise_errs e = { tg, ntg, err };
    audit_sink sink = { .emit = emit_err, .ctx = &e };
    int cache_failed = 0;
    int rc = audit_model(m, bm->spec, bm->bf, ours, n, &o, &sink, stop, &cache_failed);
    free(ours);
    return rc;
}
