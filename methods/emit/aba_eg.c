/*
 * Forward dynamics traced on the expression graph: the articulated-body
 * algorithm in body coordinates (RBDA Table 7.1), as aba.c, so that
 * fdsva-emit's qdd is ABA's, as fdsva's is (M^-1 (tau - C) by LTDL lost up
 * to 38x ABA's accuracy on the audited chains: methods/README.md, "Issue
 * 32, fifth stop").  A joint of n dofs has an n x n D = S^T U, inverted by
 * Gauss-Jordan without pivoting (D is symmetric positive definite).
 */
#include <stdlib.h>
#include "emit/emit.h"
#include "emit/spatial_eg.h"

typedef struct { eg_id X[36], v[6], c[6], IA[36], pA[6], a[6], U[36], Dinv[36], u[6]; } aba_body;

/* Ai = A^-1 for an n x n symmetric positive definite A (row-major, n <= 6) */
static void inverse(eg_graph *g, int n, const eg_id *A, eg_id *Ai)
{
    eg_id W[6][12];
    for (int r = 0; r < n; r++)
        for (int c = 0; c < 2 * n; c++) W[r][c] = c < n ? A[n * r + c] : (c - n == r ? g->one : g->zero);
    for (int p = 0; p < n; p++) {
        eg_id piv = eg_div(g, g->one, W[p][p]);
        for (int c = 0; c < 2 * n; c++) W[p][c] = eg_mul(g, W[p][c], piv);
        for (int r = 0; r < n; r++) {
            if (r == p) continue;
            eg_id f = W[r][p];
            for (int c = 0; c < 2 * n; c++) W[r][c] = eg_sub(g, W[r][c], eg_mul(g, f, W[p][c]));
        }
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) Ai[n * r + c] = W[r][n + c];
}

static void S_of(eg_graph *g, const rbd_model *m, int j, eg_id S[6])
{
    for (int r = 0; r < 6; r++) S[r] = eg_const(g, m->S[6 * j + r]);
}

/* Pass 1: Xup, v, c, I^A = I, p^A = v x* I v. */
static void pass1(eg_graph *g, const rbd_model *m, aba_body *B)
{
    const eg_xform ground = { { g->one, g->zero, g->zero, g->zero, g->one, g->zero, g->zero, g->zero, g->one },
                              { g->zero, g->zero, g->zero } };
    for (int i = 0; i < m->nb; i++) {
        aba_body *b = &B[i];
        eg_xform XJ, Xt, Xup;
        eg_jcalc(g, m, i, &XJ);
        eg_xform_const(g, &m->Xtree[i], &Xt);
        eg_xform_compose(g, &XJ, &Xt, &Xup);
        eg_xform_to_mat6(g, &Xup, b->X);
        eg_id vJ[6], S[6], Iv[6];
        for (int r = 0; r < 6; r++) vJ[r] = g->zero;
        for (int j = m->idx_v[i]; j < m->idx_v[i] + m->nv_of[i]; j++) {
            S_of(g, m, j, S);
            for (int r = 0; r < 6; r++) vJ[r] = eg_add(g, vJ[r], eg_mul(g, S[r], eg_in(g, EG_IN_V, j)));
        }
        if (m->parent[i] >= 0) {
            eg_mv(g, b->X, B[m->parent[i]].v, b->v);
            for (int r = 0; r < 6; r++) b->v[r] = eg_add(g, b->v[r], vJ[r]);
        } else {
            for (int r = 0; r < 6; r++) b->v[r] = vJ[r];
        }
        eg_crm(g, b->v, vJ, b->c);
        eg_inertia_to(g, &ground, &m->inertia[i], b->IA);
        eg_mv(g, b->IA, b->v, Iv);
        eg_crf(g, b->v, Iv, b->pA);
    }
}

/* Pass 2: U = I^A S, D = S^T U, u = tau - S^T p^A; the articulated inertia and bias force to the parent. */
static void pass2(eg_graph *g, const rbd_model *m, aba_body *B)
{
    for (int i = m->nb - 1; i >= 0; i--) {
        aba_body *b = &B[i];
        const int j0 = m->idx_v[i], n = m->nv_of[i];
        eg_id S[6][6], D[36], Ia[36], pa[6], T[36], y[6];
        for (int k = 0; k < n; k++) {
            S_of(g, m, j0 + k, S[k]);
            eg_id Uk[6];
            eg_mv(g, b->IA, S[k], Uk);
            for (int r = 0; r < 6; r++) b->U[6 * k + r] = Uk[r];      /* column k of U */
            b->u[k] = eg_sub(g, eg_in(g, EG_IN_U, j0 + k), eg_dot(g, S[k], b->pA, 6));
        }
        for (int k = 0; k < n; k++)
            for (int l = 0; l < n; l++) D[n * k + l] = eg_dot(g, S[k], b->U + 6 * l, 6);
        inverse(g, n, D, b->Dinv);
        const int pa_i = m->parent[i];
        if (pa_i < 0) continue;
        eg_id UD[36], Du[6];                          /* UD = U D^-1 (6 x n, by columns), Du = D^-1 u */
        for (int k = 0; k < n; k++) {
            Du[k] = g->zero;
            for (int l = 0; l < n; l++) Du[k] = eg_add(g, Du[k], eg_mul(g, b->Dinv[n * k + l], b->u[l]));
            for (int r = 0; r < 6; r++) {
                UD[6 * k + r] = g->zero;
                for (int l = 0; l < n; l++) UD[6 * k + r] = eg_add(g, UD[6 * k + r], eg_mul(g, b->U[6 * l + r], b->Dinv[n * l + k]));
            }
        }
        for (int r = 0; r < 6; r++)
            for (int c = r; c < 6; c++) {                 /* I^a = I^A - U D^-1 U^T, symmetric */
                eg_id s = b->IA[6 * r + c];
                for (int k = 0; k < n; k++) s = eg_sub(g, s, eg_mul(g, UD[6 * k + r], b->U[6 * k + c]));
                Ia[6 * r + c] = Ia[6 * c + r] = s;
            }
        eg_mv(g, Ia, b->c, pa);                           /* p^a = p^A + I^a c + U D^-1 u */
        for (int r = 0; r < 6; r++) {
            pa[r] = eg_add(g, b->pA[r], pa[r]);
            for (int k = 0; k < n; k++) pa[r] = eg_add(g, pa[r], eg_mul(g, b->U[6 * k + r], Du[k]));
        }
        eg_mm(g, Ia, b->X, T);
        aba_body *p = &B[pa_i];
        for (int r = 0; r < 6; r++)
            for (int c = r; c < 6; c++) {                 /* I^A_parent += X^T I^a X */
                eg_id s = p->IA[6 * r + c];
                for (int k = 0; k < 6; k++) s = eg_add(g, s, eg_mul(g, b->X[6 * k + r], T[6 * k + c]));
                p->IA[6 * r + c] = p->IA[6 * c + r] = s;
            }
        eg_mtv(g, b->X, pa, y);
        for (int r = 0; r < 6; r++) p->pA[r] = eg_add(g, p->pA[r], y[r]);
    }
}

/* Pass 3: a' = Xup a_parent + c (a_0 = -a_g), qdd = D^-1 (u - U^T a'), a = a' + S qdd. */
static void pass3(eg_graph *g, const rbd_model *m, aba_body *B, eg_id *qdd)
{
    eg_id a0[6];
    for (int r = 0; r < 6; r++) a0[r] = eg_const(g, m->a0[r]);
    for (int i = 0; i < m->nb; i++) {
        aba_body *b = &B[i];
        const int j0 = m->idx_v[i], n = m->nv_of[i];
        eg_id ap[6], w[6], S[6];
        eg_mv(g, b->X, m->parent[i] >= 0 ? B[m->parent[i]].a : a0, ap);
        for (int r = 0; r < 6; r++) ap[r] = eg_add(g, ap[r], b->c[r]);
        for (int k = 0; k < n; k++) w[k] = eg_sub(g, b->u[k], eg_dot(g, b->U + 6 * k, ap, 6));
        for (int k = 0; k < n; k++) {
            eg_id s = g->zero;
            for (int l = 0; l < n; l++) s = eg_add(g, s, eg_mul(g, b->Dinv[n * k + l], w[l]));
            qdd[j0 + k] = s;
        }
        for (int r = 0; r < 6; r++) b->a[r] = ap[r];
        for (int k = 0; k < n; k++) {
            S_of(g, m, j0 + k, S);
            for (int r = 0; r < 6; r++) b->a[r] = eg_add(g, b->a[r], eg_mul(g, S[r], qdd[j0 + k]));
        }
    }
}

int eg_aba(eg_graph *g, const rbd_model *m, eg_id *qdd)
{
    aba_body *B = malloc(sizeof *B * (size_t)m->nb);
    if (!B) return rbd_fail(RBD_ENOMEM, "emit: out of memory tracing ABA");
    pass1(g, m, B);
    pass2(g, m, B);
    pass3(g, m, B, qdd);
    free(B);
    return g->failed ? rbd_fail(RBD_ENOMEM, "emit: out of memory for the expression graph") : RBD_OK;
}
