/*
 * The measurement plan shared by `time`, `sweep` and `crossover`: which
 * methods (registered methods and base algorithms), which models (autoTree
 * over bf x N, plus extra specs), and one measurement -> one timings row.
 */
#ifndef RBD_BENCH_H
#define RBD_BENCH_H

#include <signal.h>
#include "peers/peer.h"
#include "measure/perfctr.h"
#include "store/results.h"
#include "plan/sweepconf.h"
#include "common/timeable.h"

typedef struct {
    const char *name;
    const rbd_method *method;       /* one of method, base, dgemm and peer is set */
    const rbd_base_algo *base;
    const char *kind;               /* ID, FD, base, roof, peer */
    int dgemm;                      /* the roofline dgemm at n = nv (roofline.h) */
    const rbd_peer *peer;           /* function peer_func of a peer (peer.h) */
    int peer_func;
} bench_target;

typedef struct {
    char spec[512];
    double bf;                      /* NAN for non-autoTree models */
    int nv;                         /* set once the model was built (sweep_plan_make) */
} bench_model;

/* c->methods, or every registered method (then the base algorithms and
 * the roofline dgemm when c->base), then c->so_methods; *out is malloc'ed. */
int bench_targets(const sweep_config *c, bench_target **out, int *n);
/* Opens the peers c->peers names.  A peer that is not built or does not
 * load is left out with one line on stderr saying why (the run goes on
 * without it); *out (malloc'ed) holds the others. */
int bench_peers_open(const char *cmd, const sweep_config *c, rbd_peer **out, int *n);
void bench_peers_close(rbd_peer *p, int n);
/* 1 for a second-order target (an RBD_*_SO_DERIVS method or peer function). */
int bench_target_is_so(const bench_target *b);
/* 0 for a second-order target on a model beyond so_nv_max (timing, audit 0)
 * or accuracy_so_nv_max (audit 1); 1 otherwise. */
int bench_target_fits(const sweep_config *c, const bench_target *t, int nv, int audit);
/* Appends a target for every function of the np peers to *t (realloc'ed)
 * whose order (first or second derivatives) one of *t's targets has. */
int bench_add_peer_targets(bench_target **t, int *n, const rbd_peer *p, int np);
/* robot_methods' PEER.FUNCTION names (peer_name_parse): the peer must be one
 * rbdiff knows, and, when it loaded (peers[0..npeers)), the function one of
 * its own among the targets tg (a typo would time nothing); a known peer that
 * is not built is left out, as everywhere.  RBD_EINVAL naming the entry. */
int bench_check_robot_methods(const sweep_config *c, const rbd_peer *peers, int npeers, const bench_target *tg,
                              int ntg);

/* autoTree for each bf x N (c->skew, c->taper), then c->models. */
int bench_models(const sweep_config *c, bench_model **out, int *n);
/* Builds and frees each model, so a bad spec stops a command before it
 * writes anything: 0, or the first model's error (its message set; a spec,
 * URDF file or model that is wrong: the input's fault). */
int bench_models_check(const bench_model *bm, int n);
/* The same for the second-order targets of c (methods, so_methods) on the
 * models they run on (so_nv_max, or accuracy_so_nv_max when audit): four
 * nv^3 tensors that would not fit are refused with their size (RBD_ENOMEM:
 * exit 1, a size the machine lacks) before anything is written or computed. */
int bench_so_sizes_check(const sweep_config *c, const bench_model *bm, int n, int audit);
/* Canonical autoTree spec. */
void bench_autotree_spec(char *buf, size_t len, int N, double bf, double skew, double taper);

/* Pins the CPU and the OpenBLAS threads as c asks: 0, or RBD_EINVAL (a
 * --pin to a CPU that is not there or not allowed; message set). */
int bench_setup(const sweep_config *c);
/* Hardware counters if enabled; when refused says so once and returns NULL. */
perfctr *bench_counters(const char *cmd, int enabled);

/* Times t on model m (built from bm): 0, 1 when interrupted (stop flag),
 * or a negative RBD_E* code (RBD_ENOTSUP: the method does not apply). */
int bench_measure(const bench_target *t, const rbd_model *m, const bench_model *bm, const sweep_config *c,
                  perfctr *pc, volatile sig_atomic_t *stop, timing_row *row);
/* A peer target on one model: its cross-check (peer_check_func at the
 * pool's first state), and why it was not timed. */
typedef struct {
    int checked;                    /* chk is valid */
    peer_check chk;
    char why[640];                  /* empty when it was timed */
} bench_peer_note;

/* status of a peer target that was not timed on a model: the peer could not
 * load it, or its outputs disagree with ours (note.why says which) */
enum { BENCH_NOT_TIMED = 1 };

/* What `time` and `advise` print for a target whose status is RBD_ENOTSUP. */
#define BENCH_NOT_APPLICABLE "not applicable to this model: its joints, or over an emitted method's nv limit"

/* Times the n targets t[] on model m together (timing_measure_set: one
 * batch of each per round), so their ratios are paired.  Each peer first
 * loads m and has every function checked against ours; a function that
 * fails is BENCH_NOT_TIMED.  status[i] is 0 (rows[i] filled), RBD_ENOTSUP
 * (the method does not apply to m: BENCH_NOT_APPLICABLE), BENCH_NOT_TIMED,
 * or the error that stopped the set.  note (NULL, or n entries) gets the peer targets'
 * checks.  Returns 0, 1 when interrupted, or the first error other than
 * those (the target with that status names it; nothing is measured then). */
int bench_measure_set(const bench_target *const *t, int n, const rbd_model *m, const bench_model *bm,
                      const sweep_config *c, perfctr *pc, volatile sig_atomic_t *stop, timing_row *rows,
                      int *status, bench_peer_note *note);



/* ------------------------------------------------------------ crossover */
#include "measure/crossover.h"

/* Crossover search of A vs B on autotree:N,bf (c->skew, c->taper) by
 * xo_bisect with real timings (short batches, see crossover_run.c).
 * 0, 1 when interrupted (stop flag), or a negative code (message set). */
typedef struct {
    int N, pairs, a_faster;     /* pairs in which A was the faster */
    double ta, tb;              /* medians over the pairs, ns per call */
    double ratio, q1, q3;       /* t_B / t_A per pair: median, quartiles */
} xo_probe_stat;

typedef struct {
    xo_probe_stat p[64];
    int n;
} xo_probes;

/* pr (may be NULL) receives each probe's pairs summarised. */
int crossover_run(const rbd_method *A, const rbd_method *B, double bf, const sweep_config *c, const xo_opts *xo,
                  volatile sig_atomic_t *stop, xo_result *r, xo_probes *pr);
/* Appends pr's probes to crossover_probes.csv (log opened with
 * crossover_probes_cols). */
int crossover_log_probes(csvlog *log, const char *A, const char *B, double bf, const xo_probes *pr);
/* One crossover.csv row (key A, B, bf, range) of a search's result. */
void crossover_row_make(const char *A, const char *B, double bf, const xo_opts *xo, const xo_result *r,
                        crossover_row *row);
#endif
