/* The machine's limit in the same run (issue 8): OpenBLAS dgemm of an
 * n x n by n x n product, timed like any method, so a method's achieved
 * GFLOP/s (flops.h / ns per call) can be read as a fraction of it.  In a
 * sweep it is the timing row "dgemm" (kind "roof") at n = nv of each model. */
#ifndef RBD_ROOFLINE_H
#define RBD_ROOFLINE_H

#include <stdint.h>
#include "common/timeable.h"

#define ROOFLINE_NAME "dgemm"
#define ROOFLINE_KIND "roof"

/* Below this n, dgemm runs far from its rate (at n = 1 it is 2 flops in a
 * call's overhead), so a rate over dgemm's of the same n means nothing;
 * harness/README.md ("Counters, instructions and flops") has the run that
 * set it.  `rbdiff time` prints %dgemm only from here; tables.md divides
 * by the best dgemm rate of the run instead. */
#define ROOFLINE_MIN_N 32

/* A timeable computing C = A B (column-major, n x n, random entries from
 * seed); RBD_EINVAL for n < 1. */
int timeable_dgemm(int n, uint64_t seed, rbd_timeable *t);

#endif
