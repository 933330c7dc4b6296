/* `rbdiff advise`'s score of each method: the worst normwise relative
 * error ||X - R||_F / ||R||_F over its outputs and the audited states,
 * against the MPFR reference (audit_model, through its cache). */
#ifndef RBD_ADVISE_ERRORS_H
#define RBD_ADVISE_ERRORS_H

#include <signal.h>
#include "accuracy/accuracy_run.h"

/* Our methods among tg[0..ntg) scored on m (built from bm) at
 * c->acc_states states (c->seed, c->cache or the default cache); err[i] is
 * the worst error of tg[i], -1 where none (a peer, a method not audited).
 * 0, 1 when interrupted, or the library's code. */
int advise_errors(const rbd_model *m, const bench_model *bm, const bench_target *tg, int ntg,
                  const sweep_config *c, volatile sig_atomic_t *stop, double *err);

#endif
