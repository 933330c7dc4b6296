/*
 * ABACR: the chain rule applied to ABA (RBDA Table 7.1) by forward
 * accumulation, the baseline of Fig. 2 of Singh, Russell & Wensing (2022).
 * For each input x_j (q_j in the tangent space, qd_j, tau_j) every ABA
 * quantity is differentiated line by line (a tangent-linear ABA seeded with
 * e_j), which gives column j of dqdd/dq, dqdd/dqd and dqdd/dtau = M^-1; so
 * M^-1 here comes from the ABA structure itself, not from rbd_minv.
 *
 * The seed of dof j of body b only reaches what depends on it, so each
 * column touches (as the dependencies of ABA dictate; nothing else is
 * skipped or rearranged):
 *  - pass 1 (v, c, pA = v x* I v): the subtree of b.  For q_j,
 *    d Xup_b = -(S_j x) Xup_b, so d v_b = (Xup_b v_p) x S_j;
 *  - pass 2 (IA, U, D^-1, u, pA): the subtree of b (only u and pA change;
 *    IA_k depends on the q of k's proper subtree alone), then the ancestors
 *    of b, where for q_j also d IA, d U, d D^-1 are carried, starting from
 *    d(Xup^T Ia Xup) = Xup^T (C + C^T) Xup, C = (S_j x*) Ia, at b;
 *  - pass 3 (a, qdd): every body below the first one whose acceleration
 *    changes (M^-1 is dense).
 * O(N^2 d)-ish per call with a large constant (6x6 matrix products on the
 * ancestor paths): that is the nature of the method.
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"
#include "rbdiff/method.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "dynamics/aba_tpl.h"
#include "derivatives/vec.h"
#include "model/hot.h"

typedef double vec6[6];
enum { SEED_Q, SEED_V, SEED_TAU };

typedef struct {
    const rbd_model *m;
    rbd_data *d;                /* the ABA at (q, qd, tau)                     */
    /* ABA quantities the passes keep implicit, per body (or dof)             */
    vec6 *Iv, *vJ, *vp, *pa, *ap, *apre;
    double (*Ia)[36];
    vec6 *UD;                   /* [nv] U D^-1 columns                          */
    double *y0;                 /* [nv] u - U^T (Xup a_p + c) = D qdd            */
    /* derivatives w.r.t. the current seed                                    */
    vec6 *dv, *dc, *dpA, *da, *dU;
    double (*dIA)[36], *dDinv, *du;
    unsigned *aff, *hasU, *nz, stamp;   /* validity of the d-values per body     */
} ab_ws;

static void carve(ab_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, w->Iv, nb); RBD_ARENA_TAKE(a, w->vJ, nb); RBD_ARENA_TAKE(a, w->vp, nb);
    RBD_ARENA_TAKE(a, w->pa, nb); RBD_ARENA_TAKE(a, w->ap, nb); RBD_ARENA_TAKE(a, w->apre, nb);
    RBD_ARENA_TAKE(a, w->Ia, nb); RBD_ARENA_TAKE(a, w->UD, nv); RBD_ARENA_TAKE(a, w->y0, nv);
    RBD_ARENA_TAKE(a, w->dv, nb); RBD_ARENA_TAKE(a, w->dc, nb); RBD_ARENA_TAKE(a, w->dpA, nb);
    RBD_ARENA_TAKE(a, w->da, nb); RBD_ARENA_TAKE(a, w->dU, nv); RBD_ARENA_TAKE(a, w->dIA, nb);
    RBD_ARENA_TAKE(a, w->dDinv, 36 * nb); RBD_ARENA_TAKE(a, w->du, nv);
    RBD_ARENA_TAKE(a, w->aff, nb); RBD_ARENA_TAKE(a, w->hasU, nb); RBD_ARENA_TAKE(a, w->nz, nb);
}

static void ab_fini(void *p)
{
    ab_ws *w = p;
    if (!w) return;
    rbd_data_free(w->d);
    free(w);            /* the workspace heads its arena (arena.h) */
}

extern const rbd_method rbd_method_abacr;

static int ab_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    int rc = rbd_method_init_check(&rbd_method_abacr, m, out);
    if (rc) return rc;
    rbd_arena a = { 0 };
    ab_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the abacr workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);
    w->m = m;
    if (!(w->d = rbd_data_new(m))) { free(w); return RBD_ENOMEM; }
    *out = w;
    return RBD_OK;
}

/* The ABA quantities the tangent passes need beyond rbd_data. */
static void prepare(ab_ws *w, const double *qd)
{
    const rbd_model *m = w->m;
    const rbd_data *d = w->d;
    for (int k = 0; k < m->nb; k++) {
        const int v0 = m->idx_v[k], n = m->nv_of[k], p = m->parent[k];
        const double *S = m->S + 6 * v0;
        for (int r = 0; r < 6; r++) {
            double s = 0;
            for (int l = 0; l < n; l++) s += S[6 * l + r] * qd[v0 + l];
            w->vJ[k][r] = s;
            w->vp[k][r] = d->v[k][r] - s;           /* Xup v_p */
        }
        sp_inertia_motion(&m->inertia[k], d->v[k], w->Iv[k]);
        double UD[6][6];
        sp_aba_Ia(m, k, d->IA[k], (const double (*)[6])d->U, d->Dinv + 36 * k, UD, w->Ia[k]);
        for (int l = 0; l < n; l++) memcpy(w->UD[v0 + l], UD[l], sizeof(vec6));
        for (int r = 0; r < 6; r++) {           /* pa = pA + Ia c + U D^-1 u (eq. 7.43) */
            double s = d->pA[k][r];
            for (int c = 0; c < 6; c++) s += w->Ia[k][6 * r + c] * d->c[k][c];
            for (int l = 0; l < n; l++) s += UD[l][r] * d->u[v0 + l];
            w->pa[k][r] = s;
        }
        if (p >= 0) sp_xform_motion(&d->Xup[k], d->a[p], w->ap[k]);
        else sp_xform_motion(&d->Xup[k], m->a0, w->ap[k]);
        for (int r = 0; r < 6; r++) w->apre[k][r] = w->ap[k][r] + d->c[k][r];
        for (int l = 0; l < n; l++) w->y0[v0 + l] = d->u[v0 + l] - rbd_dot6(d->U[v0 + l], w->apre[k]);
    }
}

/* Pass 1 for body k of the seed's subtree: d v, d c, d pA = d(v x* I v). */
static void pass1(ab_ws *w, int kind, int k, int b, const double *Sj)
{
    const rbd_model *m = w->m;
    const rbd_data *d = w->d;
    double *dv = w->dv[k], *dc = w->dc[k], t[6], Idv[6], t2[6];
    if (k == b) {
        if (kind == SEED_Q) sp_crm(w->vp[k], Sj, dv);       /* d Xup v_p = (Xup v_p) x S_j */
        else memcpy(dv, Sj, sizeof(vec6));
        sp_crm(dv, w->vJ[k], dc);                           /* c = v x vJ */
        if (kind == SEED_V) {
            sp_crm(d->v[k], Sj, t);
            for (int r = 0; r < 6; r++) dc[r] += t[r];
        }
    } else {
        sp_xform_motion(&d->Xup[k], w->dv[m->parent[k]], dv);
        sp_crm(dv, w->vJ[k], dc);
    }
    sp_inertia_motion(&m->inertia[k], dv, Idv);
    sp_crf(dv, w->Iv[k], t);
    sp_crf(d->v[k], Idv, t2);
    for (int r = 0; r < 6; r++) w->dpA[k][r] = t[r] + t2[r];
}

/* d u_k = -S^T d pA_k (+ e_j for a tau seed). */
static void joint_du(ab_ws *w, int k, int kind, int j)
{
    const rbd_model *m = w->m;
    const int v0 = m->idx_v[k];
    for (int l = 0; l < m->nv_of[k]; l++) w->du[v0 + l] = -rbd_dot6(m->S + 6 * (v0 + l), w->dpA[k]);
    if (kind == SEED_TAU && j >= v0 && j < v0 + m->nv_of[k]) w->du[j] += 1;
}

/* Ancestor body k with d IA_k (q seed): d U, d D^-1, d Ia; pa's derivative
 * gets the terms of d Ia c + d(U D^-1) u. */
static void ancestor_inertia(ab_ws *w, int k, double dIa[36], double dpa[6])
{
    const rbd_model *m = w->m;
    const rbd_data *d = w->d;
    const int v0 = m->idx_v[k], n = m->nv_of[k];
    const double *S = m->S + 6 * v0, *Dinv = d->Dinv + 36 * k, *dIA = w->dIA[k];
    double *dDinv = w->dDinv + 36 * k, dD[36], t[36];
    for (int l = 0; l < n; l++)                 /* d U = d IA S */
        for (int r = 0; r < 6; r++) {
            double s = 0;
            for (int c = 0; c < 6; c++) s += dIA[6 * r + c] * S[6 * l + c];
            w->dU[v0 + l][r] = s;
        }
    for (int a = 0; a < n; a++)
        for (int l = 0; l < n; l++) dD[n * a + l] = rbd_dot6(S + 6 * a, w->dU[v0 + l]);
    for (int a = 0; a < n; a++)                 /* d D^-1 = -D^-1 d D D^-1 */
        for (int l = 0; l < n; l++) {
            double s = 0;
            for (int c = 0; c < n; c++) s += dD[n * a + c] * Dinv[n * c + l];
            t[n * a + l] = s;
        }
    for (int a = 0; a < n; a++)
        for (int l = 0; l < n; l++) {
            double s = 0;
            for (int c = 0; c < n; c++) s += Dinv[n * a + c] * t[n * c + l];
            dDinv[n * a + l] = -s;
        }
    /* d Ia = d IA - d U (U D^-1)^T - U D^-1 d U^T - U d D^-1 U^T */
    double UdD[6][6];                           /* U d D^-1 */
    for (int l = 0; l < n; l++)
        for (int r = 0; r < 6; r++) {
            double s = 0;
            for (int c = 0; c < n; c++) s += d->U[v0 + c][r] * dDinv[n * c + l];
            UdD[l][r] = s;
        }
    for (int r = 0; r < 6; r++)
        for (int c = r; c < 6; c++) {
            double s = dIA[6 * r + c];
            for (int l = 0; l < n; l++)
                s -= w->dU[v0 + l][r] * w->UD[v0 + l][c] + w->UD[v0 + l][r] * w->dU[v0 + l][c] +
                     UdD[l][r] * d->U[v0 + l][c];
            dIa[6 * r + c] = dIa[6 * c + r] = s;
        }
    /* + d Ia c + (d U D^-1 + U d D^-1) u */
    for (int r = 0; r < 6; r++) {
        double s = 0;
        for (int c = 0; c < 6; c++) s += dIa[6 * r + c] * d->c[k][c];
        for (int l = 0; l < n; l++) {
            double g = 0;
            for (int c = 0; c < n; c++) g += Dinv[n * l + c] * d->u[v0 + c];
            s += w->dU[v0 + l][r] * g + UdD[l][r] * d->u[v0 + l];
        }
        dpa[r] += s;
    }
}

/* Passes 2 and 3 are inlined into tangent_column, the one function they
 * were split from: as calls they cost abacr measurable time in paired
 * rounds.  The column's mark st and seed axis S_j come in as arguments,
 * as they were locals of that one function: re-read in each pass (w->stamp
 * after the stores through the unsigned marks, which may alias it) they
 * cost abacr 0.6% more instructions (methods/README.md, issue 28). */

/* Pass 2 of the seed's subtree (a tau seed: its body b alone), leaves
 * first: d pa of each body carried to its parent, and at b the terms of
 * d Xup (a q seed) that reach the ancestors. */
static inline __attribute__((always_inline)) void pass2_subtree(ab_ws *w, int kind, int j, int b, int e, const double *Sj)
{
    const rbd_model *m = w->m;
    const rbd_data *d = w->d;
    for (int k = kind == SEED_TAU ? b : e - 1; k >= b; k--) {
        const int v0 = m->idx_v[k], n = m->nv_of[k], p = m->parent[k];
        joint_du(w, k, kind, j);
        if (p < 0) continue;
        double dpa[6], f[6];
        for (int r = 0; r < 6; r++) {           /* d pa = d pA + Ia d c + U D^-1 d u */
            double s = w->dpA[k][r];
            for (int c = 0; c < 6; c++) s += w->Ia[k][6 * r + c] * w->dc[k][c];
            for (int l = 0; l < n; l++) s += w->UD[v0 + l][r] * w->du[v0 + l];
            dpa[r] = s;
        }
        sp_xform_T_force(&d->Xup[k], dpa, f);
        if (k != b) {
            for (int r = 0; r < 6; r++) w->dpA[p][r] += f[r];
            continue;
        }
        memcpy(w->dpA[p], f, sizeof(vec6));     /* the first term reaching the ancestors */
        if (kind == SEED_Q) {
            double t[6], C[36], B[36];          /* d(Xup^T) pa = Xup^T (S_j x* pa) */
            sp_crf(Sj, w->pa[k], t);
            sp_xform_T_force(&d->Xup[k], t, f);
            for (int r = 0; r < 6; r++) w->dpA[p][r] += f[r];
            for (int c = 0; c < 6; c++) {       /* C = (S_j x*) Ia, column by column */
                double col6[6], o6[6];
                for (int r = 0; r < 6; r++) col6[r] = w->Ia[k][6 * r + c];
                sp_crf(Sj, col6, o6);
                for (int r = 0; r < 6; r++) C[6 * r + c] = o6[r];
            }
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++) B[6 * r + c] = C[6 * r + c] + C[6 * c + r];
            memset(w->dIA[p], 0, sizeof w->dIA[p]);
            sp_sym6_to_parent(&d->Xup[k], B, w->dIA[p]);
        }
    }
}

/* Pass 2 of the ancestors of b, up to the root: their d u, and with a q
 * seed their d IA (ancestor_inertia), carried to each parent. */
static inline __attribute__((always_inline)) void pass2_ancestors(ab_ws *w, int kind, int j, int b, unsigned st)
{
    const rbd_model *m = w->m;
    const rbd_data *d = w->d;
    for (int k = m->parent[b]; k >= 0; k = m->parent[k]) {
        const int v0 = m->idx_v[k], n = m->nv_of[k], p = m->parent[k];
        w->aff[k] = st;
        memset(w->dc[k], 0, sizeof(vec6));
        joint_du(w, k, kind, j);
        double dpa[6], dIa[36];
        for (int r = 0; r < 6; r++) {
            double s = w->dpA[k][r];
            for (int l = 0; l < n; l++) s += w->UD[v0 + l][r] * w->du[v0 + l];
            dpa[r] = s;
        }
        if (kind == SEED_Q) {
            ancestor_inertia(w, k, dIa, dpa);
            w->hasU[k] = st;
        }
        if (p < 0) break;
        sp_xform_T_force(&d->Xup[k], dpa, w->dpA[p]);
        if (kind == SEED_Q) {
            memset(w->dIA[p], 0, sizeof w->dIA[p]);
            sp_sym6_to_parent(&d->Xup[k], dIa, w->dIA[p]);
        }
    }
}

/* Pass 3, root to leaves: d a and d qdd of every body the seed reaches
 * (zero elsewhere) into col. */
static inline __attribute__((always_inline)) void pass3(ab_ws *w, int kind, int b, const double *Sj, unsigned st, double *col)
{
    const rbd_model *m = w->m;
    const rbd_data *d = w->d;
    for (int k = 0; k < m->nb; k++) {
        const int v0 = m->idx_v[k], n = m->nv_of[k], p = m->parent[k];
        const int have = p >= 0 && w->nz[p] == st, isaff = w->aff[k] == st, seed = kind == SEED_Q && k == b;
        if (!have && !isaff && !seed) {
            for (int l = 0; l < n; l++) col[v0 + l] = 0;
            continue;
        }
        double *da = w->da[k], y[6], t[6];
        if (have) sp_xform_motion(&d->Xup[k], w->da[p], da);
        else memset(da, 0, sizeof(vec6));
        if (seed) {                             /* d Xup a_p = (Xup a_p) x S_j */
            sp_crm(w->ap[k], Sj, t);
            for (int r = 0; r < 6; r++) da[r] += t[r];
        }
        if (isaff)
            for (int r = 0; r < 6; r++) da[r] += w->dc[k][r];
        const int hU = w->hasU[k] == st;
        for (int l = 0; l < n; l++) {
            double s = (isaff ? w->du[v0 + l] : 0) - rbd_dot6(d->U[v0 + l], da);
            if (hU) s -= rbd_dot6(w->dU[v0 + l], w->apre[k]);
            y[l] = s;
        }
        const double *Dinv = d->Dinv + 36 * k, *dDinv = w->dDinv + 36 * k;
        for (int l = 0; l < n; l++) {           /* d qdd = D^-1 d y + d D^-1 y0 */
            double s = 0;
            for (int c = 0; c < n; c++) s += Dinv[n * l + c] * y[c] + (hU ? dDinv[n * l + c] * w->y0[v0 + c] : 0);
            col[v0 + l] = s;
        }
        for (int l = 0; l < n; l++)
            for (int r = 0; r < 6; r++) da[r] += m->S[6 * (v0 + l) + r] * col[v0 + l];
        w->nz[k] = st;
    }
}

/* Column j of the derivative w.r.t. the seed (kind, j) into col: pass 1
 * over the seed's subtree, then passes 2 and 3. */
RBD_HOT_ENTRY static void tangent_column(ab_ws *w, int kind, int j, double *col)
{
    const rbd_model *m = w->m;
    const int b = m->dof_body[j], e = m->subtree_end[b];
    const double *Sj = m->S + 6 * j;
    if (++w->stamp == 0) {                      /* wrapped: forget every mark */
        memset(w->aff, 0, sizeof(unsigned) * (size_t)m->nb);
        memset(w->hasU, 0, sizeof(unsigned) * (size_t)m->nb);
        memset(w->nz, 0, sizeof(unsigned) * (size_t)m->nb);
        w->stamp = 1;
    }
    const unsigned st = w->stamp;
    /* pass 1 */
    if (kind == SEED_TAU) {
        memset(w->dpA[b], 0, sizeof(vec6));
        memset(w->dc[b], 0, sizeof(vec6));
        w->aff[b] = st;
    } else {
        for (int k = b; k < e; k++) {
            pass1(w, kind, k, b, Sj);
            w->aff[k] = st;
        }
    }
    pass2_subtree(w, kind, j, b, e, Sj);
    pass2_ancestors(w, kind, j, b, st);
    pass3(w, kind, b, Sj, st, col);
}

static int ab_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    ab_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "abacr: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const size_t nv = (size_t)m->nv;
    int rc = rbd_aba(m, w->d, x->q, x->v, x->tau, out->qdd);
    if (rc) return rc;
    prepare(w, x->v);
    for (int j = 0; j < m->nv; j++) {
        tangent_column(w, SEED_Q, j, out->dqdd_dq + nv * j);
        tangent_column(w, SEED_V, j, out->dqdd_dv + nv * j);
        tangent_column(w, SEED_TAU, j, out->dqdd_dtau + nv * j);
    }
    return RBD_OK;
}

const rbd_method rbd_method_abacr = {
    .name = "abacr",
    .summary = "chain rule through ABA, forward accumulation per input (q, qd, tau); M^-1 from the tau columns; Fig. 2",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = ab_init,
    .eval = ab_eval,
    .fini = ab_fini,
};
