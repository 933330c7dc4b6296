/*
 * Paired rounds across builds (`rbdiff pair`): each build's rbdiff runs as a
 * long-lived `rbdiff worker` (worker.h) and every round asks each build for
 * one batch of the same cell, the builds' order rotating from round to round
 * and cell to cell, so the machine's drift (load, frequency, the other
 * tenants of a shared host) lands on every build alike and batch k of two
 * builds is a fair pair -- timing_measure_set's pairing, across processes.
 */
#ifndef RBD_PAIRING_H
#define RBD_PAIRING_H

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include "common/stats.h"

enum { PAIR_MAX_BUILDS = 16, PAIR_MAX_ROUNDS = 201, PAIR_MAX_INSTANCES = 8 };

typedef struct {
    const char *label, *path;
    pid_t pid;
    FILE *to, *from;
    char build_id[512];        /* the worker's ready line after "ready rbdiff-worker 1 " */
} pair_worker;

/* Starts path as `path worker ARGS...` (args NULL-terminated) with pipes on
 * its stdin and stdout, and reads its ready line.  Errors name the build. */
int pair_worker_start(pair_worker *w, const char *label, const char *path, char *const *args);
/* Sends one request line, reads one answer line (newline stripped) into ans. */
int pair_worker_ask(pair_worker *w, const char *req, char *ans, size_t len);
/* quit, close the pipes, wait for it. */
void pair_worker_stop(pair_worker *w);

typedef struct {
    const char *method, *spec;
    int ok[PAIR_MAX_BUILDS];           /* prepared in that build */
    char why[PAIR_MAX_BUILDS][160];    /* why not (skip or err answer) */
    double ns[PAIR_MAX_BUILDS][PAIR_MAX_ROUNDS];
    double ins[PAIR_MAX_BUILDS][PAIR_MAX_ROUNDS];   /* NAN without counters */
} pair_cell;

/* Each build runs M worker processes (instances): a process's heap and
 * stack addresses (ASLR) move its method's data against the cache sets, and
 * two processes of one binary differed by up to 4% for the whole of a run
 * (README.md, "Tracking a regression"), so one process per build would turn
 * that layout into a false "slower".  Worker b * M + m is instance m of
 * build b.  pair_prepare asks every instance to prepare every cell (cell i
 * is ID c<i>): 0, or an error when a worker stopped answering; a skip or err
 * of any instance leaves ok[b] = 0 and why[b] its answer. */
int pair_prepare(pair_worker *w, int nb, int M, pair_cell *c, int nc);
/* K rounds: in round k, for every cell prepared in at least two builds,
 * one batch of each such build (instance (k / M^b) mod M of build b: all
 * M^2 pairings of two builds' instances in M^2 rounds), starting with build
 * (k + cell) mod nb.  0, 1 when *stop was set, or a negative code. */
int pair_rounds(pair_worker *w, int nb, int M, pair_cell *c, int nc, int K, volatile sig_atomic_t *stop);

/* Build b against the reference build ref in one cell over K rounds. */
typedef struct {
    rbd_stats ratio;            /* t_b / t_ref per round */
    int slower;                 /* rounds in which b was the slower (w of w/K) */
    int K;
    double p_slower, p_faster;  /* one-sided sign tests (Bin(K, 1/2) tails) */
    double t_ref, t_b;          /* median ns per call over the rounds */
    double ins_ratio;           /* median instructions ratio; NAN without counters */
    int verdict;                /* +1 slower, -1 faster, 0 the same (PAIR_* below) */
} pair_verdict;

enum { PAIR_SAME = 0, PAIR_SLOWER = 1, PAIR_FASTER = -1 };

/* Slower: median ratio above 1 + threshold and p_slower <= alpha; faster:
 * below 1 - threshold and p_faster <= alpha.  RBD_EINVAL if a time is not
 * finite. */
int pair_judge(const pair_cell *c, int b, int ref, int K, double threshold, double alpha, pair_verdict *v);

#endif
