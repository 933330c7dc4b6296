/* Alg. 1 lines 1-11 of the IDSVA paper in ground coordinates (see id_ground.h). */
#include <math.h>
#include "derivatives/id/id_ground.h"
#include "model/joint.h"
#include "model/hot.h"

void rbd_idg_carve(rbd_idg *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    w->nb = m->nb; w->nv = m->nv;
    w->axis = rbd_arena_take(a, nb);
    w->tree_flat = rbd_arena_take(a, nb);
    w->X0 = rbd_arena_take(a, nb * sizeof *w->X0);
    w->v = rbd_arena_take(a, nb * sizeof *w->v);
    w->a = rbd_arena_take(a, nb * sizeof *w->a);
    w->S = rbd_arena_take(a, nv * sizeof *w->S);
    w->Pd = rbd_arena_take(a, nv * sizeof *w->Pd);
    w->Pdd = rbd_arena_take(a, nv * sizeof *w->Pdd);
    w->SdPd = rbd_arena_take(a, nv * sizeof *w->SdPd);
    w->IC = rbd_arena_take(a, nb * sizeof *w->IC);
    w->dIC = rbd_arena_take(a, nb * sizeof *w->dIC);
    w->hC = rbd_arena_take(a, nb * sizeof *w->hC);
    w->fC = rbd_arena_take(a, nb * sizeof *w->fC);
}

/* 1 when E is the identity by value: -0.0 counts as 0 (autoTree's rotx(0)
 * has E_21 = -sin 0 = -0.0, which a byte comparison would miss). */
static int is_identity3(const double E[9])
{
    for (int k = 0; k < 9; k++)
        if (E[k] != (k % 4 == 0 ? 1.0 : 0.0)) return 0;
    return 1;
}

/* The per-model plan of the forward pass: each body's joint axis e_k when the
 * joint turns about a coordinate axis of its frame (-1 otherwise), whether
 * its Xtree has no rotation (then composing it is a translation), and
 * whether every joint turns about its own e_z (the pass's z-only copy). */
void rbd_idg_setup(rbd_idg *w, const rbd_model *m)
{
    w->all_z = 1;
    for (int i = 0; i < m->nb; i++) {
        w->axis[i] = (signed char)(rbd_joint_is_rot1(m->joint[i].type) ? m->joint[i].axis_id : -1);
        w->tree_flat[i] = (unsigned char)is_identity3(m->Xtree[i].E);
        if (w->axis[i] != 2) w->all_z = 0;
    }
}

/* Y = Xtree X0_parent, the translation alone when Xtree has no rotation
 * (bit for bit the general product: the identity's products are exact). */
static inline void tree_to_ground(const sp_xform *Xt, int flat, const sp_xform *X0p, sp_xform *Y)
{
    if (!flat) {
        sp_xform_compose(Xt, X0p, Y);
        return;
    }
    double t[3];
    sp_mat3T_vec(X0p->E, Xt->r, t);
    for (int k = 0; k < 9; k++) Y->E[k] = X0p->E[k];
    for (int k = 0; k < 3; k++) Y->r[k] = X0p->r[k] + t[k];
}

/* X0 = rot_k(q) Y for a joint about e_k (E = rot_k^T as joint_tpl.h's
 * jcalc_rot): rows u, w = k + 1, k + 2 (mod 3) of Y's E turn, row k stays,
 * and the translation is Y's (X_J has none). */
static inline __attribute__((always_inline)) void turn_about_axis(int k, double c, double s, const sp_xform *Y,
                                                                  sp_xform *X, double *S)
{
    S[0] = Y->E[3 * k]; S[1] = Y->E[3 * k + 1]; S[2] = Y->E[3 * k + 2];
    const int u = k == 2 ? 0 : k + 1, v = u == 2 ? 0 : u + 1;
    for (int e = 0; e < 3; e++) {
        X->E[3 * u + e] = c * Y->E[3 * u + e] + s * Y->E[3 * v + e];
        X->E[3 * v + e] = c * Y->E[3 * v + e] - s * Y->E[3 * u + e];
        X->E[3 * k + e] = Y->E[3 * k + e];
        X->r[e] = Y->r[e];
    }
}

/* Line 8, I_0 = X^T I X, using the symmetry of Ib: only the upper triangle
 * of E^T Ib E and of the translation terms is formed (as
 * sp_inertia_to_parent otherwise). */
static inline void inertia_to_ground(const sp_xform *X, const sp_inertia *IB, sp_inertia *IA)
{
    const double *E = X->E, *r = X->r, *B = IB->Ib, m = IB->m;
    double y[3], hA[3], BE[9];
    sp_mat3T_vec(E, IB->h, y);
    for (int k = 0; k < 3; k++) hA[k] = y[k] + m * r[k];
    sp_mat3_mul(B, E, BE);
    const double ry = sp_dot3(r, y), hr = sp_dot3(hA, r);
    /* ax bx = b a^T - (a.b) 1 */
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            double v = E[i] * BE[j] + E[3 + i] * BE[3 + j] + E[6 + i] * BE[6 + j] - (y[i] * r[j] + r[i] * hA[j]);
            if (i == j) v += ry + hr;
            IA->Ib[3 * i + j] = IA->Ib[3 * j + i] = v;
        }
    IA->m = m;
    for (int k = 0; k < 3; k++) IA->h[k] = hA[k];
}

/* Lines 1-11, with cos, sin of the joints about an axis from cs when given.
 * all_z, a constant in each copy below: every joint a one-dof rotation
 * about its own e_z (the autoTrees), so no body looks up its axis or its
 * dof count, and the loop has no branch on them. */
static inline __attribute__((always_inline)) void forward_pass(const rbd_model *m, rbd_idg *w, const double *q,
                                                               const double (*cs)[2], const double *qd,
                                                               const double *qdd, int all_z)
{
    static const double zero[6] = { 0 };
    for (int i = 0; i < m->nb; i++) {
        const int p = m->parent[i], j0 = m->idx_v[i], n = all_z ? 1 : m->nv_of[i];
        const double *vp = p >= 0 ? w->v[p] : zero, *ap = p >= 0 ? w->a[p] : m->a0;   /* line 1 */
        sp_xform *X = &w->X0[i];
        const int k = all_z ? 2 : w->axis[i];
        if (k >= 0) {
            /* X0 = rot_k(q) (Xtree X0_parent): only rows u, w of E turn, and
             * S = e_k in ground is row k of E, independent of q_i. */
            sp_xform Y;
            if (p >= 0) tree_to_ground(&m->Xtree[i], w->tree_flat[i], &w->X0[p], &Y);
            else Y = m->Xtree[i];
            double c, s;
            if (cs) { c = cs[i][0]; s = cs[i][1]; }
            else sp_joint_cos_sin(&m->joint[i], q + m->idx_q[i], &c, &s);
            double *S = w->S[j0];
            if (k == 2) turn_about_axis(2, c, s, &Y, X, S);     /* constant offsets for the common axis */
            else turn_about_axis(k, c, s, &Y, X, S);
            sp_cross3(X->r, S, S + 3);
        } else {
            sp_xform XJ, Xup;
            sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
            sp_xform_compose(&XJ, &m->Xtree[i], &Xup);
            if (p >= 0) sp_xform_compose(&Xup, &w->X0[p], X);
            else *X = Xup;
            for (int d = 0; d < n; d++) sp_xform_inv_motion(X, m->S + 6 * (j0 + d), w->S[j0 + d]);
        }
        double *v = w->v[i], *a = w->a[i], c[6];
        if (n == 1) {
            /* one dof: v_i x S_i = v_p x S_i, so S_dot + Psi_dot = 2 Psi_dot and
             * line 4 is a_p + S qdd + Psi_dot qd */
            const double *S = w->S[j0], qdi = qd[j0], qddi = qdd[j0];
            double *Pd = w->Pd[j0], *Pdd = w->Pdd[j0], *SdPd = w->SdPd[j0], t[6];
            sp_crm(vp, S, Pd);                                                   /* line 6 */
            sp_crm(ap, S, Pdd);                                                  /* line 7 */
            sp_crm(vp, Pd, t);
            for (int r = 0; r < 6; r++) {
                Pdd[r] += t[r];
                SdPd[r] = 2 * Pd[r];                                             /* line 5 */
                v[r] = vp[r] + S[r] * qdi;                                       /* line 3 */
                a[r] = ap[r] + S[r] * qddi + Pd[r] * qdi;                        /* line 4 */
            }
        } else {
            double vJ[6] = { 0 }, aJ[6] = { 0 };
            for (int d = 0; d < n; d++)
                for (int r = 0; r < 6; r++) {
                    vJ[r] += w->S[j0 + d][r] * qd[j0 + d];
                    aJ[r] += w->S[j0 + d][r] * qdd[j0 + d];
                }
            for (int r = 0; r < 6; r++) v[r] = vp[r] + vJ[r];                   /* line 3 */
            sp_crm(v, vJ, c);
            for (int r = 0; r < 6; r++) a[r] = ap[r] + aJ[r] + c[r];            /* line 4 */
            for (int d = 0; d < n; d++) {
                const double *S = w->S[j0 + d];
                double *Pd = w->Pd[j0 + d], *Pdd = w->Pdd[j0 + d], *SdPd = w->SdPd[j0 + d], t[6];
                sp_crm(v, S, SdPd);                                              /* line 5 */
                sp_crm(vp, S, Pd);                                               /* line 6 */
                sp_crm(ap, S, Pdd);                                              /* line 7 */
                sp_crm(vp, Pd, t);
                for (int r = 0; r < 6; r++) { Pdd[r] += t[r]; SdPd[r] += Pd[r]; }
            }
        }
        sp_inertia *IC = &w->IC[i];
        inertia_to_ground(X, &m->inertia[i], IC);                               /* line 8 */
        rbd_inertia_rate(IC, v, &w->dIC[i]);                                    /* line 9 */
        double *h = w->hC[i], *f = w->fC[i];
        sp_inertia_motion(IC, v, h);
        sp_inertia_motion(IC, a, f);
        sp_crf(v, h, c);
        for (int r = 0; r < 6; r++) f[r] += c[r];                              /* line 10 */
    }
}

/* The two copies of the pass, each its own placed kernel (model/hot.h):
 * the z-only copy for models whose joints all turn about e_z, the other for
 * joints about any axis and multi-dof joints. */
RBD_HOT static void forward_z(const rbd_model *m, rbd_idg *w, const double *q, const double (*cs)[2],
                              const double *qd, const double *qdd)
{
    forward_pass(m, w, q, cs, qd, qdd, 1);
}

RBD_HOT static void forward_axes(const rbd_model *m, rbd_idg *w, const double *q, const double (*cs)[2],
                                 const double *qd, const double *qdd)
{
    forward_pass(m, w, q, cs, qd, qdd, 0);
}

void rbd_idg_forward(const rbd_model *m, rbd_idg *w, const double *q, const double *qd, const double *qdd)
{
    if (w->all_z) forward_z(m, w, q, NULL, qd, qdd);
    else forward_axes(m, w, q, NULL, qd, qdd);
}

void rbd_idg_forward_cs(const rbd_model *m, rbd_idg *w, const double *q, const double (*cs)[2], const double *qd,
                        const double *qdd)
{
    if (w->all_z) forward_z(m, w, q, cs, qd, qdd);
    else forward_axes(m, w, q, cs, qd, qdd);
}
