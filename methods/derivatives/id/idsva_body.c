/*
 * IDSVA in body coordinates (Singh, Russell & Wensing 2022, Fig. 3): the same
 * Algorithm 1 as idsva.c, but every quantity of body i lives in frame i.  The
 * forward pass is cheaper (S_i is constant and sparse, the inertias are the
 * model's own), but the backward pass must carry the subtree's t1..t4 from
 * frame i to frame lambda(i) at every level, one force transform per dof per
 * ancestor: the repeated transforms the ground-frame version avoids.
 * 2B^C is kept as (dI^C/dt, h^C) as in id_ground.h; both parts transform as
 * an inertia and a force respectively.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/id/id_ground.h"
#include "model/joint.h"
#include "rbdiff/method.h"
#include "derivatives/vec.h"
#include "model/hot.h"

typedef struct {
    const rbd_model *m;
    unsigned char *fast;            /* [nb] revolute about z: S = e_z        */
    sp_xform *Xup;                  /* [nb] parent -> body                    */
    double (*v)[6], (*a)[6];        /* [nb] body-frame velocity, acceleration */
    double (*Pd)[6], (*Pdd)[6], (*SdPd)[6];   /* [nv] */
    sp_inertia *IC, *dIC;           /* [nb] */
    double (*hC)[6], (*fC)[6];      /* [nb] */
    double (*t)[4][6];              /* [nv] t1..t4, in the frame of the body being processed */
} idb_ws;

static void carve(idb_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, w->fast, nb);
    RBD_ARENA_TAKE(a, w->Xup, nb);
    RBD_ARENA_TAKE(a, w->v, nb);
    RBD_ARENA_TAKE(a, w->a, nb);
    RBD_ARENA_TAKE(a, w->Pd, nv);
    RBD_ARENA_TAKE(a, w->Pdd, nv);
    RBD_ARENA_TAKE(a, w->SdPd, nv);
    RBD_ARENA_TAKE(a, w->IC, nb);
    RBD_ARENA_TAKE(a, w->dIC, nb);
    RBD_ARENA_TAKE(a, w->hC, nb);
    RBD_ARENA_TAKE(a, w->fC, nb);
    RBD_ARENA_TAKE(a, w->t, nv);
}

extern const rbd_method rbd_method_idsva_body;

static int idb_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    int rc = rbd_method_init_check(&rbd_method_idsva_body, m, out);
    if (rc) return rc;
    rbd_arena a = { 0 };
    idb_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the idsva-body workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);
    w->m = m;
    for (int i = 0; i < m->nb; i++)
        w->fast[i] = rbd_joint_is_rot1(m->joint[i].type) && m->joint[i].axis_id == 2;
    *out = w;
    return RBD_OK;
}

/* Alg. 1 lines 1-11, body coordinates. */
static void idb_forward(const rbd_model *m, idb_ws *w, const double *q, const double *qd, const double *qdd)
{
    static const double zero[6] = { 0 };
    for (int i = 0; i < m->nb; i++) {
        const int p = m->parent[i], j0 = m->idx_v[i], n = m->nv_of[i];
        sp_xform XJ, *X = &w->Xup[i];
        sp_jcalc_joint(&m->joint[i], q + m->idx_q[i], &XJ);
        sp_xform_compose(&XJ, &m->Xtree[i], X);
        double vp[6], ap[6], vJ[6] = { 0 }, aJ[6] = { 0 }, c[6];
        sp_xform_motion(X, p >= 0 ? w->v[p] : zero, vp);
        sp_xform_motion(X, p >= 0 ? w->a[p] : m->a0, ap);
        const double *S = m->S + 6 * j0;
        for (int d = 0; d < n; d++)
            for (int r = 0; r < 6; r++) {
                vJ[r] += S[6 * d + r] * qd[j0 + d];
                aJ[r] += S[6 * d + r] * qdd[j0 + d];
            }
        double *v = w->v[i], *a = w->a[i];
        for (int r = 0; r < 6; r++) v[r] = vp[r] + vJ[r];
        sp_crm(v, vJ, c);
        for (int r = 0; r < 6; r++) a[r] = ap[r] + aJ[r] + c[r];
        for (int d = 0; d < n; d++) {
            const double *s = S + 6 * d;
            double *Pd = w->Pd[j0 + d], *Pdd = w->Pdd[j0 + d], *SdPd = w->SdPd[j0 + d], t[6];
            sp_crm(v, s, SdPd);
            sp_crm(vp, s, Pd);
            sp_crm(ap, s, Pdd);
            sp_crm(vp, Pd, t);
            for (int r = 0; r < 6; r++) { Pdd[r] += t[r]; SdPd[r] += Pd[r]; }
        }
        w->IC[i] = m->inertia[i];
        rbd_inertia_rate(&w->IC[i], v, &w->dIC[i]);
        double *h = w->hC[i], *f = w->fC[i];
        sp_inertia_motion(&w->IC[i], v, h);
        sp_inertia_motion(&w->IC[i], a, f);
        sp_crf(v, h, c);
        for (int r = 0; r < 6; r++) f[r] += c[r];
    }
}

/* a kernel of some 20 kB: on a page of its own as well as loop-aligned (model/hot.h) */
RBD_HOT RBD_HOT_PAGE static int idb_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    idb_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva-body: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const int nv = m->nv;
    idb_forward(m, w, x->q, x->v, x->a);
    double *restrict dq = out->dtau_dq, *restrict dv = out->dtau_dv, *restrict tau = out->tau;
    double (*restrict t)[4][6] = w->t;
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const int e = m->subtree_end_v[i];
        const sp_inertia *IC = &w->IC[i], *dIC = &w->dIC[i];
        const double *hC = w->hC[i], *fC = w->fC[i];
        for (int j = j0; j < j1; j++) {
            /* lines 13-16 (see rbd_idg_tvec), all in frame i */
            const double *S = m->S + 6 * j;
            double u[6], c[6], y[6], z[6];
            sp_inertia_motion(IC, S, t[j][0]);
            sp_inertia_motion(dIC, S, u);
            sp_crf(S, hC, c);
            sp_inertia_motion(IC, w->SdPd[j], y);
            for (int r = 0; r < 6; r++) {
                t[j][3][r] = u[r] - c[r];
                t[j][1][r] = u[r] + c[r] + y[r];
            }
            sp_inertia_motion(dIC, w->Pd[j], u);
            sp_crf(w->Pd[j], hC, c);
            sp_inertia_motion(IC, w->Pdd[j], y);
            sp_crf(S, fC, z);
            for (int r = 0; r < 6; r++) t[j][2][r] = u[r] + c[r] + y[r] + z[r];
            tau[j] = rbd_dot6(S, fC);
        }
        for (int j = j0; j < j1; j++) {
            /* lines 17-18: row j, proper-subtree columns */
            if (w->fast[i])
                for (int k = j1; k < e; k++) {
                    dq[j + (size_t)nv * k] = t[k][2][2];
                    dv[j + (size_t)nv * k] = t[k][1][2];
                }
            else {
                const double *S = m->S + 6 * j;
                for (int k = j1; k < e; k++) {
                    dq[j + (size_t)nv * k] = rbd_dot6(S, t[k][2]);
                    dv[j + (size_t)nv * k] = rbd_dot6(S, t[k][1]);
                }
            }
        }
        for (int j = j0; j < j1; j++) {
            /* lines 19-20: column j, subtree rows; the rest zero until an
             * ancestor's line 17 writes it */
            double *restrict cq = dq + (size_t)nv * j, *restrict cv = dv + (size_t)nv * j;
            memset(cq, 0, sizeof(double) * (size_t)j0);
            memset(cv, 0, sizeof(double) * (size_t)j0);
            memset(cq + e, 0, sizeof(double) * (size_t)(nv - e));
            memset(cv + e, 0, sizeof(double) * (size_t)(nv - e));
            const double *Pd = w->Pd[j], *Pdd = w->Pdd[j], *S = m->S + 6 * j, *SP = w->SdPd[j];
            for (int k = j0; k < e; k++) {
                cq[k] = rbd_dot6(t[k][3], Pd) + rbd_dot6(t[k][0], Pdd);
                cv[k] = rbd_dot6(t[k][3], S) + rbd_dot6(t[k][0], SP);
            }
        }
        const int pa = m->parent[i];
        if (pa >= 0) {
            /* carry the subtree's t vectors and the composites to frame lambda(i) */
            const sp_xform *X = &w->Xup[i];
            for (int k = j0; k < e; k++)
                for (int s = 0; s < 4; s++) sp_xform_T_force(X, t[k][s], t[k][s]);
            sp_inertia In;
            double f[6];
            sp_inertia_to_parent(X, IC, &In);
            sp_inertia_add(&w->IC[pa], &In);
            sp_inertia_to_parent(X, dIC, &In);
            sp_inertia_add(&w->dIC[pa], &In);
            sp_xform_T_force(X, hC, f);
            for (int r = 0; r < 6; r++) w->hC[pa][r] += f[r];
            sp_xform_T_force(X, fC, f);
            for (int r = 0; r < 6; r++) w->fC[pa][r] += f[r];
        }
    }
    return RBD_OK;
}

const rbd_method rbd_method_idsva_body = {
    .name = "idsva-body",
    .summary = "IDSVA (Singh-Russell-Wensing 2022 Alg. 1) in body coordinates, as in the paper's Fig. 3",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = idb_init,
    .eval = idb_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
