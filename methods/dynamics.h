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
    sp_inertia *Ic;             /* [nb] composite inertias                    */
    double (*F)[6];             /* [nv] CRBA / Minv force columns             */
    double *work;               /* [nv*nv] a spare dense matrix               */
    double *work2;              /* [nv*nv] another                            */
    /* ground-frame columns (rnea_ground, minv_analytic) */
    double (*S0)[6];            /* [nv] 0S_i = X0_i^-1 S_i                    */
    double (*U0)[6];            /* [nv] 0U_i D_i^-1 = X0_i^T U_i D_i^-1       */
    double (*SD0)[6];           /* [nv] 0S_i D_i^-1                           */
    /* minv_analytic's forward pass keeps one 6 x nv acceleration block per
     * live branch point: body i writes slot aslot[i], which equals its
     * parent's slot for a last child (the parent's block is dead then). */
    int nslot;
    int *aslot;                 /* [nb] */
    double (*A)[6];             /* [nslot*nv] */
    int *ipath;                 /* [nv] a root-to-dof path (minv_ltdl)        */
};

/* A pivot p of a joint-space block is singular when p <= RBD_PIVOT_RTOL * s,
 * s the matching scale (diagonal of IA for ABA, of M for LTDL / Cholesky). */
#define RBD_PIVOT_RTOL 1e-12

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
 * array (RBDA Tables 6.3, 6.4): on return the strictly lower triangle of LD
 * holds L (unit diagonal implied) and its diagonal holds D. */
int rbd_ltdl(const rbd_model *m, double *LD);
/* x <- M^-1 x from the factors (RBDA Table 6.5). */
void rbd_ltdl_solve(const rbd_model *m, const double *LD, double *x);

/* M^-1 at q by the chosen variant, nv x nv, both triangles. */
int rbd_minv(const rbd_model *m, rbd_data *d, rbd_minv_kind kind, const double *q, double *Minv);
/* The three variants (minv_analytic.c, minv_ltdl.c, minv_lapack.c). */
int rbd_minv_analytic(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
int rbd_minv_ltdl(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
int rbd_minv_lapack(const rbd_model *m, rbd_data *d, const double *q, double *Minv);
/* Copies the lower triangle of the n x n column-major A to its upper one. */
void rbd_sym_from_lower(int n, double *A);

#endif
