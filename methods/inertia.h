/*
 * The physical check of a body's rotational inertia in the default (not
 * strict) mode: README.md, "Conventions", "Inertia rule".  Private to the
 * library.
 */
#ifndef RBD_INERTIA_H
#define RBD_INERTIA_H

/* Relative tolerance of the rule: an eigenvalue of Ic down to -RBD_INERTIA_RTOL
 * times the body's scale is rounding; the scale is floored at
 * RBD_INERTIA_FLOOR times the largest body scale of the model. */
#define RBD_INERTIA_RTOL 1e-6
#define RBD_INERTIA_FLOOR 1e-9

/* Eigenvalues lam (ascending) and eigenvectors (columns of V, row-major) of
 * the symmetric 3x3 A, by cyclic Jacobi rotations. */
void rbd_sym3_eig(const double A[9], double lam[3], double V[9]);

enum { RBD_INERTIA_PHYSICAL = 0, RBD_INERTIA_CLAMPED, RBD_INERTIA_IMPOSSIBLE };

/* Judges the symmetric Ic against tol = RBD_INERTIA_RTOL * scale: smallest
 * eigenvalue >= 0: PHYSICAL; in [-tol, 0): CLAMPED, Ic replaced by
 * V max(lam, 0) V^T and *change = the largest entry change; below -tol:
 * IMPOSSIBLE, Ic untouched.  *lam_min and *tol are set in every case. */
int rbd_inertia_judge(double Ic[9], double scale, double *lam_min, double *tol, double *change);

#endif
