/*
 * IDSVA, Algorithm 1 of Singh, Russell & Wensing (2022), line by line in the
 * paper's names: the plain reading of the algorithm, and the oracle the
 * tests hold the fast `idsva` (idsva.c) to.  Every spatial quantity is in
 * ground coordinates; inertias and B are dense 6x6 matrices, vectors
 * 6-vectors, and nothing is fused, skipped or reordered for speed.
 *
 * Bodies are numbered depth-first (rbd.h), so nu(i), the subtree of i, is
 * the dofs [j0, e) of bodies i .. subtree_end[i] - 1 and nu-bar(i), the
 * proper subtree, is [j1, e).  A joint of n_i dofs has n_i columns of S_i;
 * the lines below run once per column.  Besides the derivatives,
 * tau_i = S_i^T f_i^C (the ID that Algorithm 1 differentiates).
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "model/hot.h"
#include "rbdiff/method.h"

typedef struct {
    const rbd_model *m;
    sp_xform *X0;                       /* [nb] ground -> body i */
    double (*v)[6], (*a)[6], (*fC)[6];  /* [nb] v_i, a_i, f_i^C */
    double (*IC)[36], (*BC)[36];        /* [nb] I_i^C, B_i^C, row-major 6x6 */
    double (*S)[6], (*Sd)[6], (*Pd)[6], (*Pdd)[6];   /* [nv] S, S_dot, Psi_dot, Psi_ddot */
    double (*t1)[6], (*t2)[6], (*t3)[6], (*t4)[6];   /* [nv] lines 13-16 */
} ref_ws;

static void carve(ref_ws *w, rbd_arena *a, size_t nb, size_t nv)
{
    RBD_ARENA_TAKE(a, w->X0, nb);
    RBD_ARENA_TAKE(a, w->v, nb); RBD_ARENA_TAKE(a, w->a, nb); RBD_ARENA_TAKE(a, w->fC, nb);
    RBD_ARENA_TAKE(a, w->IC, nb); RBD_ARENA_TAKE(a, w->BC, nb);
    RBD_ARENA_TAKE(a, w->S, nv); RBD_ARENA_TAKE(a, w->Sd, nv);
    RBD_ARENA_TAKE(a, w->Pd, nv); RBD_ARENA_TAKE(a, w->Pdd, nv);
    RBD_ARENA_TAKE(a, w->t1, nv); RBD_ARENA_TAKE(a, w->t2, nv);
    RBD_ARENA_TAKE(a, w->t3, nv); RBD_ARENA_TAKE(a, w->t4, nv);
}

/* ---- dense 6x6 (row-major) and 6-vector helpers ---- */
static void mv(const double A[36], const double x[6], double y[6])     /* y = A x */
{
    for (int r = 0; r < 6; r++) { y[r] = 0; for (int c = 0; c < 6; c++) y[r] += A[6 * r + c] * x[c]; }
}
static void mtv(const double A[36], const double x[6], double y[6])    /* y = A^T x */
{
    for (int r = 0; r < 6; r++) { y[r] = 0; for (int c = 0; c < 6; c++) y[r] += A[6 * c + r] * x[c]; }
}
static void mm(const double A[36], const double B[36], double C[36])   /* C = A B */
{
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            C[6 * r + c] = 0;
            for (int k = 0; k < 6; k++) C[6 * r + c] += A[6 * r + k] * B[6 * k + c];
        }
}
static void mtm(const double A[36], const double B[36], double C[36])  /* C = A^T B */
{
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            C[6 * r + c] = 0;
            for (int k = 0; k < 6; k++) C[6 * r + c] += A[6 * k + r] * B[6 * k + c];
        }
}
static double dot(const double x[6], const double y[6])
{
    double s = 0;
    for (int r = 0; r < 6; r++) s += x[r] * y[r];
    return s;
}
/* the 6x6 matrix of m -> op(x, m), column by column: (x x), (x x*), (x xbar*) of eqs. (6), (7), (43) */
static void op_mat(void (*op)(const double *, const double *, double *), const double x[6], double M[36])
{
    for (int c = 0; c < 6; c++) {
        double e[6] = { 0 }, y[6];
        e[c] = 1;
        op(x, e, y);
        for (int r = 0; r < 6; r++) M[6 * r + c] = y[r];
    }
}

/* Lines 1-23; on a page of its own, being a kernel of some 20 kB (model/hot.h) */
RBD_HOT_PAGE static int ref_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    ref_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva-ref: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const int nv = m->nv;
    const double *qd = x->v, *qdd = x->a, zero[6] = { 0 };
    double *dq = out->dtau_dq, *dv = out->dtau_dv;      /* (r, c) at [r + nv c] */
    for (int i = 0; i < m->nb; i++) {                                           /* line 2 */
        const int pa = m->parent[i], j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const double *vp = pa >= 0 ? w->v[pa] : zero, *ap = pa >= 0 ? w->a[pa] : m->a0;   /* line 1: v_0, a_0 = -a_g */
        sp_xform XJ, Xup, Xinv;
        rbd_jcalc(m, i, x->q, &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], &Xup);
        if (pa >= 0) sp_xform_compose(&Xup, &w->X0[pa], &w->X0[i]); else w->X0[i] = Xup;
        double X[36], Xi[36], Sq[6] = { 0 }, Sqdd[6] = { 0 }, c[6];
        sp_xform_to_mat6(&w->X0[i], X);
        sp_xform_inverse(&w->X0[i], &Xinv);
        sp_xform_to_mat6(&Xinv, Xi);
        for (int j = j0; j < j1; j++) {
            mv(Xi, m->S + 6 * j, w->S[j]);                                      /* S_i in ground coordinates */
            for (int r = 0; r < 6; r++) { Sq[r] += w->S[j][r] * qd[j]; Sqdd[r] += w->S[j][r] * qdd[j]; }
        }
        for (int r = 0; r < 6; r++) w->v[i][r] = vp[r] + Sq[r];                 /* line 3 */
        sp_crm(w->v[i], Sq, c);
        for (int r = 0; r < 6; r++) w->a[i][r] = ap[r] + Sqdd[r] + c[r];        /* line 4 */
        for (int j = j0; j < j1; j++) {
            sp_crm(w->v[i], w->S[j], w->Sd[j]);                                 /* line 5 */
            sp_crm(vp, w->S[j], w->Pd[j]);                                      /* line 6 */
            sp_crm(ap, w->S[j], w->Pdd[j]);
            sp_crm(vp, w->Pd[j], c);
            for (int r = 0; r < 6; r++) w->Pdd[j][r] += c[r];                   /* line 7 */
        }
        double *IC = w->IC[i], *BC = w->BC[i], *v = w->v[i], Ib[36], T[36], Iv[6], M1[36], M2[36], M3[36];
        sp_inertia_to_mat6(&m->inertia[i], Ib);
        mm(Ib, X, T);
        mtm(X, T, IC);                                                          /* line 8: I_i^C = I_i = X0^T I X0 */
        mv(IC, v, Iv);
        op_mat(sp_crf, v, M1); mm(M1, IC, M2);                                  /* (v_i x*) I_i */
        op_mat(sp_crm, v, M1); mm(IC, M1, M3);                                  /* I_i (v_i x) */
        op_mat(sp_crbar, Iv, M1);                                               /* (I_i v_i) xbar* */
        for (int k = 0; k < 36; k++) BC[k] = 0.5 * (M2[k] - M3[k] + M1[k]);     /* line 9 */
        mv(IC, w->a[i], w->fC[i]);
        sp_crf(v, Iv, c);
        for (int r = 0; r < 6; r++) w->fC[i][r] += c[r];                        /* line 10 */
    }
    memset(dq, 0, sizeof(double) * (size_t)nv * (size_t)nv);                   /* entries of unrelated dofs */
    memset(dv, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    for (int i = m->nb - 1; i >= 0; i--) {                                      /* line 12 */
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const int e = m->subtree_end_v[i];    /* nu(i) = [j0, e) */
        const double *IC = w->IC[i], *BC = w->BC[i], *fC = w->fC[i];
        for (int j = j0; j < j1; j++) {
            const double *S = w->S[j];
            double SP[6], BS[6], ISP[6], BPd[6], IPdd[6], fS[6], BtS[6];
            for (int r = 0; r < 6; r++) SP[r] = w->Sd[j][r] + w->Pd[j][r];
            mv(BC, S, BS); mv(IC, SP, ISP); mv(BC, w->Pd[j], BPd); mv(IC, w->Pdd[j], IPdd);
            sp_crbar(fC, S, fS); mtv(BC, S, BtS);
            mv(IC, S, w->t1[j]);                                                /* line 13 */
            for (int r = 0; r < 6; r++) {
                w->t2[j][r] = 2 * BS[r] + ISP[r];                               /* line 14 */
                w->t3[j][r] = 2 * BPd[r] + IPdd[r] + fS[r];                     /* line 15 */
                w->t4[j][r] = 2 * BtS[r];                                       /* line 16 */
            }
            out->tau[j] = dot(S, fC);
        }
        for (int k = j0; k < j1; k++) {
            double SP[6];
            for (int r = 0; r < 6; r++) SP[r] = w->Sd[k][r] + w->Pd[k][r];
            for (int d = j1; d < e; d++) {
                dq[k + (size_t)nv * d] = dot(w->S[k], w->t3[d]);                /* line 17 */
                dv[k + (size_t)nv * d] = dot(w->S[k], w->t2[d]);                /* line 18 */
            }
            for (int d = j0; d < e; d++) {
                dq[d + (size_t)nv * k] = dot(w->t4[d], w->Pd[k]) + dot(w->t1[d], w->Pdd[k]);   /* line 19 */
                dv[d + (size_t)nv * k] = dot(w->t4[d], w->S[k]) + dot(w->t1[d], SP);           /* line 20 */
            }
        }
        const int pa = m->parent[i];
        if (pa >= 0) {                                                          /* line 21 */
            for (int k = 0; k < 36; k++) { w->IC[pa][k] += IC[k]; w->BC[pa][k] += BC[k]; }   /* line 22 */
            for (int r = 0; r < 6; r++) w->fC[pa][r] += fC[r];                  /* line 23 */
        }
    }
    return RBD_OK;
}

extern const rbd_method rbd_method_idsva_ref;

static int ref_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    int rc = rbd_method_init_check(&rbd_method_idsva_ref, m, out);
    if (rc) return rc;
    rbd_arena A = { 0 };
    ref_ws sizing, *w;
    carve(&sizing, &A, (size_t)m->nb, (size_t)m->nv);
    if (!(w = rbd_arena_reserve(&A, sizeof *w, "the idsva-ref workspace"))) return RBD_ENOMEM;
    carve(w, &A, (size_t)m->nb, (size_t)m->nv);
    w->m = m;
    *out = w;
    return RBD_OK;
}

const rbd_method rbd_method_idsva_ref = {
    .name = "idsva-ref",
    .summary = "IDSVA, Singh-Russell-Wensing 2022 Alg. 1 line by line, dense 6x6 (the tests' oracle for idsva)",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = ref_init,
    .eval = ref_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
