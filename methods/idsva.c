/*
 * IDSVA: Algorithm 1 of Singh, Russell & Wensing (2022) in ground
 * coordinates.  The forward pass (lines 1-11) is id_ground.c; here is the
 * backward pass, whose lines 17-20 are products over the subtree: with the
 * depth-first numbering nu(i) is the contiguous dof range [j0, e), so each is
 * a short loop over contiguous memory.  t1..t4 are kept row-wise (six rows of
 * length nv) so those loops vectorise across the subtree.
 *
 * Multi-dof joints: the diagonal block dtau_i/dq_i comes from line 19 (the
 * j <= i case of eq. 30, no f^C term); line 15's f^C xbar* S_i term enters the
 * rows of the ancestors through line 17.
 */
#include <stdlib.h>
#include <string.h>
#include "id_ground.h"
#include "method.h"

typedef struct {
    const rbd_model *m;
    rbd_idg g;
    double *T;          /* t1..t4: [4][6][nv] */
    double *U;          /* lines 17-18, row-major: [2][nv][nv] */
    int *end_v;         /* [nv] first dof after the subtree of the dof's body */
    /* rows [0, idx_v[b]) of a column of body b, as runs: ancestor rows (copy
     * line 17's value from U) and the rows between them (structural zeros):
     * run r of body b is rows [run[3r], run[3r+1]), copy if run[3r+2] */
    int *run, *run_off;  /* run_off[nb + 1] */
    int dense;          /* most entries related (chain-like): write each entry once via U;
                         * else zero both matrices and store lines 17-18 in place */
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
    w->dense = 2 * related > (double)m->nv * m->nv;
    if (w->dense && !(w->U = malloc(sizeof(double) * 2 * (size_t)m->nv * (size_t)m->nv))) {
        idsva_fini(w);
        return rbd_fail(RBD_ENOMEM, "idsva: out of memory for the %d x %d scratch", m->nv, m->nv);
    }
    *out = w;
    return RBD_OK;
}

/* Alg. 1 lines 17-18 for row j: uq[k] = S_j . t3[k], uv[k] = S_j . t2[k] for k
 * in [k0, k1), into rows of a row-major scratch (contiguous stores; the
 * column-major output gets them in one pass at the end); t rows have stride nv. */
static void rows_17_18(int nv, int k0, int k1, const double *restrict S, const double *restrict T2,
                       const double *restrict T3, double *restrict uq, double *restrict uv)
{
    const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
    const double *restrict q0 = T3, *restrict q1 = T3 + nv, *restrict q2 = T3 + 2 * nv;
    const double *restrict q3 = T3 + 3 * nv, *restrict q4 = T3 + 4 * nv, *restrict q5 = T3 + 5 * nv;
    const double *restrict v0 = T2, *restrict v1 = T2 + nv, *restrict v2 = T2 + 2 * nv;
    const double *restrict v3 = T2 + 3 * nv, *restrict v4 = T2 + 4 * nv, *restrict v5 = T2 + 5 * nv;
    for (int k = k0; k < k1; k++) {
        uq[k] = s0 * q0[k] + s1 * q1[k] + s2 * q2[k] + s3 * q3[k] + s4 * q4[k] + s5 * q5[k];
        uv[k] = s0 * v0[k] + s1 * v1[k] + s2 * v2[k] + s3 * v3[k] + s4 * v4[k] + s5 * v5[k];
    }
}

/* Lines 17-18 stored in place: row j of the column-major outputs. */
static void rows_17_18_strided(int nv, int j, int k0, int k1, const double *restrict S, const double *restrict T2,
                               const double *restrict T3, double *restrict dq, double *restrict dv)
{
    const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
    const double *restrict q0 = T3, *restrict q1 = T3 + nv, *restrict q2 = T3 + 2 * nv;
    const double *restrict q3 = T3 + 3 * nv, *restrict q4 = T3 + 4 * nv, *restrict q5 = T3 + 5 * nv;
    const double *restrict v0 = T2, *restrict v1 = T2 + nv, *restrict v2 = T2 + 2 * nv;
    const double *restrict v3 = T2 + 3 * nv, *restrict v4 = T2 + 4 * nv, *restrict v5 = T2 + 5 * nv;
    const size_t ld = (size_t)nv;
    for (int k = k0; k < k1; k++) {
        dq[j + ld * k] = s0 * q0[k] + s1 * q1[k] + s2 * q2[k] + s3 * q3[k] + s4 * q4[k] + s5 * q5[k];
        dv[j + ld * k] = s0 * v0[k] + s1 * v1[k] + s2 * v2[k] + s3 * v3[k] + s4 * v4[k] + s5 * v5[k];
    }
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

/* Alg. 1 lines 19-20 for column j over rows [k0, k1):
 * cq[k] = t4[k] . Psi_dot_j + t1[k] . Psi_ddot_j, cv[k] = t4[k] . S_j + t1[k] . (S_dot + Psi_dot)_j. */
static void cols_19_20(int nv, int k0, int k1, const double *restrict Pd, const double *restrict Pdd,
                       const double *restrict S, const double *restrict SP, const double *restrict T1,
                       const double *restrict T4, double *restrict cq, double *restrict cv)
{
    const double p0 = Pd[0], p1 = Pd[1], p2 = Pd[2], p3 = Pd[3], p4 = Pd[4], p5 = Pd[5];
    const double d0 = Pdd[0], d1 = Pdd[1], d2 = Pdd[2], d3 = Pdd[3], d4 = Pdd[4], d5 = Pdd[5];
    const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
    const double u0 = SP[0], u1 = SP[1], u2 = SP[2], u3 = SP[3], u4 = SP[4], u5 = SP[5];
    const double *restrict a0 = T4, *restrict a1 = T4 + nv, *restrict a2 = T4 + 2 * nv;
    const double *restrict a3 = T4 + 3 * nv, *restrict a4 = T4 + 4 * nv, *restrict a5 = T4 + 5 * nv;
    const double *restrict b0 = T1, *restrict b1 = T1 + nv, *restrict b2 = T1 + 2 * nv;
    const double *restrict b3 = T1 + 3 * nv, *restrict b4 = T1 + 4 * nv, *restrict b5 = T1 + 5 * nv;
    for (int k = k0; k < k1; k++) {
        cq[k] = a0[k] * p0 + a1[k] * p1 + a2[k] * p2 + a3[k] * p3 + a4[k] * p4 + a5[k] * p5 +
                b0[k] * d0 + b1[k] * d1 + b2[k] * d2 + b3[k] * d3 + b4[k] * d4 + b5[k] * d5;
        cv[k] = a0[k] * s0 + a1[k] * s1 + a2[k] * s2 + a3[k] * s3 + a4[k] * s4 + a5[k] * s5 +
                b0[k] * u0 + b1[k] * u1 + b2[k] * u2 + b3[k] * u3 + b4[k] * u4 + b5[k] * u5;
    }
}

static int idsva_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    idsva_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const int nv = m->nv;
    rbd_idg_forward(m, g, x->q, x->v, x->a);
    double *restrict dq = out->dtau_dq, *restrict dv = out->dtau_dv, *restrict tau = out->tau;
    double *restrict T1 = w->T, *restrict T2 = T1 + 6 * nv, *restrict T3 = T2 + 6 * nv, *restrict T4 = T3 + 6 * nv;
    double *restrict Uq = w->U, *restrict Uv = w->U ? Uq + (size_t)nv * nv : NULL;
    const int dense = w->dense;
    if (!dense) {
        memset(dq, 0, sizeof(double) * (size_t)nv * (size_t)nv);
        memset(dv, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const int e = m->subtree_end[i] < m->nb ? m->idx_v[m->subtree_end[i]] : nv;
        for (int j = j0; j < j1; j++) {
            double t1[6], t2[6], t3[6], t4[6];
            rbd_idg_tvec(g, i, j, t1, t2, t3, t4);                             /* lines 13-16 */
            for (int r = 0; r < 6; r++) {
                T1[r * nv + j] = t1[r]; T2[r * nv + j] = t2[r];
                T3[r * nv + j] = t3[r]; T4[r * nv + j] = t4[r];
            }
            const double *S = g->S[j], *f = g->fC[i];
            tau[j] = S[0] * f[0] + S[1] * f[1] + S[2] * f[2] + S[3] * f[3] + S[4] * f[4] + S[5] * f[5];
        }
        if (dense)                                                          /* lines 17-18 */
            for (int j = j0; j < j1; j++)
                rows_17_18(nv, j1, e, g->S[j], T2, T3, Uq + (size_t)nv * j, Uv + (size_t)nv * j);
        else
            for (int j = j0; j < j1; j++) rows_17_18_strided(nv, j, j1, e, g->S[j], T2, T3, dq, dv);
        for (int j = j0; j < j1; j++)                                       /* lines 19-20 */
            cols_19_20(nv, j0, e, g->Pd[j], g->Pdd[j], g->S[j], g->SdPd[j], T1, T4, dq + (size_t)nv * j,
                       dv + (size_t)nv * j);
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
    for (int k = 0; dense && k < nv; k++) {
        int b = m->dof_body[k], r0 = w->run_off[b];
        finish_column(nv, k, w->end_v[k], w->run + 3 * r0, w->run_off[b + 1] - r0, Uq, Uv, dq + (size_t)nv * k,
                      dv + (size_t)nv * k);
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
