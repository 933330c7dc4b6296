/* Packed results directories: what a committed set keeps (tables, CSV/JSON,
 * SVG figures, READMEs) and what it regenerates on demand. */
#ifndef RBD_PACK_H
#define RBD_PACK_H

#include <signal.h>

/* results_pack/results_unpack's return when *stop was set (SIGINT): the
 * file in progress was abandoned (its .tmp removed), the ones done stay. */
#define PACK_INTERRUPTED 1

/* In dir and every directory below it that holds a timings.csv:
 * samples.csv -> samples.csv.gz (readers take either, csvlog.c), and the
 * files another command rebuilds removed: benchmarks.json (`rbdiff pack
 * --unpack`), plots/ *.dat, and of a figure drawn as both PNG and SVG the
 * format pack_figure_format does not name (`rbdiff plot` redraws both).
 * Each file is written whole before its source goes.  Each set holds its
 * lock (lock.h) while it is packed: a set in use is refused (RBD_EINVAL).
 * stop (may be NULL): checked between blocks of 64 KiB. */
int results_pack(const char *dir, const volatile sig_atomic_t *stop);

/* The format a packed set keeps of a figure: "png" for the small multiples
 * (accuracy_*, times_all: their SVGs hold every point of 40 methods, 3-4x
 * the PNG), "svg" for the rest.  report.md links that file. */
const char *pack_figure_format(const char *figure);

/* The reverse where it can be done: samples.csv.gz -> samples.csv and
 * benchmarks.json rebuilt from the timings and samples. */
int results_unpack(const char *dir, const volatile sig_atomic_t *stop);

/* dir/samples.csv back from dir/samples.csv.gz when only the latter exists
 * (a sweep resuming in a packed directory appends to the plain table). */
int samples_unpack(const char *dir);

#endif
