/*
 * The measuring side of `rbdiff pair` (pairing.h): a long-lived process
 * that prepares timeables on request and runs one calibrated batch of one
 * of them per request, so a parent can put one batch of each build in the
 * same round.  One request and one answer per line, on stdin and stdout:
 *
 *   (on start)                -> ready rbdiff-worker 1 <commit> <compiler>
 *   prep ID METHOD SPEC       -> ok ID CALLS NV | skip ID WHY | err ID WHY
 *   run ID                    -> t ID NS_PER_CALL INSTRUCTIONS_PER_CALL|-
 *   quit (or end of input)    -> the process exits 0
 *
 * prep builds the model (shared by every cell on the same SPEC), makes the
 * timeable (METHOD a registered method or base algorithm), warms it up and
 * calibrates a slice of the batch (batch_ns / WORKER_SLICES) as timing_measure
 * calibrates a batch; run times WORKER_SLICES slices back to back and answers
 * the fastest slice's ns per call (instructions: the batch's mean); skip: the
 * method is not registered in this build or does not apply to the model.
 * A malformed request is answered `err` and the worker goes on.
 */
#ifndef RBD_WORKER_H
#define RBD_WORKER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include "measure/perfctr.h"
#include "measure/timing.h"
#include "rbdiff/method.h"

enum { WORKER_SLICES = 5 };

typedef struct {
    timing_opts t;            /* warm-up and batch length (pc: counters or NULL) */
    int pool;
    uint64_t seed;
    rbd_options opt;          /* method options (sweep_config_method_options) */
} worker_opts;

/* Serves requests from in until quit or end of input; 0, or 1 when
 * *o->t.stop was set. */
int worker_serve(FILE *in, FILE *out, const worker_opts *o);

#endif
