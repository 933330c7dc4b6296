/*
 * Anything the harness can time: a registered derivative method or a plain
 * base algorithm (rnea, ...), behind one callback so timing.c does not care
 * which.  A timeable owns a pool of random states and every output buffer,
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

/* Base algorithms that can be timed like methods (name, one-line summary). */
typedef struct {
    const char *name;
    const char *summary;
    const char *needs;      /* state vector it reads besides q, v: "a", "tau" or "" */
    const char *out;        /* its output's block name: "tau", "qdd", "M", "Minv" */
    int out_matrix;         /* 1: nv x nv output, 0: nv vector */
    /* out has room for nv*nv doubles */
    int (*run)(const rbd_model *m, void *d, const double *q, const double *v, const double *a,
               const double *tau, double *out);
} rbd_base_algo;

extern const rbd_base_algo rbd_base_algos[];   /* terminated by a NULL name */
const rbd_base_algo *rbd_base_algo_find(const char *name);
/* algo->run with the checks of check.h: the inputs it reads (q, and v, a or
 * tau as algo->needs says) finite, its output finite, RBD_ESINGULAR with the
 * condition estimate of M(q).  d is an rbd_data of m. */
int rbd_base_eval(const rbd_base_algo *algo, const rbd_model *m, void *d, const double *q, const double *v,
                  const double *a, const double *tau, double *out);

const char *rbd_output_name(rbd_output o);   /* "ID" / "FD" */

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
