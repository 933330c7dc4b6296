/*
 * Forward-dynamics derivatives composed from an ID-derivative method
 * (Singh, Russell & Wensing 2022, eq. 5 and sec. IV-C):
 *
 *   qdd0 = ABA(q, qd, tau),  dFD/du = -M^-1 dID/du |(q, qd, qdd0)  (u = q, qd),
 *   dFD/dtau = M^-1,
 *
 * with one of two ways to form -M^-1 dID/du:
 *  - DMM: the dense product with M^-1 (OpenBLAS dgemm, a plain loop, or a
 *    loop that skips the structurally zero entries of dID/du);
 *  - AZA: ABA(q, 0, b, 0) of eq. (34) on each column b of dID/du, reusing
 *    the kinematics (Xup) and the articulated-body inertias (IA_i, U_i,
 *    D_i^-1) of the qdd0 evaluation: IA does not depend on qd or tau, so
 *    ABA(q, qd, tau) leaves exactly what ABA(q, 0, b, 0) needs.
 * fdcr, pin26-fd and the fdsva-* methods differ only in the inner ID method
 * and in that combination step (fd_compose.c), so their timings compare
 * those parts alone.
 */
#ifndef RBD_FD_COMPOSE_H
#define RBD_FD_COMPOSE_H

#include "dynamics.h"
#include "method.h"

/* fdsva's default switch from DMM (BLAS) to AZA, in dofs (rbd_options.
 * fdsva_crossover overrides it).  Measured on the development machine (a
 * shared 2-CPU VM, AVX-512 OpenBLAS 0.3.21 kernels, gcc -O3 -march=native):
 * `rbdiff crossover fdsva-aza fdsva-dmm --bf 1,2,5 --range 10:600` left the
 * searches unresolved (load noise) at N = 157, 140, 157, and a sweep of the
 * minimum times put AZA ahead from N = 150 (bf = 1) and ~170 (bf = 2, 5).
 * Re-measure for another machine or compiler (harness/README.md, "FD-method
 * options") and change it here or pass --fdsva-crossover. */
#define RBD_FDSVA_CROSSOVER_DEFAULT 150

typedef enum {
    RBD_COMBINE_DMM_BLAS,       /* cblas_dgemm                               */
    RBD_COMBINE_DMM_LOOP,       /* plain column-by-column loop               */
    RBD_COMBINE_DMM_SPARSE,     /* loop over the non-zero rows of dID/du only */
    RBD_COMBINE_AZA,            /* eq. (34) on blocks of columns             */
    RBD_COMBINE_SWITCH          /* DMM (BLAS) below the crossover, else AZA  */
} rbd_combine;

typedef struct {
    const rbd_method *self;     /* the composed method (name, joints)        */
    const rbd_method *id;       /* the inner ID-derivative method            */
    rbd_combine combine;
} rbd_fd_compose;

int rbd_fdc_init(const rbd_fd_compose *c, const rbd_model *m, const rbd_options *o, void **ws);
int rbd_fdc_eval(void *ws, const rbd_state *x, rbd_derivs *out);
void rbd_fdc_fini(void *ws);

/* ---- DMM (dmm.c): X = -Minv G for the n x n column-major Minv, G ---- */
void rbd_dmm_blas(int n, const double *Minv, const double *G, double *X);
void rbd_dmm_loop(int n, const double *Minv, const double *G, double *X);

/* Rows of column j of dID/du that can be non-zero: the dofs of the
 * ancestors of j's body and of its subtree, as runs [run[2r], run[2r+1]) of
 * body b for r in [off[b], off[b+1]). */
typedef struct {
    int *off, *run;
} rbd_dmm_rows;

int rbd_dmm_rows_init(const rbd_model *m, rbd_dmm_rows *r);
void rbd_dmm_rows_fini(rbd_dmm_rows *r);
void rbd_dmm_sparse(const rbd_model *m, const rbd_dmm_rows *r, const double *Minv, const double *G, double *X);

/* ---- AZA (aza.c) ---- */
typedef struct rbd_aza rbd_aza;

rbd_aza *rbd_aza_new(const rbd_model *m);
void rbd_aza_free(rbd_aza *z);
/* X = -M^-1 G (nv x nv, column-major) by ABA(q, 0, -g, 0) per column g of G,
 * with d holding Xup, U and D^-1 of an ABA (or M^-1) evaluation at q. */
void rbd_aza_solve(const rbd_model *m, const rbd_data *d, rbd_aza *z, const double *G, double *X);

#endif
