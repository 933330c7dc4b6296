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

/* fdsva's default switch from DMM (dgemm) to AZA, in dofs, where the sparse
 * DMM below does not apply (chains; rbd_options.fdsva_crossover overrides
 * it).  Measured on the development machine (a 2-CPU VM, AVX-512, OpenBLAS
 * 0.3.21 SkylakeX kernels, gcc 12 -O3 -march=native), quiet, in the paper
 * sweep (results/2026-11-22-paper, paired rounds):
 *  - `crossover fdsva-aza fdsva-dmm` (sign test, 88-142 paired
 *    repetitions) bracketed it in [118, 126] on bf = 1 and [126, 141] on
 *    bf = 5;
 *  - at N = 150 on the chain, fdsva-aza took 0.88x of dgemm's fdsva
 *    (18/21 rounds).
 * So 130.  The compiler matrix (results/2026-11-22-compiler-matrix) puts it
 * at 118-139 for gcc native and 226-250 for clang native, 63-85 without the
 * vector ISA.  The earlier 170 came from timings under load.  Re-measure
 * for another machine or compiler (harness/README.md, "FD-method options")
 * and change it here or pass --fdsva-crossover. */
#define RBD_FDSVA_CROSSOVER_DEFAULT 130

/* Below the crossover fdsva times the sparse DMM and dgemm at init and keeps
 * the faster (fd_compose.c, fdsva_measure).  The measurements below set the
 * fixed rule that rbd_options.fdsva_dmm_rule restores, and that still
 * decides past the crossover.
 *
 * Below the crossover, of the two dense DMMs, dgemm wins at every size:
 * timed apart (taskset -c 1, min of 15 rounds), the one n x 2n dgemm took
 * 46-69 ns at N = 2..6, 260 ns at N = 10, 1.4 us at N = 24 (bf 1 and 5),
 * 87 ns on ur5 and 0.73 us on hyq, against 65-250 ns, 0.7-0.8 us,
 * 3.2-4.8 us, 0.38 us and 2.5 us for rbd_dmm_loop twice (OpenBLAS 0.3.21's
 * small-matrix kernels).
 *
 * But when dID/du is mostly structural zeros or small, fdsva uses the
 * DMM that skips the zero rows (rbd_dmm_sparse) while R / nv <
 * RBD_FDSVA_SPARSE_SIZE, R the number of entries of dID/dq that can be
 * non-zero (an equivalent dense size: nv on a chain, about twice the depth
 * on a branched tree).  Measured in one paired sweep
 * (results/2026-11-22-paired, tables.md): against fdsva with dgemm the
 * sparse loop took 0.84-0.89x on chains of 7-20 bodies, 1.01x at 30 and
 * 1.27x at 50; 0.44-0.88x on every bf = 2, 5 tree from 7 to 100 bodies and
 * 0.85-0.91x on the robots (ur3 ... hyq).  On a branched tree of depth d it
 * costs O(nv^2 d) against AZA's O(nv^2) with a large constant, so it stays
 * ahead of AZA past the crossover too: paired, N = 200 and 500, bf = 2 and
 * 5, fdsva-aza took 1.7-2.6x and fdsva-dmm (dgemm) 2.5-5.8x the sparse
 * DMM's time.
 * Machine-dependent: on an AMD EPYC (Zen 4; OpenBLAS picks its Zen kernels
 * there) dgemm won on chains instead, at 0.91-0.98x of the sparse loop
 * for 6-20 bodies (0-1/11 rounds). On bf = 2 and 5 the two tied, or the
 * sparse loop won by up to 4% (one `rbdiff time` run, 2026-11-23).  Kept
 * as measured on the Xeon of the anchors. */
#define RBD_FDSVA_SPARSE_SIZE 30
/* ... and from 6 dofs: below, OpenBLAS's small-matrix dgemm kernel wins
 * (paired, results/2026-11-22-paired before this limit: fdsva-dmm took
 * 0.92-0.96x of the sparse fdsva at N = 3 and 5 on bf = 1, 2, 5 (3/11 to
 * 5/11 rounds), 1.04-1.16x from 6 dofs: ur3, ur5, N = 7). */
#define RBD_FDSVA_SPARSE_MIN 6

typedef enum {
    RBD_COMBINE_DMM_BLAS,       /* cblas_dgemm                               */
    RBD_COMBINE_DMM_LOOP,       /* plain column-by-column loop               */
    RBD_COMBINE_DMM_SPARSE,     /* loop over the non-zero rows of dID/du only */
    RBD_COMBINE_AZA,            /* eq. (34) on blocks of columns             */
    RBD_COMBINE_SWITCH          /* fdsva: sparse DMM, or dgemm below the crossover, else AZA */
} rbd_combine;

struct rbd_idg_backend_s;
typedef struct {
    const rbd_method *self;     /* the composed method (name, joints)        */
    const rbd_method *id;       /* the inner ID-derivative method            */
    rbd_combine combine;
    /* the inner method's ground-frame backward pass (id_ground.h), or NULL:
     * with it, qdd0 and the analytic M^-1 come from its forward pass
     * (fd_ground.c) instead of ABA and a pass of their own */
    const struct rbd_idg_backend_s *ground;
} rbd_fd_compose;

int rbd_fdc_init(const rbd_fd_compose *c, const rbd_model *m, const rbd_options *o, void **ws);
int rbd_fdc_eval(void *ws, const rbd_state *x, rbd_derivs *out);
void rbd_fdc_fini(void *ws);

/* M^-1 by the analytic inverse (minv_analytic.c) reusing the Xup, IA, U and
 * D^-1 that rbd_aba just left in d at the same q: only the ground-frame
 * columns and the O(N^2) sweeps remain.  Leaves Xup, IA, U, D^-1 as they
 * are (AZA reads them next). */
void rbd_minv_analytic_after_aba(const rbd_model *m, rbd_data *d, double *Minv);

/* ---- DMM (dmm.c): X = -Minv G for the n x n column-major Minv, G ---- */
/* X = -Minv G for the n x k column-major G, X (one dgemm for both dID/du). */
void rbd_dmm_blas_cols(int n, int k, const double *Minv, const double *G, double *X);
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
