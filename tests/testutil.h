/* Shared helpers for the cmocka tests. */
#ifndef RBD_TESTUTIL_H
#define RBD_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "rbdiff/rbd.h"

/* The in-tree copy of the shared Pinocchio data (tests/pinocchio: reference/,
 * anchors/); RBD_SHARED_DIR overrides. */
const char *tu_shared_dir(void);
/* Path under that folder, in a static buffer per call slot (0..3). */
const char *tu_shared_path(int slot, const char *rel);

/* Builds a model or fails the test with the library's message. */
rbd_model *tu_model(const char *spec);

/* Term-wise RMS relative error of X against R over entries |R_ij| > 1e-12 max|R|
 * (reference/README.md), n entries. */
double tu_rms_rel(const double *X, const double *R, size_t n);
/* max |X - R| / max(1, max |R|) */
double tu_max_rel(const double *X, const double *R, size_t n);

/* Asserts that max|X - R| <= tol * max(1, max|R|), reporting the worst entry. */
void tu_assert_close(const char *what, const double *X, const double *R, size_t rows, size_t cols, double tol);

/* Small multi-DOF models shared by the method tests. */
rbd_model *tu_multidof_tree(void);
rbd_model *tu_multidof_chain(void);

#endif
