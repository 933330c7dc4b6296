/*
 * The sweep engine: what `rbdiff sweep` runs between reading its flags and
 * writing its report, one job a file:
 *
 *   sweep_plan.c        the cells: targets (methods, base algorithms, the
 *                       peers' functions) x models, numbered in the sweep's
 *                       order for the shards (store/shard.h); every model
 *                       spec, the memory each model needs and robot_methods
 *                       checked before anything is written
 *   sweep_set.c         the results set being written: timings.csv,
 *                       samples.csv, peer_checks.csv opened for appending
 *                       (the rows a resumed set holds are skipped), meta.json
 *   sweep_cells.c       the cells run model by model, every target of a
 *                       model timed in the same rounds, their rows appended
 *   sweep_crossovers.c  the configured crossover searches (crossover_set.h,
 *                       shared with `rbdiff crossover`)
 *
 * Errors are RBD_E* codes with the message set; *bad_input says whether
 * the input (flags, config, a model spec) is at fault (exit 2) or the run
 * (exit 1), as merge_results does.
 */
#ifndef RBD_SWEEP_H
#define RBD_SWEEP_H

#include <jansson.h>
#include <signal.h>
#include "measure/bench.h"
#include "store/shard.h"

typedef struct {
    const sweep_config *c;
    shard_spec sh;
    bench_target *tg;               /* the targets, peers' functions last */
    int ntg;
    bench_model *bm;                /* the models, robots last */
    int nbm;
    rbd_peer *peers;
    int npeers;
} sweep_plan;

/* The plan of c (targets, models, the peers that load) for shard sh. */
int sweep_plan_make(const char *cmd, const sweep_config *c, shard_spec sh, sweep_plan *p, int *bad_input);
void sweep_plan_free(sweep_plan *p);

typedef struct {
    csvlog timings, samples, peer_checks;   /* peer_checks open only with peers */
} sweep_set;

/* Opens dir's tables for appending (the caller holds its lock and has
 * checked it, store/resume.h).  Close it either way. */
int sweep_set_open(const char *cmd, sweep_set *s, const char *dir, const sweep_plan *p);
void sweep_set_close(sweep_set *s);
/* meta.json: the settings (extra, which receives how the batches were
 * taken, counters, peers and shard) and the command line. */
int sweep_set_meta(const char *dir, const sweep_plan *p, json_t *extra, int counters, const char *cmdline);

typedef struct {
    int measured, skipped;          /* rows written, rows the set held */
} sweep_tally;

/* sweep_cells_run's return when a target's failure was printed (one line
 * per failing target on the model that stopped the run). */
#define SWEEP_REPORTED 1

/* Runs the plan's cells that this shard owns and the set lacks; stops
 * after the model in progress when *stop is set (RBD_OK then).  RBD_OK,
 * SWEEP_REPORTED, or a negative code (message set). */
int sweep_cells_run(const char *cmd, const sweep_plan *p, sweep_set *s, perfctr *pc, volatile sig_atomic_t *stop,
                    sweep_tally *t);
/* The crossover searches of p->c that this shard owns (cells after the
 * timings) and dir lacks.  RBD_OK (also when stopped) or a negative code. */
int sweep_crossovers(const sweep_plan *p, const char *dir, volatile sig_atomic_t *stop);

#endif
