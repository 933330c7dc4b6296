/* One colour per method in every figure, and the families that the small
 * multiples put in one panel row (rbdiff plot). */
#ifndef RBD_PLOT_STYLE_H
#define RBD_PLOT_STYLE_H

enum { PLOT_NFAMILIES = 6 };

/* "#rrggbb" of a method: fixed for the registered methods and the peers'
 * functions (distinct within a family; analogous methods of the ID and FD
 * families share one: rneacr and fdcr, pin26 and pin26-fd, ...), a stable
 * hash of the name for anything else. */
const char *plot_method_color(const char *method);

/* Family index of a method (0 .. PLOT_NFAMILIES-1) and its name. */
int plot_method_family(const char *method);
const char *plot_family_name(int family);

#endif
