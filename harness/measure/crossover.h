/*
 * Crossover N by bisection with repeated measurement (harness/README.md,
 * "Crossover N"): the smallest integer N in [lo, hi] at which method A is
 * faster than B.
 *
 * Each probe at one N times A and B in pairs, alternating which goes first,
 * and applies a one-sided sign test to the pairs: "A faster" when the count
 * of pairs with t_A < t_B is improbable under "equally fast" (binomial
 * tail <= alpha), likewise "B faster"; otherwise more pairs, up to max_reps,
 * after which the probe is unresolved.  The cost functions are callbacks, so
 * the logic is tested with synthetic costs and no clock.
 */
#ifndef RBD_CROSSOVER_H
#define RBD_CROSSOVER_H

/* One timing of method which (0 = A, 1 = B) at N, ns per call; < 0 on error
 * (the negative RBD_E* code). */
typedef double (*xo_measure)(void *ctx, int which, int N);

typedef struct {
    int lo, hi;             /* search range, 1 <= lo < hi                       */
    int min_reps;           /* pairs before the first test (default 7)          */
    int max_reps;           /* pairs before giving up on a probe (default 41)   */
    double alpha;           /* one-sided error per decision (default 0.01)      */
} xo_opts;

typedef enum {
    XO_FOUND = 0,           /* N_cross in (lo, hi]: B faster at N_cross-1, A at N_cross */
    XO_AT_LO,               /* A already faster at lo                            */
    XO_NONE,                /* A not faster at hi                                */
    XO_UNRESOLVED           /* noise prevented a decision at some probe          */
} xo_status;

typedef struct {
    xo_status status;
    int n_cross;            /* FOUND, AT_LO: the crossover; UNRESOLVED: the probe N */
    int lo, hi;             /* bracket: B faster at lo (if lo > range lo), A at hi  */
    int probes;
    int reps;               /* pairs measured in total                          */
    double confidence;      /* 1 - sum of the decisions' p-values (Bonferroni)  */
} xo_result;

void xo_opts_default(xo_opts *o);
const char *xo_status_name(xo_status s);

/* Upper binomial tail P(X >= k), X ~ Bin(n, 1/2). */
double xo_sign_tail(int k, int n);

/* Decision at one N: +1 A faster, -1 B faster, 0 unresolved; *p is the
 * p-value of the decision (1 if none), *reps the pairs used. */
int xo_probe(xo_measure f, void *ctx, const xo_opts *o, int N, double *p, int *reps, int *err);

/* 0, or a negative RBD_E* code from the measure callback or bad options. */
int xo_bisect(xo_measure f, void *ctx, const xo_opts *o, xo_result *r);

#endif
