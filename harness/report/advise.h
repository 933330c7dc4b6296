/* `rbdiff advise`: on each model every ID and FD derivative method and the
 * peers timed in paired rounds, our methods scored against the MPFR
 * reference (accuracy/advise_errors.c), a table of both, and the fastest
 * method of each kind within the tolerance with its ratios to the default
 * method and to the peers. */
#ifndef RBD_ADVISE_H
#define RBD_ADVISE_H

#include <signal.h>
#include "measure/bench.h"

/* What advise runs: the derivative methods and the peers' functions, the
 * models. */
typedef struct {
    sweep_config *c;
    bench_target *tg;
    int ntg;
    bench_model *bm;
    int nbm;
    rbd_peer *peers;
    int npeers;
} advise_plan;

/* The defaults of a short run for the keys the flags did not set, the
 * targets (ID and FD derivative methods only) and models, every model built
 * once, the peers opened, the CPU pinned.  RBD_OK or the library's code;
 * *bad_input when the input is at fault (no model, --N, no derivative
 * method, a bad model, --pin) rather than the machine or a peer named that
 * does not load.  advise_plan_free after, whatever it returns. */
int advise_plan_make(advise_plan *ap, sweep_config *c, int *bad_input);
void advise_plan_free(advise_plan *ap);

/* Every model in turn: progress on stderr, the table and the choices on
 * stdout, then the legend.  0, 1 when interrupted (stop), or the library's
 * code (*bad_input: a model that does not build). */
int advise_run(const advise_plan *ap, double tol, volatile sig_atomic_t *stop, int *bad_input);

#endif
