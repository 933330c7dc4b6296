/*
 * IDSVA: Algorithm 1 of Singh, Russell & Wensing (2022) in ground
 * coordinates.  The forward pass (lines 1-11) is id_ground.c; here is the
 * backward pass.  With the depth-first numbering nu(i) is the contiguous dof
 * range [j0, e), and lines 17-20 are products over it:
 *   line 17-18  row j, columns k of the proper subtree:  S_j^T t3_k, S_j^T t2_k
 *   line 19-20  column j, rows k of the subtree:          t4_k^T Psi_dot_j + t1_k^T Psi_ddot_j,
 *                                                         t4_k^T S_j + t1_k^T (S_dot_j + Psi_dot_j)
 * The backward sweep over bodies does lines 13-16 and 21-23, keeping t1..t4
 * of every dof as a 24-number record.  Lines 17-20 are written column by
 * column: a column's ancestor rows are line 17-18 entries (S_r^T times the
 * column's own t3, t2), its subtree rows line 19-20 (t4_r, t1_r times the
 * column's constants), every other row a structural zero.  A body's columns
 * can be written as soon as the sweep has passed its subtree.  Two plans,
 * chosen at init by the size and the share of related (ancestor/descendant)
 * entries:
 *  - dense (chain-like and >= 12 dofs, or a chain proper of >= 7 dofs):
 *    t1, t4 and S are also kept as rows of length nv, so both products
 *    vectorise across rows; after the sweep each column is streamed once,
 *    top to bottom, zeros included: no entry written twice, none strided.
 *    On a chain proper (every body the next one's parent) every entry is
 *    related, and the products run as blocks of 4 rows against all
 *    columns instead (idsva_chain.c);
 *  - sparse (branched or small): both matrices are cleared at once, then
 *    the sweep writes only the related entries of each body's columns from
 *    the records while they are hot: the ancestor rows by walking up the
 *    tree, the subtree rows as one run (short runs: no gain from
 *    vectorising, one memset beats many small ones).
 *
 * With rbd_options.zeros_preset the structural zeros are not written at
 * all (no clearing in the sparse plan, no zero runs in the dense one).
 *
 * Multi-dof joints: the diagonal block dtau_i/dq_i comes from line 19 (the
 * j <= i case of eq. 30, no f^C term); line 15's f^C xbar* S_i term enters the
 * rows of the ancestors through line 17.
 */
#include <stdlib.h>
#include <string.h>
#include "id_ground.h"
#include "idsva_chain.h"
#include "method.h"

typedef struct {
    const rbd_model *m;
    rbd_idg g;
    double (*R)[24];    /* [nv] t1, t2, t3, t4 of each dof (lines 13-16) */
    double *T;          /* dense plan: 18 rows of length nv: t1 (0-5), t4 (6-11), S (12-17) */
    int *end_v;         /* [nv] first dof after the subtree of the dof's body */
    /* rows [0, idx_v[b]) of a column of body b, as runs: ancestor rows (lines
     * 17-18) and the rows between them (structural zeros): run r of body b is
     * rows [run[3r], run[3r+1]), ancestors if run[3r+2] */
    int *run, *run_off;  /* run_off[nb + 1] */
    int zero_first;     /* mostly structural zeros: clear both matrices at once, skip the zero runs */
    int zeros_preset;   /* rbd_options.zeros_preset: the structural zeros are left as they are */
    int *col_start;     /* chain (dense plan, every body the next one's parent): [nv] first dof of the
                         * column's body, for the blocked products of idsva_chain.c; else NULL */
} idsva_ws;

static void idsva_fini(void *p)
{
    idsva_ws *w = p;
    if (!w) return;
    rbd_idg_fini(&w->g);
    free(w->R); free(w->T); free(w->end_v); free(w->col_start); free(w->run); free(w->run_off);
    free(w);
}

extern const rbd_method rbd_method_idsva;

static int idsva_init(const rbd_model *m, const rbd_options *o, void **out)
{
    if (!m || !out) return rbd_fail(RBD_EINVAL, "idsva: null model or workspace pointer");
    *out = NULL;
    int rc = rbd_method_supports(&rbd_method_idsva, m);
    if (rc) return rc;
    idsva_ws *w = calloc(1, sizeof *w);
    if (!w) return rbd_fail(RBD_ENOMEM, "idsva: out of memory");
    w->m = m;
    w->zeros_preset = o && o->zeros_preset;
    if ((rc = rbd_idg_init(m, &w->g))) { free(w); return rc; }
    w->R = malloc(sizeof *w->R * (size_t)m->nv);
    w->T = malloc(sizeof(double) * 18 * (size_t)m->nv);
    w->end_v = malloc(sizeof(int) * (size_t)m->nv);
    w->run_off = malloc(sizeof(int) * ((size_t)m->nb + 1));
    /* at most 2 depth + 1 runs per body */
    w->run = malloc(sizeof(int) * 3 * (size_t)m->nb * (2 * (size_t)m->depth_max + 1));
    int *path = malloc(sizeof(int) * ((size_t)m->depth_max + 1));
    if (!w->R || !w->T || !w->end_v || !w->run_off || !w->run || !path) {
        free(path);
        idsva_fini(w);
        return rbd_fail(RBD_ENOMEM, "idsva: out of memory");
    }
    for (int j = 0; j < m->nv; j++) {
        int b = m->dof_body[j];
        w->end_v[j] = m->subtree_end[b] < m->nb ? m->idx_v[m->subtree_end[b]] : m->nv;
    }
    int nr = 0;
    for (int b = 0; b < m->nb; b++) {
        int n = 0, row = 0;
        w->run_off[b] = nr;
        for (int a = m->parent[b]; a >= 0; a = m->parent[a]) path[n++] = a;
        for (int t = n - 1; t >= 0; t--) {              /* ancestors, root first: increasing rows */
            int a0 = m->idx_v[path[t]], a1 = a0 + m->nv_of[path[t]];
            if (a0 > row) { w->run[3 * nr] = row; w->run[3 * nr + 1] = a0; w->run[3 * nr + 2] = 0; nr++; }
            if (nr > w->run_off[b] && w->run[3 * nr - 1] && w->run[3 * nr - 2] == a0) w->run[3 * nr - 2] = a1;
            else { w->run[3 * nr] = a0; w->run[3 * nr + 1] = a1; w->run[3 * nr + 2] = 1; nr++; }
            row = a1;
        }
        if (row < m->idx_v[b]) { w->run[3 * nr] = row; w->run[3 * nr + 1] = m->idx_v[b]; w->run[3 * nr + 2] = 0; nr++; }
    }
    free(path);
    w->run_off[m->nb] = nr;
    /* related (ancestor or descendant) entries per column: ancestor rows + subtree rows */
    double related = 0;
    for (int j = 0; j < m->nv; j++) {
        int b = m->dof_body[j];
        related += w->end_v[j] - m->idx_v[b];
        for (int r = w->run_off[b]; r < w->run_off[b + 1]; r++)
            if (w->run[3 * r + 2]) related += w->run[3 * r + 1] - w->run[3 * r];
    }
    /* measured (paired timings against pin26, gcc 12 -march=native): one
     * memset of everything beats zero runs per column once most entries are
     * structural zeros (branched trees); below 12 dofs the column-streamed
     * row loops cost more in set-up than they save; a chain's blocked
     * products pay from IDSVA_CHAIN_MIN dofs (pin26/idsva on bf = 1, AMD
     * EPYC Zen 4: N = 8-10 1.05-1.10 blocked, 0.94-0.97 with the records;
     * N = 4-6 a tie either way) */
    enum { IDSVA_CHAIN_MIN = 7 };
    int chain = m->nv >= IDSVA_CHAIN_MIN;
    for (int b = 1; b < m->nb && chain; b++) chain = m->parent[b] == b - 1;
    w->zero_first = !chain && (2 * related < (double)m->nv * m->nv || m->nv < 12);
    if (chain) {
        if (!(w->col_start = malloc(sizeof(int) * (size_t)m->nv))) { idsva_fini(w); return rbd_fail(RBD_ENOMEM, "idsva: out of memory"); }
        for (int j = 0; j < m->nv; j++) w->col_start[j] = m->idx_v[m->dof_body[j]];
    }
    *out = w;
    return RBD_OK;
}

static inline double dot6(const double *restrict a, const double *restrict b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* Lines 17-18 for ancestor rows [r0, r1) of column k: row r is S_r^T t3_k,
 * S_r^T t2_k, with S as 6 rows of length nv at Sr. */
static void ancestor_rows(const double *restrict Sr, size_t n, int r0, int r1, const double *restrict t3,
                          const double *restrict t2, double *restrict cq, double *restrict cv)
{
    const double a0 = t3[0], a1 = t3[1], a2 = t3[2], a3 = t3[3], a4 = t3[4], a5 = t3[5];
    const double b0 = t2[0], b1 = t2[1], b2 = t2[2], b3 = t2[3], b4 = t2[4], b5 = t2[5];
    for (int r = r0; r < r1; r++) {
        const double s0 = Sr[r], s1 = Sr[n + r], s2 = Sr[2 * n + r], s3 = Sr[3 * n + r], s4 = Sr[4 * n + r],
                     s5 = Sr[5 * n + r];
        cq[r] = s0 * a0 + s1 * a1 + s2 * a2 + s3 * a3 + s4 * a4 + s5 * a5;
        cv[r] = s0 * b0 + s1 * b1 + s2 * b2 + s3 * b3 + s4 * b4 + s5 * b5;
    }
}

/* Lines 19-20 for subtree rows [r0, r1) of column k, t1 and t4 as 6 rows of
 * length nv at T1, T4. */
static void subtree_rows(const double *restrict T1, const double *restrict T4, size_t n, int r0, int r1,
                         const double *restrict S, const double *restrict Pd, const double *restrict Pdd,
                         const double *restrict SP, double *restrict cq, double *restrict cv)
{
    const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
    const double p0 = Pd[0], p1 = Pd[1], p2 = Pd[2], p3 = Pd[3], p4 = Pd[4], p5 = Pd[5];
    const double d0 = Pdd[0], d1 = Pdd[1], d2 = Pdd[2], d3 = Pdd[3], d4 = Pdd[4], d5 = Pdd[5];
    const double u0 = SP[0], u1 = SP[1], u2 = SP[2], u3 = SP[3], u4 = SP[4], u5 = SP[5];
    for (int r = r0; r < r1; r++) {
        const double a0 = T4[r], a1 = T4[n + r], a2 = T4[2 * n + r], a3 = T4[3 * n + r], a4 = T4[4 * n + r],
                     a5 = T4[5 * n + r];
        const double b0 = T1[r], b1 = T1[n + r], b2 = T1[2 * n + r], b3 = T1[3 * n + r], b4 = T1[4 * n + r],
                     b5 = T1[5 * n + r];
        cq[r] = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3 + a4 * p4 + a5 * p5 +
                b0 * d0 + b1 * d1 + b2 * d2 + b3 * d3 + b4 * d4 + b5 * d5;
        cv[r] = a0 * s0 + a1 * s1 + a2 * s2 + a3 * s3 + a4 * s4 + a5 * s5 +
                b0 * u0 + b1 * u1 + b2 * u2 + b3 * u3 + b4 * u4 + b5 * u5;
    }
}

/* Structural zeros of rows [r0, r1): a loop, not memset, whose call costs
 * more than the short runs of small trees (measured). */
static inline void zero_rows(int r0, int r1, double *restrict cq, double *restrict cv)
{
    for (int r = r0; r < r1; r++) cq[r] = cv[r] = 0;
}

/* The same for the sparse plan, one dof's (t1..t4) as a 24-number record.
 * The runs are short: clang's vectoriser would gather across records
 * (measured 13-23% slower on bf = 2, 5). */
#if defined(__clang__)
#define SHORT_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define SHORT_LOOP
#endif

static inline void subtree_rows_aos(const double (*restrict R)[24], int r0, int r1, const double *restrict S,
                                    const double *restrict Pd, const double *restrict Pdd,
                                    const double *restrict SP, double *restrict cq, double *restrict cv)
{
    SHORT_LOOP
    for (int r = r0; r < r1; r++) {
        cq[r] = dot6(R[r] + 18, Pd) + dot6(R[r], Pdd);
        cv[r] = dot6(R[r] + 18, S) + dot6(R[r], SP);
    }
}

/* Alg. 1 lines 12-23 after rbd_idg_forward filled w->g. */
static void idsva_backward(void *p, double *restrict tau, double *restrict dq, double *restrict dv)
{
    idsva_ws *w = p;
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const int nv = m->nv;
    const size_t n = (size_t)nv;
    double (*restrict R)[24] = w->R;
    double *restrict T = w->T;
    const int dense = !w->zero_first;
    if (!dense && !w->zeros_preset) {
        memset(dq, 0, sizeof(double) * n * n);
        memset(dv, 0, sizeof(double) * n * n);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        for (int j = j0; j < j1; j++) {
            double *t = R[j];
            rbd_idg_tvec(g, i, j, t, t + 6, t + 12, t + 18);                   /* lines 13-16 */
            tau[j] = dot6(g->S[j], g->fC[i]);
            if (dense)
                for (int r = 0; r < 6; r++) {
                    T[n * r + j] = t[r];
                    T[n * (6 + r) + j] = t[18 + r];
                    T[n * (12 + r) + j] = g->S[j][r];
                }
        }
        if (!dense)     /* the subtree's records are complete: this body's columns now, while they are hot */
            for (int k = j0; k < j1; k++) {
                double *restrict cq = dq + n * k, *restrict cv = dv + n * k;
                const double *t3 = R[k] + 12, *t2 = R[k] + 6;
                for (int l = m->dof_parent[j0]; l >= 0; l = m->dof_parent[l]) {                   /* lines 17-18 */
                    cq[l] = dot6(g->S[l], t3);
                    cv[l] = dot6(g->S[l], t2);
                }
                subtree_rows_aos((const double (*)[24])R, j0, w->end_v[k], g->S[k], g->Pd[k], g->Pdd[k], g->SdPd[k],
                                 cq, cv);                                               /* lines 19-20 */
            }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
    if (!dense) return;
    if (w->col_start) {
        const idsva_chain_in in = { nv, w->col_start, T, (const double (*)[6])g->S, (const double (*)[6])g->Pd,
                                    (const double (*)[6])g->Pdd, (const double (*)[6])g->SdPd,
                                    (const double (*)[24])R };
        idsva_chain_products(&in, dq, dv);
        return;
    }
    const double *T1 = T, *T4 = T + 6 * n, *Sr = T + 12 * n;
    for (int k = 0; k < nv; k++) {
        const int b = m->dof_body[k], e = w->end_v[k];
        double *restrict cq = dq + n * k, *restrict cv = dv + n * k;
        for (const int *run = w->run + 3 * w->run_off[b], *end = w->run + 3 * w->run_off[b + 1]; run < end; run += 3) {
            if (run[2]) ancestor_rows(Sr, n, run[0], run[1], R[k] + 12, R[k] + 6, cq, cv);   /* lines 17-18 */
            else if (!w->zeros_preset) zero_rows(run[0], run[1], cq, cv);
        }
        subtree_rows(T1, T4, n, m->idx_v[b], e, g->S[k], g->Pd[k], g->Pdd[k], g->SdPd[k], cq, cv);  /* 19-20 */
        if (!w->zeros_preset) zero_rows(e, nv, cq, cv);
    }
    return;
}

static rbd_idg *idsva_idg(void *p)
{
    return &((idsva_ws *)p)->g;
}

const rbd_idg_backend rbd_idsva_backend = { idsva_idg, idsva_backward };

static int idsva_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    idsva_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva: null workspace, state vector or output buffer");
    rbd_idg_forward(w->m, &w->g, x->q, x->v, x->a);
    idsva_backward(w, out->tau, out->dtau_dq, out->dtau_dv);
    return RBD_OK;
}

const rbd_method rbd_method_idsva = {
    .name = "idsva",
    .summary = "IDSVA, Singh-Russell-Wensing 2022 Alg. 1, ground frame, subtree block products",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = idsva_init,
    .eval = idsva_eval,
    .fini = idsva_fini,
};
