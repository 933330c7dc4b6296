/* benchmarks.json: a set's timing rows in Google Benchmark's JSON format
 * (gbench.c says which fields), written atomically and read back. */
#ifndef RBD_GBENCH_H
#define RBD_GBENCH_H

#include "store/rows.h"

/* Writes rows[0..n-1] to path; cmdline goes into the "context". */
int gbench_write(const char *path, const timing_row *rows, int n, const char *cmdline);
/* Reads any Google Benchmark output into *rows (malloc'ed). */
int gbench_read(const char *path, timing_row **rows, int *n);

#endif
