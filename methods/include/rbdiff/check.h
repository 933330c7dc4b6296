/*
 * Numerical-fault checks around an evaluation (issue 9): inputs must be
 * finite (and quaternions non-zero), outputs must be finite, and a singular
 * or ill-conditioned mass matrix is reported with a condition estimate.
 *
 * rbd_method_eval() is the checked call of a registered method that the
 * harness's eval path, the accuracy audit and the tests use.  Its checks
 * cost O(nq + nv) before and O(size of the outputs) after the call: the
 * timed inner loop calls meth->eval directly and the harness checks one
 * evaluation per measurement outside the timed batches.  Nothing here
 * allocates except rbd_mass_rcond() (dynamics.h), which is for diagnostics and error
 * paths only.
 */
#ifndef RBD_CHECK_H
#define RBD_CHECK_H

#include <stddef.h>
#include "dynamics.h"   /* rbd_mass_rcond */
#include "method.h"

/* M(q) is called ill-conditioned below this reciprocal condition number
 * (about half of double's 16 digits lost). */
#define RBD_RCOND_WARN 1e-8

/* The largest magnitude of a state entry: the dynamics squares velocities
 * (v x* I v) and multiplies them by body scales up to 1e150 (the model's
 * check at load), so 1e75 keeps those products finite.  Beyond it the
 * result would be inf or nan: the input is refused instead. */
#define RBD_STATE_MAX 1e75

/* RBD_ENONFINITE naming who, the vector (q, v, a, tau) and the user index
 * of the first NaN/inf; RBD_EINVAL for an entry beyond RBD_STATE_MAX (so
 * no q.q overflows) or a zero quaternion.  Vectors that are NULL in x are
 * not checked. */
int rbd_check_state(const rbd_model *m, const rbd_state *x, const char *who);

/* RBD_ENONFINITE naming who, the output and its first non-finite entry (in
 * the user's numbering) when x (nv x cols, internal numbering, cols = 1 for a
 * vector, nv for a matrix) holds a NaN or inf. */
int rbd_check_output(const rbd_model *m, const char *who, const char *name, const double *x, int cols);

/* After a failed or non-finite evaluation at q: when rc is RBD_ESINGULAR or
 * RBD_ENONFINITE, appends the condition estimate of M(q) to the message.
 * Returns rc. */
int rbd_explain_singular(const rbd_model *m, const double *q, int rc);

/* meth->eval(ws, x, out) with the checks above: inputs the method needs
 * (q, v, and a for ID, tau for FD) finite, every output the method fills
 * finite; a singular M is RBD_ESINGULAR with the condition estimate. */
int rbd_method_eval(const rbd_method *meth, void *ws, const rbd_model *m, const rbd_state *x, rbd_derivs *out);

/* Checks the outputs of meth (as rbd_method_eval does after the call). */
int rbd_method_check_outputs(const rbd_method *meth, const rbd_model *m, const rbd_derivs *out);

/* algo->run with the checks above: the inputs it reads (q, and v, a or tau
 * as algo->needs says) finite, its output finite, RBD_ESINGULAR with the
 * condition estimate of M(q).  d is an rbd_data of m. */
int rbd_base_eval(const rbd_base_algo *algo, const rbd_model *m, void *d, const double *q, const double *v,
                  const double *a, const double *tau, double *out);

#endif
