/*
 * DMM: the dense matrix multiplication -M^-1 dID/du of eq. (5), three ways.
 *  - rbd_dmm_blas: OpenBLAS cblas_dgemm (blocked, vectorised kernels);
 *  - rbd_dmm_loop: what a straightforward C/C++ implementation writes: for
 *    each output column, axpys of M^-1's columns (contiguous, so the inner
 *    loop vectorises), four at a time to reuse each load of the output;
 *  - rbd_dmm_sparse: the same loop over only the rows of dID/du's column that
 *    can be non-zero.  dID_k/du_j vanishes unless k's body is an ancestor or
 *    a descendant of j's (IDSVA sec. III), so for a branched tree whole runs
 *    of rows are skipped; M^-1 itself is dense.
 */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#include "fd_compose.h"

void rbd_dmm_blas(int n, const double *Minv, const double *G, double *X)
{
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, -1.0, Minv, n, G, n, 0.0, X, n);
}

/* x -= sum over k in [k0, k1) of A(:, k) g[k], A column-major with ld n. */
static void axpy_cols(int n, const double *restrict A, int k0, int k1, const double *restrict g,
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
                a1 = m->subtree_end[b] < m->nb ? m->idx_v[m->subtree_end[b]] : m->nv;
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

void rbd_dmm_sparse(const rbd_model *m, const rbd_dmm_rows *r, const double *Minv, const double *G, double *X)
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
