/* `rbdiff pair`'s run: the builds named, the cells (methods x models)
 * timed in their workers' paired rounds (pairing.h); the verdicts are the
 * report wing's (report/pair_table.h). */
#ifndef RBD_PAIR_RUN_H
#define RBD_PAIR_RUN_H

#include <signal.h>
#include "measure/bench.h"
#include "measure/pairing.h"
#include "plan/sweepconf.h"

typedef struct {
    const char *labels[PAIR_MAX_BUILDS], *paths[PAIR_MAX_BUILDS];
    int nb, ref, rounds, instances;
    const char *reference, *out;
    double threshold, alpha;
} pair_args;

/* --build LABEL=PATH into a (v is cut at the '='): RBD_OK, or RBD_EINVAL
 * (message set) for a malformed, repeated or too long label, or too many
 * builds. */
int pair_add_build(pair_args *a, char *v);
/* What pair_run timed: the cells, naming the models' specs of bm. */
typedef struct {
    pair_cell *cells;
    int nc;
    bench_model *bm;
} pair_result;
void pair_result_free(pair_result *r);

/* Checks the builds, the reference (a->ref set) and the models of c, then
 * starts a->instances workers per build (their build ids on stderr as
 * "rbdiff cmd: LABEL = ID"), prepares every cell in every build and times
 * a->rounds paired rounds; the workers are stopped before it returns.
 * RBD_OK with *r's cells timed (free it either way); 1 when *stop ended it
 * (nothing to write); else the library's code (message set) with
 * *bad_input 1 for a wrong input (exit 2), 0 for a failed run. */
int pair_run(const char *cmd, pair_args *a, const sweep_config *c, volatile sig_atomic_t *stop, pair_result *r,
             int *bad_input);

#endif
