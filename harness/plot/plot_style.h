/* One colour per method in every figure, and the families that the small
 * multiples put in one panel row (rbdiff plot). */
#ifndef RBD_PLOT_STYLE_H
#define RBD_PLOT_STYLE_H

#include "measure/method_facts.h"

#define PLOT_NFAMILIES METHOD_NFAMILIES   /* the method table's families */

/* "#rrggbb" of a method in the table: fixed for the registered methods, base
 * algorithms and the peers' functions, each its own and none within
 * PLOT_MIN_DE of another (plot_palette.h), a stable hash of the name into
 * light spare colours for anything else.  The figures take their colours
 * from their set's palette (plot_palette.h), which starts from these. */
const char *plot_method_color(const char *method);
/* 1 if the method has a fixed colour; the k-th styled name (NULL past the end). */
int plot_method_styled(const char *method);
const char *plot_style_name(int k);

/* Family index of a method (0 .. PLOT_NFAMILIES-1) and its name. */
int plot_method_family(const char *method);
const char *plot_family_name(int family);

#endif
