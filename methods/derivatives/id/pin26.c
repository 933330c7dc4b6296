/*
 * The ID-derivative algorithm of Pinocchio 2.6.0 (computeRNEADerivatives) as
 * Singh, Russell & Wensing (2022, sec. I and Table II) describe it: an O(N)
 * forward pass in ground coordinates (the same quantities as IDSVA lines
 * 1-11: id_ground.c) and an O(Nd) backward pass that, at body i,
 *  - fills row i over the proper-subtree columns by one block product with
 *    the descendants' force derivatives (dFdq = t3, dFdv = t2);
 *  - fills row i over the ANCESTOR columns by walking the ancestor dofs one
 *    by one (parents_fromRow), each entry S_i^T 2B_i^C Psi_dot_j +
 *    (I_i^C S_i)^T Psi_ddot_j.
 * Pinocchio takes the diagonal block from the first product, i.e. with
 * line 15's f^C xbar* S_i term; for a multi-dof joint that adds
 * S_i^T (S_i x* f^C), which is not zero (our id-cs and Pinocchio 3's
 * reference values agree without it; see test_id_methods), so here the walk
 * starts at the joint's own dofs and the diagonal uses the j <= i formula of
 * eq. (30), as IDSVA's line 19 does.
 * That ancestor loop, instead of IDSVA's column block product (Alg. 1 lines
 * 19-20), is what sets this algorithm apart.
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/id/id_ground.h"
#include "rbdiff/method.h"
#include "derivatives/vec.h"
#include "model/hot.h"

typedef struct {
    const rbd_model *m;
    rbd_idg g;
    double *T;          /* dFdv, dFdq: [2][6][nv] rows */
    double *A;          /* [nv][24] each dof's (Psi_dot_c, S_c) for c = 0..5, then (Psi_ddot_c, SP_c) */
    int zeros_preset;   /* rbd_options.zeros_preset: no clearing of the outputs */
} pin_ws;

static void carve(pin_ws *w, rbd_arena *a, const rbd_model *m)
{
    rbd_idg_carve(&w->g, a, m);
    w->T = rbd_arena_take(a, sizeof(double) * 12 * (size_t)m->nv);
    w->A = rbd_arena_take(a, sizeof(double) * 24 * (size_t)m->nv);
}

extern const rbd_method rbd_method_pin26;

static int pin_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_pin26, m, out);
    if (rc) return rc;
    rbd_arena a = { 0 };
    pin_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the pin26 workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);
    rbd_idg_setup(&w->g, m);
    w->m = m;
    w->zeros_preset = o && o->zeros_preset;
    *out = w;
    return RBD_OK;
}

/* The ancestor loop (pin_backward) computes its two outputs as one 2-vector
 * (vec.h): 12 FMAs per entry pair instead of 24.  idsva's pair products
 * (idsva_pairs.h) use the same means, so that pin26 against idsva compares
 * the order of the loops (the IDSVA paper's point), not their
 * vectorisation (what it saves: methods/README.md, "Figures that were code
 * comments"). */

/* The backward pass after rbd_idg_forward filled w->g. */
RBD_HOT static void pin_backward(void *p, double *restrict tau, double *restrict dq, double *restrict dv)
{
    pin_ws *w = p;
    const rbd_model *m = w->m;
    rbd_idg *g = &w->g;
    const int nv = m->nv;
    double *restrict T2 = w->T, *restrict T3 = T2 + 6 * nv;
    if (!w->zeros_preset) {     /* Pinocchio zeroes its Data's matrices once, at construction */
        memset(dq, 0, sizeof(double) * (size_t)nv * (size_t)nv);
        memset(dv, 0, sizeof(double) * (size_t)nv * (size_t)nv);
    }
    double *restrict A = w->A;        /* the ancestors' constants, packed for the ancestor loop */
    for (int l = 0; l < nv; l++)
        for (int c = 0; c < 6; c++) {
            A[24 * l + 2 * c] = g->Pd[l][c];
            A[24 * l + 2 * c + 1] = g->S[l][c];
            A[24 * l + 12 + 2 * c] = g->Pdd[l][c];
            A[24 * l + 12 + 2 * c + 1] = g->SdPd[l][c];
        }
    for (int i = m->nb - 1; i >= 0; i--) {
        const int j0 = m->idx_v[i], j1 = j0 + m->nv_of[i];
        const int e = m->subtree_end_v[i];
        double t1[6][6], t4[6][6];      /* dFda = I^C S and (S^T 2B^C)^T of this joint's dofs */
        for (int j = j0; j < j1; j++) {
            double t2[6], t3[6];
            rbd_idg_tvec(g, i, j, t1[j - j0], t2, t3, t4[j - j0]);
            for (int r = 0; r < 6; r++) { T2[r * nv + j] = t2[r]; T3[r * nv + j] = t3[r]; }
            tau[j] = rbd_dot6(g->S[j], g->fC[i]);
        }
        for (int j = j0; j < j1; j++) {
            /* row j over the proper-subtree columns [j1, e) */
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
            const double *a = t4[j - j0], *b = t1[j - j0];
            rbd_v2 ta[6], tb[6];
            for (int c = 0; c < 6; c++) { ta[c] = (rbd_v2){ a[c], a[c] }; tb[c] = (rbd_v2){ b[c], b[c] }; }
            /* the ancestor loop: row j, each dof l of this joint and its ancestors */
            for (int l = j1 - 1; l >= 0; l = m->dof_parent[l]) {
                const double *K = A + 24 * l;
                rbd_v2 x, y, u, z;
                rbd_load2(&x, K);
                rbd_load2(&y, K + 12);
                u = ta[0] * x;
                z = tb[0] * y;
                for (int c = 1; c < 6; c++) {
                    rbd_load2(&x, K + 2 * c);
                    rbd_load2(&y, K + 12 + 2 * c);
                    u += ta[c] * x;
                    z += tb[c] * y;
                }
                u += z;
                dq[j + (size_t)nv * l] = u[0];
                dv[j + (size_t)nv * l] = u[1];
            }
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);
    }
}

static rbd_idg *pin_idg(void *p)
{
    return &((pin_ws *)p)->g;
}

const rbd_idg_backend rbd_pin26_backend = { pin_idg, pin_backward, NULL };

static int pin_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    pin_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "pin26: null workspace, state vector or output buffer");
    rbd_idg_forward(w->m, &w->g, x->q, x->v, x->a);
    pin_backward(w, out->tau, out->dtau_dq, out->dtau_dv);
    return RBD_OK;
}

const rbd_method rbd_method_pin26 = {
    .name = "pin26",
    .summary = "Pinocchio 2.6.0 computeRNEADerivatives as the IDSVA paper describes it: ground frame, ancestor loop",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = pin_init,
    .eval = pin_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
