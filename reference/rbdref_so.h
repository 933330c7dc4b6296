/*
 * The second-order reference (README.md of reference/, "Second order"):
 * the four ID tensors d2tau/dq2, d2tau/dv2, d2tau/dqdv, dM/dq at (q, v, a)
 * and the four FD tensors d2qdd/dq2, d2qdd/dv2, d2qdd/dqdv, d2qdd/dqdtau at
 * (q, v, tau), in the layout of method.h: T(i, j, k) at [i + nv j + nv^2 k]
 * = d2 y_i / dx_j dz_k for d2y/dxdz, slab k along the second variable (dM_dq
 * = d2tau/da dq), q perturbed in the tangent space (slab k taken at
 * q (+) e_k).  Internal numbering.
 *
 * Slab k is a central difference, at the working precision, of the
 * reference's own complex-step first-order columns (rbdref.c) at the base
 * point moved by +-d along x_k:
 *     T(:, :, k) = (J(x (+) d e_k) - J(x (+) -d e_k)) / (2 d),
 * J = dtau/dq, dtau/dv, M, dqdd/dq, dqdd/dv, M^-1; the mixed tensors
 * (d2tau_dqdv, d2qdd_dqdv, d2qdd_dqdtau) are these differences along q
 * transposed in (j, k), exact since d/dq and d/dv (d/dtau) commute.
 * d = 2^d_log2 (default 2^-(prec/3): 2^-85 at 256 bits), exact in MPFR.
 * Truncation d^2 J'''/6 and cancellation 2^-prec |J| / d are both
 * ~2^-(2 prec/3) (1e-51 at 256 bits) times the model's scale ratios; the
 * complex step's own error is 2^-2prec.  Every value is rounded to double
 * once, at the end.
 */
#ifndef RBDREF_SO_H
#define RBDREF_SO_H

#include "rbdref.h"

typedef struct {
    int nv;
    int has_id, has_fd;
    double *tau, *qdd;                                   /* [nv] the base point's values     */
    double *d2tau_dq2, *d2tau_dv2, *d2tau_dqdv, *dM_dq;  /* [nv^3] each, when has_id         */
    double *d2qdd_dq2, *d2qdd_dv2, *d2qdd_dqdv, *d2qdd_dqdtau; /* [nv^3] each, when has_fd   */
} rbdref_so_result;

/* Allocates all eight tensors (8 nv^3 doubles), refusing with RBD_ENOMEM and
 * the size (rbd_check_memory) before allocating when they would not fit. */
int rbdref_so_result_init(rbdref_so_result *r, int nv);
void rbdref_so_result_free(rbdref_so_result *r);
/* The array of that name (tau, qdd, or a tensor named as in method.h); NULL
 * if unknown or not computed.  *n receives its length (nv or nv^3). */
double *rbdref_so_result_get(const rbdref_so_result *r, const char *name, size_t *n);

/*
 * a == NULL skips the ID half, tau == NULL the FD half; v == NULL is zero
 * velocity.  o == NULL: defaults (256 bits, h = 2^-prec, every CPU).
 * d_log2 = 0 takes 2^-(prec/3).  Bit-identical for any thread count.
 */
int rbdref_so_eval(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                   const rbdref_opts *o, long d_log2, rbdref_so_result *r);

/* The same for some slabs only (cost in proportion: a test at N = 100):
 * slab s < nv is q slab s (d2tau_dq2 and dM_dq (:, :, s), d2tau_dqdv
 * (:, s, :), and their FD twins with d2qdd_dqdtau (:, s, :)), s >= nv is v
 * slab s - nv (d2tau_dv2, d2qdd_dv2 (:, :, s - nv)).  Every other entry of
 * the tensors is NAN. */
int rbdref_so_eval_slabs(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                         const rbdref_opts *o, long d_log2, const int *slabs, int nslabs, rbdref_so_result *r);

/* The difference step's exponent d_log2 resolves to (0: -(prec/3)). */
long rbdref_so_step_log2(const rbdref_opts *o, long d_log2);

/*
 * cache_so.c: rbdref_so_eval through the on-disk cache in dir (created if
 * missing), as rbdref_eval_cached (rbdref.h) is for the first order: file
 * dir/rbdref-so-<key>.txt, the key the first-order one extended by the
 * order and the difference step; bit-exact doubles, checksummed, written
 * atomically; a corrupt or truncated file is recomputed and replaced.
 * *hit (if non-NULL) tells whether the cache answered.  If the evaluation
 * succeeds but the file cannot be written, RBD_EIO is returned and r still
 * holds the evaluated reference.  (Only whole evaluations are cached, not
 * rbdref_so_eval_slabs.)
 */
int rbdref_so_eval_cached(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                          const double *tau, const rbdref_opts *o, long d_log2, rbdref_so_result *r, int *hit);
/* The cache file path for these inputs (buf of size n); 0 or RBD_EINVAL. */
int rbdref_so_cache_path(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                         const double *tau, const rbdref_opts *o, long d_log2, char *buf, size_t n);

#endif
