/* IDSVA Alg. 1 lines 17-20 for a chain (every body the parent of the next),
 * as blocked products (idsva_chain.c).  Used by idsva.c on chains of 32 dofs or more. */
#ifndef RBD_IDSVA_CHAIN_H
#define RBD_IDSVA_CHAIN_H

#include <stddef.h>
#include "derivatives/id/id_ground.h"

typedef struct {
    int n;                      /* nv */
    const int *col_start;       /* [n] first dof of column k's body: rows below are its ancestors */
    /* t1, t4 and S of every dof as 6 rows of length n (component c of dof r
     * at [n c + r]), so 4 consecutive rows of the output load as vectors */
    const double *t1_rows, *t4_rows, *S_rows;
    const double (*S)[6], (*Pd)[6], (*Pdd)[6], (*SP)[6];   /* [n] per dof: S, Psi_dot, Psi_ddot, S_dot + Psi_dot */
    const rbd_idg_tv *t;        /* [n] t1..t4 of each dof */
} idsva_chain_in;

/* Every entry of dtau/dq and dtau/dqd (n x n, column-major). */
void idsva_chain_products(const idsva_chain_in *in, double *restrict dq, double *restrict dv);

#endif
