/*
 * IDSVA Alg. 1 lines 17-20 at one body on a branched tree, one related
 * (ancestor, descendant) pair per 4-vector; idsva.c uses it on every tree
 * but a long chain.
 *
 * At body i, Algorithm 1 writes row k over the proper subtree (lines 17-18:
 * S_k^T t3_d, S_k^T t2_d) and column k over the subtree (lines 19-20:
 * t4_d^T Psi_dot_k + t1_d^T Psi_ddot_k, t4_d^T S_k + t1_d^T (S_dot_k +
 * Psi_dot_k)), for each dof k of i and d below it.  Entry (k, d) and entry
 * (d, k) need the same two sets of numbers, k's constants and d's t1..t4, so
 * the pair is one 4-vector (lanes: dq(k, d), dv(k, d), dq(d, k), dv(d, k)):
 * 6 FMAs on 4-vectors for the 6-term sums and 6 on 2-vectors for the t1
 * terms of lines 19-20.  On a branched tree the subtree runs are a few
 * entries long; vectorising along them (the row and column as Algorithm 1
 * writes them) paid more in set-up and remainders than it saved, while the
 * pair vector costs the same at any run length (methods/README.md).
 *
 * Inline (a header, not its own translation unit): idsva.c calls it once
 * per body, and the call with its 11 arguments cost idsva 3-4% at bf = 5
 * (methods/README.md).
 */
#ifndef RBD_IDSVA_PAIRS_H
#define RBD_IDSVA_PAIRS_H

#include <stddef.h>
#include "derivatives/vec.h"

/* doubles in a dof's pair record: (t3_c, t2_c, t4_c, t4_c) for c = 0..5, then (t1_c, t1_c) */
enum { IDSVA_PAIR_REC = 36 };

/* The pair record of one dof from its t1..t4 (lines 13-16). */
static inline void idsva_pairs_record(double *restrict rec, const double t1[6], const double t2[6], const double t3[6],
                                      const double t4[6])
{
    for (int c = 0; c < 6; c++) {
        rec[4 * c] = t3[c];
        rec[4 * c + 1] = t2[c];
        rec[4 * c + 2] = t4[c];
        rec[4 * c + 3] = t4[c];
        rec[24 + 2 * c] = t1[c];
        rec[24 + 2 * c + 1] = t1[c];
    }
}

/* The pair (k, d): K, L hold k's constants, rec is d's record; lanes of
 * a: dq(k, d), dv(k, d), then the 6-term parts of dq(d, k), dv(d, k), whose
 * t1 parts are b. */
static inline void idsva_pair(const rbd_v4 K[6], const rbd_v2 L[6], const double *restrict rec, rbd_v4 *a,
                              rbd_v2 *b)
{
    rbd_v4 x;
    rbd_v2 y;
    rbd_load4(&x, rec);
    rbd_load2(&y, rec + 24);
    *a = K[0] * x;
    *b = L[0] * y;
    for (int c = 1; c < 6; c++) {
        rbd_load4(&x, rec + 4 * c);
        rbd_load2(&y, rec + 24 + 2 * c);
        *a += K[c] * x;
        *b += L[c] * y;
    }
}

/* Lines 17-20 for the dofs [j0, j1) of one body whose subtree is the dofs
 * [j0, e), all records of which are written: row k over the proper subtree
 * [j1, e) and column k over the subtree [j0, e), for each k in [j0, j1).
 * rec: [n][IDSVA_PAIR_REC]; S, Pd, Pdd, SP: [n][6] per dof (S, Psi_dot,
 * Psi_ddot, S_dot + Psi_dot); dq, dv: n x n, column-major. */
static inline void idsva_pairs_body(const double *restrict rec, int j0, int j1, int e, const double (*S)[6],
                                    const double (*Pd)[6], const double (*Pdd)[6], const double (*SP)[6], size_t n,
                                    double *restrict dq, double *restrict dv)
{
    if (e == j0 + 1) {          /* a one-dof leaf: its diagonal entry alone, no vectors to set up */
        const double *r = rec + IDSVA_PAIR_REC * (size_t)j0;
        double q = 0, v = 0, q1 = 0, v1 = 0;
        for (int c = 0; c < 6; c++) {
            q += r[4 * c + 2] * Pd[j0][c];
            v += r[4 * c + 2] * S[j0][c];
            q1 += r[24 + 2 * c] * Pdd[j0][c];
            v1 += r[24 + 2 * c] * SP[j0][c];
        }
        dq[(size_t)j0 * (n + 1)] = q + q1;
        dv[(size_t)j0 * (n + 1)] = v + v1;
        return;
    }
    for (int k = j0; k < j1; k++) {
        rbd_v4 K[6];
        rbd_v2 L[6];
        for (int c = 0; c < 6; c++) {
            K[c] = (rbd_v4){ S[k][c], S[k][c], Pd[k][c], S[k][c] };
            L[c] = (rbd_v2){ Pdd[k][c], SP[k][c] };
        }
        double *restrict cq = dq + n * (size_t)k, *restrict cv = dv + n * (size_t)k;
        for (int d = j0; d < j1; d++) {         /* the joint's own block: lines 19-20 only (eq. 30, j <= i) */
            rbd_v4 a;
            rbd_v2 b;
            idsva_pair(K, L, rec + IDSVA_PAIR_REC * (size_t)d, &a, &b);
            cq[d] = a[2] + b[0];
            cv[d] = a[3] + b[1];
        }
        for (int d = j1; d < e; d++) {
            rbd_v4 a;
            rbd_v2 b;
            idsva_pair(K, L, rec + IDSVA_PAIR_REC * (size_t)d, &a, &b);
            dq[(size_t)k + n * (size_t)d] = a[0];
            dv[(size_t)k + n * (size_t)d] = a[1];
            cq[d] = a[2] + b[0];
            cv[d] = a[3] + b[1];
        }
    }
}

#endif
