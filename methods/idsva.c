/*
 * IDSVA: Algorithm 1 of Singh, Russell & Wensing (2022) in ground
 * coordinates.  The forward pass (lines 1-11) is id_ground.c; here is the
 * backward pass, whose lines 17-20 are products over the subtree: with the
 * depth-first numbering nu(i) is the contiguous dof range [j0, e).  Lines
 * 17-18 (row j, columns of the proper subtree) and 19-20 (column j, rows of
 * the subtree) run over the same range; in the chain plan below they are
 * fused into one pass that reads each descendant's t1..t4 once.
 *
 * Column j of body i gets lines 19-20 over the subtree rows; its ancestor
 * rows come from the ancestors' lines 17-18 and all other rows are
 * structural zeros.  Two memory plans, chosen at init:
 *  - chain-like trees of IDSVA_SOA_MIN dofs or more (most entries related,
 *    long subtrees): t1..t4 as 24 rows of length nv, so the pass over a
 *    subtree vectorises across it; lines 17-18 go to a row-major scratch U
 *    and each column is finished in one pass (ancestor runs copied from U,
 *    the rest zeroed): every output entry is written once, none strided;
 *  - otherwise: (t4, t1) as one 12-number record per dof, read at constant
 *    offsets by the short column loops; both matrices zeroed first and
 *    lines 17-18 stored in place.
 *
 * Multi-dof joints: the diagonal block dtau_i/dq_i comes from line 19 (the
 * j <= i case of eq. 30, no f^C term); line 15's f^C xbar* S_i term enters the
 * rows of the ancestors through line 17.
 */
#include <stdlib.h>
#include <string.h>
#include "id_ground.h"
#include "method.h"

#define IDSVA_SOA_MIN 24     /* measured: below this the per-dof records are faster */

typedef struct {
    const rbd_model *m;
    rbd_idg g;
    double *T;          /* 24 nv: rows t1 (0-5), t2, t3, t4 (18-23) of length nv, or
                         * rows t2, t3 of length nv then [nv] records (t4, t1) */
    double *U;          /* dense only: lines 17-18, row-major [2][nv][nv] */
    int *end_v;         /* [nv] first dof after the subtree of the dof's body */
    /* rows [0, idx_v[b]) of a column of body b, as runs: ancestor rows (copy
     * line 17's value from U) and the rows between them (structural zeros):
     * run r of body b is rows [run[3r], run[3r+1]), copy if run[3r+2] */
    int *run, *run_off;  /* run_off[nb + 1] */
    int soa, dense;     /* rows-of-nv layout and U, or per-dof records and in-place stores */
} idsva_ws;

static void idsva_fini(void *p)
{
    idsva_ws *w = p;
    if (!w) return;
    rbd_idg_fini(&w->g);
    free(w->T); free(w->U); free(w->end_v); free(w->run); free(w->run_off);
    free(w);
}

extern const rbd_method rbd_method_idsva;

static int idsva_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    if (!m || !out) return rbd_fail(RBD_EINVAL, "idsva: null model or workspace pointer");
    *out = NULL;
    int rc = rbd_method_supports(&rbd_method_idsva, m);
    if (rc) return rc;
    idsva_ws *w = calloc(1, sizeof *w);
    if (!w) return rbd_fail(RBD_ENOMEM, "idsva: out of memory");
    w->m = m;
    if ((rc = rbd_idg_init(m, &w->g))) { free(w); return rc; }
    w->T = malloc(sizeof(double) * 24 * (size_t)m->nv);
    w->end_v = malloc(sizeof(int) * (size_t)m->nv);
    w->run_off = malloc(sizeof(int) * ((size_t)m->nb + 1));
    /* at most 2 depth + 1 runs per body */
    w->run = malloc(sizeof(int) * 3 * (size_t)m->nb * (2 * (size_t)m->depth_max + 1));
    if (!w->T || !w->end_v || !w->run_off || !w->run) { idsva_fini(w); return rbd_fail(RBD_ENOMEM, "idsva: out of memory"); }
    for (int j = 0; j < m->nv; j++) {
        int b = m->dof_body[j];
        w->end_v[j] = m->subtree_end[b] < m->nb ? m->idx_v[m->subtree_end[b]] : m->nv;
    }
    int nr = 0, *path = malloc(sizeof(int) * ((size_t)m->depth_max + 1));
    if (!path) { idsva_fini(w); return rbd_fail(RBD_ENOMEM, "idsva: out of memory"); }
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
    /* related (ancestor or descendant) entries per column: depth rows + subtree rows */
    double related = 0;
    for (int j = 0; j < m->nv; j++) {
        int b = m->dof_body[j];
        related += w->end_v[j];
        for (int r = w->run_off[b]; r < w->run_off[b + 1]; r++)
            if (!w->run[3 * r + 2]) related -= w->run[3 * r + 1] - w->run[3 * r];
    }
    /* rows of length nv and the scratch U only pay for chain-like trees of
     * some size (long subtrees, most entries related) */
    w->dense = w->soa = m->nv >= IDSVA_SOA_MIN && 2 * related > (double)m->nv * m->nv;
    if (w->dense && !(w->U = malloc(sizeof(double) * 2 * (size_t)m->nv * (size_t)m->nv))) {
        idsva_fini(w);
        return rbd_fail(RBD_ENOMEM, "idsva: out of memory for the %d x %d scratch", m->nv, m->nv);
    }
    *out = w;
    return RBD_OK;
}

/* Column k of the output above and below its subtree rows [k1, nv): above,
 * the runs of ancestor rows take line 17's values from U, the rows between
 * them are structural zeros; below, zeros.  Every entry is written once. */
static void finish_column(int nv, int k, int k1, const int *restrict run, int nrun, const double *restrict Uq,
                          const double *restrict Uv, double *restrict cq, double *restrict cv)
{
    const size_t ld = (size_t)nv;
    for (int r = 0; r < nrun; r++, run += 3) {
        if (run[2])
            for (int j = run[0]; j < run[1]; j++) {
                cq[j] = Uq[ld * j + k];
                cv[j] = Uv[ld * j + k];
            }
        else {
            memset(cq + run[0], 0, sizeof(double) * (size_t)(run[1] - run[0]));
            memset(cv + run[0], 0, sizeof(double) * (size_t)(run[1] - run[0]));
        }
    }
    if (k1 < nv) {
        memset(cq + k1, 0, sizeof(double) * (size_t)(nv - k1));
        memset(cv + k1, 0, sizeof(double) * (size_t)(nv - k1));
    }
}

static inline double dot6(const double *restrict a, const double *restrict b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* Lines 17-18 for row j over [k0, k1), in place (strided), t2 and t3 as rows
 * of length nv at T2, T3. */
static void rows_17_18(const double *restrict T2, const double *restrict T3, int nv, int j, int k0, int k1,
                       const double *restrict S, double *restrict dq, double *restrict dv)
{
    const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
    const size_t n = (size_t)nv;
    for (int k = k0; k < k1; k++) {
        dq[j + n * k] = s0 * T3[k] + s1 * T3[n + k] + s2 * T3[2 * n + k] + s3 * T3[3 * n + k] +
                        s4 * T3[4 * n + k] + s5 * T3[5 * n + k];
        dv[j + n * k] = s0 * T2[k] + s1 * T2[n + k] + s2 * T2[2 * n + k] + s3 * T2[3 * n + k] +
                        s4 * T2[4 * n + k] + s5 * T2[5 * n + k];
    }
}

/* Lines 19-20 for column j over rows [k0, k1), (t4, t1) as 12-number records. */
static void cols_19_20(const double (*restrict R)[12], int k0, int k1, const double *restrict S_,
                       const double *restrict Pd_, const double *restrict Pdd_, const double *restrict SP_,
                       double *restrict cq, double *restrict cv)
{
    if (k1 == k0 + 1) {                         /* a leaf: the diagonal alone */
        cq[k0] = dot6(R[k0], Pd_) + dot6(R[k0] + 6, Pdd_);
        cv[k0] = dot6(R[k0], S_) + dot6(R[k0] + 6, SP_);
        return;
    }
    double S[6], Pd[6], Pdd[6], SP[6];          /* local copies: provably not aliased by the stores */
    for (int r = 0; r < 6; r++) { S[r] = S_[r]; Pd[r] = Pd_[r]; Pdd[r] = Pdd_[r]; SP[r] = SP_[r]; }
    for (int k = k0; k < k1; k++) {
        cq[k] = dot6(R[k], Pd) + dot6(R[k] + 6, Pdd);
        cv[k] = dot6(R[k], S) + dot6(R[k] + 6, SP);
    }
}

/* Lines 17-20 of dof j over [k0, k1) of its proper subtree in one pass, t1..t4
 * as rows of length nv (vectorises across k): row j at rq[ldr k], rv[ldr k]
 * (a row of U: ldr = 1), column j at cq[k], cv[k]. */
static void subtree_rows(const double *restrict T, int nv, int k0, int k1, const double *restrict S,
                         const double *restrict Pd, const double *restrict Pdd, const double *restrict SP,
                         double *restrict rq, double *restrict rv, size_t ldr, double *restrict cq,
                         double *restrict cv)
{
    const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
    const double p0 = Pd[0], p1 = Pd[1], p2 = Pd[2], p3 = Pd[3], p4 = Pd[4], p5 = Pd[5];
    const double d0 = Pdd[0], d1 = Pdd[1], d2 = Pdd[2], d3 = Pdd[3], d4 = Pdd[4], d5 = Pdd[5];
    const double u0 = SP[0], u1 = SP[1], u2 = SP[2], u3 = SP[3], u4 = SP[4], u5 = SP[5];
    const size_t n = (size_t)nv;
    const double *restrict b = T, *restrict c = T + 6 * n, *restrict q = T + 12 * n, *restrict a = T + 18 * n;
    for (int k = k0; k < k1; k++) {
        rq[ldr * k] = s0 * q[k] + s1 * q[n + k] + s2 * q[2 * n + k] + s3 * q[3 * n + k] + s4 * q[4 * n + k] +
                      s5 * q[5 * n + k];
        rv[ldr * k] = s0 * c[k] + s1 * c[n + k] + s2 * c[2 * n + k] + s3 * c[3 * n + k] + s4 * c[4 * n + k] +
                      s5 * c[5 * n + k];
        const double a0 = a[k], a1 = a[n + k], a2 = a[2 * n + k], a3 = a[3 * n + k], a4 = a[4 * n + k],
                     a5 = a[5 * n + k];
        const double b0 = b[k], b1 = b[n + k], b2 = b[2 * n + k], b3 = b[3 * n + k], b4 = b[4 * n + k],
                     b5 = b[5 * n + k];
        cq[k] = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3 + a4 * p4 + a5 * p5 +
                b0 * d0 + b1 * d1 + b2 * d2 + b3 * d3 + b4 * d4 + b5 * d5;
        cv[k] = a0 * s0 + a1 * s1 + a2 * s2 + a3 * s3 + a4 * s4 + a5 * s5 +
                b0 * u0 + b1 * u1 + b2 * u2 + b3 * u3 + b4 * u4 + b5 * u5;
    }
}

static int idsva_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    idsva_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const int nv = m->nv, dense = w->dense, soa = w->soa;
    const size_t ld = (size_t)nv;
    rbd_idg_forward(m, g, x->q, x->v, x->a);
    double *restrict dq = out->dtau_dq, *restrict dv = out->dtau_dv, *restrict tau = out->tau;
    double *restrict T = w->T, *restrict Uq = w->U, *restrict Uv = dense ? Uq + ld * ld : NULL;
    /* records layout: t2, t3 as rows of length nv, then (t4, t1) records */
    double *restrict T2 = T, *restrict T3 = T + 6 * ld;
    double (*restrict R)[12] = (double (*)[12])(T + 12 * ld);
    if (!dense) {
        memset(dq, 0, sizeof(double) * ld * ld);
        memset(dv, 0, sizeof(double) * ld * ld);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const int e = m->subtree_end[i] < m->nb ? m->idx_v[m->subtree_end[i]] : nv;
        if (soa) {
            for (int j = j0; j < j1; j++) {
                double t[24];
                rbd_idg_tvec(g, i, j, t, t + 6, t + 12, t + 18);               /* lines 13-16 */
                for (int r = 0; r < 24; r++) T[ld * r + j] = t[r];
                tau[j] = dot6(g->S[j], g->fC[i]);
            }
            for (int j = j0; j < j1; j++) {
                const double *S = g->S[j], *Pd = g->Pd[j], *Pdd = g->Pdd[j], *SP = g->SdPd[j];
                double *cq = dq + ld * j, *cv = dv + ld * j;
                for (int k = j0; k < j1; k++) {                               /* lines 19-20, this joint */
                    double t1[6], t4[6];
                    for (int r = 0; r < 6; r++) { t1[r] = T[ld * r + k]; t4[r] = T[ld * (18 + r) + k]; }
                    cq[k] = dot6(t4, Pd) + dot6(t1, Pdd);
                    cv[k] = dot6(t4, S) + dot6(t1, SP);
                }
                subtree_rows(T, nv, j1, e, S, Pd, Pdd, SP, Uq + ld * j, Uv + ld * j, 1, cq, cv);  /* 17-20 */
            }
        } else {
            for (int j = j0; j < j1; j++) {
                double t2[6], t3[6];
                rbd_idg_tvec(g, i, j, R[j] + 6, t2, t3, R[j]);                 /* lines 13-16 */
                for (int r = 0; r < 6; r++) { T2[ld * r + j] = t2[r]; T3[ld * r + j] = t3[r]; }
                tau[j] = dot6(g->S[j], g->fC[i]);
            }
            for (int j = j0; j < j1; j++) {
                rows_17_18(T2, T3, nv, j, j1, e, g->S[j], dq, dv);             /* lines 17-18 */
                cols_19_20(R, j0, e, g->S[j], g->Pd[j], g->Pdd[j], g->SdPd[j], dq + ld * j, dv + ld * j);
            }
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
    for (int k = 0; dense && k < nv; k++) {
        int b = m->dof_body[k], r0 = w->run_off[b];
        finish_column(nv, k, w->end_v[k], w->run + 3 * r0, w->run_off[b + 1] - r0, Uq, Uv, dq + ld * k, dv + ld * k);
    }
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
