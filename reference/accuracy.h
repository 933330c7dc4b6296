/*
 * The accuracy metrics (reference/README.md, "Accuracy metrics") of a
 * computed array X against the reference R (n entries, any shape; the
 * caller passes one output at a time):
 *
 *  rms_rel   term-wise RMS relative error sqrt(mean((X_ij - R_ij)^2 / R_ij^2))
 *            over the entries with |R_ij| > 1e-12 max|R| (the paper's metric,
 *            Singh et al. 2022 sec. V.A); 0 with n_rel = 0 if there are none;
 *  max_abs   max |X_ij - R_ij| over all entries;
 *  normwise  ||X - R||_F / ||R||_F; if R is all zero, 0 when X is too, else inf;
 *  max_zero  max |X_ij| over the structural zeros of R, n_zero of them.
 *
 * Structural zeros: entries that are exactly 0.0 in R.  The complex-step
 * reference yields an exact zero precisely where no operation links the input
 * to the output (e.g. dtau_i/dq_j for bodies i and j on different branches,
 * M_ij for such pairs): a zero imaginary part stays exactly zero through
 * every MPC operation.  An entry that vanishes only by cancellation (e.g.
 * gravity terms of a planar tree) comes out as a tiny nonzero (~1e-70 of the
 * scale at 256 bits); it is not a structural zero and counts, like every
 * entry, in max_abs and normwise (it is below the rms_rel threshold).
 *
 * A non-finite X entry makes every metric it enters inf (not NaN, so that
 * tables sort) and is counted in n_nonfinite.
 */
#ifndef RBD_ACCURACY_H
#define RBD_ACCURACY_H

#include <stddef.h>

typedef struct {
    double rms_rel;
    size_t n_rel;           /* entries in rms_rel                          */
    double max_abs;
    double normwise;
    double max_zero;        /* 0 when there are no structural zeros        */
    size_t n_zero;
    size_t n_nonfinite;     /* non-finite entries of X                     */
    double max_ref;         /* max |R_ij|, for scale                       */
} rbd_accuracy;

/* Fills acc; returns 0, or -22 (RBD_EINVAL) if R has a non-finite entry or
 * an argument is NULL. */
int rbd_accuracy_eval(const double *X, const double *R, size_t n, rbd_accuracy *acc);

#endif
