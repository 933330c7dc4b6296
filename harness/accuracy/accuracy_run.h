/*
 * The accuracy audit (issue 5; reference/README.md, "Accuracy metrics"):
 * every method (and base algorithm) on a model, at `states` random states,
 * against the MPFR complex-step reference of reference/.
 *
 * Per (model, state) the reference is computed once, ID and FD halves
 * together, through the on-disk cache (rbdref_eval_cached; the
 * second-order one, when a second-order target is audited, through
 * rbdref_so_eval_cached), so a rerun, a resumed run or an audit with more
 * methods costs no reference work.  State
 * k is the k-th draw of rbd_random_state from seed, so the first states of a
 * larger audit are those of a smaller one (and hit the cache).
 *
 * Each output of each method gets one accuracy.csv row, the worst over the
 * states of each metric of rbd_accuracy_eval (reference/accuracy.h):
 * rms_rel (term-wise RMS relative error over |R_ij| > 1e-12 max|R|, the
 * paper's metric), max_abs, normwise, and zero_max (max |X| on the entries
 * that are exactly zero in the reference; empty when there are none).  A
 * non-finite output makes its metrics DBL_MAX (CSV columns hold finite
 * numbers only).
 *
 * Outputs: ID methods tau, dtau_dq, dtau_dv; FD methods qdd, dqdd_dq,
 * dqdd_dv, dqdd_dtau (against the reference's M^-1); base algorithms their
 * one output (tau, M, qdd or Minv).  Metrics do not depend on the numbering,
 * so the comparison is in the model's internal numbering.
 *
 * Per model, the audit also records cond(M): the 2-norm condition number
 * lambda_max / lambda_min of the reference's M (rounded to double; LAPACK
 * dsyev, O(nv^3), nothing next to the reference's cost), the largest and
 * smallest over the states (conditioning.csv).  It sets what an output
 * that solves with M can be expected to reach (accuracy_summary.h).
 *
 * Default audit model: autoTree with skew = pi/3 and taper = 0.99.  skew != 0
 * makes gravity produce joint torques (with skew = 0 the tree is planar);
 * taper != 1 makes every body different.  0.99 rather than a stronger taper
 * because the audit goes to N = 500: 0.99^(3 * 499) ~ 3e-7 is the mass of
 * the last body, 0.95 would make it ~4e-34 and turn the audit into a test of
 * scale extremes rather than of the methods.
 */
#ifndef RBD_ACCURACY_RUN_H
#define RBD_ACCURACY_RUN_H

#include <signal.h>
#include <stdint.h>
#include "measure/bench.h"
#include "accuracy.h"
#include "rbdref.h"
#include "rbdref_so.h"
#include "accuracy/audit_sink.h"

/* The sink the rows go to and the audited states: audit_sink.h. */

typedef struct {
    int states;
    uint64_t seed;
    const char *cache;      /* reference cache directory; NULL: no cache */
    rbdref_opts ref;
} audit_opts;

/* Audits targets tg[0..ntg-1] on model m (spec and bf as they go into the
 * rows).  Targets that do not support the model's joints are skipped.
 * Returns 0, 1 when stopped by *stop, or a negative RBD_E* code (message
 * set).  A cache that cannot be written is not an error (*cache_failed set,
 * may be NULL). */
int audit_model(const rbd_model *m, const char *spec, double bf, const bench_target *tg, int ntg,
                const audit_opts *o, const audit_sink *sink, volatile sig_atomic_t *stop, int *cache_failed);

/* The 2-norm condition number of the symmetric n x n M (column-major, lower
 * triangle read): lambda_max / lambda_min by LAPACK dsyev on a copy;
 * INFINITY when M is not positive definite, NAN when dsyev fails or on no
 * memory. */
double audit_cond_spd(const double *M, int n);

/* The output names of a target, NULL-terminated (static storage). */
const char *const *audit_outputs(const bench_target *t);

/* The default reference cache directory: $RBD_CACHE_DIR, else
 * $XDG_CACHE_HOME/rbdiff, else $HOME/.cache/rbdiff, else results/.refcache. */
void audit_default_cache(char *buf, size_t len);

/* The audit's options from a config, one way for `accuracy`, `sweep` and
 * `advise`: its states (accuracy_states) and seed, the reference cache
 * (c->cache, else audit_default_cache) written into cache[len], which o
 * points at, and the reference's defaults (rbdref_opts_default: 256 bits). */
void audit_opts_from_config(const sweep_config *c, char *cache, size_t len, audit_opts *o);
/* Makes that cache directory (mkdir -p) before anything is written, so a
 * place that cannot be one (a file in the way, no permission) is refused
 * up front as bad input (RBD_EINVAL, naming it) rather than failing the
 * run at its first reference.  A directory that exists but refuses writes
 * still only warns (the references are then computed, not kept). */
int audit_cache_check(const sweep_config *c);

#endif
