/*
 * rbdref: the trusted yardstick.  First-order derivatives of inverse and
 * forward dynamics by complex step, evaluated in complex arithmetic over GNU
 * MPFR (GNU MPC), with RNEA and ABA written afresh in reference/ -- none of
 * the algorithms in methods/ is used, so a bug shared by both cannot hide.
 *
 * Column j of a derivative is Im f(x + i h e_j) / h.  Derivatives in q are
 * taken in the tangent space: a Lie-group joint's configuration is perturbed
 * as q * exp(i h e_k) (spherical; free-flyer angular), and a free-flyer's
 * position as p + R(q) i h e_k (its linear tangent direction), as README.md ("Conventions")
 * and rbd_integrate define q (+) d.
 *
 * Step size: h = 2^-prec by default.  The truncation error of complex step is
 * h^2 f'''/(6 f') relative, i.e. ~2^-2prec times a model scale ratio: at the
 * default it sits ~prec bits below the rounding level 2^-prec, and complex
 * step has no subtractive cancellation, so a tiny h costs no accuracy (MPFR's
 * exponent range makes underflow impossible).  Linear inputs (qdd for M, tau
 * for M^-1) give exact columns for any h, h being a power of two.
 *
 * All vectors and matrices are in the model's INTERNAL numbering
 * (rbd_mat_to_user / rbd_v_to_user convert).  Matrices are nv x nv
 * column-major, (i, j) at [i + nv*j].
 */
#ifndef RBDREF_H
#define RBDREF_H

#include <mpfr.h>
#include "rbdiff/rbd.h"

typedef struct {
    int prec;           /* working precision in bits (default 256, >= 64)        */
    long h_log2;        /* complex step h = 2^h_log2; 0 = -prec (the default)     */
    int nthreads;       /* worker threads over columns; 0 = online CPUs           */
} rbdref_opts;

void rbdref_opts_default(rbdref_opts *o);

/* The reference rounded to double (round to nearest). */
typedef struct {
    int nv;
    int has_id, has_fd;     /* which half was computed (a resp. tau given) */
    double *tau;            /* [nv] ID(q, v, a)                           */
    double *M;              /* [nv*nv] joint-space inertia at q           */
    double *dtau_dq, *dtau_dv;      /* [nv*nv] at (q, v, a)               */
    double *qdd;            /* [nv] FD(q, v, tau)                         */
    double *dqdd_dq, *dqdd_dv;      /* [nv*nv] at (q, v, tau)             */
    double *Minv;           /* [nv*nv] dqdd/dtau = M^-1                   */
} rbdref_result;

int rbdref_result_init(rbdref_result *r, int nv);
void rbdref_result_free(rbdref_result *r);
/* The array named as in the output format of README.md ("Conventions") (tau, qdd, M, Minv,
 * dqdd_dtau, dtau_dq, dtau_dv, dqdd_dq, dqdd_dv); NULL if unknown or not
 * computed.  *rows, *cols receive the shape when non-NULL. */
double *rbdref_result_get(const rbdref_result *r, const char *name, int *rows, int *cols);

/* The reference at full precision (for self-checks and tests). */
typedef struct {
    int nv;
    mpfr_prec_t prec;
    int has_id, has_fd;
    mpfr_ptr tau, M, dtau_dq, dtau_dv, qdd, dqdd_dq, dqdd_dv, Minv;
    __mpfr_struct *pool;
    size_t npool;
} rbdref_mp;

int rbdref_mp_init(rbdref_mp *r, int nv, int prec);
void rbdref_mp_clear(rbdref_mp *r);
mpfr_ptr rbdref_mp_get(const rbdref_mp *r, const char *name, int *rows, int *cols);
/* Rounds every computed array of src into dst (dst made for the same nv). */
int rbdref_mp_round(const rbdref_mp *src, rbdref_result *dst);

/*
 * Evaluates the reference at (q, v, a) for the ID half and (q, v, tau) for
 * the FD half, internal numbering.  a == NULL skips ID (tau, M, dtau_*),
 * tau == NULL skips FD (qdd, dqdd_*, Minv); v == NULL means zero velocity.
 * o == NULL takes the defaults.  r must be made for m->nv (and, for _mp,
 * with the precision o->prec).  Returns 0 or a negative RBD_E* code with a
 * message (rbd_last_error): unsupported joint, singular articulated inertia,
 * bad options, out of memory, failure to start a thread.
 */
int rbdref_eval_mp(const rbd_model *m, const double *q, const double *v, const double *a,
                   const double *tau, const rbdref_opts *o, rbdref_mp *r);
int rbdref_eval(const rbd_model *m, const double *q, const double *v, const double *a,
                const double *tau, const rbdref_opts *o, rbdref_result *r);

/*
 * cache.c: rbdref_eval through an on-disk cache in directory dir (created if
 * missing).  The key hashes the model's data (structure and every numeric
 * parameter), the state values, the precision and the step.  Files are
 * written atomically (temporary file in dir, fsync, rename) and carry a
 * checksum and an end marker; a corrupt or truncated file is recomputed and
 * replaced.  *hit (if non-NULL) tells whether the cache answered.  If the
 * evaluation succeeds but the file cannot be written, RBD_EIO is returned
 * and r still holds the evaluated reference.
 */
int rbdref_eval_cached(const char *dir, const rbd_model *m, const double *q, const double *v,
                       const double *a, const double *tau, const rbdref_opts *o, rbdref_result *r,
                       int *hit);
/* The cache file path for these inputs (buf of size n); 0 or RBD_EINVAL. */
int rbdref_cache_path(const char *dir, const rbd_model *m, const double *q, const double *v,
                      const double *a, const double *tau, const rbdref_opts *o, char *buf, size_t n);

#endif
