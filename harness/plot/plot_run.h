/* rbdiff plot DIR: its inputs checked before anything is written, then
 * every figure (plot.h) from the directory's tables. */
#ifndef RBD_PLOT_RUN_H
#define RBD_PLOT_RUN_H

#include "plot/plot.h"

/* The scripts are an input: every one the figures use must be in gpdir
 * before a data file is written (a missing GPDIR wrote plots/data first).
 * RBD_OK or RBD_EINVAL (message set). */
int plot_check_scripts(const char *gpdir);
/* DIR is an input: it must be a results directory already (nothing is
 * created when it is not), its accuracy.csv well-formed; *has_timings when
 * it holds timings.csv (else a note on stdout that only accuracy can be
 * plotted).  RBD_OK, or the library's code (message set) with *bad_input
 * 1 when dir is wrong and 0 when memory ran out. */
int plot_check_dir(const char *dir, int *has_timings, int *bad_input);
/* Every figure of dir (with: a second build's run beside, NULL: none) into
 * outdir (NULL: DIR/plots), the data files into its data/, with e's
 * gnuplot and scripts.  RBD_OK, or the library's code (message set) with
 * *bad_input 1 when a run's tables or the place to write are the input's
 * fault (exit 2) and 0 when the run failed (exit 1). */
int plot_run(plot_env *e, const char *dir, const char *with, const char *outdir, int has_timings, int *bad_input);

#endif
