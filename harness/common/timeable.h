/*
 * Anything the harness can time: a registered derivative method, a plain
 * base algorithm (rnea, ...) or a peer's function (peers/peer.c), behind one
 * callback so timing.c does not care which.  A timeable owns a pool of random states and every output buffer,
 * made once here; call() evaluates at pool state k and never allocates.
 */
#ifndef RBD_TIMEABLE_H
#define RBD_TIMEABLE_H

#include <stdint.h>
#include "rbdiff/method.h"

typedef struct {
    const char *name;       /* method or algorithm name                      */
    const char *kind;       /* "ID", "FD" or "base"                          */
    int nv;
    int pool;               /* number of states; call() takes k in [0, pool) */
    void *ctx;
    int (*call)(void *ctx, int k);
    void (*fini)(void *ctx);
    /* call(ctx, k) with the checks of check.h (finite inputs and outputs,
     * singular M explained); outside the timed loop. */
    int (*check)(void *ctx, int k);
} rbd_timeable;

/* The pool of `pool` states every timeable of a model draws: k-th draw of
 * rbd_random_state from seed (internal numbering), so a smaller pool is a
 * prefix of a larger one. */
void timeable_states(const rbd_model *m, int pool, uint64_t seed, double *q, double *v, double *a, double *tau);

/* A pool of `pool` states drawn with rbd_random_state from seed. */
int timeable_method(const rbd_method *meth, const rbd_model *m, const rbd_options *opt, int pool, uint64_t seed,
                    rbd_timeable *t);
int timeable_base(const rbd_base_algo *algo, const rbd_model *m, int pool, uint64_t seed, rbd_timeable *t);
void timeable_free(rbd_timeable *t);

#endif
