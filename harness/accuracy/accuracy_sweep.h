/* The accuracy audit of a sweep config (`rbdiff accuracy`, and `rbdiff
 * sweep` when accuracy_N or accuracy_model is set): targets as bench_targets,
 * models autoTree accuracy_bf x accuracy_N (accuracy_skew, accuracy_taper),
 * then accuracy_model specs, then robots.  Rows are appended to
 * DIR/accuracy.csv (flushed, resumable: rows on disk are skipped), then
 * DIR/accuracy.json is rewritten. */
#ifndef RBD_ACCURACY_SWEEP_H
#define RBD_ACCURACY_SWEEP_H

#include <jansson.h>
#include <signal.h>
#include "measure/bench.h"

/* The audited models; *out malloc'ed. */
int accuracy_models(const sweep_config *c, bench_model **out, int *n);
/* 1 if the config asks a sweep for an audit. */
int accuracy_wanted(const sweep_config *c);
/* What shapes an accuracy.csv row beyond its key (method, output, model):
 * {"states", "seed", "prec_bits", "h_log2"} (the reference's working
 * precision and complex step, rbdref.h), as meta.json's
 * "accuracy_settings"; a resume with other values is refused (resume.h).
 * The audit's method options are rbd_options_default's with the DMM size
 * rule (accuracy_run.c), the same for every run of one build. */
json_t *accuracy_identity(const sweep_config *c);
/* Runs the audit into dir (progress and notes on stderr as "rbdiff cmd:
 * ..."): 0, 1 when *stop ended it (the rows so far kept: rerun to resume),
 * or a negative RBD_E* code (message set). */
int accuracy_sweep(const char *cmd, const sweep_config *c, const char *dir, volatile sig_atomic_t *stop);

#endif
