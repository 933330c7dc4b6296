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

#endif
