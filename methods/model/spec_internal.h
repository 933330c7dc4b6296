/* The model-spec parser without the model (spec.c); the fuzz target
 * tests/fuzz/fuzz_spec.c enters here so that it can refuse to build huge
 * trees.  Private to the library and its tests. */
#ifndef RBD_SPEC_INTERNAL_H
#define RBD_SPEC_INTERNAL_H

#include "rbdiff/rbd.h"

/* "autotree:N=..,bf=..,skew=..,taper=.." -> its four numbers (defaults bf 1,
 * skew 0, taper 1), N checked to be a whole number >= 1; the range checks of
 * bf, skew, taper and N's size are rbd_autotree's. */
int rbd_spec_parse_autotree(const char *spec, double *N, double *bf, double *skew, double *taper);

/* The options of a urdf: spec, opts the text after the file name's ',':
 * each known, none empty, none given twice (model/text.h's list rule).
 * RBD_EPARSE naming spec and the option otherwise (urdf_spec.c). */
int rbd_urdf_spec_options_check(const char *spec, const char *opts);

#endif
