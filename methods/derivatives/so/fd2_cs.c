/*
 * fd2-cs: second-order FD derivatives by the complex step of the
 * tangent-linear ABA (Squire & Trapp 1998 on the forward-mode ABA, the FD
 * twin of id2-cs).
 *
 * The first-order method is ABA (RBDA Table 7.1, aba_tpl.h) differentiated
 * line by line along one unit direction (dq, dqd, dtau), written once over
 * T = double complex (abacr.c is the same idea for double only).  With
 * s = S_b e_d the direction's joint axis (dof d of body b), a joint moved in
 * its tangent space turns its frame, dXup_b = -(s x) Xup_b (S constant in
 * the body frame for every joint type here), and:
 *   pass 1  dv_b = (Xup_b v_p) x s (q), s (qd);  dv_i = Xup_i dv_p below b
 *           dc_i = dv_i x vJ_i (+ v_b x s, qd);  dpA_i = dv_i x* I_i v_i + v_i x* I_i dv_i
 *   pass 2  dU = dIA S, dD = S^T dU, du = dtau - S^T dpA,
 *           dIa = dIA - dU UD^T - UD dU^T + UD dD UD^T          (UD = U D^-1)
 *           dpa = dpA + dIa c + Ia dc + dU g - UD dD g + UD du   (g = D^-1 u)
 *           dIA_p += Xup^T (dIa + C + C^T) Xup, C = (s x*) Ia    (C at b, for q)
 *           dpA_p += Xup^T (dpa + s x* pa)                       (s x* pa at b, for q)
 *   pass 3  da'_i = Xup_i da_p + dc_i (+ (Xup_b a_p) x s at b, for q)
 *           dqdd_i = D^-1 (du - dU^T a' - U^T da' - dD qdd_i),  da_i = da'_i + S dqdd_i
 * IA_i depends only on the q of i's proper subtree, so dIA, dU, dD are
 * nonzero only on b's proper ancestors for a q direction; for qd and tau
 * pass 2 carries vectors alone.  Directions along q, qd, tau give the
 * columns of dqdd/dq, dqdd/dqd and M^-1.
 *
 * The complex step then takes that function at q (+) i h e_j: Im / h of its
 * columns is slab j of d2qdd_dq2 and the (:, j, :) planes of d2qdd_dqdv and
 * d2qdd_dqdtau (method.h's layout; the reference's q slab j).  Tangent
 * steps of two different joints commute, so d2qdd_dq2(:, c, j) =
 * d2qdd_dq2(:, j, c) when c and j belong to different bodies: slab j takes
 * the q directions of the bodies up to j's (depth-first order: the
 * shallower, whose ancestor paths are short) and the rest is copied; within
 * a Lie-group joint the two orders differ and both are computed.  d2qdd_dv2
 * needs no step: dqdd/dqd is linear in qd (qdd = M^-1 (tau - C(q, qd) qd
 * - g)), so d2qdd_dv2(:, :, k) = dqdd/dqd at (q, e_k, tau).  No difference
 * is taken and nothing is composed through M^-1, so no cancellation beyond
 * ABA's own: every entry carries the tangent-linear ABA's rounding, which
 * ABA's recursion keeps componentwise where -M^-1 [.] does not (the
 * compositions' floor on deep chains, methods/README.md).  The price:
 * nv complex evaluations of 3 nv directions, O(nv^2 N).
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/perturb/perturb.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "model/joint.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/aba_tpl.h"

typedef double complex cvec6[6];
enum { DIR_Q, DIR_V, DIR_TAU };

typedef struct {
    const rbd_model *m;
    double h;                           /* the complex step */
    spz_xform *Xtree;                   /* [nb] promoted model data */
    spz_inertia *Ib;
    spz_aba_ws s;                       /* ABA at the (complex) point */
    double complex *zq, *zv, *ztau, *zqdd, *col;  /* [nq], [nv] x 3, [nv] */
    cvec6 *vJ, *Iv, *pa, *ap;           /* [nb] S qd, I v, the bias passed up, Xup a_p */
    double complex (*Ia)[36];           /* [nb] IA - U D^-1 U^T */
    cvec6 *UD;                          /* [nv] U D^-1, column by dof */
    double complex *g;                  /* [nv] D^-1 u */
    /* one direction's differentials */
    cvec6 *dv, *dc, *dpA;
    double complex (*dIA)[36];
    cvec6 *dU;                          /* [nv] */
    double complex *dD, *du;            /* [36 nb], [nv] */
    unsigned *seen, *anc, stamp;        /* [nb] visited in pass 2; a proper ancestor carrying dIA */
} fd2_ws;

static void carve(fd2_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, w->Xtree, nb); RBD_ARENA_TAKE(a, w->Ib, nb);
    RBD_ARENA_TAKE(a, w->s.Xup, nb); RBD_ARENA_TAKE(a, w->s.v, nb); RBD_ARENA_TAKE(a, w->s.c, nb);
    RBD_ARENA_TAKE(a, w->s.pA, nb); RBD_ARENA_TAKE(a, w->s.a, nb); RBD_ARENA_TAKE(a, w->s.IA, nb);
    RBD_ARENA_TAKE(a, w->s.U, nv); RBD_ARENA_TAKE(a, w->s.Dinv, 36 * nb); RBD_ARENA_TAKE(a, w->s.u, nv);
    RBD_ARENA_TAKE(a, w->zq, m->nq); RBD_ARENA_TAKE(a, w->zv, nv); RBD_ARENA_TAKE(a, w->ztau, nv);
    RBD_ARENA_TAKE(a, w->zqdd, nv); RBD_ARENA_TAKE(a, w->col, nv);
    RBD_ARENA_TAKE(a, w->vJ, nb); RBD_ARENA_TAKE(a, w->Iv, nb); RBD_ARENA_TAKE(a, w->pa, nb);
    RBD_ARENA_TAKE(a, w->ap, nb); RBD_ARENA_TAKE(a, w->Ia, nb); RBD_ARENA_TAKE(a, w->UD, nv);
    RBD_ARENA_TAKE(a, w->g, nv);
    RBD_ARENA_TAKE(a, w->dv, nb); RBD_ARENA_TAKE(a, w->dc, nb); RBD_ARENA_TAKE(a, w->dpA, nb);
    RBD_ARENA_TAKE(a, w->dIA, nb); RBD_ARENA_TAKE(a, w->dU, nv); RBD_ARENA_TAKE(a, w->dD, 36 * nb);
    RBD_ARENA_TAKE(a, w->du, nv); RBD_ARENA_TAKE(a, w->seen, nb); RBD_ARENA_TAKE(a, w->anc, nb);
    w->s.cs = NULL;
    w->s.flat = NULL;
}

/* ABA at (zq, zv, ztau), then what the directions reuse: S qd, I v, Ia,
 * U D^-1, D^-1 u, the bias force passed to the parent, Xup a_p. */
static int base_point(fd2_ws *w)
{
    const rbd_model *m = w->m;
    const int bad = spz_aba(m, w->Xtree, w->Ib, &w->s, w->zq, w->zv, w->ztau, w->zqdd);
    if (bad >= 0)
        return rbd_fail(RBD_ESINGULAR, "fd2-cs: joint '%s' (body '%s'): S^T IA S is singular at this configuration",
                        m->joint_name[bad], m->body_name[bad]);
    for (int i = 0; i < m->nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const double *S = m->S + 6 * v0;
        const double complex *Dinv = w->s.Dinv + 36 * i;
        double complex UD[6][6], a0[6];
        for (int r = 0; r < 6; r++) {
            w->vJ[i][r] = 0;
            for (int d = 0; d < n; d++) w->vJ[i][r] += S[6 * d + r] * w->zv[v0 + d];
            a0[r] = m->a0[r];
        }
        spz_inertia_motion(&w->Ib[i], w->s.v[i], w->Iv[i]);
        spz_aba_Ia(m, i, w->s.IA[i], (const double complex (*)[6])w->s.U, Dinv, UD, w->Ia[i]);
        for (int k = 0; k < n; k++) {
            double complex t = 0;
            for (int l = 0; l < n; l++) t += Dinv[n * k + l] * w->s.u[v0 + l];
            w->g[v0 + k] = t;
            memcpy(w->UD[v0 + k], UD[k], sizeof UD[k]);
        }
        for (int r = 0; r < 6; r++) {
            double complex t = w->s.pA[i][r];
            for (int c = 0; c < 6; c++) t += w->Ia[i][6 * r + c] * w->s.c[i][c];
            for (int k = 0; k < n; k++) t += UD[k][r] * w->s.u[v0 + k];
            w->pa[i][r] = t;
        }
        spz_xform_motion(&w->s.Xup[i], p >= 0 ? w->s.a[p] : a0, w->ap[i]);
    }
    return RBD_OK;
}

/* Pass 1 over b's subtree [b, e): dv, dc, dpA. */
static void pass1(fd2_ws *w, int kind, int b, int e, const double complex s[6])
{
    const rbd_model *m = w->m;
    double complex t[6], u[6];
    for (int i = b; i < e; i++) {
        if (i > b) spz_xform_motion(&w->s.Xup[i], w->dv[m->parent[i]], w->dv[i]);
        else if (kind == DIR_V) memcpy(w->dv[b], s, sizeof w->dv[b]);
        else if (kind == DIR_TAU) memset(w->dv[b], 0, sizeof w->dv[b]);
        else {                                              /* (Xup_b v_p) x s */
            double complex vp[6] = { 0 };
            if (m->parent[b] >= 0) spz_xform_motion(&w->s.Xup[b], w->s.v[m->parent[b]], vp);
            spz_crm(vp, s, w->dv[b]);
        }
        spz_crm(w->dv[i], w->vJ[i], w->dc[i]);
        if (i == b && kind == DIR_V) {
            spz_crm(w->s.v[b], s, t);
            for (int r = 0; r < 6; r++) w->dc[b][r] += t[r];
        }
        spz_crf(w->dv[i], w->Iv[i], w->dpA[i]);
        spz_inertia_motion(&w->Ib[i], w->dv[i], t);
        spz_crf(w->s.v[i], t, u);
        for (int r = 0; r < 6; r++) w->dpA[i][r] += u[r];
    }
}

/* dIa of a proper ancestor i (dU, dD stored for pass 3). */
static void ancestor_inertia(fd2_ws *w, int i, double complex dIa[36])
{
    const rbd_model *m = w->m;
    const int v0 = m->idx_v[i], n = m->nv_of[i];
    const double *S = m->S + 6 * v0;
    double complex *dD = w->dD + 36 * i, E[6][6];
    for (int k = 0; k < n; k++)
        for (int r = 0; r < 6; r++) {
            double complex t = 0;
            for (int c = 0; c < 6; c++) t += w->dIA[i][6 * r + c] * S[6 * k + c];
            w->dU[v0 + k][r] = t;
        }
    for (int a = 0; a < n; a++)
        for (int k = 0; k < n; k++) {
            double complex t = 0;
            for (int r = 0; r < 6; r++) t += S[6 * a + r] * w->dU[v0 + k][r];
            dD[n * a + k] = t;
        }
    for (int k = 0; k < n; k++)                             /* E = UD dD - dU, 6 x n */
        for (int r = 0; r < 6; r++) {
            double complex t = -w->dU[v0 + k][r];
            for (int l = 0; l < n; l++) t += w->UD[v0 + l][r] * dD[n * l + k];
            E[k][r] = t;
        }
    for (int r = 0; r < 6; r++)                             /* dIA + E UD^T - dU UD^T ... symmetrised: */
        for (int c = r; c < 6; c++) {                       /* dIA - dU UD^T - UD dU^T + UD dD UD^T */
            double complex t = w->dIA[i][6 * r + c];
            for (int k = 0; k < n; k++) t += E[k][r] * w->UD[v0 + k][c] - w->UD[v0 + k][r] * w->dU[v0 + k][c];
            dIa[6 * r + c] = dIa[6 * c + r] = t;
        }
}

/* Pass 2 over b's subtree, leaves first, then b's ancestors: du, dpa, and
 * dIa on the ancestors, each passed to the parent. */
static void pass2(fd2_ws *w, int kind, int b, int e, const double complex s[6], int j)
{
    const rbd_model *m = w->m;
    for (int i = m->parent[b]; i >= 0; i = m->parent[i]) {
        memset(w->dIA[i], 0, sizeof w->dIA[i]);
        memset(w->dpA[i], 0, sizeof w->dpA[i]);
    }
    for (int i = e - 1; i >= 0; i = i > b ? i - 1 : m->parent[i]) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const int heavy = kind == DIR_Q && i < b;
        const double *S = m->S + 6 * v0;
        double complex dIa[36], dpa[6], t[6], dg[6];
        w->seen[i] = w->stamp;
        if (heavy) { w->anc[i] = w->stamp; ancestor_inertia(w, i, dIa); }
        for (int k = 0; k < n; k++) {
            double complex x = kind == DIR_TAU && v0 + k == j ? 1 : 0;
            for (int r = 0; r < 6; r++) x -= S[6 * k + r] * w->dpA[i][r];
            w->du[v0 + k] = x;
        }
        for (int k = 0; k < n; k++) {                       /* dg = du - dD g: UD dg + dU g is d(U D^-1 u) */
            dg[k] = w->du[v0 + k];
            if (heavy) for (int l = 0; l < n; l++) dg[k] -= w->dD[36 * i + n * k + l] * w->g[v0 + l];
        }
        for (int r = 0; r < 6; r++) {
            double complex x = w->dpA[i][r];
            if (i >= b)
                for (int c = 0; c < 6; c++) x += w->Ia[i][6 * r + c] * w->dc[i][c];
            for (int k = 0; k < n; k++) x += w->UD[v0 + k][r] * dg[k];
            if (heavy) {
                for (int c = 0; c < 6; c++) x += dIa[6 * r + c] * w->s.c[i][c];
                for (int k = 0; k < n; k++) x += w->dU[v0 + k][r] * w->g[v0 + k];
            }
            dpa[r] = x;
        }
        if (p < 0) continue;
        if (i == b && kind == DIR_Q) {                      /* dIa_b = 0: Xup^T (C + C^T) Xup, C = (s x*) Ia */
            double complex C[36], col[6];
            for (int c = 0; c < 6; c++) {
                for (int r = 0; r < 6; r++) col[r] = w->Ia[b][6 * r + c];
                spz_crf(s, col, t);
                for (int r = 0; r < 6; r++) C[6 * r + c] = t[r];
            }
            for (int r = 0; r < 6; r++)
                for (int c = r; c < 6; c++) dIa[6 * r + c] = dIa[6 * c + r] = C[6 * r + c] + C[6 * c + r];
            spz_crf(s, w->pa[b], t);
            for (int r = 0; r < 6; r++) dpa[r] += t[r];
        }
        if (heavy || (i == b && kind == DIR_Q)) spz_sym6_to_parent(&w->s.Xup[i], dIa, w->dIA[p]);
        spz_xform_T_force(&w->s.Xup[i], dpa, t);
        for (int r = 0; r < 6; r++) w->dpA[p][r] += t[r];
    }
}

/* Pass 3, root to leaves: da, and the column dqdd into w->col. */
static void pass3(fd2_ws *w, int kind, int b, int e, const double complex s[6])
{
    const rbd_model *m = w->m;
    double complex (*da)[6] = w->dv;                        /* pass 1's dv is spent */
    for (int i = 0; i < m->nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const int seen = w->seen[i] == w->stamp, heavy = w->anc[i] == w->stamp;
        const double *S = m->S + 6 * v0;
        const double complex *Dinv = w->s.Dinv + 36 * i;
        double complex dap[6] = { 0 }, apr[6], y[6], t[6];
        if (p >= 0) spz_xform_motion(&w->s.Xup[i], da[p], dap);
        if (i >= b && i < e)
            for (int r = 0; r < 6; r++) dap[r] += w->dc[i][r];
        if (i == b && kind == DIR_Q) {
            spz_crm(w->ap[b], s, t);
            for (int r = 0; r < 6; r++) dap[r] += t[r];
        }
        for (int r = 0; r < 6; r++) apr[r] = w->ap[i][r] + w->s.c[i][r];
        for (int k = 0; k < n; k++) {
            double complex x = seen ? w->du[v0 + k] : 0;
            for (int r = 0; r < 6; r++) x -= w->s.U[v0 + k][r] * dap[r];
            if (heavy) {
                for (int r = 0; r < 6; r++) x -= w->dU[v0 + k][r] * apr[r];
                for (int l = 0; l < n; l++) x -= w->dD[36 * i + n * k + l] * w->zqdd[v0 + l];
            }
            y[k] = x;
        }
        for (int k = 0; k < n; k++) {
            double complex x = 0;
            for (int l = 0; l < n; l++) x += Dinv[n * k + l] * y[l];
            w->col[v0 + k] = x;
        }
        for (int r = 0; r < 6; r++) {
            double complex x = dap[r];
            for (int k = 0; k < n; k++) x += S[6 * k + r] * w->col[v0 + k];
            da[i][r] = x;
        }
    }
}

/* Column of dqdd along unit direction `kind` of dof j = idx_v[b] + d into w->col. */
static void tl_column(fd2_ws *w, int kind, int b, int d)
{
    const rbd_model *m = w->m;
    const int j = m->idx_v[b] + d;
    double complex s[6];
    int e = b + 1;                                          /* b's subtree is [b, e): depth-first numbering */
    if (kind != DIR_TAU)
        while (e < m->nb && m->parent[e] >= b) e++;
    for (int r = 0; r < 6; r++) s[r] = m->S[6 * j + r];
    w->stamp++;
    pass1(w, kind, b, e, s);
    pass2(w, kind, b, e, s, j);
    pass3(w, kind, b, e, s);
}

/* ---------------------------------------------------------------- the method */

static void fd2_cs_fini(void *p)
{
    free(p);                                                /* the workspace heads its arena */
}

extern const rbd_method rbd_method_fd2_cs;

static int fd2_cs_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_fd2_cs, m, out);
    if (rc || (rc = rbd_so_check_size(m, "fd2-cs", NULL))) return rc;
    rbd_options d;
    rbd_options_default(&d);
    const double h = o ? o->cs_step : d.cs_step;
    if (!(h > 0) || h > RBD_CS_STEP_MAX)
        return rbd_fail(RBD_EINVAL, "fd2-cs: complex step h = %g must be in (0, %g]", h, RBD_CS_STEP_MAX);
    rbd_arena a = { 0 };
    fd2_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the fd2-cs workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);
    w->m = m;
    w->h = h;
    rbd_perturb_promote(m, w->Xtree, w->Ib);
    *out = w;
    return RBD_OK;
}

/* The q slab of dof j (body ib): Im / h of dqdd/dq, dqdd/dqd, M^-1 at q (+) i h e_j. */
static int q_slab(fd2_ws *w, const double *q, int ib, int dd, rbd_derivs *out)
{
    const rbd_model *m = w->m;
    const size_t nv = (size_t)m->nv, nn = nv * nv, j = (size_t)m->idx_v[ib] + dd;
    const int iq = m->idx_q[ib];
    double complex zd[6] = { 0 }, qi[7];
    zd[dd] = 1;
    for (int k = 0; k < m->nq_of[ib]; k++) qi[k] = q[iq + k];
    spz_integrate_joint(&m->joint[ib], qi, zd, w->h * I, w->zq + iq);
    int rc = base_point(w);
    for (int k = 0; k < m->nq_of[ib]; k++) w->zq[iq + k] = q[iq + k];
    if (rc) return rc;
    double *dst[3] = { out->d2qdd_dq2 + nn * j, out->d2qdd_dqdv + nv * j, out->d2qdd_dqdtau + nv * j };
    const size_t stride[3] = { nv, nn, nn };                /* (:, c, j) for dq2; (:, j, c) for the mixed ones */
    for (int kind = DIR_Q; kind <= DIR_TAU; kind++)
        for (int b = 0; b < (kind == DIR_Q ? ib + 1 : m->nb); b++)  /* dq2: the bodies up to ib (symmetry) */
            for (int d = 0; d < m->nv_of[b]; d++) {
                const size_t c = (size_t)m->idx_v[b] + d;
                tl_column(w, kind, b, d);
                for (size_t r = 0; r < nv; r++) dst[kind][stride[kind] * c + r] = cimag(w->col[r]) / w->h;
            }
    return RBD_OK;
}

/* Slabs k of every tensor (header): q slabs by the complex step, v slabs
 * as dqdd/dqd at (q, e_k, tau). */
static int fd2_cs_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fd2_ws *w = p;
    const rbd_model *m = w->m;
    const size_t nv = (size_t)m->nv, nn = nv * nv;
    double *t[1 + RBD_SO_NTENSORS];
    rbd_so_output_ptrs(RBD_FD_SO_DERIVS, out, t);
    if (!x || !x->q || !x->v || !x->tau) return rbd_fail(RBD_EINVAL, "fd2-cs: null state vector");
    for (int k = 0; k <= RBD_SO_NTENSORS; k++)
        if (!t[k]) return rbd_fail(RBD_EINVAL, "fd2-cs: null output buffer");
    for (int k = 0; k < m->nq; k++) w->zq[k] = x->q[k];
    for (size_t k = 0; k < nv; k++) { w->zv[k] = x->v[k]; w->ztau[k] = x->tau[k]; }
    int rc = base_point(w);
    for (size_t k = 0; k < nv && !rc; k++) out->qdd[k] = creal(w->zqdd[k]);
    for (int b = 0; b < m->nb && !rc; b++)
        for (int d = 0; d < m->nv_of[b] && !rc; d++) rc = q_slab(w, x->q, b, d, out);
    for (int b = 0; b < m->nb && !rc; b++)                  /* (:, c, k) = (:, k, c), c's body after k's */
        for (size_t k = (size_t)m->idx_v[b]; k < (size_t)m->idx_v[b] + (size_t)m->nv_of[b]; k++)
            for (size_t c = (size_t)m->idx_v[b] + (size_t)m->nv_of[b]; c < nv; c++)
                memcpy(out->d2qdd_dq2 + nn * k + nv * c, out->d2qdd_dq2 + nn * c + nv * k, sizeof(double) * nv);
    for (size_t k = 0; k < nv && !rc; k++) {
        for (size_t c = 0; c < nv; c++) w->zv[c] = c == k;
        if ((rc = base_point(w))) break;
        for (int b = 0; b < m->nb; b++)
            for (int d = 0; d < m->nv_of[b]; d++) {
                const size_t c = (size_t)m->idx_v[b] + d;
                tl_column(w, DIR_V, b, d);
                for (size_t r = 0; r < nv; r++) out->d2qdd_dv2[nn * k + nv * c + r] = creal(w->col[r]);
            }
    }
    return rc;
}

const rbd_method rbd_method_fd2_cs = {
    .name = "fd2-cs",
    .summary = "complex step (h = 1e-20) of the tangent-linear ABA's dqdd/dq, dqdd/dv, M^-1: no composition through M^-1, O(nv^2 N)",
    .output = RBD_FD_SO_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fd2_cs_init,
    .eval = fd2_cs_eval,
    .fini = fd2_cs_fini,
};
