/* The colours of one results set's figures: every name the set plots (our
 * methods, base algorithms, each peer function at each version, names the
 * method table does not know) gets one colour for all of the set's figures,
 * and no two names share one or one that looks the same (CIELAB distance
 * below PLOT_MIN_DE), so one figure never shows one colour for two series
 * (issue 29: two Pinocchio versions of one function, or two unknown names,
 * drew alike).  Names of the method table keep its fixed colour
 * (plot_style.h); a peer function's newest version in the set takes the
 * table's colour of the bare function and older ones a darker or lighter
 * shade of it; anything else the first of a list of spare colours far
 * enough from every colour taken. */
#ifndef RBD_PLOT_PALETTE_H
#define RBD_PLOT_PALETTE_H

#define PLOT_MIN_DE 10.0    /* CIE76 distance: two line colours tell apart at a glance above it */

typedef struct {
    char (*name)[96];
    char (*color)[8];
    int n, cap;
} plot_palette;

/* Seeds p with names[0..n) (repeats allowed): the table's names first, then
 * each peer function's versions newest first, then the rest.  RBD_ENOMEM. */
int plot_palette_build(plot_palette *p, const char *const *names, int n);
/* The colour of name in p, giving it one (as above) when p has none yet;
 * the table's colour when p is NULL or full and out of memory. */
const char *plot_palette_color(plot_palette *p, const char *name);
void plot_palette_free(plot_palette *p);

/* CIE76 distance between two "#rrggbb" colours in CIELAB (D65). */
double plot_color_distance(const char *a, const char *b);

#endif
