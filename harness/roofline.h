/* The machine's limit in the same run (issue 8): OpenBLAS dgemm of an
 * n x n by n x n product, timed like any method, so a method's achieved
 * GFLOP/s (flops.h / ns per call) can be read as a fraction of it.  In a
 * sweep it is the timing row "dgemm" (kind "roof") at n = nv of each model. */
#ifndef RBD_ROOFLINE_H
#define RBD_ROOFLINE_H

#include <stdint.h>
#include "timeable.h"

#define ROOFLINE_NAME "dgemm"
#define ROOFLINE_KIND "roof"

/* A timeable computing C = A B (column-major, n x n, random entries from
 * seed); RBD_EINVAL for n < 1. */
int timeable_dgemm(int n, uint64_t seed, rbd_timeable *t);

#endif
