/*
 * Forward-dynamics derivatives composed from an ID-derivative method
 * (Singh, Russell & Wensing 2022, eq. 5 and sec. IV-C):
 *
 *   qdd0 = ABA(q, qd, tau),  dFD/du = -M^-1 dID/du |(q, qd, qdd0)  (u = q, qd),
 *   dFD/dtau = M^-1,
 *
 * with one of three ways to form -M^-1 dID/du:
 *  - DMM: the dense product with M^-1 (OpenBLAS dgemm, a plain loop, or a
 *    loop that skips the structurally zero entries of dID/du);
 *  - AZA: ABA(q, 0, b, 0) of eq. (34) on each column b of dID/du, reusing
 *    the kinematics (Xup) and the articulated-body inertias (IA_i, U_i,
 *    D_i^-1) of the qdd0 evaluation: IA does not depend on qd or tau, so
 *    ABA(q, qd, tau) leaves exactly what ABA(q, 0, b, 0) needs;
 *  - factored (IDSVA only): M^-1 times the factors of lines 17-20 of
 *    IDSVA's Algorithm 1, whose products are dID/du (fd_factored.c);
 *  - AZA with forces (IDSVA's factors, or RNEACR's body-frame force
 *    derivatives): the subtree rows of each column of dID/du formed, its
 *    ancestor rows kept as one spatial force that ABA's backward pass takes
 *    in (rbd_aza_solve_tvecs, rbd_aza_solve_forces): no explicit M^-1 and
 *    no generalised forces that M^-1 would cancel, for accuracy where M is
 *    ill-conditioned (methods/README.md).
 * fdcr, pin26-fd and the fdsva-* methods differ only in the inner ID method,
 * the passes and that product (a recipe, fd_compose.c), so their timings
 * compare those parts alone.
 */
#ifndef RBD_FD_COMPOSE_H
#define RBD_FD_COMPOSE_H

#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

/* fdsva's switch from DMM to the factored product (fd_factored.c), as an
 * equivalent dense size R / nv of dID/du, R the number of entries of dID/dq
 * that can be non-zero (nv on a chain, about twice the depth on a branched
 * tree); rbd_options.fdsva_crossover overrides it.  The factored product
 * costs about 54 nv^2 FMAs on any tree, the sparse DMM about 2 nv R after
 * IDSVA's products, dgemm 2 nv^3: 30, measured (methods/README.md, "The
 * factored product"). */
#define RBD_FDSVA_CROSSOVER_DEFAULT 30

/* Below it fdsva times the sparse DMM and dgemm at init and keeps the
 * faster, as which wins depends on the machine (fdsva_switch.c); with
 * rbd_options.fdsva_dmm_rule it takes the sparse DMM from this many dofs
 * and dgemm below (methods/README.md, "fdsva's DMM below the crossover"). */
#define RBD_FDSVA_SPARSE_MIN 6

/* The product that forms -M^-1 dID/du (fd_compose.c's products). */
typedef enum {
    RBD_COMBINE_DMM_BLAS,       /* cblas_dgemm                               */
    RBD_COMBINE_DMM_LOOP,       /* plain column-by-column loop               */
    RBD_COMBINE_DMM_SPARSE,     /* loop over the non-zero rows of dID/du only */
    RBD_COMBINE_AZA,            /* eq. (34) on blocks of columns             */
    RBD_COMBINE_FACTORED,       /* M^-1 times IDSVA's factors (fd_factored.c) */
    RBD_COMBINE_AZA_FORCES,     /* AZA, each column's ancestor rows as a force (aza.c): on
                                 * IDSVA's t-vectors, or on RNEACR's parent forces */
    RBD_COMBINE_SWITCH          /* fdsva: sparse DMM or dgemm below the crossover, else factored */
} rbd_combine;

/* The passes that give qdd0, M^-1 and dID/du or its factors (fd_compose.c's
 * body_passes, shared_passes, ground_passes); the shared and ground ones
 * need the analytic M^-1 and a ground-frame inner method, and fall back to
 * the body passes otherwise. */
typedef enum {
    RBD_PASS_SEPARATE,          /* ABA (body frames), the ID method, M^-1: each their own      */
    RBD_PASS_SHARED,            /* ABA, the ID forward pass on ABA's cos, sin, M^-1 from ABA   */
    RBD_PASS_GROUND             /* the ID forward pass alone, qdd0 and M^-1 from it (fd_ground.c) */
} rbd_fd_pass;

struct rbd_idg_backend_s;
typedef struct {
    const rbd_method *self;     /* the composed method (name, joints)        */
    const rbd_method *id;       /* the inner ID-derivative method            */
    rbd_combine combine;
    /* the inner method's ground-frame backward pass (id_ground.h), or NULL;
     * RBD_COMBINE_FACTORED takes its t-vectors */
    const struct rbd_idg_backend_s *ground;
    rbd_fd_pass pass;           /* RBD_PASS_SEPARATE unless ground */
    /* or NULL; after the inner method's eval, each column's ancestor rows of
     * dID/dq, dID/dqd as forces on the parent body (rbd_rneacr_parent_dforces),
     * for RBD_COMBINE_AZA_FORCES without t-vectors */
    void (*parent_dforces)(const void *idws, double (*Fq)[6], double (*Fv)[6]);
} rbd_fd_compose;

int rbd_fdc_init(const rbd_fd_compose *c, const rbd_model *m, const rbd_options *o, void **ws);
int rbd_fdc_eval(void *ws, const rbd_state *x, rbd_derivs *out);
void rbd_fdc_fini(void *ws);

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
/* fdsva's product on m (RBD_COMBINE_SWITCH; fdsva_switch.c): factored from
 * the crossover, else the sparse DMM or dgemm, measured or by the rule. */
rbd_combine rbd_fdsva_switch(const rbd_model *m, const rbd_options *o, const rbd_dmm_rows *rows);
void rbd_dmm_rows_fini(rbd_dmm_rows *r);
/* Xq = -Minv Gq and Xv = -Minv Gv for dID/dq and dID/dqd (the same rows can be non-zero). */
void rbd_dmm_sparse(const rbd_model *m, const rbd_dmm_rows *r, const double *Minv, const double *Gq, const double *Gv,
                    double *Xq, double *Xv);

/* ---- the factored product (fd_factored.c) ---- */
typedef struct rbd_fdf rbd_fdf;
struct rbd_idg;
struct rbd_idg_tv;

rbd_fdf *rbd_fdf_new(const rbd_model *m);
void rbd_fdf_free(rbd_fdf *f);
/* Xq = -M^-1 dID/dq, Xv = -M^-1 dID/dqd (nv x nv, column-major, every entry
 * written) from the full M^-1, the per-dof S, Psi_dot, Psi_ddot and
 * S_dot + Psi_dot of g and the t1..t4 of R (rbd_idg_backend.tvecs). */
void rbd_fdf_solve(const rbd_model *m, rbd_fdf *f, const double *Minv, const struct rbd_idg *g,
                   const struct rbd_idg_tv *R, double *Xq, double *Xv);

/* ---- AZA (aza.c) ---- */
typedef struct rbd_aza rbd_aza;

/* After an rneacr eval (its workspace ws): for each dof c, of body b with
 * parent p, d f_p / d q_c and d f_p / d qd_c in p's body frame: the spatial
 * force that b's subtree passes across b's joint, differentiated.  Rows of
 * strict ancestors k of b in column c of dID/dq are S_k^T of it carried to
 * k (zero for a root dof). */
void rbd_rneacr_parent_dforces(const void *ws, double (*Fq)[6], double (*Fv)[6]);

rbd_aza *rbd_aza_new(const rbd_model *m);
void rbd_aza_free(rbd_aza *z);
/* X = -M^-1 G (nv x nv, column-major) by ABA(q, 0, -g, 0) per column g of G,
 * with d holding Xup, U and D^-1 of an ABA (or M^-1) evaluation at q. */
void rbd_aza_solve(const rbd_model *m, const rbd_data *d, rbd_aza *z, const double *G, double *X);
/* The same for G = G_sub + J^T F: column c of G read on the rows of its
 * dof's body's subtree only, and its strict-ancestor rows given instead as
 * the force F[c] on the parent p of that body (in p's frame: J_p^T F[c] =
 * those rows), which enters ABA's backward pass at p as an external force.
 * The generalised forces S_k^T F that M^-1 would then cancel are never
 * formed (methods/README.md, "The FD compositions on ill-conditioned
 * chains"). */
void rbd_aza_solve_forces(const rbd_model *m, const rbd_data *d, rbd_aza *z, const double *G, const double (*F)[6],
                          double *X);
/* Xq = -M^-1 dID/dq, Xv = -M^-1 dID/dqd the same way from IDSVA's factors
 * (fd_factored.c's lines 17-20): the subtree rows t4_j^T Psi_dot_c +
 * t1_j^T Psi_ddot_c (dqd: t4_j^T S_c + t1_j^T (S_dot + Psi_dot)_c) formed,
 * the ancestor rows S_k^T t3_c (t2_c) left as the ground-frame force t3_c
 * (t2_c) on the parent, turned into its frame (X0_p^* t). */
void rbd_aza_solve_tvecs(const rbd_model *m, const rbd_data *d, rbd_aza *z, const struct rbd_idg *g,
                         const struct rbd_idg_tv *R, double *Xq, double *Xv);

#endif
