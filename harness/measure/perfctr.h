/* Hardware counters (instructions, cycles, and where the PMU offers them
 * floating-point operations) read around timed batches with perf_event_open
 * (issue 8).  Where the kernel refuses, perfctr_open returns NULL and says
 * why; the harness then times alone.  RBD_NO_PERFCTR=1 in the environment
 * refuses on purpose (tests of that path on machines with a PMU). */
#ifndef RBD_PERFCTR_H
#define RBD_PERFCTR_H

#include <stddef.h>

typedef struct perfctr perfctr;

/* Counts user-space instructions and cycles of the calling thread (and FP
 * operations on Intel PMUs with FP_ARITH_INST_RETIRED).  NULL on refusal,
 * with the reason in why. */
perfctr *perfctr_open(char *why, size_t whylen);
/* 1 if FP operations are counted. */
int perfctr_has_fp(const perfctr *pc);
void perfctr_start(perfctr *pc);
/* Counts since perfctr_start; 0, or -1 if the counters were multiplexed
 * away.  *fp_ops is NAN when not counted. */
int perfctr_stop(perfctr *pc, double *instructions, double *cycles, double *fp_ops);
void perfctr_close(perfctr *pc);

#endif
