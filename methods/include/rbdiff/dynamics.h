/*
 * The base dynamics algorithms in double: RNEA (body and ground frames), CRBA,
 * ABA, the sparse LTDL factorisation and M^-1 three ways.  Each takes the
 * model and an rbd_data made once for it (rbd_data_new); none allocates.
 * Matrices are nv x nv column-major, both triangles filled.
 */
#ifndef RBD_DYNAMICS_H
#define RBD_DYNAMICS_H

#include "rbd.h"

/* Scratch for one model; every array is sized at rbd_data_new. */
struct rbd_data {
    int nb, nv;
    sp_xform *Xup;              /* [nb] parent -> body                        */
    sp_xform *X0;               /* [nb] ground -> body                        */
    double (*v)[6], (*a)[6], (*f)[6];   /* [nb] velocities, accelerations, forces */
    double (*c)[6], (*pA)[6];   /* [nb] ABA bias terms                        */
    double (*IA)[36];           /* [nb] articulated inertias, row-major 6x6   */
    double (*U)[6];             /* [nv] IA S columns                          */
    double *Dinv;               /* [36*nb] (S^T IA S)^-1, nv_i x nv_i blocks  */
    double *u;                  /* [nv] */
    double (*cs)[2];            /* [nb] rbd_aba's cos, sin of q_i for joints about an axis */
    sp_inertia *Ic;             /* [nb] composite inertias                    */
    double (*F)[6];             /* [nv] CRBA / Minv force columns             */
    double *work;               /* [nv*nv] a spare dense matrix               */
    double *work2;              /* [nv*nv] another                            */
    /* ground-frame columns (rnea_ground, minv_analytic) */
    double (*S0)[6];            /* [nv] 0S_i = X0_i^-1 S_i                    */
    double (*UG)[6];            /* [nv] 0U_i = X0_i^T U_i                     */
    double (*U0)[6];            /* [nv] 0U_i D_i^-1 = X0_i^T U_i D_i^-1       */
    double (*SD0)[6];           /* [nv] 0S_i D_i^-1                           */
    /* minv_analytic's forward pass keeps one 6 x nv acceleration block per
     * live branch point: body i writes slot aslot[i], which equals its
     * parent's slot for a last child (the parent's block is dead then).
     * Blocks are row-major 6 x nv (row k of slot s at A + (6 s + k) nv), so
     * the sweeps over columns vectorise; Fs is the backward pass's block. */
    int nslot;
    int *aslot;                 /* [nb] */
    double *A;                  /* [nslot*6*nv] */
    double *Fs;                 /* [6*nv] */
    int *ipath;                 /* [nv] a root-to-dof path (minv_ltdl)        */
    /* [nb] k when body i's joint turns about e_k (revolute or continuous)
     * and its Xtree has no rotation, so that Xup = (rot_k(q)^T, r_tree):
     * CRBA's plane-rotation shortcuts (crba.c); -1 otherwise */
    signed char *axis_flat;
};

/* A pivot p of a joint-space block is singular when p <= RBD_PIVOT_RTOL * s,
 * s the matching scale (diagonal of IA for ABA, of M for LTDL / Cholesky). */
#define RBD_PIVOT_RTOL 1e-12

/* Body i's slot (rbd_data.aslot, fd_factored.c): its parent's, plus one
 * unless i is its parent's last child (whose subtree ends where the
 * parent's does), 0 at a root; a walk to the root, for init only. */
static inline int rbd_branch_slot(const rbd_model *m, int i)
{
    int s = 0;
    for (int p; (p = m->parent[i]) >= 0; i = p) s += m->subtree_end[i] != m->subtree_end[p];
    return s;
}

rbd_data *rbd_data_new(const rbd_model *m);
void rbd_data_free(rbd_data *d);

/* tau = ID(q, qd, qdd), body coordinates (Featherstone & Orin, Table II). */
int rbd_rnea(const rbd_model *m, rbd_data *d, const double *q, const double *qd, const double *qdd,
             double *tau);

/* tau = ID(q, qd, qdd) with every spatial quantity in ground coordinates. */
int rbd_rnea_ground(const rbd_model *m, rbd_data *d, const double *q, const double *qd, const double *qdd,
                    double *tau);

/* Joint-space inertia matrix M(q) (RBDA Table 6.2), nv x nv, both triangles. */
int rbd_crba(const rbd_model *m, rbd_data *d, const double *q, double *M);

/* qdd = FD(q, qd, tau) by the articulated-body algorithm (RBDA Table 7.1).
 * RBD_ESINGULAR, naming the joint, when a joint-space pivot vanishes. */
int rbd_aba(const rbd_model *m, rbd_data *d, const double *q, const double *qd, const double *tau,
            double *qdd);

/* In-place sparse LTDL factorisation M = L^T D L with the expanded parent
 * array (RBDA Tables 6.3, 6.4).  LD holds M's upper triangle (at least) on
 * entry; on return its strictly upper triangle holds L^T, i.e. L_kj at
 * LD[j + nv*k] (row k of L is column k: the rows the algorithm sweeps are
 * contiguous), unit diagonal implied, and its diagonal holds D.  The strictly
 * lower triangle is not touched. */
int rbd_ltdl(const rbd_model *m, double *LD);
/* x <- M^-1 x from the factors (RBDA Table 6.5). */
void rbd_ltdl_solve(const rbd_model *m, const double *LD, double *x);

/* sum of a[j] x[j] over the strict ancestors j of dof k (in the dof tree),
 * swept as contiguous runs (m->dof_run0) so the loops vectorise. */
static inline double rbd_anc_dot(const rbd_model *m, int k, const double *a, const double *x)
{
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;     /* 4 chains: the sum is not latency-bound */
    for (int j = m->dof_parent[k]; j >= 0;) {
        int t = m->dof_run0[j];
        const int r0 = t;
        for (; t + 3 <= j; t += 4) {
            s0 += a[t] * x[t]; s1 += a[t + 1] * x[t + 1]; s2 += a[t + 2] * x[t + 2]; s3 += a[t + 3] * x[t + 3];
        }
        for (; t <= j; t++) s0 += a[t] * x[t];
        j = m->dof_parent[r0];
    }
    return (s0 + s1) + (s2 + s3);
}

/* y[j] += alpha a[j] over the strict ancestors j of dof k. */
static inline void rbd_anc_axpy(const rbd_model *m, int k, double alpha, const double *a, double *y)
{
    for (int j = m->dof_parent[k]; j >= 0;) {
        int s0 = m->dof_run0[j];
        for (int t = s0; t <= j; t++) y[t] += alpha * a[t];
        j = m->dof_parent[s0];
    }
}

/* M^-1 at q by the chosen variant, nv x nv, both triangles. */
int rbd_minv(const rbd_model *m, rbd_data *d, rbd_minv_kind kind, const double *q, double *Minv);
/* The three variants (minv_analytic.c, minv_ltdl.c, minv_lapack.c). */
int rbd_minv_analytic(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
/* Its O(N^2) sweeps alone, from the ground-frame columns in d: S0, UG, U0,
 * SD0 and the D^-1 blocks (fd_ground.c fills them without transforms). */
void rbd_minv_analytic_sweeps(const rbd_model *m, rbd_data *d, double *Minv);
/* M^-1 by the analytic inverse (minv_analytic.c) reusing the Xup, IA, U and
 * D^-1 that rbd_aba just left in d at the same q: only the ground-frame
 * columns and the O(N^2) sweeps remain.  Leaves Xup, IA, U, D^-1 as they
 * are (AZA reads them next). */
void rbd_minv_analytic_after_aba(const rbd_model *m, rbd_data *d, double *Minv);
int rbd_minv_ltdl(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
int rbd_minv_lapack(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
/* The base algorithm "minv": CRBA + LTDL up to RBD_MINV_LTDL_NV dofs (there
 * it costs less than the analytic inverse's per-body set-up, within a few
 * ulp of its accuracy; methods/README.md), the analytic inverse above. */
#define RBD_MINV_LTDL_NV 5
int rbd_minv_auto(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
/* Reciprocal condition number (1-norm) of M(q): CRBA, dpotrf, dpocon.
 * *rcond = 0 when M(q) is not numerically positive definite.  Allocates
 * scratch (O(nv^2)): diagnostics and error paths only. */
int rbd_mass_rcond(const rbd_model *m, const double *q, double *rcond);

/* Copy the lower triangle of the n x n column-major A to the upper one. */
void rbd_sym_from_lower(int n, double *A);

#endif
