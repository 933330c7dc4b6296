/*
 * AZA: ABA(q, 0, b, 0) of eq. (34) of Singh, Russell & Wensing (2022) on the
 * columns b of dID/du, giving -M^-1 dID/du = ABA(q, 0, -b, 0).  With qd = 0
 * and no gravity the velocity-product terms (c_i, the bias of pA_i) vanish,
 * and IA_i, U_i, D_i^-1 and Xup_i are those of ABA(q, qd, tau) (they depend
 * on q only), so per column only the torque passes of RBDA Table 7.1 remain:
 *   backward:  u_i = b_i - S_i^T pA_i,  pA_p += Xup_i^T (pA_i + U_i D_i^-1 u_i)
 *   forward:   a'_i = Xup_i a_p,  qdd_i = D_i^-1 (u_i - U_i^T a'_i),
 *              a_i = a'_i + S_i qdd_i.
 * Columns go AZA_K at a time: every 6-vector becomes a 6 x AZA_K block whose
 * rows are contiguous, so each step is a loop over the block's columns that
 * the compiler vectorises (AZA_K = 8: one AVX-512 register or two AVX2
 * ones per row; 4 and 16 timed alike, methods/README.md, "Figures that
 * were code comments").
 * Revolute joints about z take the S = e_z shortcut.
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/fd/fd_compose.h"
#include "derivatives/id/id_ground.h"
#include "derivatives/vec.h"

#ifndef AZA_K
#define AZA_K 8
#endif

typedef double blk[6][AZA_K];

struct rbd_aza {
    blk *pA, *a;                /* [nb] articulated bias forces, accelerations */
    double (*B)[AZA_K];         /* [nv] packed columns: u, then qdd in place    */
    unsigned char *fast, *leaf; /* [nb] */
    unsigned char *first;       /* [nb] the parent's last child: its pA_p is set, not added to */
    blk *inj;                   /* [nb] external forces of the block's columns (rbd_aza_solve_forces) */
    unsigned char *has_inj;     /* [nb] inj[i] holds some */
};

static void carve(rbd_aza *z, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, z->pA, nb); RBD_ARENA_TAKE(a, z->a, nb); RBD_ARENA_TAKE(a, z->B, nv);
    RBD_ARENA_TAKE(a, z->fast, nb); RBD_ARENA_TAKE(a, z->leaf, nb); RBD_ARENA_TAKE(a, z->first, nb);
    RBD_ARENA_TAKE(a, z->inj, nb); RBD_ARENA_TAKE(a, z->has_inj, nb);    /* zeroed, as the arena is */
}

rbd_aza *rbd_aza_new(const rbd_model *m)
{
    rbd_arena a = { 0 };
    rbd_aza sizing, *z;
    carve(&sizing, &a, m);
    if (!(z = rbd_arena_reserve(&a, sizeof *z, "the aza workspace"))) return NULL;
    carve(z, &a, m);
    for (int i = 0; i < m->nb; i++) {
        z->fast[i] = rbd_joint_is_rot1(m->joint[i].type) && m->joint[i].axis_id == 2;
        z->leaf[i] = m->subtree_end[i] == i + 1;
        /* bodies go leaves to root in descending order, so a parent's pA is
         * first reached from its highest-numbered child: the one whose
         * subtree ends where the parent's does */
        z->first[i] = m->parent[i] >= 0 && m->subtree_end[i] == m->subtree_end[m->parent[i]];
    }
    return z;
}

void rbd_aza_free(rbd_aza *z)
{
    free(z);            /* the workspace heads its arena (arena.h) */
}

/* acc (+)= X^T f for a block of forces: [E^T n + r x E^T f; E^T f]; add = 0
 * sets acc (the first contribution, so pA needs no zeroing per block).  The
 * transform is copied to locals first, so the compiler sees no aliasing
 * with the blocks and vectorises across the columns. */
static inline void xT_force(const sp_xform *X, const double (*restrict f)[AZA_K], double (*restrict acc)[AZA_K],
                            const int add)
{
    const double e0 = X->E[0], e1 = X->E[1], e2 = X->E[2], e3 = X->E[3], e4 = X->E[4], e5 = X->E[5],
                 e6 = X->E[6], e7 = X->E[7], e8 = X->E[8], r0 = X->r[0], r1 = X->r[1], r2 = X->r[2];
    for (int c = 0; c < AZA_K; c++) {
        const double n0 = f[0][c], n1 = f[1][c], n2 = f[2][c], f0 = f[3][c], f1 = f[4][c], f2 = f[5][c];
        const double g0 = e0 * f0 + e3 * f1 + e6 * f2;
        const double g1 = e1 * f0 + e4 * f1 + e7 * f2;
        const double g2 = e2 * f0 + e5 * f1 + e8 * f2;
        const double h0 = e0 * n0 + e3 * n1 + e6 * n2 + r1 * g2 - r2 * g1;
        const double h1 = e1 * n0 + e4 * n1 + e7 * n2 + r2 * g0 - r0 * g2;
        const double h2 = e2 * n0 + e5 * n1 + e8 * n2 + r0 * g1 - r1 * g0;
        if (add) {
            acc[0][c] += h0; acc[1][c] += h1; acc[2][c] += h2;
            acc[3][c] += g0; acc[4][c] += g1; acc[5][c] += g2;
        } else {
            acc[0][c] = h0; acc[1][c] = h1; acc[2][c] = h2;
            acc[3][c] = g0; acc[4][c] = g1; acc[5][c] = g2;
        }
    }
}

/* out = X m for a block of motions: [E w; E (v - r x w)] */
static inline void x_motion(const sp_xform *X, const double (*restrict m)[AZA_K], double (*restrict out)[AZA_K])
{
    const double e0 = X->E[0], e1 = X->E[1], e2 = X->E[2], e3 = X->E[3], e4 = X->E[4], e5 = X->E[5],
                 e6 = X->E[6], e7 = X->E[7], e8 = X->E[8], r0 = X->r[0], r1 = X->r[1], r2 = X->r[2];
    for (int c = 0; c < AZA_K; c++) {
        const double w0 = m[0][c], w1 = m[1][c], w2 = m[2][c];
        const double u0 = m[3][c] - (r1 * w2 - r2 * w1);
        const double u1 = m[4][c] - (r2 * w0 - r0 * w2);
        const double u2 = m[5][c] - (r0 * w1 - r1 * w0);
        out[0][c] = e0 * w0 + e1 * w1 + e2 * w2;
        out[1][c] = e3 * w0 + e4 * w1 + e5 * w2;
        out[2][c] = e6 * w0 + e7 * w1 + e8 * w2;
        out[3][c] = e0 * u0 + e1 * u1 + e2 * u2;
        out[4][c] = e3 * u0 + e4 * u1 + e5 * u2;
        out[5][c] = e6 * u0 + e7 * u1 + e8 * u2;
    }
}

/* The two passes on the packed block z->B (b on entry, qdd on return). */
static void aza_block(const rbd_model *m, const rbd_data *d, rbd_aza *z)
{
    const int nb = m->nb;
    double (*restrict B)[AZA_K] = z->B;
    for (int i = nb - 1; i >= 0; i--) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const double *Dinv = d->Dinv + 36 * i;
        double (*restrict pA)[AZA_K] = z->pA[i];
        if (z->leaf[i]) memset(pA, 0, sizeof(blk));   /* no child set it */
        if (z->has_inj[i]) {                            /* an external force f: pA_i -= f (RBDA Table 7.1) */
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < AZA_K; c++) pA[r][c] -= z->inj[i][r][c];
            z->has_inj[i] = 0;
        }
        blk pa;
        if (z->fast[i]) {
            const double U0 = d->U[v0][0], U1 = d->U[v0][1], U2 = d->U[v0][2], U3 = d->U[v0][3],
                         U4 = d->U[v0][4], U5 = d->U[v0][5], D = Dinv[0];
            double *u = B[v0], w[AZA_K];
            for (int c = 0; c < AZA_K; c++) w[c] = u[c] - pA[2][c];
            for (int c = 0; c < AZA_K; c++) u[c] = w[c];
            if (p < 0) continue;
            for (int c = 0; c < AZA_K; c++) w[c] *= D;
            for (int c = 0; c < AZA_K; c++) {
                pa[0][c] = pA[0][c] + U0 * w[c]; pa[1][c] = pA[1][c] + U1 * w[c]; pa[2][c] = pA[2][c] + U2 * w[c];
                pa[3][c] = pA[3][c] + U3 * w[c]; pa[4][c] = pA[4][c] + U4 * w[c]; pa[5][c] = pA[5][c] + U5 * w[c];
            }
        } else {
            const double *S = m->S + 6 * v0;
            for (int k = 0; k < n; k++)
                for (int r = 0; r < 6; r++)
                    for (int c = 0; c < AZA_K; c++) B[v0 + k][c] -= S[6 * k + r] * pA[r][c];
            if (p < 0) continue;
            double w[6][AZA_K];
            for (int k = 0; k < n; k++)
                for (int c = 0; c < AZA_K; c++) {
                    double s = 0;
                    for (int l = 0; l < n; l++) s += Dinv[n * k + l] * B[v0 + l][c];
                    w[k][c] = s;
                }
            memcpy(pa, pA, sizeof pa);
            for (int k = 0; k < n; k++)
                for (int r = 0; r < 6; r++)
                    for (int c = 0; c < AZA_K; c++) pa[r][c] += d->U[v0 + k][r] * w[k][c];
        }
        if (z->first[i]) xT_force(&d->Xup[i], (const double (*)[AZA_K])pa, z->pA[p], 0);
        else xT_force(&d->Xup[i], (const double (*)[AZA_K])pa, z->pA[p], 1);
    }
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const double *Dinv = d->Dinv + 36 * i;
        double (*restrict a)[AZA_K] = z->a[i];
        if (p >= 0) x_motion(&d->Xup[i], (const double (*)[AZA_K])z->a[p], a);
        else memset(a, 0, sizeof(blk));
        if (z->fast[i]) {
            const double U0 = d->U[v0][0], U1 = d->U[v0][1], U2 = d->U[v0][2], U3 = d->U[v0][3],
                         U4 = d->U[v0][4], U5 = d->U[v0][5], D = Dinv[0];
            double *u = B[v0], y[AZA_K];       /* y: a local, so the loops vectorise */
            for (int c = 0; c < AZA_K; c++)
                y[c] = D * (u[c] - (U0 * a[0][c] + U1 * a[1][c] + U2 * a[2][c] + U3 * a[3][c] + U4 * a[4][c] +
                                    U5 * a[5][c]));
            for (int c = 0; c < AZA_K; c++) u[c] = y[c];
            for (int c = 0; c < AZA_K; c++) a[2][c] += y[c];
        } else {
            double y[6][AZA_K];
            for (int k = 0; k < n; k++)
                for (int c = 0; c < AZA_K; c++) {
                    double s = B[v0 + k][c];
                    for (int r = 0; r < 6; r++) s -= d->U[v0 + k][r] * a[r][c];
                    y[k][c] = s;
                }
            for (int k = 0; k < n; k++)
                for (int c = 0; c < AZA_K; c++) {
                    double s = 0;
                    for (int l = 0; l < n; l++) s += Dinv[n * k + l] * y[l][c];
                    B[v0 + k][c] = s;
                }
            if (z->leaf[i]) continue;
            const double *S = m->S + 6 * v0;
            for (int k = 0; k < n; k++)
                for (int r = 0; r < 6; r++)
                    for (int c = 0; c < AZA_K; c++) a[r][c] += S[6 * k + r] * B[v0 + k][c];
        }
    }
}

void rbd_aza_solve_forces(const rbd_model *m, const rbd_data *d, rbd_aza *z, const double *G, const double (*F)[6],
                          double *X)
{
    const int nv = m->nv;
    const size_t ld = (size_t)nv;
    for (int c0 = 0; c0 < nv; c0 += AZA_K) {
        const int kc = nv - c0 < AZA_K ? nv - c0 : AZA_K;
        for (int j = 0; j < nv; j++)
            for (int c = 0; c < AZA_K; c++) z->B[j][c] = 0;
        for (int c = 0; c < kc; c++) {
            const int col = c0 + c, b = m->dof_body[col], p = m->parent[b];
            const int e = m->subtree_end_v[b];
            const double *g = G + ld * (size_t)col;
            for (int j = m->idx_v[b]; j < e; j++) z->B[j][c] = g[j];      /* b's subtree rows */
            if (p < 0) continue;
            if (!z->has_inj[p]) { memset(z->inj[p], 0, sizeof(blk)); z->has_inj[p] = 1; }
            for (int r = 0; r < 6; r++) z->inj[p][r][c] = F[col][r];
        }
        aza_block(m, d, z);
        double *x = X + ld * (size_t)c0;
        for (int c = 0; c < kc; c++)
            for (int j = 0; j < nv; j++) x[j + ld * (size_t)c] = -z->B[j][c];
    }
}

void rbd_aza_solve_tvecs(const rbd_model *m, const rbd_data *d, rbd_aza *z, const rbd_idg *g,
                         const rbd_idg_tv *R, double *Xq, double *Xv)
{
    const int nv = m->nv;
    const size_t ld = (size_t)nv;
    for (int c0 = 0; c0 < 2 * nv; c0 += AZA_K) {     /* columns of dID/dq, then of dID/dqd */
        const int kc = 2 * nv - c0 < AZA_K ? 2 * nv - c0 : AZA_K;
        for (int j = 0; j < nv; j++)
            for (int c = 0; c < AZA_K; c++) z->B[j][c] = 0;
        for (int c = 0; c < kc; c++) {
            const int v = c0 + c >= nv, col = c0 + c - (v ? nv : 0), b = m->dof_body[col], p = m->parent[b];
            const int e = m->subtree_end_v[b];
            /* subtree rows: t4_j^T Psi_dot_c + t1_j^T Psi_ddot_c, or t4_j^T S_c + t1_j^T (S_dot + Psi_dot)_c */
            const double *a = v ? g->S[col] : g->Pd[col], *bb = v ? g->SdPd[col] : g->Pdd[col];
            for (int j = m->idx_v[b]; j < e; j++) z->B[j][c] = rbd_dot6(R[j].t4, a) + rbd_dot6(R[j].t1, bb);
            if (p < 0) continue;
            /* ancestor rows S_k^T t3_c (S_k^T t2_c): t as a force on p, in p's frame */
            double f[6];
            sp_xform_force(&g->X0[p], v ? R[col].t2 : R[col].t3, f);
            if (!z->has_inj[p]) { memset(z->inj[p], 0, sizeof(blk)); z->has_inj[p] = 1; }
            for (int r = 0; r < 6; r++) z->inj[p][r][c] = f[r];
        }
        aza_block(m, d, z);
        for (int c = 0; c < kc; c++) {
            const int v = c0 + c >= nv, col = c0 + c - (v ? nv : 0);
            double *x = (v ? Xv : Xq) + ld * (size_t)col;
            for (int j = 0; j < nv; j++) x[j] = -z->B[j][c];
        }
    }
}

void rbd_aza_solve(const rbd_model *m, const rbd_data *d, rbd_aza *z, const double *G, double *X)
{
    const int nv = m->nv;
    const size_t ld = (size_t)nv;
    for (int c0 = 0; c0 < nv; c0 += AZA_K) {
        const int kc = nv - c0 < AZA_K ? nv - c0 : AZA_K;
        const double *g = G + ld * (size_t)c0;
        if (kc == AZA_K) {                          /* pack; fixed trip count: unrolled */
            for (int j = 0; j < nv; j++)
                for (int c = 0; c < AZA_K; c++) z->B[j][c] = g[j + ld * (size_t)c];
        } else {                                    /* a short last block is padded with zeros */
            for (int j = 0; j < nv; j++) {
                int c = 0;
                for (; c < kc; c++) z->B[j][c] = g[j + ld * (size_t)c];
                for (; c < AZA_K; c++) z->B[j][c] = 0;
            }
        }
        aza_block(m, d, z);
        double *x = X + ld * (size_t)c0;
        if (kc == AZA_K) {
            for (int j = 0; j < nv; j++)
                for (int c = 0; c < AZA_K; c++) x[j + ld * (size_t)c] = -z->B[j][c];
        } else {
            for (int c = 0; c < kc; c++)
                for (int j = 0; j < nv; j++) x[j + ld * (size_t)c] = -z->B[j][c];
        }
    }
}
