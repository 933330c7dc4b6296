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
};

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

#endif
