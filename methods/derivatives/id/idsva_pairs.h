/*
 * IDSVA Alg. 1 lines 17-20 at one body on a branched tree, one related
 * (ancestor, descendant) pair per 4-vector; idsva.c uses it on every tree
 * but a long chain.
 *
 * Entry (k, d) of lines 17-18 and entry (d, k) of lines 19-20 need the
 * same numbers, k's constants and d's t1..t4, so the pair is computed
 * together (the record below): 6 FMAs on 4-vectors and 6 on 2-vectors.  On
 * a branched tree the subtree runs are a few entries long; vectorising
 * along them (the row and column as Algorithm 1 writes them) paid more in
 * set-up and remainders than it saved, while the pair vector costs the same
 * at any run length (methods/README.md).
 *
 * Inline (a header, not its own translation unit): idsva.c calls it once
 * per body, and passing its 11 arguments through a call cost measurable
 * time on branched trees (methods/README.md, "Figures that were code
 * comments").
 */
#ifndef RBD_IDSVA_PAIRS_H
#define RBD_IDSVA_PAIRS_H

#include <stddef.h>
#include "derivatives/id/id_ground.h"
#include "derivatives/vec.h"

/*
 * The pair record of dof d.  At body i, for a dof k of i and a dof d of its
 * subtree, Algorithm 1 writes
 *   line 17  dq(k, d) = S_k^T t3_d            line 18  dv(k, d) = S_k^T t2_d
 *   line 19  dq(d, k) = t4_d^T Psi_dot_k + t1_d^T Psi_ddot_k
 *   line 20  dv(d, k) = t4_d^T S_k       + t1_d^T (S_dot_k + Psi_dot_k)
 * (lines 17-18 for d in the proper subtree only).  Per spatial component c,
 * d's four numbers (t3, t2, t4, t4)_c meet k's (S, S, Psi_dot, S)_c in one
 * 4-vector FMA, and d's (t1, t1)_c meet k's (Psi_ddot, S_dot + Psi_dot)_c
 * in one 2-vector FMA; the record holds d's side in that order, written
 * once when d's t-vectors are (lines 13-16), read once per ancestor dof k.
 */
typedef struct {
    double t3t2t4t4[6][4];      /* lanes: dq(k, d), dv(k, d), dq(d, k), dv(d, k) */
    double t1t1[6][2];          /* lanes: the t1 terms of dq(d, k), dv(d, k)    */
} idsva_pair_rec;

/* The pair record of one dof from its t1..t4 (lines 13-16). */
static inline void idsva_pairs_record(idsva_pair_rec *restrict rec, const rbd_idg_tv *t)
{
    for (int c = 0; c < 6; c++) {
        rec->t3t2t4t4[c][0] = t->t3[c];
        rec->t3t2t4t4[c][1] = t->t2[c];
        rec->t3t2t4t4[c][2] = t->t4[c];
        rec->t3t2t4t4[c][3] = t->t4[c];
        rec->t1t1[c][0] = t->t1[c];
        rec->t1t1[c][1] = t->t1[c];
    }
}

/* The pair (k, d): K, L hold k's constants, rec is d's record; lanes of
 * a: dq(k, d), dv(k, d), then the 6-term parts of dq(d, k), dv(d, k), whose
 * t1 parts are b. */
static inline void idsva_pair(const rbd_v4 K[6], const rbd_v2 L[6], const idsva_pair_rec *restrict rec, rbd_v4 *a,
                              rbd_v2 *b)
{
    rbd_v4 x;
    rbd_v2 y;
    rbd_load4(&x, rec->t3t2t4t4[0]);
    rbd_load2(&y, rec->t1t1[0]);
    *a = K[0] * x;
    *b = L[0] * y;
    for (int c = 1; c < 6; c++) {
        rbd_load4(&x, rec->t3t2t4t4[c]);
        rbd_load2(&y, rec->t1t1[c]);
        *a += K[c] * x;
        *b += L[c] * y;
    }
}

/* Lines 17-20 for the dofs [j0, j1) of one body whose subtree is the dofs
 * [j0, e), all records of which are written: row k over the proper subtree
 * [j1, e) and column k over the subtree [j0, e), for each k in [j0, j1).
 * rec: [n] pair records; S, Pd, Pdd, SP: [n][6] per dof (S, Psi_dot,
 * Psi_ddot, S_dot + Psi_dot); dq, dv: n x n, column-major. */
static inline void idsva_pairs_body(const idsva_pair_rec *restrict rec, int j0, int j1, int e, const double (*S)[6],
                                    const double (*Pd)[6], const double (*Pdd)[6], const double (*SP)[6], size_t n,
                                    double *restrict dq, double *restrict dv)
{
    if (e == j0 + 1) {          /* a one-dof leaf: its diagonal entry alone, no vectors to set up */
        const idsva_pair_rec *r = &rec[j0];
        double q = 0, v = 0, q1 = 0, v1 = 0;
        for (int c = 0; c < 6; c++) {
            q += r->t3t2t4t4[c][2] * Pd[j0][c];         /* t4_c */
            v += r->t3t2t4t4[c][2] * S[j0][c];
            q1 += r->t1t1[c][0] * Pdd[j0][c];
            v1 += r->t1t1[c][0] * SP[j0][c];
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
            idsva_pair(K, L, &rec[d], &a, &b);
            cq[d] = a[2] + b[0];
            cv[d] = a[3] + b[1];
        }
        for (int d = j1; d < e; d++) {
            rbd_v4 a;
            rbd_v2 b;
            idsva_pair(K, L, &rec[d], &a, &b);
            dq[(size_t)k + n * (size_t)d] = a[0];
            dv[(size_t)k + n * (size_t)d] = a[1];
            cq[d] = a[2] + b[0];
            cv[d] = a[3] + b[1];
        }
    }
}

#endif
