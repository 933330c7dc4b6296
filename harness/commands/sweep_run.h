/* `rbdiff sweep`'s run after its flags (sweep.h's engine in order): the
 * plan checked before anything is written, the set taken and opened, then
 * the cells, the crossover searches and the accuracy audit, then the
 * derived files. */
#ifndef RBD_SWEEP_RUN_H
#define RBD_SWEEP_RUN_H

#include <signal.h>
#include "measure/sweep.h"
#include "store/lock.h"

/* Everything the sweep will read, checked before anything is written: the
 * plan's cells (sweep_plan_make; bf 1 when N is given without bf), the
 * audit's models, the CPU to pin.  RBD_OK, or the library's code (message
 * set) with *bad_input 1 for a wrong input (exit 2), 0 for a run that
 * cannot go on (exit 1: a peer that fails, a size the machine lacks). */
int sweep_check(const char *cmd, sweep_config *c, shard_spec sh, sweep_plan *p, int *bad_input);
/* The set at dir taken (*lk: its lock, released by the caller) and checked
 * as an input to resume (another build's, other settings, a garbage
 * meta.json or a malformed table are refused before any file is opened for
 * writing), its tables opened into *set, the counters (*pc, NULL when off
 * or refused), meta.json with cmdline.  RBD_OK or the library's code with
 * *bad_input as sweep_check's. */
int sweep_open(const char *cmd, const sweep_plan *p, const char *dir, const char *cmdline, results_lock *lk,
               sweep_set *set, perfctr **pc, int *bad_input);
/* The cells, then (unless *stop) the crossover searches and the audit the
 * config asks for, into the opened set; *t counts the rows.  RBD_OK (also
 * when stopped), SWEEP_REPORTED, or a negative code (message set). */
int sweep_measure(const char *cmd, const sweep_plan *p, const char *dir, sweep_set *set, perfctr *pc,
                  volatile sig_atomic_t *stop, sweep_tally *t);
/* After the measurements: the derived files (tables.md, benchmarks.json;
 * report/report.h) from every row the set holds, the tally on stderr, and
 * dir on stdout; the exit status (EXIT_INTERRUPTED after cli_interrupted,
 * its message naming where the finished rows are). */
int sweep_finish(const char *dir, const char *cmdline, const sweep_set *set, const sweep_tally *t);

#endif
