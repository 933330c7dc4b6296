/* Crossover searches with real timings: the xo_measure callback behind
 * xo_bisect builds autotree:N (cached while N stays), and each call is one
 * short timing (3 batches of ~batch_ms/4), so a probe's repeated pairs see
 * independent noise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/bench.h"
#include "measure/timing.h"

typedef struct {
    const rbd_method *meth[2];
    double bf;
    const sweep_config *c;
    volatile sig_atomic_t *stop;
    int N;
    rbd_model *m;
    rbd_timeable t[2];
    int interrupted;
    /* the pairs of the current probe, for xo_probes */
    xo_probes *pr;
    int rec_N, npairs, cap, have[2];
    double cur[2], *ta, *tb;
} xo_ctx;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The current probe's pairs -> x->pr->p[n]. */
static void close_probe(xo_ctx *x)
{
    if (!x->pr || x->npairs < 1 || x->pr->n >= (int)(sizeof x->pr->p / sizeof x->pr->p[0])) { x->npairs = 0; return; }
    xo_probe_stat *p = &x->pr->p[x->pr->n++];
    int K = x->npairs;
    double *q = malloc(sizeof *q * 2 * (size_t)K), *scratch = q ? q + K : NULL;
    p->N = x->rec_N;
    p->pairs = K;
    p->a_faster = 0;
    for (int k = 0; k < K; k++) p->a_faster += x->ta[k] < x->tb[k];
    p->ratio = p->q1 = p->q3 = NAN;
    if (q) {
        rbd_stats st;
        for (int k = 0; k < K; k++) q[k] = x->tb[k] / x->ta[k];
        if (!stats_compute(q, K, scratch, &st)) { p->ratio = st.median; p->q1 = st.q1; p->q3 = st.q3; }
        free(q);
    }
    p->ta = median_of(x->ta, K);
    p->tb = median_of(x->tb, K);
    x->npairs = 0;
}

/* One timing of which at N: completes a pair once both are in. */
static void record(xo_ctx *x, int which, int N, double ns)
{
    if (!x->pr) return;
    if (N != x->rec_N) { close_probe(x); x->rec_N = N; x->have[0] = x->have[1] = 0; }
    x->cur[which] = ns;
    x->have[which] = 1;
    if (!x->have[0] || !x->have[1]) return;
    x->have[0] = x->have[1] = 0;
    if (x->npairs == x->cap) {
        int cap = x->cap ? 2 * x->cap : 64;
        double *a = realloc(x->ta, sizeof *a * (size_t)cap);
        if (!a) return;
        x->ta = a;
        double *b = realloc(x->tb, sizeof *b * (size_t)cap);
        if (!b) return;
        x->tb = b;
        x->cap = cap;
    }
    x->ta[x->npairs] = x->cur[0];
    x->tb[x->npairs++] = x->cur[1];
}

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
    if (rc) return rc;
    record(x, which, N, r.ns.median);
    return r.ns.median;
}

int crossover_run(const rbd_method *A, const rbd_method *B, double bf, const sweep_config *c, const xo_opts *xo,
                  volatile sig_atomic_t *stop, xo_result *r, xo_probes *pr)
{
    xo_ctx x;
    memset(&x, 0, sizeof x);
    x.pr = pr;
    if (pr) pr->n = 0;
    x.meth[0] = A;
    x.meth[1] = B;
    x.bf = bf;
    x.c = c;
    x.stop = stop;
    int rc = xo_bisect(measure, &x, xo, r);
    close_probe(&x);
    free(x.ta);
    free(x.tb);
    release(&x);
    if (x.interrupted) return 1;
    return rc;
}

void crossover_row_make(const char *A, const char *B, double bf, const xo_opts *xo, const xo_result *r,
                        crossover_row *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->A, sizeof row->A, "%s", A);
    snprintf(row->B, sizeof row->B, "%s", B);
    row->bf = bf;
    snprintf(row->range, sizeof row->range, "%d:%d", xo->lo, xo->hi);
    row->N_cross = r->status == XO_FOUND || r->status == XO_AT_LO ? r->n_cross : NAN;
    row->bracket_lo = r->lo;
    row->bracket_hi = r->hi;
    if (r->status == XO_UNRESOLVED) snprintf(row->status, sizeof row->status, "unresolved@%d", r->n_cross);
    else snprintf(row->status, sizeof row->status, "%s", xo_status_name(r->status));
    row->probes = r->probes;
    row->repetitions = r->reps;
    row->confidence = r->confidence;
}

int crossover_log_probes(csvlog *log, const char *A, const char *B, double bf, const xo_probes *pr)
{
    for (int k = 0; k < pr->n; k++) {
        const xo_probe_stat *p = &pr->p[k];
        probe_row row;
        memset(&row, 0, sizeof row);
        snprintf(row.A, sizeof row.A, "%s", A);
        snprintf(row.B, sizeof row.B, "%s", B);
        row.bf = bf;
        row.N = p->N;
        row.pairs = p->pairs;
        row.tA_median_ns = p->ta;
        row.tB_median_ns = p->tb;
        row.ratio_BA = p->ratio;
        row.ratio_q1 = p->q1;
        row.ratio_q3 = p->q3;
        row.A_faster = p->a_faster;
        if (csvlog_find_row(log, &row) >= 0) continue;
        int rc = csvlog_append_row(log, &row);
        if (rc) return rc;
    }
    return RBD_OK;
}
