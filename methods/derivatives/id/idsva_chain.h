/* IDSVA Alg. 1 lines 17-20 for a chain (every body the parent of the next),
 * as blocked products (idsva_chain.c).  Used by idsva.c on chains of 32 dofs or more. */
#ifndef RBD_IDSVA_CHAIN_H
#define RBD_IDSVA_CHAIN_H

#include <stddef.h>

typedef struct {
    int n;                      /* nv */
    const int *col_start;       /* [n] first dof of column k's body: rows below are its ancestors */
    const double *T;            /* 18 rows of length n: t1 (0-5), t4 (6-11), S (12-17) */
    const double (*S)[6], (*Pd)[6], (*Pdd)[6], (*SP)[6];   /* [n] per dof: S, Psi_dot, Psi_ddot, S_dot + Psi_dot */
    const double (*R)[24];      /* [n] t1, t2, t3, t4 of each dof */
} idsva_chain_in;

/* Every entry of dtau/dq and dtau/dqd (n x n, column-major). */
void idsva_chain_products(const idsva_chain_in *in, double *restrict dq, double *restrict dv);

#endif
