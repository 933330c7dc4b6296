/*
 * IDSVA: Algorithm 1 of Singh, Russell & Wensing (2022) in ground
 * coordinates.  The forward pass (lines 1-11) is id_ground.c; here is the
 * backward pass.  With the depth-first numbering nu(i) is the contiguous dof
 * range [j0, e), and lines 17-20 are products over it:
 *   line 17-18  row k, columns d of the proper subtree:  S_k^T t3_d, S_k^T t2_d
 *   line 19-20  column k, rows d of the subtree:          t4_d^T Psi_dot_k + t1_d^T Psi_ddot_k,
 *                                                         t4_d^T S_k + t1_d^T (S_dot_k + Psi_dot_k)
 * The backward sweep over bodies does lines 13-16 and 21-23.  Two plans,
 * chosen at init:
 *  - pairs (every tree but a long chain): at body i, once the records of
 *    its subtree are written, row k and column k of each of its dofs k, one
 *    (k, d) pair per 4-vector (idsva_pairs.h).  The structural zeros of a
 *    branched tree are cleared at once beforehand (one memset beats many
 *    short runs), or not at all with rbd_options.zeros_preset;
 *  - chain (every body the next one's parent, IDSVA_CHAIN_MIN dofs or
 *    more): every entry is related, and after the sweep the products run as
 *    blocks of 4 rows against all columns (idsva_chain.c), with t1, t4 and S
 *    kept as rows of length nv.
 *
 * Multi-dof joints: the diagonal block dtau_i/dq_i comes from line 19 (the
 * j <= i case of eq. 30, no f^C term); line 15's f^C xbar* S_i term enters the
 * rows of the ancestors through line 17.
 */
#include <stdlib.h>
#include <string.h>
#include "derivatives/id/id_ground.h"
#include "derivatives/id/idsva_chain.h"
#include "derivatives/id/idsva_pairs.h"
#include "rbdiff/method.h"

typedef struct {
    const rbd_model *m;
    rbd_idg g;
    int zeros_preset;   /* rbd_options.zeros_preset: the structural zeros are left as they are */
    int *end_v;         /* [nb] first dof after the body's subtree */
    double *P;          /* pairs plan: [nv][IDSVA_PAIR_REC] pair record of each dof */
    /* chain plan (P == NULL): */
    double (*R)[24];    /* [nv] t1, t2, t3, t4 of each dof (lines 13-16) */
    double *T;          /* 18 rows of length nv: t1 (0-5), t4 (6-11), S (12-17) */
    int *col_start;     /* [nv] first dof of the column's body */
} idsva_ws;

static void idsva_fini(void *p)
{
    idsva_ws *w = p;
    if (!w) return;
    rbd_idg_fini(&w->g);
    free(w->end_v); free(w->P); free(w->R); free(w->T); free(w->col_start);
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
    /* the chain plan's blocked products beat the pairs from about 32-40
     * dofs (pin26/idsva on bf = 1, AMD EPYC Zen 4, gcc 12 -march=native:
     * N = 20 1.15 / 1.13, N = 30 1.12 / 1.15, N = 40 1.25 / 1.19,
     * N = 100 1.46 / 1.30, blocked / pairs) */
    enum { IDSVA_CHAIN_MIN = 32 };
    int chain = m->nv >= IDSVA_CHAIN_MIN;
    for (int b = 1; b < m->nb && chain; b++) chain = m->parent[b] == b - 1;
    const size_t nv = (size_t)m->nv;
    w->end_v = malloc(sizeof(int) * (size_t)m->nb);
    int ok = w->end_v != NULL;
    if (chain) {
        w->R = malloc(sizeof *w->R * nv);
        w->T = malloc(sizeof(double) * 18 * nv);
        w->col_start = malloc(sizeof(int) * nv);
        ok = ok && w->R && w->T && w->col_start;
    } else {
        w->P = malloc(sizeof(double) * IDSVA_PAIR_REC * nv);
        ok = ok && w->P;
    }
    if (!ok) { idsva_fini(w); return rbd_fail(RBD_ENOMEM, "idsva: out of memory"); }
    for (int b = 0; b < m->nb; b++) w->end_v[b] = m->subtree_end[b] < m->nb ? m->idx_v[m->subtree_end[b]] : m->nv;
    if (chain)
        for (int j = 0; j < m->nv; j++) w->col_start[j] = m->idx_v[m->dof_body[j]];
    *out = w;
    return RBD_OK;
}

static inline double dot6(const double *restrict a, const double *restrict b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* Alg. 1 lines 12-23 after rbd_idg_forward filled w->g. */
static void idsva_backward(void *p, double *restrict tau, double *restrict dq, double *restrict dv)
{
    idsva_ws *w = p;
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const size_t n = (size_t)m->nv;
    if (w->P) {
        if (!w->zeros_preset) {
            memset(dq, 0, sizeof(double) * n * n);
            memset(dv, 0, sizeof(double) * n * n);
        }
        for (int i = m->nb - 1; i >= 0; i--) {
            const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
            for (int j = j0; j < j1; j++) {
                double t[4][6];
                rbd_idg_tvec(g, i, j, t[0], t[1], t[2], t[3]);                       /* lines 13-16 */
                idsva_pairs_record(w->P + IDSVA_PAIR_REC * (size_t)j, t[0], t[1], t[2], t[3]);
                tau[j] = dot6(g->S[j], g->fC[i]);
            }
            idsva_pairs_body(w->P, j0, j1, w->end_v[i], (const double (*)[6])g->S, (const double (*)[6])g->Pd,
                             (const double (*)[6])g->Pdd, (const double (*)[6])g->SdPd, n, dq, dv);  /* 17-20 */
            if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);     /* lines 21-23 */
        }
        return;
    }
    double (*restrict R)[24] = w->R;
    double *restrict T = w->T;
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        for (int j = j0; j < j1; j++) {
            double *t = R[j];
            rbd_idg_tvec(g, i, j, t, t + 6, t + 12, t + 18);                       /* lines 13-16 */
            tau[j] = dot6(g->S[j], g->fC[i]);
            for (int r = 0; r < 6; r++) {
                T[n * r + j] = t[r];
                T[n * (6 + r) + j] = t[18 + r];
                T[n * (12 + r) + j] = g->S[j][r];
            }
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
    const idsva_chain_in in = { m->nv, w->col_start, T, (const double (*)[6])g->S, (const double (*)[6])g->Pd,
                                (const double (*)[6])g->Pdd, (const double (*)[6])g->SdPd,
                                (const double (*)[24])R };
    idsva_chain_products(&in, dq, dv);                                          /* lines 17-20 */
}
/* Lines 12-16 and 21-23 alone: tau and the t1..t4 of every dof. */
static void idsva_tvecs(void *p, double *restrict tau, double (*restrict R)[24])
{
    idsva_ws *w = p;
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    for (int i = m->nb - 1; i >= 0; i--) {
        for (int j = m->idx_v[i]; j < m->idx_v[i] + m->nv_of[i]; j++) {
            rbd_idg_tvec(g, i, j, R[j], R[j] + 6, R[j] + 12, R[j] + 18);
            tau[j] = dot6(g->S[j], g->fC[i]);
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);
    }
}

static rbd_idg *idsva_idg(void *p)
{
    return &((idsva_ws *)p)->g;
}

const rbd_idg_backend rbd_idsva_backend = { idsva_idg, idsva_backward, idsva_tvecs };

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
