/*
 * RNEACR: the chain rule applied to RNEA by forward accumulation in body
 * coordinates (Carpentier & Mansard, RSS 2018, Algorithms 2 and 3; the
 * baseline of Fig. 2 of the IDSVA paper).  Every RNEA line is differentiated
 * with respect to every q_j and qd_j, carrying derivative 6-vectors of v, a
 * and f for each body and each column that can be non-zero:
 *
 *   forward, columns j of ancestors of i (inherited from the parent, plus
 *   the joint's own):  d v_i = Xup d v_p  [+ (Xup v_p) x S_i  for j = i]
 *                      d a_i = Xup d a_p + d v_i x S_i qd_i  [+ (Xup a_p) x S_i]
 *                      d f_i = I d a_i + d v_i x* I v_i + v_i x* I d v_i
 *   (with respect to qd_j: d v_i gets S_i and d a_i gets v_i x S_i at j = i);
 *   backward:          d tau_i = S_i^T d f_i,
 *                      d f_p += Xup^T d f_i  [+ Xup^T (S_i x* f_i)  for j = i],
 *   where d f_i now also has the columns of i's subtree.
 *
 * The ancestor columns of body i are stored packed, root first, so the
 * inherited part of body i's columns is its parent's columns, contiguous.
 * O(N d) derivative vectors in memory and O(N d) vector operations, with a
 * large constant: that is the nature of the method.
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "model/joint.h"
#include "rbdiff/method.h"
#include "derivatives/vec.h"

typedef double vec6[6];

typedef struct {
    const rbd_model *m;
    unsigned char *fast;        /* [nb] revolute about z: S = e_z             */
    int *L, *off;               /* [nb] ancestor-dof count (incl. own), offset */
    int *anc;                   /* [sum L] dof index of each packed column     */
    int *soff;                  /* [nb] offset of the proper-subtree columns   */
    sp_xform *Xup;
    vec6 *v, *a, *f, *h;        /* [nb] RNEA quantities, body frame            */
    vec6 *DVq, *DAq, *DFq, *DVv, *DAv, *DFv;    /* [sum L] ancestor columns   */
    vec6 *SFq, *SFv;            /* [sum subtree] subtree columns of d f        */
    int zeros_preset;           /* rbd_options.zeros_preset: the structural zeros are left as they are */
} cr_ws;

/* nL = sum over bodies of their ancestor dofs (own included) = sum over
 * bodies j of nv_j times the bodies of j's subtree; nS = the proper-subtree
 * dofs summed over bodies (at least 1) */
static void carve(cr_ws *w, rbd_arena *a, const rbd_model *m, size_t nL, size_t nS)
{
    const size_t nb = (size_t)m->nb;
    RBD_ARENA_TAKE(a, w->fast, nb);
    RBD_ARENA_TAKE(a, w->L, nb); RBD_ARENA_TAKE(a, w->off, nb); RBD_ARENA_TAKE(a, w->soff, nb);
    RBD_ARENA_TAKE(a, w->anc, nL);
    RBD_ARENA_TAKE(a, w->Xup, nb);
    RBD_ARENA_TAKE(a, w->v, nb); RBD_ARENA_TAKE(a, w->a, nb); RBD_ARENA_TAKE(a, w->f, nb); RBD_ARENA_TAKE(a, w->h, nb);
    RBD_ARENA_TAKE(a, w->DVq, nL); RBD_ARENA_TAKE(a, w->DAq, nL); RBD_ARENA_TAKE(a, w->DFq, nL);
    RBD_ARENA_TAKE(a, w->DVv, nL); RBD_ARENA_TAKE(a, w->DAv, nL); RBD_ARENA_TAKE(a, w->DFv, nL);
    RBD_ARENA_TAKE(a, w->SFq, nS); RBD_ARENA_TAKE(a, w->SFv, nS);
}

extern const rbd_method rbd_method_rneacr;

static int cr_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_rneacr, m, out);
    if (rc) return rc;
    size_t nL = 0, nS = 0;
    for (int i = 0; i < m->nb; i++) {
        int e = m->subtree_end_v[i];
        nL += (size_t)m->nv_of[i] * (size_t)(m->subtree_end[i] - i);
        nS += (size_t)(e - m->idx_v[i] - m->nv_of[i]);
    }
    if (nS == 0) nS = 1;
    rbd_arena a = { 0 };
    cr_ws sizing, *w;
    carve(&sizing, &a, m, nL, nS);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the rneacr derivative vectors"))) return RBD_ENOMEM;
    carve(w, &a, m, nL, nS);
    w->m = m;
    w->zeros_preset = o && o->zeros_preset;
    nL = nS = 0;
    for (int i = 0; i < m->nb; i++) {
        int p = m->parent[i], e = m->subtree_end_v[i];
        w->fast[i] = rbd_joint_is_rot1(m->joint[i].type) && m->joint[i].axis_id == 2;
        w->L[i] = (p >= 0 ? w->L[p] : 0) + m->nv_of[i];
        w->off[i] = (int)nL;
        w->soff[i] = (int)nS;
        nL += (size_t)w->L[i];
        nS += (size_t)(e - m->idx_v[i] - m->nv_of[i]);
    }
    for (int i = 0; i < m->nb; i++) {
        int p = m->parent[i], Lp = p >= 0 ? w->L[p] : 0;
        for (int k = 0; k < Lp; k++) w->anc[w->off[i] + k] = w->anc[w->off[p] + k];
        for (int d = 0; d < m->nv_of[i]; d++) w->anc[w->off[i] + Lp + d] = m->idx_v[i] + d;
    }
    *out = w;
    return RBD_OK;
}

/* x x e_z and e_z x* f: the fast path of S = e_z */
static inline void crm_ez(const double x[6], double s, double out[6])
{
    out[0] = s * x[1]; out[1] = -s * x[0]; out[2] = 0;
    out[3] = s * x[4]; out[4] = -s * x[3]; out[5] = 0;
}

/* d f = I d a + d v x* h + v x* (I d v), h = I v */
static inline void dforce(const sp_inertia *In, const double *v, const double *h, const double *dv,
                          const double *da, double *df)
{
    double x[6], y[6], z[6];
    sp_inertia_motion(In, dv, x);
    sp_crf(v, x, y);
    sp_crf(dv, h, z);
    sp_inertia_motion(In, da, df);
    for (int r = 0; r < 6; r++) df[r] += y[r] + z[r];
}

static void cr_forward(cr_ws *w, const double *q, const double *qd, const double *qdd)
{
    static const double zero[6] = { 0 };
    const rbd_model *m = w->m;
    for (int i = 0; i < m->nb; i++) {
        const int p = m->parent[i], j0 = m->idx_v[i], n = m->nv_of[i], Lp = p >= 0 ? w->L[p] : 0;
        const int oi = w->off[i], op = p >= 0 ? w->off[p] : 0;
        const sp_inertia *In = &m->inertia[i];
        const double *S = m->S + 6 * j0;
        sp_xform XJ, *X = &w->Xup[i];
        sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], X);
        /* RNEA, forward */
        double vp[6], ap[6], vJ[6] = { 0 }, aJ[6] = { 0 }, c[6];
        sp_xform_motion(X, p >= 0 ? w->v[p] : zero, vp);
        sp_xform_motion(X, p >= 0 ? w->a[p] : m->a0, ap);
        for (int d = 0; d < n; d++)
            for (int r = 0; r < 6; r++) {
                vJ[r] += S[6 * d + r] * qd[j0 + d];
                aJ[r] += S[6 * d + r] * qdd[j0 + d];
            }
        double *v = w->v[i], *a = w->a[i], *h = w->h[i], *f = w->f[i];
        for (int r = 0; r < 6; r++) v[r] = vp[r] + vJ[r];
        sp_crm(v, vJ, c);
        for (int r = 0; r < 6; r++) a[r] = ap[r] + aJ[r] + c[r];
        sp_inertia_motion(In, v, h);
        sp_inertia_motion(In, a, f);
        sp_crf(v, h, c);
        for (int r = 0; r < 6; r++) f[r] += c[r];
        /* its derivatives, inherited columns */
        const int fast = w->fast[i];
        const double qdi = qd[j0];
        for (int k = 0; k < Lp; k++) {
            double *dvq = w->DVq[oi + k], *daq = w->DAq[oi + k], *dvv = w->DVv[oi + k], *dav = w->DAv[oi + k];
            sp_xform_motion(X, w->DVq[op + k], dvq);
            sp_xform_motion(X, w->DAq[op + k], daq);
            sp_xform_motion(X, w->DVv[op + k], dvv);
            sp_xform_motion(X, w->DAv[op + k], dav);
            double cq[6], cv[6];
            if (fast) { crm_ez(dvq, qdi, cq); crm_ez(dvv, qdi, cv); }
            else { sp_crm(dvq, vJ, cq); sp_crm(dvv, vJ, cv); }
            for (int r = 0; r < 6; r++) { daq[r] += cq[r]; dav[r] += cv[r]; }
            dforce(In, v, h, dvq, daq, w->DFq[oi + k]);
            dforce(In, v, h, dvv, dav, w->DFv[oi + k]);
        }
        /* own columns */
        for (int d = 0; d < n; d++) {
            const double *s = S + 6 * d;
            double *dvq = w->DVq[oi + Lp + d], *daq = w->DAq[oi + Lp + d];
            double *dvv = w->DVv[oi + Lp + d], *dav = w->DAv[oi + Lp + d], t[6];
            sp_crm(vp, s, dvq);
            sp_crm(ap, s, daq);
            sp_crm(dvq, vJ, t);
            for (int r = 0; r < 6; r++) daq[r] += t[r];
            for (int r = 0; r < 6; r++) dvv[r] = s[r];
            sp_crm(s, vJ, dav);
            sp_crm(v, s, t);
            for (int r = 0; r < 6; r++) dav[r] += t[r];
            dforce(In, v, h, dvq, daq, w->DFq[oi + Lp + d]);
            dforce(In, v, h, dvv, dav, w->DFv[oi + Lp + d]);
        }
    }
}

static int cr_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    cr_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "rneacr: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const int nv = m->nv;
    double *restrict dq = out->dtau_dq, *restrict dv = out->dtau_dv;
    cr_forward(w, x->q, x->v, x->a);
    if (!w->zeros_preset) {     /* only ancestor and subtree columns are written below */
        memset(dq, 0, sizeof(double) * (size_t)nv * (size_t)nv);
        memset(dv, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    }
    for (int i = m->nb - 1; i >= 0; i--) {
        const int pa = m->parent[i], j0 = m->idx_v[i], n = m->nv_of[i], j1 = j0 + n, L = w->L[i];
        const int e = m->subtree_end_v[i];
        const int oi = w->off[i], si = w->soff[i];
        const double *f = w->f[i];
        /* d tau_i = S_i^T d f_i over ancestor and subtree columns */
        for (int d = 0; d < n; d++) {
            const int j = j0 + d;
            const double *s = m->S + 6 * j;
            out->tau[j] = rbd_dot6(s, f);
            if (w->fast[i]) {
                for (int k = 0; k < L; k++) {
                    dq[j + (size_t)nv * w->anc[oi + k]] = w->DFq[oi + k][2];
                    dv[j + (size_t)nv * w->anc[oi + k]] = w->DFv[oi + k][2];
                }
                for (int c = j1; c < e; c++) {
                    dq[j + (size_t)nv * c] = w->SFq[si + c - j1][2];
                    dv[j + (size_t)nv * c] = w->SFv[si + c - j1][2];
                }
            } else {
                for (int k = 0; k < L; k++) {
                    dq[j + (size_t)nv * w->anc[oi + k]] = rbd_dot6(s, w->DFq[oi + k]);
                    dv[j + (size_t)nv * w->anc[oi + k]] = rbd_dot6(s, w->DFv[oi + k]);
                }
                for (int c = j1; c < e; c++) {
                    dq[j + (size_t)nv * c] = rbd_dot6(s, w->SFq[si + c - j1]);
                    dv[j + (size_t)nv * c] = rbd_dot6(s, w->SFv[si + c - j1]);
                }
            }
        }
        if (pa < 0) continue;
        /* f_p += Xup^T f_i, differentiated */
        const sp_xform *X = &w->Xup[i];
        const int op = w->off[pa], Lp = w->L[pa], sp = w->soff[pa] + j0 - (m->idx_v[pa] + m->nv_of[pa]);
        double t[6];
        for (int k = 0; k < Lp; k++) {
            sp_xform_T_force(X, w->DFq[oi + k], t);
            for (int r = 0; r < 6; r++) w->DFq[op + k][r] += t[r];
            sp_xform_T_force(X, w->DFv[oi + k], t);
            for (int r = 0; r < 6; r++) w->DFv[op + k][r] += t[r];
        }
        for (int d = 0; d < n; d++) {
            double g[6];
            sp_crf(m->S + 6 * (j0 + d), f, g);                  /* d(Xup^T)/dq_i f = Xup^T (S_i x* f_i) */
            for (int r = 0; r < 6; r++) g[r] += w->DFq[oi + Lp + d][r];
            sp_xform_T_force(X, g, w->SFq[sp + d]);
            sp_xform_T_force(X, w->DFv[oi + Lp + d], w->SFv[sp + d]);
        }
        for (int c = j1; c < e; c++) {
            sp_xform_T_force(X, w->SFq[si + c - j1], w->SFq[sp + c - j0]);
            sp_xform_T_force(X, w->SFv[si + c - j1], w->SFv[sp + c - j0]);
        }
        sp_xform_T_force(X, f, t);
        for (int r = 0; r < 6; r++) w->f[pa][r] += t[r];
    }
    return RBD_OK;
}

void rbd_rneacr_parent_dforces(const void *ws, double (*Fq)[6], double (*Fv)[6])
{
    const cr_ws *w = ws;
    const rbd_model *m = w->m;
    for (int c = 0; c < m->nv; c++) {
        const int p = m->parent[m->dof_body[c]];
        if (p < 0) {
            for (int r = 0; r < 6; r++) Fq[c][r] = Fv[c][r] = 0;
            continue;
        }
        /* the proper-subtree column c of p, as the backward pass left it */
        const int k = w->soff[p] + c - (m->idx_v[p] + m->nv_of[p]);
        for (int r = 0; r < 6; r++) { Fq[c][r] = w->SFq[k][r]; Fv[c][r] = w->SFv[k][r]; }
    }
}

const rbd_method rbd_method_rneacr = {
    .name = "rneacr",
    .summary = "RNEACR, chain rule on RNEA by forward accumulation, body frame (Carpentier-Mansard 2018 Algs. 2-3)",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = cr_init,
    .eval = cr_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
