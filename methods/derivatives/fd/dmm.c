/*
 * DMM: the dense matrix multiplication -M^-1 dID/du of eq. (5), three ways.
 *  - rbd_dmm_blas_cols: OpenBLAS cblas_dgemm (blocked, vectorised kernels),
 *    one call for both dID/dq and dID/dqd when the outputs are adjacent;
 *  - rbd_dmm_loop: what a straightforward C/C++ implementation writes: for
 *    each output column, axpys of M^-1's columns (contiguous, so the inner
 *    loop vectorises), four at a time to reuse each load of the output;
 *  - rbd_dmm_sparse: the same loop over only the rows of dID/du's column that
 *    can be non-zero.  dID_k/du_j vanishes unless k's body is an ancestor or
 *    a descendant of j's (IDSVA sec. III), so for a branched tree whole runs
 *    of rows are skipped; M^-1 itself is dense.  Up to 64 dofs the output
 *    column stays in registers through all its rows (sparse_reg).
 */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#include "derivatives/fd/fd_compose.h"
#include "derivatives/vec.h"
#include "model/hot.h"

/* up to 8 RBD_DMM_REG_BLOCKS dofs, rbd_dmm_sparse keeps an output column in
 * registers; RBD_DMM_PAD bounds its padded copy of M^-1's last columns (at
 * most 8 of them, of up to 64 entries) */
enum { RBD_DMM_REG_BLOCKS = 8, RBD_DMM_PAD = 8 * 64 };

void rbd_dmm_blas_cols(int n, int k, const double *Minv, const double *G, double *X)
{
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, k, n, -1.0, Minv, n, G, n, 0.0, X, n);
}


/* x -= sum over k in [k0, k1) of A(:, k) g[k], A column-major with ld n. */
RBD_HOT static void axpy_cols(int n, const double *restrict A, int k0, int k1, const double *restrict g,
                      double *restrict x)
{
    const size_t ld = (size_t)n;
    int k = k0;
    for (; k + 4 <= k1; k += 4) {
        const double *restrict a0 = A + ld * k, *restrict a1 = a0 + ld, *restrict a2 = a1 + ld,
                     *restrict a3 = a2 + ld;
        const double g0 = g[k], g1 = g[k + 1], g2 = g[k + 2], g3 = g[k + 3];
        for (int i = 0; i < n; i++) x[i] -= a0[i] * g0 + a1[i] * g1 + a2[i] * g2 + a3[i] * g3;
    }
    for (; k < k1; k++) {
        const double *restrict a0 = A + ld * k;
        const double g0 = g[k];
        for (int i = 0; i < n; i++) x[i] -= a0[i] * g0;
    }
}

void rbd_dmm_loop(int n, const double *Minv, const double *G, double *X)
{
    const size_t ld = (size_t)n;
    for (int j = 0; j < n; j++) {
        double *x = X + ld * j;
        memset(x, 0, sizeof(double) * ld);
        axpy_cols(n, Minv, 0, n, G + ld * j, x);
    }
}

void rbd_dmm_rows_fini(rbd_dmm_rows *r)
{
    free(r->off);
    free(r->run);
    r->off = r->run = NULL;
}

int rbd_dmm_rows_init(const rbd_model *m, rbd_dmm_rows *r)
{
    r->off = malloc(sizeof(int) * ((size_t)m->nb + 1));
    /* at most one run per ancestor plus the subtree's */
    r->run = malloc(sizeof(int) * 2 * (size_t)m->nb * ((size_t)m->depth_max + 1));
    int *path = malloc(sizeof(int) * ((size_t)m->depth_max + 1));
    if (!r->off || !r->run || !path) {
        free(path);
        rbd_dmm_rows_fini(r);
        return rbd_fail(RBD_ENOMEM, "dmm: out of memory for the row runs of %d bodies", m->nb);
    }
    int nr = 0;
    for (int b = 0; b < m->nb; b++) {
        r->off[b] = nr;
        int n = 0;
        for (int a = m->parent[b]; a >= 0; a = m->parent[a]) path[n++] = a;
        int lo = -1, hi = -1;               /* the open run, merged while contiguous */
        for (int t = n - 1; t >= -1; t--) {
            int a0, a1;
            if (t >= 0) { a0 = m->idx_v[path[t]]; a1 = a0 + m->nv_of[path[t]]; }
            else {                          /* b's own dofs and its subtree */
                a0 = m->idx_v[b];
                a1 = m->subtree_end_v[b];
            }
            if (a0 == hi) { hi = a1; continue; }
            if (lo >= 0) { r->run[2 * nr] = lo; r->run[2 * nr + 1] = hi; nr++; }
            lo = a0; hi = a1;
        }
        r->run[2 * nr] = lo; r->run[2 * nr + 1] = hi; nr++;
    }
    r->off[m->nb] = nr;
    free(path);
    return RBD_OK;
}

/* The last block of an output column: rows 8 (NB - 1) .. nv - 1. */
static inline void store_tail(double *xl, int rows, const rbd_v8 *l)
{
    switch (rows) {             /* fixed sizes: moves, not a loop or a memcpy call */
    case 8: rbd_store8(xl, l); break;
    case 7: xl[6] = (*l)[6]; /* fall through */
    case 6: xl[5] = (*l)[5]; /* fall through */
    case 5: xl[4] = (*l)[4]; /* fall through */
    case 4: xl[3] = (*l)[3]; /* fall through */
    case 3: xl[2] = (*l)[2]; /* fall through */
    case 2: xl[1] = (*l)[1]; /* fall through */
    default: xl[0] = (*l)[0]; break;
    }
}

/* Small nv: column j of both products in NB 8-vectors each (registers)
 * while the rows k of dID/du's column j run: dID/dq and dID/dqd have the
 * same possibly non-zero rows, so each block of M^-1(:, k) is loaded once
 * for two FMAs, and the two sums are independent chains.  No memset, no
 * loop set-up per run.  A block of M^-1's column k reaches past row nv into
 * column k + 1 (those lanes are dropped); the last columns, whose blocks
 * would reach past M^-1's end, come from a padded copy. */
static inline __attribute__((always_inline)) void sparse_reg(const int NB, const rbd_model *m, const rbd_dmm_rows *r,
                                                             const double *Minv, const double *Gq, const double *Gv,
                                                             double *Xq, double *Xv)
{
    const int n = m->nv, w = 8 * NB;
    const size_t ld = (size_t)n;
    int k0 = n;                                 /* columns [k0, n) are copied */
    while (k0 > 0 && n * (k0 - 1) + w > n * n) k0--;
    double pad[RBD_DMM_PAD];
    for (int k = k0; k < n; k++)
        for (int i = 0; i < w; i++) pad[w * (k - k0) + i] = i < n ? Minv[ld * (size_t)k + (size_t)i] : 0;
    for (int j = 0; j < n; j++) {
        const int b = m->dof_body[j];
        const double *gq = Gq + ld * j, *gv = Gv + ld * j;
        rbd_v8 aq[RBD_DMM_REG_BLOCKS], av[RBD_DMM_REG_BLOCKS];
        for (int q = 0; q < NB; q++) aq[q] = av[q] = (rbd_v8){ 0 };
        for (int t = r->off[b]; t < r->off[b + 1]; t++)
            for (int k = r->run[2 * t]; k < r->run[2 * t + 1]; k++) {
                const double *a = k < k0 ? Minv + ld * k : pad + w * (k - k0);
                const double x = gq[k], y = gv[k];
                for (int q = 0; q < NB; q++) {
                    rbd_v8 c;
                    rbd_load8(&c, a + 8 * q);
                    aq[q] -= c * x;
                    av[q] -= c * y;
                }
            }
        double *xq = Xq + ld * j, *xv = Xv + ld * j;
        for (int q = 0; q < NB - 1; q++) {
            rbd_store8(xq + 8 * q, &aq[q]);
            rbd_store8(xv + 8 * q, &av[q]);
        }
        store_tail(xq + 8 * (NB - 1), n - 8 * (NB - 1), &aq[NB - 1]);
        store_tail(xv + 8 * (NB - 1), n - 8 * (NB - 1), &av[NB - 1]);
    }
}

/* The general case: one product, an axpy per run of rows. */
static void sparse_cols(const rbd_model *m, const rbd_dmm_rows *r, const double *Minv, const double *G, double *X)
{
    const int n = m->nv;
    const size_t ld = (size_t)n;
    for (int j = 0; j < n; j++) {
        const int b = m->dof_body[j];
        double *x = X + ld * j;
        memset(x, 0, sizeof(double) * ld);
        for (int t = r->off[b]; t < r->off[b + 1]; t++) axpy_cols(n, Minv, r->run[2 * t], r->run[2 * t + 1], G + ld * j, x);
    }
}

void rbd_dmm_sparse(const rbd_model *m, const rbd_dmm_rows *r, const double *Minv, const double *Gq, const double *Gv,
                    double *Xq, double *Xv)
{
    switch ((m->nv + 7) / 8) {  /* constant block counts, so the sums live in registers */
    case 1: sparse_reg(1, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 2: sparse_reg(2, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 3: sparse_reg(3, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 4: sparse_reg(4, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 5: sparse_reg(5, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 6: sparse_reg(6, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 7: sparse_reg(7, m, r, Minv, Gq, Gv, Xq, Xv); return;
    case 8: sparse_reg(8, m, r, Minv, Gq, Gv, Xq, Xv); return;
    default: break;
    }
    sparse_cols(m, r, Minv, Gq, Xq);
    sparse_cols(m, r, Minv, Gv, Xv);
}
