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
/* The largest scale a body may have about the root, m (R + |c|)^2 +
 * tr(Ic) with R its joint's distance from the root along the tree, and
 * (R + |c|)^2 itself: the dynamics sums such terms over the bodies and
 * multiplies them by squared velocities (RBD_STATE_MAX each), so 1e150
 * keeps every product below DBL_MAX (1.8e308).  A larger one is no robot,
 * and would come out as inf or nan in the outputs. */
#define RBD_SCALE_MAX 1e150

/* Eigenvalues lam (ascending) and eigenvectors (columns of V, row-major) of
 * the symmetric 3x3 A, by cyclic Jacobi rotations. */
void rbd_sym3_eig(const double A[9], double lam[3], double V[9]);

enum { RBD_INERTIA_PHYSICAL = 0, RBD_INERTIA_CLAMPED, RBD_INERTIA_IMPOSSIBLE };

/* Judges the symmetric Ic (about the CoM) with principal moments lam
 * (ascending): it is the inertia of a mass distribution iff the second
 * moment Sigma = tr(Ic)/2 1 - Ic is PSD, i.e. iff the excess
 * e = lam[2] - lam[1] - lam[0] <= 0 (every moment >= 0 and at most the sum of
 * the other two: lam[0] < 0 implies e > 0).  With tol = RBD_INERTIA_RTOL *
 * scale: e <= 0: PHYSICAL; 0 < e <= tol: CLAMPED, Ic replaced by the inertia
 * whose Sigma has its negative eigenvalue set to 0 (lam_i = sigma_j +
 * sigma_k) and *change = the largest entry change; e > tol: IMPOSSIBLE, Ic
 * untouched.  lam, *excess and *tol are set in every case. */
int rbd_inertia_judge(double Ic[9], double scale, double lam[3], double *excess, double *tol, double *change);

#endif
