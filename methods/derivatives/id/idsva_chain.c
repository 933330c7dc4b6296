/*
 * IDSVA lines 17-20 on a chain, by blocks of 4 rows (idsva_chain.h).
 *
 * On a chain every row of column k is related: rows [0, s_k) are the
 * ancestors (lines 17-18: S_r^T t3_k, S_r^T t2_k) and rows [s_k, n) the
 * subtree (lines 19-20: t4_r^T Psi_dot_k + t1_r^T Psi_ddot_k and
 * t4_r^T S_k + t1_r^T (S_dot_k + Psi_dot_k)), s_k the first dof of k's body.
 * Both halves are products with an inner dimension of 6 or 12, so they are
 * written as a small matrix product: a block of 4 rows keeps its t1, t4 and
 * S (18 x 4 numbers) in registers and sweeps the columns, each column
 * costing its 24 (or 12) constants and one 4-wide store per output.  Column
 * by column instead, each column paid the set-up and the remainder of a
 * short vector loop, which at N = 50 cost as much as the arithmetic.
 */
#include "derivatives/id/idsva_chain.h"
#include "derivatives/vec.h"

/* 4 rows as one vector (vec.h); plain C arrays were only partly vectorised. */
enum { RB = 4 };

static inline void block_subtree(const rbd_v4 t4[6], const rbd_v4 t1[6], const double *S, const double *Pd,
                                 const double *Pdd, const double *SP, double *restrict cq, double *restrict cv)
{
    /* four independent sums of 6, not two chains of 12 dependent FMAs */
    rbd_v4 q = t4[0] * Pd[0], v = t4[0] * S[0], q1 = t1[0] * Pdd[0], v1 = t1[0] * SP[0];
    for (int c = 1; c < 6; c++) {
        q += t4[c] * Pd[c];
        v += t4[c] * S[c];
        q1 += t1[c] * Pdd[c];
        v1 += t1[c] * SP[c];
    }
    q += q1;
    v += v1;
    rbd_store4(cq, &q);
    rbd_store4(cv, &v);
}

static inline void block_ancestor(const rbd_v4 s[6], const double *t3, const double *t2, double *restrict cq,
                                  double *restrict cv)
{
    rbd_v4 q = s[0] * t3[0], v = s[0] * t2[0];
    for (int c = 1; c < 6; c++) { q += s[c] * t3[c]; v += s[c] * t2[c]; }
    rbd_store4(cq, &q);
    rbd_store4(cv, &v);
}

/* One entry (r, k), either half. */
static inline void entry(const idsva_chain_in *in, int r, int k, double *dq, double *dv)
{
    const size_t n = (size_t)in->n, at = (size_t)r + n * (size_t)k;
    const double *T1 = in->t1_rows, *T4 = in->t4_rows, *Sr = in->S_rows;
    double q = 0, v = 0;
    if (r >= in->col_start[k]) {
        for (int c = 0; c < 6; c++) {
            q += T4[n * c + r] * in->Pd[k][c] + T1[n * c + r] * in->Pdd[k][c];
            v += T4[n * c + r] * in->S[k][c] + T1[n * c + r] * in->SP[k][c];
        }
    } else {
        for (int c = 0; c < 6; c++) {
            q += Sr[n * c + r] * in->t[k].t3[c];
            v += Sr[n * c + r] * in->t[k].t2[c];
        }
    }
    dq[at] = q;
    dv[at] = v;
}

void idsva_chain_products(const idsva_chain_in *in, double *restrict dq, double *restrict dv)
{
    const int n = in->n, nfull = n - n % RB;
    const size_t ns = (size_t)n;
    const double *T1 = in->t1_rows, *T4 = in->t4_rows, *Sr = in->S_rows;
    for (int r0 = 0; r0 < nfull; r0 += RB) {
        rbd_v4 t1[6], t4[6], s[6];
        for (int c = 0; c < 6; c++) {
            rbd_load4(&t1[c], T1 + ns * c + (size_t)r0);
            rbd_load4(&t4[c], T4 + ns * c + (size_t)r0);
            rbd_load4(&s[c], Sr + ns * c + (size_t)r0);
        }
        /* col_start rises with k: whole-subtree columns, then the few whose
         * body starts inside the block, then whole-ancestor columns */
        int k = 0;
        for (; k < n && in->col_start[k] <= r0; k++)
            block_subtree(t4, t1, in->S[k], in->Pd[k], in->Pdd[k],
                          in->SP[k], dq + ns * (size_t)k + (size_t)r0, dv + ns * (size_t)k + (size_t)r0);
        for (; k < n && in->col_start[k] < r0 + RB; k++)
            for (int l = 0; l < RB; l++) entry(in, r0 + l, k, dq, dv);
        for (; k < n; k++)
            block_ancestor(s, in->t[k].t3, in->t[k].t2, dq + ns * (size_t)k + (size_t)r0,
                           dv + ns * (size_t)k + (size_t)r0);
    }
    for (int r = nfull; r < n; r++)
        for (int k = 0; k < n; k++) entry(in, r, k, dq, dv);
}
