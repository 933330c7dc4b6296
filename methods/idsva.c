/*
 * IDSVA: Algorithm 1 of Singh, Russell & Wensing (2022) in ground
 * coordinates.  The forward pass (lines 1-11) is id_ground.c; here is the
 * backward pass, whose lines 17-20 are products over the subtree: with the
 * depth-first numbering nu(i) is the contiguous dof range [j0, e), so each is
 * a short loop over contiguous memory.  t1..t4 are kept row-wise (six rows of
 * length nv) so those loops vectorise across the subtree.
 *
 * Multi-dof joints: the diagonal block dtau_i/dq_i comes from line 19 (the
 * j <= i case of eq. 30, no f^C term); line 15's f^C xbar* S_i term enters the
 * rows of the ancestors through line 17.
 */
#include <stdlib.h>
#include <string.h>
#include "id_ground.h"
#include "method.h"

typedef struct {
    const rbd_model *m;
    rbd_idg g;
    double *T;          /* t1..t4: [4][6][nv] */
} idsva_ws;

static void idsva_fini(void *p)
{
    idsva_ws *w = p;
    if (!w) return;
    rbd_idg_fini(&w->g);
    free(w->T);
    free(w);
}

extern const rbd_method rbd_method_idsva;

static int idsva_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    if (!m || !out) return rbd_fail(RBD_EINVAL, "idsva: null model or workspace pointer");
    *out = NULL;
    int rc = rbd_method_supports(&rbd_method_idsva, m);
    if (rc) return rc;
    idsva_ws *w = calloc(1, sizeof *w);
    if (!w) return rbd_fail(RBD_ENOMEM, "idsva: out of memory");
    w->m = m;
    if ((rc = rbd_idg_init(m, &w->g))) { free(w); return rc; }
    w->T = malloc(sizeof(double) * 24 * (size_t)m->nv);
    if (!w->T) { idsva_fini(w); return rbd_fail(RBD_ENOMEM, "idsva: out of memory"); }
    *out = w;
    return RBD_OK;
}

static int idsva_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    idsva_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const int nv = m->nv;
    rbd_idg_forward(m, g, x->q, x->v, x->a);
    double *restrict dq = out->dtau_dq, *restrict dv = out->dtau_dv, *restrict tau = out->tau;
    double *restrict T1 = w->T, *restrict T2 = T1 + 6 * nv, *restrict T3 = T2 + 6 * nv, *restrict T4 = T3 + 6 * nv;
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const int e = m->subtree_end[i] < m->nb ? m->idx_v[m->subtree_end[i]] : nv;
        for (int j = j0; j < j1; j++) {
            double t1[6], t2[6], t3[6], t4[6];
            rbd_idg_tvec(g, i, j, t1, t2, t3, t4);                             /* lines 13-16 */
            for (int r = 0; r < 6; r++) {
                T1[r * nv + j] = t1[r]; T2[r * nv + j] = t2[r];
                T3[r * nv + j] = t3[r]; T4[r * nv + j] = t4[r];
            }
            const double *S = g->S[j], *f = g->fC[i];
            tau[j] = S[0] * f[0] + S[1] * f[1] + S[2] * f[2] + S[3] * f[3] + S[4] * f[4] + S[5] * f[5];
        }
        for (int j = j0; j < j1; j++) {
            /* lines 17-18: row j, columns of the proper subtree */
            const double s0 = g->S[j][0], s1 = g->S[j][1], s2 = g->S[j][2];
            const double s3 = g->S[j][3], s4 = g->S[j][4], s5 = g->S[j][5];
            for (int k = j1; k < e; k++) {
                dq[j + (size_t)nv * k] = s0 * T3[k] + s1 * T3[nv + k] + s2 * T3[2 * nv + k] +
                                         s3 * T3[3 * nv + k] + s4 * T3[4 * nv + k] + s5 * T3[5 * nv + k];
                dv[j + (size_t)nv * k] = s0 * T2[k] + s1 * T2[nv + k] + s2 * T2[2 * nv + k] +
                                         s3 * T2[3 * nv + k] + s4 * T2[4 * nv + k] + s5 * T2[5 * nv + k];
            }
        }
        for (int j = j0; j < j1; j++) {
            /* lines 19-20: column j, rows of the subtree.  Rows outside it are
             * zero unless an ancestor's line 17 overwrites them later. */
            double *restrict cq = dq + (size_t)nv * j, *restrict cv = dv + (size_t)nv * j;
            memset(cq, 0, sizeof(double) * (size_t)j0);
            memset(cv, 0, sizeof(double) * (size_t)j0);
            memset(cq + e, 0, sizeof(double) * (size_t)(nv - e));
            memset(cv + e, 0, sizeof(double) * (size_t)(nv - e));
            const double *Pd = g->Pd[j], *Pdd = g->Pdd[j], *S = g->S[j], *SP = g->SdPd[j];
            const double p0 = Pd[0], p1 = Pd[1], p2 = Pd[2], p3 = Pd[3], p4 = Pd[4], p5 = Pd[5];
            const double d0 = Pdd[0], d1 = Pdd[1], d2 = Pdd[2], d3 = Pdd[3], d4 = Pdd[4], d5 = Pdd[5];
            const double s0 = S[0], s1 = S[1], s2 = S[2], s3 = S[3], s4 = S[4], s5 = S[5];
            const double u0 = SP[0], u1 = SP[1], u2 = SP[2], u3 = SP[3], u4 = SP[4], u5 = SP[5];
            for (int k = j0; k < e; k++) {
                const double a0 = T4[k], a1 = T4[nv + k], a2 = T4[2 * nv + k], a3 = T4[3 * nv + k],
                             a4 = T4[4 * nv + k], a5 = T4[5 * nv + k];
                const double b0 = T1[k], b1 = T1[nv + k], b2 = T1[2 * nv + k], b3 = T1[3 * nv + k],
                             b4 = T1[4 * nv + k], b5 = T1[5 * nv + k];
                cq[k] = a0 * p0 + a1 * p1 + a2 * p2 + a3 * p3 + a4 * p4 + a5 * p5 +
                        b0 * d0 + b1 * d1 + b2 * d2 + b3 * d3 + b4 * d4 + b5 * d5;
                cv[k] = a0 * s0 + a1 * s1 + a2 * s2 + a3 * s3 + a4 * s4 + a5 * s5 +
                        b0 * u0 + b1 * u1 + b2 * u2 + b3 * u3 + b4 * u4 + b5 * u5;
            }
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);         /* lines 21-23 */
    }
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
