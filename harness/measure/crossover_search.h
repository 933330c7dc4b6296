/* `rbdiff crossover`'s run: the CPU pinned, the results set (when --out
 * names one) taken for writing and checked for resuming, the searches of A
 * vs B one per bf (xo_set_search_all), then meta.json with the FD methods'
 * options. */
#ifndef RBD_CROSSOVER_SEARCH_H
#define RBD_CROSSOVER_SEARCH_H

#include <stdio.h>
#include "measure/crossover_set.h"

/* bf 1 when c gives none, the CPU pinned (bench_setup), then the searches;
 * dir NULL: the searches printed on out only.  0, 1 when *stop ended it
 * (the finished rows and meta.json are on disk), or a negative code with
 * *bad_input when the input is at fault (a set another run holds, written
 * by another build or with other settings, garbage: refused before any
 * write; resume.h; a --pin to a CPU that is not there) rather than the
 * machine. */
int crossover_search(const char *dir, const char *cmdline, const rbd_method *A, const rbd_method *B,
                     sweep_config *c, const xo_opts *xo, volatile sig_atomic_t *stop, FILE *out,
                     int *bad_input);

#endif
