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

/* A small robot with the warts of public URDF files (issue 21): continuous
 * joints (one about a general axis), a light link whose inertia is PSD only
 * up to rounding (ixx = iyy = -5.42e-20), a link of mass 1e-6 on a fixed
 * joint whose off-diagonal terms exceed its diagonal, a <mimic> joint.
 * Written to RBD_BINARY_DIR/tests/NAME (a static buffer holds the path). */
const char *tu_wart_robot(const char *name);
/* Its numbers: joints that move, continuous ones among them. */
enum { TU_WART_NV = 10, TU_WART_NCONT = 4 };

#endif
