/* The measurement plan and one measurement. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cli.h"
#include "flops.h"
#include "roofline.h"
#include "timing.h"

int bench_targets(const sweep_config *c, bench_target **out, int *n)
{
    int nbase = 0;
    while (rbd_base_algos[nbase].name) nbase++;
    int cap = c->nmethods + rbd_method_count() + nbase + 1;
    bench_target *t = calloc((size_t)cap, sizeof *t);
    if (!t) return rbd_fail(RBD_ENOMEM, "out of memory");
    int k = 0;
    if (c->nmethods) {
        for (int j = 0; j < c->nmethods; j++) {
            if (!strcmp(c->methods[j], ROOFLINE_NAME)) {
                t[k].name = ROOFLINE_NAME;
                t[k].kind = ROOFLINE_KIND;
                t[k++].dgemm = 1;
                continue;
            }
            const rbd_method *m = rbd_method_find(c->methods[j]);
            const rbd_base_algo *b = m ? NULL : rbd_base_algo_find(c->methods[j]);
            if (!m && !b) { free(t); return rbd_fail(RBD_EINVAL, "unknown method '%s'", c->methods[j]); }
            t[k].name = m ? m->name : b->name;
            t[k].method = m;
            t[k].base = b;
            t[k].kind = m ? rbd_output_name(m->output) : "base";
            k++;
        }
    } else {
        for (int j = 0; rbd_methods[j]; j++, k++) {
            t[k].name = rbd_methods[j]->name;
            t[k].method = rbd_methods[j];
            t[k].kind = rbd_output_name(rbd_methods[j]->output);
        }
        for (int j = 0; c->base && rbd_base_algos[j].name; j++, k++) {
            t[k].name = rbd_base_algos[j].name;
            t[k].base = &rbd_base_algos[j];
            t[k].kind = "base";
        }
        if (c->base) {
            t[k].name = ROOFLINE_NAME;
            t[k].kind = ROOFLINE_KIND;
            t[k++].dgemm = 1;
        }
    }
    *out = t;
    *n = k;
    return RBD_OK;
}

void bench_autotree_spec(char *buf, size_t len, int N, double bf, double skew, double taper)
{
    snprintf(buf, len, "autotree:N=%d,bf=%g,skew=%.17g,taper=%.17g", N, bf, skew, taper);
}

int bench_models(const sweep_config *c, bench_model **out, int *n)
{
    int cnt = c->nbf * c->nN + c->nmodels + c->nrobots;
    bench_model *m = calloc((size_t)cnt + 1, sizeof *m);
    if (!m) return rbd_fail(RBD_ENOMEM, "out of memory");
    int k = 0;
    for (int b = 0; b < c->nbf; b++)
        for (int i = 0; i < c->nN; i++, k++) {
            bench_autotree_spec(m[k].spec, sizeof m[k].spec, c->N[i], c->bf[b], c->skew, c->taper);
            m[k].bf = c->bf[b];
        }
    for (int j = 0; j < c->nmodels; j++, k++) {
        snprintf(m[k].spec, sizeof m[k].spec, "%s", c->models[j]);
        m[k].bf = NAN;
    }
    for (int j = 0; j < c->nrobots; j++, k++) {
        snprintf(m[k].spec, sizeof m[k].spec, "%s", c->robots[j]);
        m[k].bf = NAN;
    }
    *out = m;
    *n = k;
    return RBD_OK;
}

int bench_models_check(const char *cmd, const bench_model *bm, int n)
{
    for (int j = 0; j < n; j++) {
        rbd_model *m;
        int rc = cli_model(cmd, bm[j].spec, &m);
        if (rc) return rc;
        rbd_model_free(m);
    }
    return 0;
}

int bench_setup(const char *cmd, const sweep_config *c)
{
    timing_blas_threads(c->blas_threads);
    if (c->pin >= 0 && timing_pin_cpu(c->pin)) return cli_lib_error(cmd, EXIT_USAGE);
    return 0;
}

perfctr *bench_counters(const char *cmd, int enabled)
{
    if (!enabled) return NULL;
    char why[256];
    perfctr *pc = perfctr_open(why, sizeof why);
    if (!pc) fprintf(stderr, "rbdiff %s: hardware counters unavailable (%s); timing only\n", cmd, why);
    return pc;
}

static int make_timeable(const bench_target *t, const rbd_model *m, const sweep_config *c, rbd_timeable *tm)
{
    rbd_options mo;
    sweep_config_method_options(c, &mo);
    int rc = t->dgemm    ? timeable_dgemm(m->nv, c->seed, tm)
             : t->method ? timeable_method(t->method, m, &mo, c->pool, c->seed, tm)
                         : timeable_base(t->base, m, c->pool, c->seed, tm);
    if (rc) return rc;
    /* One checked evaluation first: a method that fails or returns NaN on
     * this model is an error, never a timing row (the timed loop itself
     * does not check). */
    if (tm->check && (rc = tm->check(tm->ctx, 0))) timeable_free(tm);
    return rc;
}

static void fill_row(const bench_target *t, const rbd_model *m, const bench_model *bm, const timing_result *r,
                     timing_row *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->method, sizeof row->method, "%s", t->name);
    snprintf(row->kind, sizeof row->kind, "%s", t->kind);
    snprintf(row->model, sizeof row->model, "%s", bm->spec);
    row->bf = bm->bf;
    row->N = m->nb;
    row->nv = m->nv;
    row->nq = m->nq;
    row->median_ns = r->ns.median;
    row->min_ns = r->ns.min;
    row->q1_ns = r->ns.q1;
    row->q3_ns = r->ns.q3;
    row->iqr_ns = r->ns.iqr;
    row->batches = r->batches;
    row->calls_per_batch = r->calls_per_batch;
    row->instructions = r->instructions;
    row->cycles = r->cycles;
    row->fp_ops = r->fp_ops;
    flops_tree ft;
    flops_tree_of(m, &ft);
    row->flops = flops_per_call(t->name, &ft);
    row->nsamples = r->nsamples < RBD_MAX_SAMPLES ? r->nsamples : RBD_MAX_SAMPLES;
    memcpy(row->samples, r->samples, sizeof(double) * (size_t)row->nsamples);
}

int bench_measure_set(const bench_target *const *t, int n, const rbd_model *m, const bench_model *bm,
                      const sweep_config *c, perfctr *pc, volatile sig_atomic_t *stop, timing_row *rows, int *status)
{
    rbd_timeable *tm = calloc((size_t)n + 1, sizeof *tm);
    timing_result *r = calloc((size_t)n + 1, sizeof *r);
    int *idx = malloc(sizeof(int) * ((size_t)n + 1));
    if (!tm || !r || !idx) { free(tm); free(r); free(idx); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int na = 0, rc = 0;
    for (int i = 0; i < n; i++) status[i] = RBD_ENOTSUP;
    for (int i = 0; i < n && !rc; i++) {
        int e = make_timeable(t[i], m, c, &tm[na]);
        if (e == RBD_ENOTSUP) continue;     /* not applicable to this model's joints */
        status[i] = e;
        if (e) { rc = e; break; }
        idx[na++] = i;
    }
    if (!rc && na) {
        timing_opts o;
        timing_opts_default(&o);
        o.batches = c->batches;
        o.batch_ns = c->batch_ms * 1e6;
        o.warmup_ns = c->warmup_ms * 1e6;
        o.pc = pc;
        o.stop = stop;
        rc = timing_measure_set(tm, na, &o, r);
        if (rc) for (int a = 0; a < na; a++) status[idx[a]] = rc;
        else for (int a = 0; a < na; a++) fill_row(t[idx[a]], m, bm, &r[a], &rows[idx[a]]);
    }
    for (int a = 0; a < na; a++) timeable_free(&tm[a]);
    free(tm);
    free(r);
    free(idx);
    return rc;
}

int bench_measure(const bench_target *t, const rbd_model *m, const bench_model *bm, const sweep_config *c,
                  perfctr *pc, volatile sig_atomic_t *stop, timing_row *row)
{
    int st = RBD_ENOTSUP;
    int rc = bench_measure_set(&t, 1, m, bm, c, pc, stop, row, &st);
    return rc ? rc : st;
}
