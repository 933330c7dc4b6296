/*
 * The measurement plan shared by `time`, `sweep` and `crossover`: which
 * methods (registered methods and base algorithms), which models (autoTree
 * over bf x N, plus extra specs), and one measurement -> one timings row.
 */
#ifndef RBD_BENCH_H
#define RBD_BENCH_H

#include <signal.h>
#include "perfctr.h"
#include "results.h"
#include "sweepconf.h"
#include "timeable.h"

typedef struct {
    const char *name;
    const rbd_method *method;       /* one of method and base is set */
    const rbd_base_algo *base;
    const char *kind;               /* ID, FD, base, roof */
    int dgemm;                      /* the roofline dgemm at n = nv (roofline.h) */
} bench_target;

typedef struct {
    char spec[512];
    double bf;                      /* NAN for non-autoTree models */
} bench_model;

/* c->methods, or every registered method (then the base algorithms and
 * the roofline dgemm when c->base); *out is malloc'ed. */
int bench_targets(const sweep_config *c, bench_target **out, int *n);
/* autoTree for each bf x N (c->skew, c->taper), then c->models. */
int bench_models(const sweep_config *c, bench_model **out, int *n);
/* Builds and frees each model, so a bad spec stops a command before it
 * writes anything; 0 or the exit status (the message printed for cmd). */
int bench_models_check(const char *cmd, const bench_model *bm, int n);
/* Canonical autoTree spec. */
void bench_autotree_spec(char *buf, size_t len, int N, double bf, double skew, double taper);

/* Pins the CPU and the OpenBLAS threads as c asks; errors printed for cmd. */
int bench_setup(const char *cmd, const sweep_config *c);
/* Hardware counters if enabled; when refused says so once and returns NULL. */
perfctr *bench_counters(const char *cmd, int enabled);

/* Times t on model m (built from bm): 0, 1 when interrupted (stop flag),
 * or a negative RBD_E* code (RBD_ENOTSUP: the method does not apply). */
int bench_measure(const bench_target *t, const rbd_model *m, const bench_model *bm, const sweep_config *c,
                  perfctr *pc, volatile sig_atomic_t *stop, timing_row *row);
/* Times the n targets t[] on model m together (timing_measure_set: one
 * batch of each per round), so their ratios are paired.  status[i] is 0
 * (rows[i] filled), RBD_ENOTSUP (the method does not apply to m's joints)
 * or the error that stopped the set.  Returns 0, 1 when interrupted, or
 * the first error other than RBD_ENOTSUP (the target with that status
 * names it; nothing is measured then). */
int bench_measure_set(const bench_target *const *t, int n, const rbd_model *m, const bench_model *bm,
                      const sweep_config *c, perfctr *pc, volatile sig_atomic_t *stop, timing_row *rows,
                      int *status);



/* ------------------------------------------------------------ crossover */
#include "crossover.h"

/* Crossover search of A vs B on autotree:N,bf (c->skew, c->taper) by
 * xo_bisect with real timings (short batches, see crossover_run.c).
 * 0, 1 when interrupted (stop flag), or a negative code (message set). */
int crossover_run(const rbd_method *A, const rbd_method *B, double bf, const sweep_config *c, const xo_opts *xo,
                  volatile sig_atomic_t *stop, xo_result *r);
/* The fields of one crossover.csv row (key A, B, bf, range). */
int crossover_row_fields(const char *A, const char *B, double bf, const xo_opts *xo, const xo_result *r,
                         char buf[11][64], const char *fields[11]);
#endif
