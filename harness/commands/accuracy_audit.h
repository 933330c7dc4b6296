/* The `accuracy` command's run, from a checked config to the summary
 * (issue 5): the audited models checked before anything is written, the
 * results directory taken and its meta.json, the audit (accuracy_sweep.h),
 * then DIR/tables.md and the summary. */
#ifndef RBD_ACCURACY_AUDIT_H
#define RBD_ACCURACY_AUDIT_H

#include <signal.h>
#include <stdio.h>
#include "plan/sweepconf.h"
#include "store/lock.h"

/* The audited models of c checked, and the second-order tensors they would
 * need: 0, or the library's code (message set) with *bad_input 1 for a bad
 * spec (exit 2) and 0 for a size the machine lacks (exit 1). */
int accuracy_models_check(const sweep_config *c, int *bad_input);

/* Into dir, held by *lk from here on (release it after, lock.h): the set
 * taken and checked as an input to resume (this run's accuracy_settings,
 * resume.h), meta.json with cmdline, the audit (progress on stderr as
 * "rbdiff cmd: ..."), DIR/tables.md (the directory's timings, if any, and
 * the audit), then the summary on f and the rows' count on stderr.
 * Returns 0 done, 1 when *stop ended it (the rows so far kept), or a
 * negative RBD_E* code (message set) with *bad_input 1 when dir is a wrong
 * input (another build's, other settings). */
int accuracy_audit(FILE *f, const char *cmd, const sweep_config *c, const char *dir, results_lock *lk,
                   const char *cmdline, volatile sig_atomic_t *stop, int *bad_input);

#endif
