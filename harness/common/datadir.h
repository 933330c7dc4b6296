/* Where the program reads its data: the robot URDFs (tests/models), the
 * gnuplot scripts (plots), the stored Pinocchio timings
 * (tests/pinocchio/anchors), the sweep configs (harness/sweeps) and the peer
 * modules (build/peers), each by its path in the source tree; an installed
 * rbdiff's peer modules are in <prefix>/<libdir>/rbdiff/peers. */
#ifndef RBD_DATADIR_H
#define RBD_DATADIR_H

#include <stddef.h>

/* The root those paths hang from: $RBD_DATA_DIR if set; else, for an
 * installed binary, <prefix>/share/rbdiff (found from the binary's own path
 * as ../share/rbdiff); else the source tree the binary was built from. */
const char *data_root(void);

/* data_root()/rel into buf; 0, or -1 when it does not fit. */
int data_path(char *buf, size_t len, const char *rel);

/* <directory of this executable>/../rel into buf; 0 if it exists, else -1
 * (how an installed rbdiff finds <prefix>/lib/rbdiff/peers). */
int installed_path(char *buf, size_t len, const char *rel);

#endif
