/* `rbdiff time`'s run: the targets (methods, base algorithms, dgemm with
 * --roofline, the peers' functions) and the models planned, every model
 * built up front, then each model's targets timed together (one batch of
 * each per round, bench_measure_set), so that the ratios are paired.  The
 * table is printed by a sink (report/time_table.c) as each model ends. */
#ifndef RBD_TIME_RUN_H
#define RBD_TIME_RUN_H

#include <signal.h>
#include "measure/bench.h"

/* What `time` runs, with the baselines of the ratios. */
typedef struct {
    sweep_config c;
    const char *baseline, *idb, *fdb;   /* --baseline (all kinds); else ID's and FD's */
    int roofline;
    bench_target *tg;
    int ntg;
    bench_model *bm;
    int nbm;
    rbd_peer *peers;
    int npeers;
} time_plan;

/* Targets, models and peers from tp->c, every model built once so a bad
 * one is named before anything is timed, the baselines chosen, the CPU
 * pinned (bench_setup).  Messages about peers left out go to stderr under
 * cmd.  RBD_OK or the library's code; *bad_input when the input is at fault
 * (a model, --pin) rather than the machine (memory, a peer named that does
 * not load).  time_plan_free after, whatever it returns. */
int time_plan_make(time_plan *tp, const char *cmd, int *bad_input);
void time_plan_free(time_plan *tp);

/* Where each model's results go. */
typedef struct {
    /* model bm (nv) about to be timed */
    void (*begin)(void *ctx, const time_plan *tp, const bench_model *bm, int nv);
    /* target t failed on bm (rbd_last_error says why) */
    void (*failed)(void *ctx, const bench_target *t, const bench_model *bm);
    /* bm timed: st[] per target (0, RBD_ENOTSUP, BENCH_NOT_TIMED), the peers'
     * checks, and rows[0..nrows) of every model so far */
    void (*end)(void *ctx, const time_plan *tp, const bench_model *bm, const int *st, const bench_peer_note *notes,
                const timing_row *rows, int nrows);
    void *ctx;
} time_sink;

/* Every model in turn until stop is set.  RBD_OK (interrupted too: stop
 * says so), or the library's code; *said when the sink has been told
 * (a target failed) and nothing more is to be printed. */
int time_run(const time_plan *tp, const char *cmd, volatile sig_atomic_t *stop, const time_sink *s, int *said);

#endif
