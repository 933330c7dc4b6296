/*
 * Floating-point operations per call, counted analytically from the
 * algorithms (issue 8: achieved GFLOP/s next to time).  Each count follows
 * the algorithm's lines with the dense spatial-algebra costs of flops.c
 * (one multiply or add = 1 flop; sin/cos, divisions by D and copies are not
 * counted), for trees of 1-dof revolute joints (autoTree); other joints give
 * NAN.  It counts the work the algorithm states, not what one implementation
 * skips (a sparse S_i = e_z in the body frame, zero blocks): achieved GFLOP/s
 * is the rate of useful work, as 2 n^3 is for any matrix product.
 *
 * Tree quantities: N bodies, depth d_k (1 for a child of the base),
 * P = sum_k d_k = sum_i |nu(i)| (pairs (i, k) with k in the subtree of i),
 * R = bodies whose parent is the base.
 */
#ifndef RBD_FLOPS_H
#define RBD_FLOPS_H

#include "rbdiff/rbd.h"

typedef struct {
    long N, nv, P, R;
    int revolute_only;
} flops_tree;

void flops_tree_of(const rbd_model *m, flops_tree *t);

/* Flops per call of each algorithm counted (flops.c derives each line by
 * line), for a tree of revolute joints; which method runs which count is
 * the method table's (measure/method_facts.h: method_flops). */
double flops_rnea(const flops_tree *t);
double flops_aba(const flops_tree *t);
double flops_minv(const flops_tree *t);
double flops_crba(const flops_tree *t);
double flops_idsva(const flops_tree *t);
double flops_rneacr(const flops_tree *t);
double flops_fdsva_dmm(const flops_tree *t);     /* ABA + IDSVA + M^-1 + the DMM, 4 nv^3 */
double flops_fdsva_aza(const flops_tree *t);     /* ABA + IDSVA + M^-1 + AZA, eq. (34) */
double flops_dgemm(const flops_tree *t);         /* 2 n^3, n = nv */

#endif
