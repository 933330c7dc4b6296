/* Scoring of the second-order methods against the 256-bit reference (so_score.c). */
#ifndef RBD_TEST_SO_SCORE_H
#define RBD_TEST_SO_SCORE_H

#include <stddef.h>
#include <stdint.h>
#include "rbdiff/rbd.h"

/* Term-wise RMS relative error over the entries |R| > floor max|R| and
 * the normwise ||X - R||_F / ||R||_F; NAN entries of R (not computed) are
 * left out of both. */
double so_rms_rel_above(const double *X, const double *R, size_t n, double floor, double *normwise);
/* Every method of rbd_so_methods that supports m, at the random state of
 * seed, against the reference: all of it (slabs NULL) or only the listed
 * slabs (rbdref_so_eval_slabs); fails the test naming the first method over
 * its bound. */
void so_score_model(rbd_model *m, const char *label, uint64_t seed, const int *slabs, int nslabs);

#endif
