/*
 * IDSVA, Algorithm 1 of Singh, Russell & Wensing (2022), traced on the
 * expression graph: idsva_ref.c line by line, with eg_id for double, so
 * that what emit_c.c prints for a model is that algorithm with the model's
 * constants folded in (joint axes, Xtrees, inertias, the zeros of the
 * tree's sparsity).  Ground coordinates throughout; bodies depth-first, so
 * nu(i) is the dofs [j0, e).  Besides the derivatives, tau = S^T f^C and,
 * when asked, the joint-space inertia M(k, d) = S_k^T I^C_i S_d = S_k^T t1_d
 * (line 13's t1 is CRBA's force column in ground coordinates).
 */
#include <stdlib.h>
#include "emit/emit.h"
#include "emit/spatial_eg.h"

typedef struct {
    eg_xform *X0;
    eg_id (*v)[6], (*a)[6], (*fC)[6], (*IC)[36], (*BC)[36];
    eg_id (*S)[6], (*Sd)[6], (*Pd)[6], (*Pdd)[6], (*t1)[6], (*t2)[6], (*t3)[6], (*t4)[6];
} trace_ws;

static void ws_free(trace_ws *w)
{
    free(w->X0); free(w->v); free(w->a); free(w->fC); free(w->IC); free(w->BC);
    free(w->S); free(w->Sd); free(w->Pd); free(w->Pdd);
    free(w->t1); free(w->t2); free(w->t3); free(w->t4);
}

static int ws_alloc(trace_ws *w, size_t nb, size_t nv)
{
    w->X0 = malloc(sizeof *w->X0 * nb);
    w->v = malloc(sizeof *w->v * nb); w->a = malloc(sizeof *w->a * nb); w->fC = malloc(sizeof *w->fC * nb);
    w->IC = malloc(sizeof *w->IC * nb); w->BC = malloc(sizeof *w->BC * nb);
    w->S = malloc(sizeof *w->S * nv); w->Sd = malloc(sizeof *w->Sd * nv);
    w->Pd = malloc(sizeof *w->Pd * nv); w->Pdd = malloc(sizeof *w->Pdd * nv);
    w->t1 = malloc(sizeof *w->t1 * nv); w->t2 = malloc(sizeof *w->t2 * nv);
    w->t3 = malloc(sizeof *w->t3 * nv); w->t4 = malloc(sizeof *w->t4 * nv);
    if (w->X0 && w->v && w->a && w->fC && w->IC && w->BC && w->S && w->Sd && w->Pd && w->Pdd && w->t1 && w->t2 &&
        w->t3 && w->t4)
        return RBD_OK;
    ws_free(w);
    return rbd_fail(RBD_ENOMEM, "emit: out of memory tracing IDSVA");
}

/* Lines 1-11: kinematics, I_i, B_i, f_i in ground coordinates. */
static void forward(eg_graph *g, const rbd_model *m, trace_ws *w, const eg_id *qd, const eg_id *qdd)
{
    eg_id zero6[6], a0[6];
    for (int r = 0; r < 6; r++) { zero6[r] = g->zero; a0[r] = eg_const(g, m->a0[r]); }
    for (int i = 0; i < m->nb; i++) {                                           /* line 2 */
        const int pa = m->parent[i], j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const eg_id *vp = pa >= 0 ? w->v[pa] : zero6, *ap = pa >= 0 ? w->a[pa] : a0;   /* line 1 */
        eg_xform XJ, Xt, Xup, Xinv;
        eg_jcalc(g, m, i, &XJ);
        eg_xform_const(g, &m->Xtree[i], &Xt);
        eg_xform_compose(g, &XJ, &Xt, &Xup);
        if (pa >= 0) eg_xform_compose(g, &Xup, &w->X0[pa], &w->X0[i]); else w->X0[i] = Xup;
        eg_id Xi[36], Sq[6], Sqdd[6], c[6], Sb[6];
        eg_xform_inverse(g, &w->X0[i], &Xinv);
        eg_xform_to_mat6(g, &Xinv, Xi);
        for (int r = 0; r < 6; r++) Sq[r] = Sqdd[r] = g->zero;
        for (int j = j0; j < j1; j++) {
            for (int r = 0; r < 6; r++) Sb[r] = eg_const(g, m->S[6 * j + r]);
            eg_mv(g, Xi, Sb, w->S[j]);                                          /* S_i in ground coordinates */
            for (int r = 0; r < 6; r++) {
                Sq[r] = eg_add(g, Sq[r], eg_mul(g, w->S[j][r], qd[j]));
                Sqdd[r] = eg_add(g, Sqdd[r], eg_mul(g, w->S[j][r], qdd[j]));
            }
        }
        for (int r = 0; r < 6; r++) w->v[i][r] = eg_add(g, vp[r], Sq[r]);      /* line 3 */
        eg_crm(g, w->v[i], Sq, c);
        for (int r = 0; r < 6; r++) w->a[i][r] = eg_add(g, eg_add(g, ap[r], Sqdd[r]), c[r]);   /* line 4 */
        for (int j = j0; j < j1; j++) {
            eg_crm(g, w->v[i], w->S[j], w->Sd[j]);                              /* line 5 */
            eg_crm(g, vp, w->S[j], w->Pd[j]);                                   /* line 6 */
            eg_crm(g, ap, w->S[j], w->Pdd[j]);
            eg_crm(g, vp, w->Pd[j], c);
            for (int r = 0; r < 6; r++) w->Pdd[j][r] = eg_add(g, w->Pdd[j][r], c[r]);   /* line 7 */
        }
        eg_id *IC = w->IC[i], *BC = w->BC[i], *v = w->v[i], Iv[6], M1[36], M2[36], M3[36];
        eg_inertia_to(g, &w->X0[i], &m->inertia[i], IC);                       /* line 8: I_i = X0^T I X0 */
        eg_mv(g, IC, v, Iv);
        eg_op_mat(g, eg_crf, v, M1); eg_mm(g, M1, IC, M2);                     /* (v_i x*) I_i */
        eg_op_mat(g, eg_crm, v, M1); eg_mm(g, IC, M1, M3);                     /* I_i (v_i x) */
        eg_op_mat(g, eg_crbar, Iv, M1);                                         /* (I_i v_i) xbar* */
        eg_id half = eg_const(g, 0.5);
        for (int k = 0; k < 36; k++)                                            /* line 9 */
            BC[k] = eg_mul(g, half, eg_add(g, eg_sub(g, M2[k], M3[k]), M1[k]));
        eg_mv(g, IC, w->a[i], w->fC[i]);
        eg_crf(g, v, Iv, c);
        for (int r = 0; r < 6; r++) w->fC[i][r] = eg_add(g, w->fC[i][r], c[r]);   /* line 10 */
    }
}

/* Lines 13-16 for dof j of body i. */
static void tvecs(eg_graph *g, trace_ws *w, int i, int j)
{
    const eg_id *IC = w->IC[i], *BC = w->BC[i], *S = w->S[j];
    eg_id SP[6], BS[6], ISP[6], BPd[6], IPdd[6], fS[6], BtS[6], two = eg_const(g, 2);
    for (int r = 0; r < 6; r++) SP[r] = eg_add(g, w->Sd[j][r], w->Pd[j][r]);
    eg_mv(g, BC, S, BS); eg_mv(g, IC, SP, ISP); eg_mv(g, BC, w->Pd[j], BPd); eg_mv(g, IC, w->Pdd[j], IPdd);
    eg_crbar(g, w->fC[i], S, fS); eg_mtv(g, BC, S, BtS);
    eg_mv(g, IC, S, w->t1[j]);                                                  /* line 13 */
    for (int r = 0; r < 6; r++) {
        w->t2[j][r] = eg_add(g, eg_mul(g, two, BS[r]), ISP[r]);                /* line 14 */
        w->t3[j][r] = eg_add(g, eg_add(g, eg_mul(g, two, BPd[r]), IPdd[r]), fS[r]);   /* line 15 */
        w->t4[j][r] = eg_mul(g, two, BtS[r]);                                   /* line 16 */
    }
}

/* Lines 12-23, and M from t1 when M is not NULL. */
static void backward(eg_graph *g, const rbd_model *m, trace_ws *w, const eg_out_id *o)
{
    const int nv = m->nv;
    for (int k = 0; k < nv * nv; k++) {
        if (o->dq) o->dq[k] = g->zero;
        if (o->dv) o->dv[k] = g->zero;
        if (o->M) o->M[k] = g->zero;
    }
    for (int i = m->nb - 1; i >= 0; i--) {                                      /* line 12 */
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i], e = m->subtree_end_v[i];
        for (int j = j0; j < j1; j++) {
            tvecs(g, w, i, j);
            o->tau[j] = eg_dot(g, w->S[j], w->fC[i], 6);
        }
        for (int k = j0; k < j1; k++) {
            eg_id SP[6];
            for (int r = 0; r < 6; r++) SP[r] = eg_add(g, w->Sd[k][r], w->Pd[k][r]);
            for (int d = j1; d < e && o->dq; d++) {
                o->dq[k + nv * d] = eg_dot(g, w->S[k], w->t3[d], 6);           /* line 17 */
                o->dv[k + nv * d] = eg_dot(g, w->S[k], w->t2[d], 6);           /* line 18 */
            }
            for (int d = j0; d < e && o->dq; d++) {
                o->dq[d + nv * k] = eg_add(g, eg_dot(g, w->t4[d], w->Pd[k], 6), eg_dot(g, w->t1[d], w->Pdd[k], 6));   /* line 19 */
                o->dv[d + nv * k] = eg_add(g, eg_dot(g, w->t4[d], w->S[k], 6), eg_dot(g, w->t1[d], SP, 6));          /* line 20 */
            }
            for (int d = j0; d < e && o->M; d++) o->M[k + nv * d] = o->M[d + nv * k] = eg_dot(g, w->S[k], w->t1[d], 6);
        }
        const int pa = m->parent[i];
        if (pa >= 0) {                                                          /* line 21 */
            for (int k = 0; k < 36; k++) {                                      /* line 22 */
                w->IC[pa][k] = eg_add(g, w->IC[pa][k], w->IC[i][k]);
                w->BC[pa][k] = eg_add(g, w->BC[pa][k], w->BC[i][k]);
            }
            for (int r = 0; r < 6; r++) w->fC[pa][r] = eg_add(g, w->fC[pa][r], w->fC[i][r]);   /* line 23 */
        }
    }
}

int eg_idsva(eg_graph *g, const rbd_model *m, const eg_id *qd, const eg_id *qdd, const eg_out_id *o)
{
    trace_ws w;
    int rc = ws_alloc(&w, (size_t)m->nb, (size_t)m->nv);
    if (rc) return rc;
    forward(g, m, &w, qd, qdd);
    backward(g, m, &w, o);
    ws_free(&w);
    return g->failed ? rbd_fail(RBD_ENOMEM, "emit: out of memory for the expression graph") : RBD_OK;
}
