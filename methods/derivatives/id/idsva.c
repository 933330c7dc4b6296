/*
 * IDSVA: Algorithm 1 of Singh, Russell & Wensing (2022) in ground
 * coordinates.  The forward pass (lines 1-11) is id_ground.c; here is the
 * backward pass.  With the depth-first numbering nu(i) is the contiguous dof
 * range [j0, e), and lines 17-20 are products over it:
 *   line 17-18  row k, columns d of the proper subtree:  S_k^T t3_d, S_k^T t2_d
 *   line 19-20  column k, rows d of the subtree:          t4_d^T Psi_dot_k + t1_d^T Psi_ddot_k,
 *                                                         t4_d^T S_k + t1_d^T (S_dot_k + Psi_dot_k)
 * The backward sweep over bodies does lines 13-16 and 21-23.  Two plans,
 * each its own backward function, chosen once at init:
 *  - backward_pairs (every tree but a long chain): at body i, once the records of
 *    its subtree are written, row k and column k of each of its dofs k, one
 *    (k, d) pair per 4-vector (idsva_pairs.h).  The structural zeros of a
 *    branched tree are cleared at once beforehand (one memset beats many
 *    short runs), or not at all with rbd_options.zeros_preset;
 *  - backward_chain (every body the next one's parent, IDSVA_CHAIN_MIN dofs or
 *    more): every entry is related, and after the sweep the products run as
 *    blocks of 4 rows against all columns (idsva_chain.c), with t1, t4 and S
 *    kept as rows of length nv.
 *
 * Multi-dof joints: the diagonal block dtau_i/dq_i comes from line 19 (the
 * j <= i case of eq. 30, no f^C term); line 15's f^C xbar* S_i term enters the
 * rows of the ancestors through line 17.
 *
 * idsva_ref.c is the same algorithm line by line, with dense 6x6 matrices;
 * the tests hold this file to it (tests/test_idsva_oracle.c).
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/id/id_ground.h"
#include "derivatives/id/idsva_chain.h"
#include "derivatives/id/idsva_pairs.h"
#include "rbdiff/method.h"
#include "derivatives/vec.h"
#include "model/hot.h"

typedef struct idsva_ws idsva_ws;
struct idsva_ws {
    const rbd_model *m;
    rbd_idg g;
    /* lines 12-23 in the plan chosen at init: backward_pairs or backward_chain */
    void (*backward)(idsva_ws *w, double *restrict tau, double *restrict dq, double *restrict dv);
    int zeros_preset;   /* rbd_options.zeros_preset: the structural zeros are left as they are */
    idsva_pair_rec *P;  /* pairs plan: [nv] each dof's pair record */
    /* chain plan: */
    rbd_idg_tv *R;      /* [nv] t1..t4 of each dof (lines 13-16) */
    double *t1_rows, *t4_rows, *S_rows;     /* 6 rows of length nv each (idsva_chain.h) */
    int *col_start;     /* [nv] first dof of the column's body */
};

/* The workspace's pieces of its arena (arena.h): the chosen plan's only. */
static void carve(idsva_ws *w, rbd_arena *a, const rbd_model *m, int chain)
{
    const size_t nv = (size_t)m->nv;
    rbd_idg_carve(&w->g, a, m);
    if (chain) {
        w->R = rbd_arena_take(a, sizeof *w->R * nv);
        w->t1_rows = rbd_arena_take(a, sizeof(double) * 6 * nv);
        w->t4_rows = rbd_arena_take(a, sizeof(double) * 6 * nv);
        w->S_rows = rbd_arena_take(a, sizeof(double) * 6 * nv);
        w->col_start = rbd_arena_take(a, sizeof(int) * nv);
    } else {
        w->P = rbd_arena_take(a, sizeof *w->P * nv);
    }
}

/* Alg. 1 lines 12-23 after rbd_idg_forward filled w->g, lines 17-20 at each
 * body as pair products (idsva_pairs.h). */
RBD_HOT static void backward_pairs(idsva_ws *w, double *restrict tau, double *restrict dq, double *restrict dv)
{
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const size_t n = (size_t)m->nv;
    if (!w->zeros_preset) {
        memset(dq, 0, sizeof(double) * n * n);
        memset(dv, 0, sizeof(double) * n * n);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        for (int j = j0; j < j1; j++) {
            rbd_idg_tv t;
            rbd_idg_tvec(g, i, j, t.t1, t.t2, t.t3, t.t4);                     /* lines 13-16 */
            idsva_pairs_record(&w->P[j], &t);
            tau[j] = rbd_dot6(g->S[j], g->fC[i]);
        }
        idsva_pairs_body(w->P, j0, j1, m->subtree_end_v[i], (const double (*)[6])g->S, (const double (*)[6])g->Pd,
                         (const double (*)[6])g->Pdd, (const double (*)[6])g->SdPd, n, dq, dv);  /* lines 17-20 */
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
}

/* The same on a chain: lines 13-16 and 21-23 in the sweep, lines 17-20
 * after it as blocked products over every entry (idsva_chain.c). */
static void backward_chain(idsva_ws *w, double *restrict tau, double *restrict dq, double *restrict dv)
{
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const size_t n = (size_t)m->nv;
    rbd_idg_tv *restrict R = w->R;
    double *restrict T1 = w->t1_rows, *restrict T4 = w->t4_rows, *restrict Sr = w->S_rows;
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        for (int j = j0; j < j1; j++) {
            rbd_idg_tv *t = &R[j];
            rbd_idg_tvec(g, i, j, t->t1, t->t2, t->t3, t->t4);                 /* lines 13-16 */
            tau[j] = rbd_dot6(g->S[j], g->fC[i]);
            for (int r = 0; r < 6; r++) {
                T1[n * r + j] = t->t1[r];
                T4[n * r + j] = t->t4[r];
                Sr[n * r + j] = g->S[j][r];
            }
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
    const idsva_chain_in in = { m->nv, w->col_start, T1, T4, Sr, (const double (*)[6])g->S, (const double (*)[6])g->Pd,
                                (const double (*)[6])g->Pdd, (const double (*)[6])g->SdPd, R };
    idsva_chain_products(&in, dq, dv);                                          /* lines 17-20 */
}

extern const rbd_method rbd_method_idsva;

static int idsva_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_idsva, m, out);
    if (rc) return rc;
    /* the chain plan's blocked products beat the pairs from about 32-40
     * dofs (methods/README.md) */
    enum { IDSVA_CHAIN_MIN = 32 };
    int chain = m->nv >= IDSVA_CHAIN_MIN;
    for (int b = 1; b < m->nb && chain; b++) chain = m->parent[b] == b - 1;
    rbd_arena a = { 0 };
    idsva_ws sizing, *w;
    carve(&sizing, &a, m, chain);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the idsva workspace"))) return RBD_ENOMEM;
    carve(w, &a, m, chain);
    rbd_idg_setup(&w->g, m);
    w->m = m;
    w->zeros_preset = o && o->zeros_preset;
    w->backward = chain ? backward_chain : backward_pairs;
    if (chain)
        for (int j = 0; j < m->nv; j++) w->col_start[j] = m->idx_v[m->dof_body[j]];
    *out = w;
    return RBD_OK;
}

static void idsva_backward(void *p, double *restrict tau, double *restrict dq, double *restrict dv)
{
    idsva_ws *w = p;
    w->backward(w, tau, dq, dv);
}

/* Lines 12-16 and 21-23 alone: tau and the t1..t4 of every dof. */
RBD_HOT static void idsva_tvecs(void *p, double *restrict tau, rbd_idg_tv *restrict R)
{
    idsva_ws *w = p;
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    for (int i = m->nb - 1; i >= 0; i--) {
        for (int j = m->idx_v[i]; j < m->idx_v[i] + m->nv_of[i]; j++) {
            rbd_idg_tvec(g, i, j, R[j].t1, R[j].t2, R[j].t3, R[j].t4);
            tau[j] = rbd_dot6(g->S[j], g->fC[i]);
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
    w->backward(w, out->tau, out->dtau_dq, out->dtau_dv);
    return RBD_OK;
}

const rbd_method rbd_method_idsva = {
    .name = "idsva",
    .summary = "IDSVA, Singh-Russell-Wensing 2022 Alg. 1, ground frame, subtree block products",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = idsva_init,
    .eval = idsva_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
