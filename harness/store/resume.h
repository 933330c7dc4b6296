/*
 * What a resumed run may add to a results set (issue 30).  A row of
 * timings.csv is keyed by method, kind and model; the settings that shaped
 * it (seed, pool, batches, batch and warm-up time, pinning, BLAS threads,
 * counters, the FD-method options) are not in the key, so they are part of
 * the set's identity, kept in meta.json.  A resume with other settings is
 * refused, naming each one that differs, rather than written to a new set:
 * a set is one experiment, and a silent second set would hide the mistake
 * (the user names a new --out when the change is meant).  Settings that
 * are in the key (skew, taper: the model spec; the crossover options)
 * separate rows by themselves.  The rows of accuracy.csv likewise: the
 * audit's states, seed and reference precision and step are meta.json's
 * "accuracy_settings" (accuracy_sweep.h), checked by `accuracy` and by a
 * sweep that audits.
 */
#ifndef RBD_RESUME_H
#define RBD_RESUME_H

#include <jansson.h>
#include "plan/sweepconf.h"
#include "store/lock.h"

/* The row-shaping settings of a run, as meta.json records them (new
 * object): seed, pool, batches, batch_ms, warmup_ms, pin_cpu,
 * blas_threads, counters, method_options. */
json_t *resume_settings(const sweep_config *c);

/* DIR as an input to resume, checked as merge checks its inputs: when DIR
 * holds meta.json, it must be a JSON object with this build's build_id,
 * and each setting of `settings` (may be NULL) that it records must be
 * equal, and one it does not record is adopted only if the tables that
 * setting shapes hold no row (accuracy_settings: the audit's tables; the
 * others: timings.csv, crossover.csv); when DIR holds a results table but
 * no meta.json, it is refused
 * (not a set this program wrote).  Then every table must read (results.h
 * results_check_tables).  RBD_OK, else RBD_EINVAL / RBD_EPARSE with a
 * message naming the file and every differing setting (ENOMEM: memory). */
int resume_check(const char *dir, const json_t *settings);

/* DIR taken for writing, as `sweep`, `crossover --out` and `accuracy` take
 * it: its lock for the whole run (lock.h), the folder made, then
 * resume_check(dir, settings).  RBD_OK, or the code with the message set;
 * *bad_input is 1 when the input is at fault (another holder, another
 * build's set or settings, a malformed table: exit 2), 0 when the run is
 * (DIR cannot be made, memory: 1).  The caller releases lk either way. */
int resume_open(results_lock *lk, const char *dir, const char *cmdline, const json_t *settings, int *bad_input);

#endif
