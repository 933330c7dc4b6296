/*
 * -M^-1 dID/du from IDSVA's factors, without forming dID/du.  Lines 17-20
 * of Algorithm 1 (Singh, Russell & Wensing 2022) give every entry as a
 * product of length 6 or 12:
 *   dID/dq(k, d) = S_k^T t3_d                          k's body a strict ancestor of d's,
 *   dID/dq(d, k) = t4_d^T Psi_dot_k + t1_d^T Psi_ddot_k  d's body in the subtree of k's,
 * and dID/dqd the same with t2_d for t3_d, S_k for Psi_dot_k and
 * S_dot_k + Psi_dot_k for Psi_ddot_k.  So column c of -M^-1 dID/dq, b the
 * body of dof c, is
 *   -(W_lambda(b) t3_c + V4_b Psi_dot_c + V1_b Psi_ddot_c),
 *   W_b        = sum over the dofs k of b and its ancestors of M^-1(:, k) S_k^T,
 *   V4_b, V1_b = sum over the dofs d of b's subtree of M^-1(:, d) t4_d^T, M^-1(:, d) t1_d^T,
 * all nv x 6.  V comes from a backward sweep (subtree sums: a body adds its
 * own terms to its children's), W from a forward sweep (path sums), each in
 * the slots of rbd_data.aslot: a last child continues its parent's slot.
 * Per column 54 nv FMAs, O(nv^2) in all, where DMM is 2 nv^3 after IDSVA's
 * own products, and the loops run down whole columns of M^-1.
 */
#include <stdlib.h>
#include "model/arena.h"
#include "derivatives/fd/fd_compose.h"
#include "derivatives/id/id_ground.h"
#include "derivatives/vec.h"

struct rbd_fdf {
    int *slot;                  /* [nb] */
    unsigned char *leaf, *last; /* [nb] no children; its parent's last child */
    double *buf;                /* [nslot][12][nv]: V4, V1 (backward), W (forward) */
};

void rbd_fdf_free(rbd_fdf *f)
{
    free(f);            /* the workspace heads its arena (arena.h) */
}

static void carve(rbd_fdf *f, rbd_arena *a, const rbd_model *m, int nslot)
{
    const size_t nb = (size_t)m->nb;
    RBD_ARENA_TAKE(a, f->slot, nb); RBD_ARENA_TAKE(a, f->leaf, nb); RBD_ARENA_TAKE(a, f->last, nb);
    RBD_ARENA_TAKE(a, f->buf, 12 * (size_t)nslot * (size_t)m->nv);
}

rbd_fdf *rbd_fdf_new(const rbd_model *m)
{
    int nslot = 1;
    for (int i = 0; i < m->nb; i++) {
        const int s = rbd_branch_slot(m, i) + 1;
        if (s > nslot) nslot = s;
    }
    rbd_arena a = { 0 };
    rbd_fdf sizing, *f;
    carve(&sizing, &a, m, nslot);
    if (!(f = rbd_arena_reserve(&a, sizeof *f, "the factored product (fdsva)"))) return NULL;
    carve(f, &a, m, nslot);
    for (int i = 0; i < m->nb; i++) {
        const int p = m->parent[i];
        f->leaf[i] = m->subtree_end[i] == i + 1;
        f->last[i] = p >= 0 && m->subtree_end[i] == m->subtree_end[p];
        f->slot[i] = p < 0 ? 0 : f->slot[p] + !f->last[i];
    }
    return f;
}

#define V rbd_v4
#define FDF(name) name##_4
#define FDF_LOAD(x, p) rbd_load4(&(x), (p))
#define FDF_STORE(p, x) rbd_store4((p), &(x))
#define FDF_SPLAT(s) ((rbd_v4){ s, s, s, s })
#include "derivatives/fd/fd_factored_tpl.h"
#define V double
#define FDF(name) name##_1
#define FDF_LOAD(x, p) ((x) = *(p))
#define FDF_STORE(p, x) (*(p) = (x))
#define FDF_SPLAT(s) (s)
#include "derivatives/fd/fd_factored_tpl.h"
#include "model/hot.h"

/* The sweeps over all n rows: 4-row blocks, then the remainder. */
static inline void subtree_sums(int n, int set, const double *mi, const double *t4, const double *t1, const double *Pd,
                                const double *Pdd, const double *S, const double *SdPd, double *restrict Vs,
                                double *restrict xq, double *restrict xv)
{
    int r = 0;
    for (; r + 4 <= n; r += 4) subtree_sums_4(n, r, set, mi, t4, t1, Pd, Pdd, S, SdPd, Vs, xq, xv);
    for (; r < n; r++) subtree_sums_1(n, r, set, mi, t4, t1, Pd, Pdd, S, SdPd, Vs, xq, xv);
}

static inline void path_sums(int n, int cols, const double *mi, const double *S, const double *t3, const double *t2,
                             const double *Wp, double *W, double *restrict xq, double *restrict xv)
{
    int r = 0;
    for (; r + 4 <= n; r += 4) path_sums_4(n, r, cols, mi, S, t3, t2, Wp, W, xq, xv);
    for (; r < n; r++) path_sums_1(n, r, cols, mi, S, t3, t2, Wp, W, xq, xv);
}

RBD_HOT void rbd_fdf_solve(const rbd_model *m, rbd_fdf *f, const double *Minv, const rbd_idg *g, const rbd_idg_tv *R,
                   double *Xq, double *Xv)
{
    const int n = m->nv;
    const size_t ld = (size_t)n, blk = 12 * ld;
    static const double zero[6] = { 0 };
    /* backward: V of each body, and the V parts of its columns */
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i], p = m->parent[i];
        double *Vs = f->buf + blk * (size_t)f->slot[i];
        for (int d = j0; d < j1; d++) {
            const rbd_idg_tv *t = &R[d];
            if (j1 == j0 + 1) {                 /* one dof: the update and the column in one sweep */
                subtree_sums(n, f->leaf[i], Minv + ld * d, t->t4, t->t1, g->Pd[d], g->Pdd[d], g->S[d], g->SdPd[d],
                             Vs, Xq + ld * d, Xv + ld * d);
                continue;
            }
            /* several dofs: all updates first (zero weights give no column), then the columns */
            subtree_sums(n, f->leaf[i] && d == j0, Minv + ld * d, t->t4, t->t1, zero, zero, zero, zero, Vs,
                         Xq + ld * d, Xv + ld * d);
        }
        if (j1 > j0 + 1)
            for (int c = j0; c < j1; c++)
                subtree_sums(n, 0, Minv + ld * c, zero, zero, g->Pd[c], g->Pdd[c], g->S[c], g->SdPd[c], Vs,
                             Xq + ld * c, Xv + ld * c);
        if (p >= 0 && !f->last[i]) {             /* into the parent's slot, which its last child began */
            double *restrict Vp = f->buf + blk * (size_t)f->slot[p];
            for (size_t e = 0; e < blk; e++) Vp[e] += Vs[e];
        }
    }
    /* forward: the W parts of the columns, and W of each body with children */
    for (int i = 0; i < m->nb; i++) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i], p = m->parent[i];
        const double *Wp = p >= 0 ? f->buf + blk * (size_t)f->slot[p] : NULL;
        double *W = f->leaf[i] ? NULL : f->buf + blk * (size_t)f->slot[i];
        if (j1 == j0 + 1) {
            if (Wp || W)
                path_sums(n, Wp != NULL, Minv + ld * j0, g->S[j0], R[j0].t3, R[j0].t2, Wp, W, Xq + ld * j0,
                          Xv + ld * j0);
            continue;
        }
        if (Wp)
            for (int c = j0; c < j1; c++) path_sums(n, 1, NULL, zero, R[c].t3, R[c].t2, Wp, NULL, Xq + ld * c, Xv + ld * c);
        if (W)
            for (int k = j0; k < j1; k++) {
                path_sums(n, 0, Minv + ld * k, g->S[k], zero, zero, Wp, W, NULL, NULL);
                Wp = W;
            }
    }
}
