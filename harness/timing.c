/* Timing per DESIGN.md: warm-up, calibrated batches, order statistics. */
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "timing.h"

void timing_opts_default(timing_opts *o)
{
    memset(o, 0, sizeof *o);
    o->warmup_ns = 20e6;
    o->batch_ns = 10e6;
    o->batches = 11;
}

double timing_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* calls evaluations cycling through the pool from *k; wall ns or < 0. */
static double run_batch(const rbd_timeable *t, long calls, int *k, int *err)
{
    int idx = *k;
    double t0 = timing_now_ns();
    for (long c = 0; c < calls; c++) {
        int rc = t->call(t->ctx, idx);
        if (rc) { *err = rc; return -1; }
        if (++idx == t->pool) idx = 0;
    }
    double t1 = timing_now_ns();
    *k = idx;
    return t1 - t0;
}

int timing_measure(const rbd_timeable *t, const timing_opts *o, timing_result *r)
{
    memset(r, 0, sizeof *r);
    r->instructions = r->cycles = r->fp_ops = NAN;
    if (o->batches < 1 || !(o->batch_ns > 0))
        return rbd_fail(RBD_EINVAL, "timing: need batches >= 1 and a positive batch time");
    int k = 0, err = 0;
    /* Warm-up: caches, branch predictors, CPU frequency. */
    double w0 = timing_now_ns();
    long calls = 1;
    while (timing_now_ns() - w0 < o->warmup_ns) {
        if (run_batch(t, calls, &k, &err) < 0) return err;
        if (calls < (1L << 20)) calls *= 2;
        if (o->stop && *o->stop) return 1;
    }
    /* Calibration: grow the batch until it lasts batch_ns. */
    calls = 1;
    for (;;) {
        double ns = run_batch(t, calls, &k, &err);
        if (ns < 0) return err;
        if (ns >= o->batch_ns) break;
        if (o->stop && *o->stop) return 1;
        double grow = ns > 0 ? 1.25 * o->batch_ns / ns : 10;
        if (grow < 2) grow = 2;
        if (grow > 100) grow = 100;
        if (calls > (1L << 40)) break;
        calls = (long)ceil((double)calls * grow);
    }
    int K = o->batches;
    double *s = malloc(sizeof(double) * 5 * (size_t)K);
    if (!s) return rbd_fail(RBD_ENOMEM, "out of memory");
    double *ins = s + K, *cyc = s + 2 * K, *fp = s + 3 * K, *scratch = s + 4 * K;
    int have_ctr = o->pc != NULL, have_fp = perfctr_has_fp(o->pc);
    for (int b = 0; b < K; b++) {
        if (o->stop && *o->stop) { free(s); return 1; }
        if (o->pc) perfctr_start(o->pc);
        double ns = run_batch(t, calls, &k, &err);
        if (o->pc) {
            double i_, c_, f_;
            if (perfctr_stop(o->pc, &i_, &c_, &f_) == 0) {
                ins[b] = i_ / (double)calls;
                cyc[b] = c_ / (double)calls;
                fp[b] = f_ / (double)calls;
                if (!isfinite(f_)) have_fp = 0;
            } else {
                have_ctr = have_fp = 0;
            }
        }
        if (ns < 0) { free(s); return err; }
        s[b] = ns / (double)calls;
    }
    int rc = stats_compute(s, K, scratch, &r->ns);
    if (!rc && have_ctr) {
        rbd_stats st;
        if (!stats_compute(ins, K, scratch, &st)) r->instructions = st.median;
        if (!stats_compute(cyc, K, scratch, &st)) r->cycles = st.median;
        if (have_fp && !stats_compute(fp, K, scratch, &st)) r->fp_ops = st.median;
    }
    r->nsamples = K < TIMING_MAX_SAMPLES ? K : TIMING_MAX_SAMPLES;
    memcpy(r->samples, s, sizeof(double) * (size_t)r->nsamples);
    r->batches = K;
    r->calls_per_batch = calls;
    free(s);
    return rc;
}

int timing_pin_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu < 0 || cpu >= CPU_SETSIZE) return rbd_fail(RBD_EINVAL, "--pin %d: not a CPU number", cpu);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        return rbd_fail(RBD_EINVAL, "--pin %d: sched_setaffinity: %s", cpu, strerror(errno));
    return RBD_OK;
}

void timing_blas_threads(int n)
{
    if (n >= 1) openblas_set_num_threads(n);
}
