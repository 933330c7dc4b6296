/*
 * id2-cs: second-order ID derivatives by the complex step of a first-order
 * analytical method (Squire & Trapp 1998 on top of the tangent-linear RNEA).
 *
 * The first-order method is the tangent-linear (forward-mode) RNEA in body
 * coordinates, written here once over T = double complex: for a direction
 * (dq, dv, da) it propagates the differentials of RNEA's recursions (RBDA
 * Table 5.1, the source rnea_tpl.h runs):
 *   v_i = X_i v_p + S_i qd_i          dv_i = X_i dv_p + (X_i v_p) x S_i dq_i + S_i dqd_i
 *   a_i = X_i a_p + S_i qdd_i         da_i = X_i da_p + (X_i a_p) x S_i dq_i + S_i dqdd_i
 *         + v_i x S_i qd_i                    + dv_i x S_i qd_i + v_i x S_i dqd_i
 *   f_i = I_i a_i + v_i x* I_i v_i    df_i = I_i da_i + dv_i x* I_i v_i + v_i x* I_i dv_i
 *   tau_i = S_i^T f_i,                dtau_i = S_i^T df_i,
 *   f_p += X_i^T f_i                  df_p += X_i^T (df_i + S_i dq_i x* f_i)
 * using dX_i = -(S_i dq_i) x X_i: a joint moved in its tangent space,
 * q (+) d = q exp(d), turns the body frame by S_i d (S constant in the body
 * frame for every joint type here), so Lie-group joints need nothing more.
 * A unit direction along dof j of body b is nonzero only in b's subtree
 * (forward) and along b's ancestors (backward): O(subtree + depth) a column.
 * Directions e_j in q, v and a give the columns of dtau/dq, dtau/dv and M.
 *
 * The perturbation driver (perturb.h) then takes these three matrices and
 * tau, as one y = f(q, v, a), at q (+) i h e_k and v + i h e_k: slab k of
 * d2tau/dq2 and dM/dq is Im y(q (+) i h e_k) / h, of d2tau/dqdv and
 * d2tau/dv2 Im y(v + i h e_k) / h (method.h's layout: the slab along the
 * second variable).  No difference is taken, so no cancellation: every
 * entry is exact to rounding, as id-cs's first-order columns are; the
 * price is 2 nv complex evaluations of 3 nv directional passes.
 * Why not the complex step of idsva: idsva exists for double only, and a
 * second instantiation would fork its fast kernels; the tangent-linear
 * RNEA is short, reads as RNEA, and is independent of IDSVA-SO's algebra.
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include "derivatives/perturb/perturb.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/rnea_tpl.h"

typedef double complex cvec6[6];

typedef struct {
    spz_xform *Xtree, *Xup;          /* [nb] promoted model data; the point's transforms */
    spz_inertia *Ib;
    cvec6 *v, *a, *f, *vJ, *Iv;      /* [nb] RNEA at the point (f accumulated), S qd, I v */
    cvec6 *dv, *da, *df;             /* [nb] one direction's differentials */
} tl_ctx;

/* ny = three nv x nv matrices (dtau/dq, dtau/dv, M) and tau */
static size_t tl_ny(const rbd_model *m)
{
    return 3 * (size_t)m->nv * m->nv + (size_t)m->nv;
}

static void tl_carve(void *p, rbd_arena *ar, const rbd_model *m)
{
    tl_ctx *z = p;
    RBD_ARENA_TAKE(ar, z->Xtree, m->nb); RBD_ARENA_TAKE(ar, z->Xup, m->nb); RBD_ARENA_TAKE(ar, z->Ib, m->nb);
    RBD_ARENA_TAKE(ar, z->v, m->nb); RBD_ARENA_TAKE(ar, z->a, m->nb); RBD_ARENA_TAKE(ar, z->f, m->nb);
    RBD_ARENA_TAKE(ar, z->vJ, m->nb); RBD_ARENA_TAKE(ar, z->Iv, m->nb);
    RBD_ARENA_TAKE(ar, z->dv, m->nb); RBD_ARENA_TAKE(ar, z->da, m->nb); RBD_ARENA_TAKE(ar, z->df, m->nb);
}

static int tl_setup(void *p, const rbd_model *m)
{
    tl_ctx *z = p;
    rbd_perturb_promote(m, z->Xtree, z->Ib);
    return RBD_OK;
}

enum { DIR_Q, DIR_V, DIR_A };

/* X_i x_p (x_p = 0 at the root for v, a0 for a) */
static void parent_term(const rbd_model *m, const tl_ctx *z, int i, const cvec6 *x, int accel, double complex out[6])
{
    double complex zero[6] = { 0 };
    if (m->parent[i] >= 0) { spz_xform_motion(&z->Xup[i], x[m->parent[i]], out); return; }
    for (int r = 0; r < 6; r++) zero[r] = accel ? m->a0[r] : 0;
    spz_xform_motion(&z->Xup[i], zero, out);
}

/* The column of dtau along unit direction `dir` of dof dd of body b. */
static void tl_column(const rbd_model *m, tl_ctx *z, int dir, int b, int dd, double complex *col)
{
    const double *s = m->S + 6 * (m->idx_v[b] + dd);
    double complex t[6], u[6], w[6];
    int e = b + 1;                                  /* b's subtree is [b, e): depth-first numbering */
    while (e < m->nb && m->parent[e] >= b) e++;
    for (int r = 0; r < 6; r++) { z->dv[b][r] = 0; z->da[b][r] = 0; }
    if (dir == DIR_Q) {                             /* (X_b x_p) x S dq */
        double complex sz[6];
        for (int r = 0; r < 6; r++) sz[r] = s[r];
        parent_term(m, z, b, z->v, 0, t);
        spz_crm(t, sz, z->dv[b]);
        parent_term(m, z, b, z->a, 1, t);
        spz_crm(t, sz, z->da[b]);
    } else if (dir == DIR_V) {                      /* S dqd, and v_b x S dqd */
        double complex sz[6];
        for (int r = 0; r < 6; r++) sz[r] = z->dv[b][r] = s[r];
        spz_crm(z->v[b], sz, z->da[b]);
    } else {
        for (int r = 0; r < 6; r++) z->da[b][r] = s[r];
    }
    for (int i = b; i < e; i++) {
        if (i > b) {
            spz_xform_motion(&z->Xup[i], z->dv[m->parent[i]], z->dv[i]);
            spz_xform_motion(&z->Xup[i], z->da[m->parent[i]], z->da[i]);
        }
        spz_crm(z->dv[i], z->vJ[i], t);             /* dv_i x S qd_i */
        for (int r = 0; r < 6; r++) z->da[i][r] += t[r];
        spz_inertia_motion(&z->Ib[i], z->da[i], z->df[i]);
        spz_crf(z->dv[i], z->Iv[i], t);
        spz_inertia_motion(&z->Ib[i], z->dv[i], u);
        spz_crf(z->v[i], u, w);
        for (int r = 0; r < 6; r++) z->df[i][r] += t[r] + w[r];
    }
    memset(col, 0, sizeof *col * (size_t)m->nv);
    for (int i = e - 1; i >= 0; i = i > b ? i - 1 : m->parent[i]) {   /* the subtree, then b's ancestors */
        const double *S = m->S + 6 * m->idx_v[i];
        for (int d = 0; d < m->nv_of[i]; d++) {
            double complex x = 0;
            for (int r = 0; r < 6; r++) x += S[6 * d + r] * z->df[i][r];
            col[m->idx_v[i] + d] = x;
        }
        const int p = m->parent[i];
        if (p < 0) continue;
        for (int r = 0; r < 6; r++) t[r] = z->df[i][r];
        if (i == b && dir == DIR_Q) {               /* + S dq x* f_b */
            double complex sz[6];
            for (int r = 0; r < 6; r++) sz[r] = s[r];
            spz_crf(sz, z->f[i], u);
            for (int r = 0; r < 6; r++) t[r] += u[r];
        }
        spz_xform_T_force(&z->Xup[i], t, u);
        for (int r = 0; r < 6; r++)                 /* an ancestor of b holds only what its one child passes */
            z->df[p][r] = p < b ? u[r] : z->df[p][r] + u[r];
    }
}

/* y = [dtau/dq; dtau/dv; M; tau] at a complex point (q, qd, qdd). */
static int tl_f(void *p, const rbd_model *m, const double complex *q, const double complex *qd,
                const double complex *qdd, double complex *y)
{
    tl_ctx *z = p;
    const size_t nv = (size_t)m->nv, nn = nv * nv;
    spz_rnea(m, z->Xtree, z->Ib, z->Xup, z->v, z->a, z->f, q, qd, qdd, y + 3 * nn);
    for (int i = 0; i < m->nb; i++) {
        const double *S = m->S + 6 * m->idx_v[i];
        for (int r = 0; r < 6; r++) {
            z->vJ[i][r] = 0;
            for (int d = 0; d < m->nv_of[i]; d++) z->vJ[i][r] += S[6 * d + r] * qd[m->idx_v[i] + d];
        }
        spz_inertia_motion(&z->Ib[i], z->v[i], z->Iv[i]);
    }
    for (int b = 0; b < m->nb; b++)
        for (int dd = 0; dd < m->nv_of[b]; dd++) {
            const size_t j = (size_t)m->idx_v[b] + dd;
            for (int dir = DIR_Q; dir <= DIR_A; dir++) tl_column(m, z, dir, b, dd, y + (size_t)dir * nn + nv * j);
        }
    return RBD_OK;
}

/* ---------------------------------------------------------------- the method */

extern const rbd_method rbd_method_id2_cs;

static const rbd_perturb_fn tl_cs = {
    .method = &rbd_method_id2_cs, .scheme = RBD_PERTURB_CS, .du = 0, .ny = tl_ny, .ctx_size = sizeof(tl_ctx),
    .carve = tl_carve, .setup = tl_setup, .fz = tl_f,
};

typedef struct {
    const rbd_model *m;
    void *pws;                      /* the perturbation driver's */
    double *y, *dy_dq, *dy_dv;      /* [ny], [ny x nv] twice */
} id2_cs_ws;

static void id2_cs_fini(void *p)
{
    id2_cs_ws *w = p;
    if (!w) return;
    if (w->pws) rbd_perturb_fini(w->pws);
    free(w->y);
    free(w);
}

static int id2_cs_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_id2_cs, m, out);
    if (rc || (rc = rbd_so_check_size(m, "id2-cs", NULL))) return rc;
    const size_t ny = tl_ny(m), nv = (size_t)m->nv;
    if ((rc = rbd_check_memory("id2-cs: its columns (6 nv^3 + 3 nv^2 doubles)", 8.0 * ny * (2.0 * nv + 1))))
        return rc;
    id2_cs_ws *w = calloc(1, sizeof *w);
    if (!w || !(w->y = malloc(sizeof(double) * ny * (2 * nv + 1)))) {
        free(w);
        return rbd_fail(RBD_ENOMEM, "id2-cs: out of memory");
    }
    w->m = m;
    w->dy_dq = w->y + ny;
    w->dy_dv = w->dy_dq + ny * nv;
    if ((rc = rbd_perturb_init(&tl_cs, m, o, &w->pws))) { id2_cs_fini(w); return rc; }
    *out = w;
    return RBD_OK;
}

/* Slab k of the tensors from column k of dy/dq and dy/dv (header). */
static int id2_cs_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    id2_cs_ws *w = p;
    double *t[1 + RBD_SO_NTENSORS];
    rbd_so_output_ptrs(RBD_ID_SO_DERIVS, out, t);
    if (!x || !x->q || !x->v || !x->a) return rbd_fail(RBD_EINVAL, "id2-cs: null state vector");
    for (int k = 0; k <= RBD_SO_NTENSORS; k++)
        if (!t[k]) return rbd_fail(RBD_EINVAL, "id2-cs: null output buffer");
    int rc = rbd_perturb_columns(w->pws, x->q, x->v, x->a, w->y, w->dy_dq, w->dy_dv, NULL);
    if (rc) return rc;
    const size_t nv = (size_t)w->m->nv, nn = nv * nv, ny = tl_ny(w->m);
    memcpy(t[0], w->y + 3 * nn, sizeof(double) * nv);
    for (size_t k = 0; k < nv; k++) {
        const double *cq = w->dy_dq + ny * k, *cv = w->dy_dv + ny * k;
        memcpy(t[1] + nn * k, cq, sizeof(double) * nn);             /* d/dq_k dtau/dq */
        memcpy(t[2] + nn * k, cv + nn, sizeof(double) * nn);        /* d/dv_k dtau/dv */
        memcpy(t[3] + nn * k, cv, sizeof(double) * nn);             /* d/dv_k dtau/dq */
        memcpy(t[4] + nn * k, cq + 2 * nn, sizeof(double) * nn);    /* d/dq_k M */
    }
    return RBD_OK;
}

const rbd_method rbd_method_id2_cs = {
    .name = "id2-cs",
    .summary = "complex step (h = 1e-20) of the tangent-linear RNEA's dtau/dq, dtau/dv, M: exact to rounding, O(nv^2 N)",
    .output = RBD_ID_SO_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = id2_cs_init,
    .eval = id2_cs_eval,
    .fini = id2_cs_fini,
};
