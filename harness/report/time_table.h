/* `rbdiff time`'s table on stdout: per model a header, a row per target
 * with its paired ratio to the baseline of its kind, counters, flops and
 * the rate against dgemm's, the peers' rows; the legend at the end. */
#ifndef RBD_TIME_TABLE_H
#define RBD_TIME_TABLE_H

#include "measure/time_run.h"

/* The sink time_run prints through; ctx: the command's name (for the
 * failure lines on stderr, "rbdiff CMD: T on MODEL: why"). */
time_sink time_table_sink(const char *cmd);

/* What the columns mean, once every model is printed. */
void time_table_legend(const time_plan *tp);

#endif
