/* Hardware counters (instructions, cycles) read around timed batches with
 * perf_event_open (issue 8).  Where the kernel refuses, perfctr_open returns
 * NULL and says why; the harness then times alone. */
#ifndef RBD_PERFCTR_H
#define RBD_PERFCTR_H

#include <stddef.h>

typedef struct perfctr perfctr;

/* Counts user-space instructions and cycles of the calling thread.  NULL on
 * refusal, with the reason in why. */
perfctr *perfctr_open(char *why, size_t whylen);
void perfctr_start(perfctr *pc);
/* Counts since perfctr_start; 0, or -1 if the counters were multiplexed away. */
int perfctr_stop(perfctr *pc, double *instructions, double *cycles);
void perfctr_close(perfctr *pc);

#endif
