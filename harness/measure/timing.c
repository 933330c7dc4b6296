/* Timing as harness/README.md says it: warm-up, calibrated batches, order statistics. */
#include <cblas.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include "measure/timing.h"

void timing_opts_default(timing_opts *o)
{
    memset(o, 0, sizeof *o);
    o->warmup_ns = 20e6;
    o->batch_ns = 10e6;
    o->batches = 11;
    o->slices = 1;
}

double timing_run_batch(const rbd_timeable *t, long calls, int *k, int *err)
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

/* Aim of a calibrated batch: 5% past o->batch_ns, so that the noise of one
 * timing rarely leaves a batch short, while batches stay close to the length
 * asked for (the rounds' cost is K batches of every cell). */
#define TIMING_AIM 1.05

int timing_calibrate(const rbd_timeable *t, const timing_opts *o, int *k, long *out)
{
    int err = 0;
    /* Warm-up: batches doubling from one call until o->warmup_ns have passed,
     * each cut to the time left at the last batch's speed, so the warm-up
     * lasts its length rather than up to twice it.  Its longest batch (the
     * least timer overhead per call) gives the calibration its first
     * estimate of ns per call. */
    double w0 = timing_now_ns(), per_call = 0, longest = 0;
    long calls = 1;
    for (;;) {
        double left = o->warmup_ns - (timing_now_ns() - w0);
        if (left <= 0) break;
        if (per_call > 0 && left / per_call < (double)calls) calls = (long)ceil(left / per_call);
        double ns = timing_run_batch(t, calls, k, &err);
        if (ns < 0) return err;
        if (ns > longest) { longest = ns; per_call = ns / (double)calls; }
        if (o->stop && *o->stop) return 1;
        if (calls < (1L << 20)) calls *= 2;
    }
    /* Calibration: the first batch sized from that estimate (one call with
     * no warm-up), a short batch grown by what it missed, until one batch
     * lasts >= o->batch_ns: that call count is every batch's. */
    calls = 1;
    if (per_call > 0) {
        double c = TIMING_AIM * o->batch_ns / per_call;
        calls = c < 1 ? 1 : c > (double)(1L << 40) ? 1L << 40 : (long)ceil(c);
    }
    for (;;) {
        double ns = timing_run_batch(t, calls, k, &err);
        if (ns < 0) return err;
        if (ns >= o->batch_ns) break;
        if (o->stop && *o->stop) return 1;
        if (calls >= (1L << 40)) break;
        double grow = ns > 0 ? TIMING_AIM * o->batch_ns / ns : 100;
        if (grow > 100) grow = 100;
        long next = (long)ceil((double)calls * grow);
        calls = next > calls ? next : calls + 1;
    }
    *out = calls;
    return 0;
}

/* Per-target scratch: ns, instructions, cycles, FP ops per call per batch. */
typedef struct {
    long calls;
    int k, have_ctr, have_fp;
    double *ns, *ins, *cyc, *fp;
} target_run;

/* Batch b of a target: with o->slices > 1 the fastest of that many slices
 * run back to back, as `rbdiff pair` times (measure/worker.c): on a shared
 * machine another tenant's time slice only ever adds to a slice, so the
 * fastest is the least disturbed; the counters are per call over all. */
static int one_batch(const rbd_timeable *t, const timing_opts *o, target_run *x, int b)
{
    int err = 0, S = o->slices > 1 ? o->slices : 1;
    if (o->pc) perfctr_start(o->pc);
    double ns = INFINITY;
    for (int s = 0; s < S && ns >= 0; s++) {
        double v = timing_run_batch(t, x->calls, &x->k, &err);
        ns = v < 0 ? v : fmin(ns, v);
    }
    double calls = (double)x->calls * S;
    if (o->pc) {
        double i_, c_, f_;
        if (perfctr_stop(o->pc, &i_, &c_, &f_) == 0) {
            x->ins[b] = i_ / calls;
            x->cyc[b] = c_ / calls;
            x->fp[b] = f_ / calls;
            if (!isfinite(f_)) x->have_fp = 0;
        } else {
            x->have_ctr = x->have_fp = 0;
        }
    }
    if (ns < 0) return err;
    x->ns[b] = ns / (double)x->calls;
    return 0;
}

static int summarise(const target_run *x, int K, double *scratch, timing_result *r)
{
    int rc = stats_compute(x->ns, K, scratch, &r->ns);
    if (!rc && x->have_ctr) {
        rbd_stats st;
        if (!stats_compute(x->ins, K, scratch, &st)) r->instructions = st.median;
        if (!stats_compute(x->cyc, K, scratch, &st)) r->cycles = st.median;
        if (x->have_fp && !stats_compute(x->fp, K, scratch, &st)) r->fp_ops = st.median;
    }
    r->nsamples = K < TIMING_MAX_SAMPLES ? K : TIMING_MAX_SAMPLES;
    memcpy(r->samples, x->ns, sizeof(double) * (size_t)r->nsamples);
    r->batches = K;
    r->calls_per_batch = x->calls;
    return rc;
}

int timing_measure_set(const rbd_timeable *t, int n, const timing_opts *o, timing_result *r)
{
    if (n < 1) return rbd_fail(RBD_EINVAL, "timing: nothing to time");
    for (int i = 0; i < n; i++) {
        memset(&r[i], 0, sizeof r[i]);
        r[i].instructions = r[i].cycles = r[i].fp_ops = NAN;
    }
    if (o->batches < 1 || !(o->batch_ns > 0))
        return rbd_fail(RBD_EINVAL, "timing: need batches >= 1 and a positive batch time");
    const int K = o->batches;
    target_run *x = calloc((size_t)n, sizeof *x);
    double *s = malloc(sizeof(double) * (4 * (size_t)n + 1) * (size_t)K);
    if (!x || !s) { free(x); free(s); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        double *base = s + 4 * (size_t)K * (size_t)i;
        x[i].ns = base; x[i].ins = base + K; x[i].cyc = base + 2 * K; x[i].fp = base + 3 * K;
        x[i].have_ctr = o->pc != NULL;
        x[i].have_fp = perfctr_has_fp(o->pc);
        timing_opts slice = *o;     /* a slice's calls: batch_ns / slices of wall time */
        if (o->slices > 1) slice.batch_ns = o->batch_ns / o->slices;
        rc = timing_calibrate(&t[i], &slice, &x[i].k, &x[i].calls);
    }
    /* Round b runs one batch of every target, starting at target b mod n, so
     * a slow drift of the machine (load, frequency) lands on all of them
     * alike and batch b of two targets is a fair pair. */
    for (int b = 0; b < K && !rc; b++)
        for (int j = 0; j < n && !rc; j++) {
            if (o->stop && *o->stop) { rc = 1; break; }
            int i = (b + j) % n;
            rc = one_batch(&t[i], o, &x[i], b);
        }
    for (int i = 0; i < n && !rc; i++) rc = summarise(&x[i], K, s + 4 * (size_t)K * (size_t)n, &r[i]);
    free(x);
    free(s);
    return rc;
}

int timing_measure(const rbd_timeable *t, const timing_opts *o, timing_result *r)
{
    return timing_measure_set(t, 1, o, r);
}

int timing_paired_stats(const double *a, const double *b, int K, rbd_stats *st)
{
    if (K < 1) return RBD_EINVAL;
    if (K > TIMING_MAX_SAMPLES) K = TIMING_MAX_SAMPLES;
    double q[TIMING_MAX_SAMPLES], scratch[TIMING_MAX_SAMPLES];
    for (int k = 0; k < K; k++) q[k] = a[k] / b[k];
    return stats_compute(q, K, scratch, st);
}

int timing_pin_cpu(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (cpu < 0 || cpu >= CPU_SETSIZE || (ncpu > 0 && cpu >= ncpu))
        return rbd_fail(RBD_EINVAL, "--pin %d: no such CPU (this machine has CPUs 0 to %ld)", cpu, ncpu - 1);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
        return rbd_fail(RBD_EINVAL, "--pin %d: this process may not run there (sched_setaffinity: %s)", cpu,
                        strerror(errno));
    return RBD_OK;
}

void timing_blas_threads(int n)
{
    if (n >= 1) openblas_set_num_threads(n);
}
