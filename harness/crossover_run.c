/* Crossover searches with real timings: the xo_measure callback behind
 * xo_bisect builds autotree:N (cached while N stays), and each call is one
 * short timing (3 batches of ~batch_ms/4), so a probe's repeated pairs see
 * independent noise. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "timing.h"

typedef struct {
    const rbd_method *meth[2];
    double bf;
    const sweep_config *c;
    volatile sig_atomic_t *stop;
    int N;
    rbd_model *m;
    rbd_timeable t[2];
    int interrupted;
} xo_ctx;

static void release(xo_ctx *x)
{
    timeable_free(&x->t[0]);
    timeable_free(&x->t[1]);
    rbd_model_free(x->m);
    x->m = NULL;
    x->N = 0;
}

static double measure(void *p, int which, int N)
{
    xo_ctx *x = p;
    if (x->stop && *x->stop) { x->interrupted = 1; return RBD_EINVAL; }
    if (N != x->N) {
        release(x);
        char spec[256];
        bench_autotree_spec(spec, sizeof spec, N, x->bf, x->c->skew, x->c->taper);
        int rc = rbd_model_from_spec(spec, NULL, &x->m);
        rbd_options mo;
        sweep_config_method_options(x->c, &mo);
        for (int k = 0; k < 2 && !rc; k++) rc = timeable_method(x->meth[k], x->m, &mo, x->c->pool, x->c->seed, &x->t[k]);
        if (rc) { release(x); return rc; }
        x->N = N;
    }
    timing_opts o;
    timing_opts_default(&o);
    o.batches = 3;
    o.batch_ns = x->c->batch_ms * 1e6 / 4;
    o.warmup_ns = x->c->warmup_ms * 1e6 / 10;
    o.stop = x->stop;
    timing_result r;
    int rc = timing_measure(&x->t[which], &o, &r);
    if (rc == 1) { x->interrupted = 1; return RBD_EINVAL; }
    return rc ? rc : r.ns.median;
}

int crossover_run(const rbd_method *A, const rbd_method *B, double bf, const sweep_config *c, const xo_opts *xo,
                  volatile sig_atomic_t *stop, xo_result *r)
{
    xo_ctx x;
    memset(&x, 0, sizeof x);
    x.meth[0] = A;
    x.meth[1] = B;
    x.bf = bf;
    x.c = c;
    x.stop = stop;
    int rc = xo_bisect(measure, &x, xo, r);
    release(&x);
    if (x.interrupted) return 1;
    return rc;
}

int crossover_row_fields(const char *A, const char *B, double bf, const xo_opts *xo, const xo_result *r,
                         char buf[11][64], const char *f[11])
{
    f[0] = A;
    f[1] = B;
    for (int k = 2; k < 11; k++) { buf[k][0] = 0; f[k] = buf[k]; }
    snprintf(buf[2], 64, "%g", bf);
    snprintf(buf[3], 64, "%d:%d", xo->lo, xo->hi);
    if (r->status == XO_FOUND || r->status == XO_AT_LO) snprintf(buf[4], 64, "%d", r->n_cross);
    snprintf(buf[5], 64, "%d", r->lo);
    snprintf(buf[6], 64, "%d", r->hi);
    if (r->status == XO_UNRESOLVED) snprintf(buf[7], 64, "unresolved@%d", r->n_cross);
    else snprintf(buf[7], 64, "%s", xo_status_name(r->status));
    snprintf(buf[8], 64, "%d", r->probes);
    snprintf(buf[9], 64, "%d", r->reps);
    snprintf(buf[10], 64, "%.4f", r->confidence);
    return 0;
}
