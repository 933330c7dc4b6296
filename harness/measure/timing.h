/*
 * The timing methodology (harness/README.md, "Timing") for any timeable: warm-up, a
 * calibrated batch length (>= batch_ns of wall time, so the clock's
 * resolution and the loop overhead vanish), K batches cycling through the
 * state pool, then median, min and inter-quartile range of ns per call.
 * Hardware counters, when a perfctr is given, are read around each batch.
 */
#ifndef RBD_TIMING_H
#define RBD_TIMING_H

#include <signal.h>
#include "measure/perfctr.h"
#include "common/stats.h"
#include "common/clock.h"
#include "common/timeable.h"

typedef struct {
    double warmup_ns;       /* warm-up wall time before calibrating (default 20 ms) */
    double batch_ns;        /* minimum wall time of one batch (default 10 ms)       */
    int batches;            /* K (default 11)                                        */
    int slices;             /* a batch: the fastest of this many back-to-back slices
                               of batch_ns / slices each (default 1: the whole batch) */
    perfctr *pc;            /* optional hardware counters (NULL: time only)          */
    volatile sig_atomic_t *stop;   /* optional: set by SIGINT; ends the measurement  */
} timing_opts;

enum { TIMING_MAX_SAMPLES = 64 };

typedef struct {
    rbd_stats ns;           /* ns per call over the K batches                        */
    int batches;
    long calls_per_batch;
    double instructions;    /* per call, median over batches; NAN without counters   */
    double cycles;
    double fp_ops;          /* per call (PMU FP events); NAN without them            */
    int nsamples;           /* min(batches, TIMING_MAX_SAMPLES)                      */
    double samples[TIMING_MAX_SAMPLES];  /* ns per call of each batch, in order     */
} timing_result;

void timing_opts_default(timing_opts *o);

/* RBD_EINTR-like stop: returns 1 (no result) when *o->stop was set. */
int timing_measure(const rbd_timeable *t, const timing_opts *o, timing_result *r);
/* The same for n timeables measured together: each is warmed up and
 * calibrated, then the K batches run in rounds, one batch of each per
 * round (rotating which goes first), so r[i].samples[b] and r[j].samples[b]
 * were taken side by side.  Ratios between methods should come from these
 * pairs (timing_paired_stats), not from medians taken minutes apart. */
int timing_measure_set(const rbd_timeable *t, int n, const timing_opts *o, timing_result *r);
/* The paired ratio of two targets measured together: the median and
 * quartiles (rbd_stats) of a[b] / b[b] over the first K rounds; RBD_EINVAL
 * if K < 1 or a ratio is not finite. */
int timing_paired_stats(const double *a, const double *b, int K, rbd_stats *st);

/* The two steps of every measurement, for callers that run the rounds
 * themselves (measure/worker.c: one batch per request of `rbdiff pair`).
 * timing_calibrate: warm-up (caches, branch predictors, CPU frequency) for
 * o->warmup_ns, then grows the call count until one batch lasts o->batch_ns;
 * 0, 1 when *o->stop was set, or the method's error.  timing_run_batch:
 * calls evaluations cycling through the pool from *k; wall ns, or < 0 with
 * *err set. */
int timing_calibrate(const rbd_timeable *t, const timing_opts *o, int *k, long *calls);
double timing_run_batch(const rbd_timeable *t, long calls, int *k, int *err);

/* Pins this thread to one CPU (sched_setaffinity); errors name the CPU. */
int timing_pin_cpu(int cpu);
/* OpenBLAS threads: n >= 1 sets that many (openblas_set_num_threads). */
void timing_blas_threads(int n);

#endif
