/*
 * IDSVA-SO: the second-order partial derivatives of inverse dynamics, the
 * analytical algorithm of Singh, Russell & Wensing, "Analytical Second-Order
 * Partial Derivatives of Rigid-Body Inverse Dynamics" (IROS 2022), O(N d^2).
 *
 * It extends IDSVA (RA-L 2022, Alg. 1; id_ground.h): the same ground-frame
 * forward pass (lines 1-11: S, Psi_dot, Psi_ddot, S_dot, I^C, dI^C/dt, h^C,
 * f^C) and the same per-dof vectors of lines 13-16,
 *   t1 = I^C S,  t2 = 2B^C S + I^C (S_dot + Psi_dot),
 *   t3 = 2B^C Psi_dot + I^C Psi_ddot + S x* f^C,  t4 = 2B^C^T S,
 * and in the backward pass, for every dof p of body i, every dof q of an
 * ancestor j of i (j = i included) and every dof r of an ancestor k of j,
 * writes the entries of the four tensors that the triple (i, j, k) touches,
 * each by symmetry once for every order of the three dofs it serves.
 *
 * The operators on a dof's axis S (the paper's tensor extension of spatial
 * algebra, contracted with one vector at a time so no 6x6 matrix is formed):
 *   x-bar:  f xbar x = x x* f                                  (antisymmetric)
 *   var_s:  x -> s x* (I^C x) - I^C (s x x)  = d/dt I^C along s (symmetric)
 *   2B^C x = dI^C x + x x* h^C,   2B^C^T x = dI^C x - x x* h^C (id_ground.h)
 *   R(x) = var_Psidot x + x x* (I^C Psi_dot) + S x* (2B^C x) - 2B^C (S x x):
 *          the derivative of 2B^C S along the dof's motion
 * Entry by entry the same terms as Pinocchio's ComputeRNEASecondOrderDerivatives
 * (the authors' implementation; its r0..r7, u1..u13, p1..p6 are the
 * vectors below), whose tensor layout method.h shares.
 *
 * Lie-group joints: the tensors are tangent-space as README.md
 * ("Conventions") defines them; tests/test_idsva_so.c checks the free-flying
 * multi-dof tree against the 256-bit reference.
 */
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/id/id_ground.h"
#include "rbdiff/method.h"
#include "derivatives/vec.h"

typedef struct {
    const rbd_model *m;
    rbd_idg g;
} idsva_so_ws;

/* The operators of body i's composite at dof p (header). */
typedef struct {
    const sp_inertia *IC, *dIC;
    const double *hC, *S, *Pd;
    double t1[6], t2[6], t3[6], t4[6], IPd[6];
} so_axis;

/* out = s x* (I^C x) - I^C (s x x) */
static void var(const so_axis *o, const double *s, const double *x, double *out)
{
    double a[6], b[6], c[6];
    sp_inertia_motion(o->IC, x, a);
    sp_crf(s, a, out);
    sp_crm(s, x, b);
    sp_inertia_motion(o->IC, b, c);
    for (int r = 0; r < 6; r++) out[r] -= c[r];
}

/* out = 2B^C x (sign +1) or 2B^C^T x (sign -1) */
static void bc(const so_axis *o, int sign, const double *x, double *out)
{
    double c[6];
    sp_inertia_motion(o->dIC, x, out);
    sp_crf(x, o->hC, c);
    for (int r = 0; r < 6; r++) out[r] += sign * c[r];
}

/* R x (sign +1) or R^T x (sign -1), R as in the header */
static void rop(const so_axis *o, int sign, const double *x, double *out)
{
    double a[6], b[6], c[6], d[6], e[6];
    var(o, o->Pd, x, out);
    sp_crf(x, o->IPd, a);
    bc(o, sign, x, b);
    sp_crf(o->S, b, c);
    sp_crm(o->S, x, d);
    bc(o, sign, d, e);
    for (int r = 0; r < 6; r++) out[r] += sign * a[r] + c[r] - e[r];
}

/* The vectors of dof q of ancestor j (Pinocchio's u1..u13). */
typedef struct {
    double u1[6], u2[6], u3[6], u4[6], u5[6], u6[6], u7[6], u8[6], u9[6], u10[6], u11[6], u12[6];
} so_pair;

static void pair_vectors(const so_axis *o, const rbd_idg *g, int jq, so_pair *u)
{
    const double *Sj = g->S[jq], *Pdj = g->Pd[jq], *Pddj = g->Pdd[jq], *SdPdj = g->SdPd[jq];
    double a[6], b[6], c[6], d[6];
    rop(o, -1, Sj, u->u1);
    var(o, o->S, Sj, u->u2);
    rop(o, +1, Pdj, a);
    var(o, o->S, Pddj, b);
    sp_crf(Sj, o->t3, c);
    for (int r = 0; r < 6; r++) u->u3[r] = a[r] + b[r] + c[r];
    sp_crf(Sj, o->t1, u->u9);
    sp_inertia_motion(o->IC, Sj, a);
    sp_crf(o->S, a, b);
    for (int r = 0; r < 6; r++) u->u4[r] = u->u9[r] + b[r];
    var(o, o->S, Pdj, a);                               /* var_S Psi_dot_j */
    sp_crf(Pdj, o->t1, b);                              /* t1 xbar Psi_dot_j */
    sp_crf(Sj, o->t2, c);
    for (int r = 0; r < 6; r++) {
        u->u5[r] = b[r] - a[r];
        u->u6[r] = a[r] + b[r] + c[r];
        u->u12[r] = a[r] - b[r];
    }
    rop(o, +1, Sj, a);
    var(o, o->S, SdPdj, d);
    for (int r = 0; r < 6; r++) u->u7[r] = a[r] + d[r];
    sp_crf(Sj, o->t4, u->u8);
    for (int r = 0; r < 6; r++) {
        u->u10[r] = u->u2[r] + u->u9[r];
        u->u11[r] = u->u2[r] - u->u9[r];
    }
}

typedef struct { double *dq2, *dv2, *dqdv, *dM; size_t nv; } so_out;

#define AT(T, a, b, c) (T)[(size_t)(a) + o->nv * ((size_t)(b) + o->nv * (size_t)(c))]

/* The entries of the triple (ip, jq, kr): ip on body i, jq on its ancestor j,
 * kr on j's ancestor k; ji = (j != i), kj = (k != j). */
static void triple(so_out *o, const rbd_idg *g, const so_pair *u, int ip, int jq, int kr, int ji, int kj)
{
    const double *Sk = g->S[kr], *Pdk = g->Pd[kr], *Pddk = g->Pdd[kr], *SdPdk = g->SdPd[kr];
    const double p1 = rbd_dot6(u->u11, Pdk);
    const double p2 = rbd_dot6(u->u9, Pddk) + rbd_dot6(u->u8, Pdk) - rbd_dot6(u->u12, Pdk);
    const double p3 = -rbd_dot6(u->u11, Sk);
    AT(o->dq2, ip, jq, kr) = p2;
    AT(o->dqdv, ip, kr, jq) = -p1;
    if (ji) {
        const double p4 = rbd_dot6(Sk, u->u2);
        AT(o->dq2, jq, kr, ip) = AT(o->dq2, jq, ip, kr) = rbd_dot6(u->u1, Pdk) + rbd_dot6(u->u2, Pddk);
        AT(o->dqdv, jq, kr, ip) = p1;
        AT(o->dqdv, jq, ip, kr) = rbd_dot6(u->u1, Sk) + rbd_dot6(u->u2, SdPdk);
        AT(o->dv2, jq, kr, ip) = AT(o->dv2, jq, ip, kr) = -p3;
        AT(o->dM, kr, jq, ip) = AT(o->dM, jq, kr, ip) = p4;
    }
    if (!kj) {
        AT(o->dv2, ip, jq, kr) = -rbd_dot6(u->u2, Sk);
        return;
    }
    const double p5 = rbd_dot6(Sk, u->u9);
    AT(o->dq2, ip, kr, jq) = p2;
    AT(o->dq2, kr, ip, jq) = rbd_dot6(Sk, u->u3);
    AT(o->dv2, ip, jq, kr) = AT(o->dv2, ip, kr, jq) = p3;
    AT(o->dqdv, ip, jq, kr) = rbd_dot6(Sk, u->u5) + rbd_dot6(Sk, u->u8) + rbd_dot6(u->u9, SdPdk);
    AT(o->dqdv, kr, jq, ip) = rbd_dot6(Sk, u->u6);
    AT(o->dM, kr, ip, jq) = AT(o->dM, ip, kr, jq) = p5;
    if (ji) {
        const double p6 = rbd_dot6(Sk, u->u10);
        AT(o->dq2, kr, jq, ip) = AT(o->dq2, kr, ip, jq);
        AT(o->dv2, kr, ip, jq) = AT(o->dv2, kr, jq, ip) = p6;
        AT(o->dqdv, kr, ip, jq) = rbd_dot6(Sk, u->u7);
    } else {
        AT(o->dv2, kr, jq, ip) = rbd_dot6(Sk, u->u4);
    }
}

/* Every triple with ip = dof p of body i (after i's composites are complete). */
static void body_dof(const rbd_model *m, rbd_idg *g, so_out *o, int i, int ip)
{
    so_axis ax = { &g->IC[i], &g->dIC[i], g->hC[i], g->S[ip], g->Pd[ip], { 0 }, { 0 }, { 0 }, { 0 }, { 0 } };
    rbd_idg_tvec(g, i, ip, ax.t1, ax.t2, ax.t3, ax.t4);         /* IDSVA lines 13-16 */
    sp_inertia_motion(ax.IC, ax.Pd, ax.IPd);
    for (int j = i; j >= 0; j = m->parent[j])
        for (int jq = m->idx_v[j]; jq < m->idx_v[j] + m->nv_of[j]; jq++) {
            so_pair u;
            pair_vectors(&ax, g, jq, &u);
            for (int k = j; k >= 0; k = m->parent[k])
                for (int kr = m->idx_v[k]; kr < m->idx_v[k] + m->nv_of[k]; kr++)
                    triple(o, g, &u, ip, jq, kr, j != i, k != j);
        }
}

static int idsva_so_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    idsva_so_ws *w = p;
    const rbd_model *m = w->m;
    if (!x || !x->q || !x->v || !x->a || !out || !out->tau || !out->d2tau_dq2 || !out->d2tau_dv2 ||
        !out->d2tau_dqdv || !out->dM_dq)
        return rbd_fail(RBD_EINVAL, "idsva-so: null state vector or output buffer");
    const size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
    so_out o = { out->d2tau_dq2, out->d2tau_dv2, out->d2tau_dqdv, out->dM_dq, nv };
    memset(o.dq2, 0, sizeof(double) * n3);              /* structural zeros: unrelated triples */
    memset(o.dv2, 0, sizeof(double) * n3);
    memset(o.dqdv, 0, sizeof(double) * n3);
    memset(o.dM, 0, sizeof(double) * n3);
    rbd_idg *g = &w->g;
    rbd_idg_forward(m, g, x->q, x->v, x->a);            /* IDSVA lines 1-11 */
    for (int i = m->nb - 1; i >= 0; i--) {
        for (int ip = m->idx_v[i]; ip < m->idx_v[i] + m->nv_of[i]; ip++) {
            out->tau[ip] = rbd_dot6(g->S[ip], g->fC[i]);    /* line 22 */
            body_dof(m, g, &o, i, ip);
        }
        if (m->parent[i] >= 0) rbd_idg_accumulate(g, i, m->parent[i]);
    }
    return RBD_OK;
}

static void carve(idsva_so_ws *w, rbd_arena *a, const rbd_model *m)
{
    rbd_idg_carve(&w->g, a, m);
}

extern const rbd_method rbd_method_idsva_so;

static int idsva_so_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    int rc = rbd_method_init_check(&rbd_method_idsva_so, m, out);
    if (rc || (rc = rbd_so_check_size(m, "idsva-so", NULL))) return rc;
    rbd_arena a = { 0 };
    idsva_so_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the idsva-so workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);
    rbd_idg_setup(&w->g, m);
    w->m = m;
    *out = w;
    return RBD_OK;
}

const rbd_method rbd_method_idsva_so = {
    .name = "idsva-so",
    .summary = "IDSVA-SO: analytical second-order ID derivatives, O(N d^2) (Singh, Russell & Wensing, IROS 2022)",
    .output = RBD_ID_SO_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = idsva_so_init,
    .eval = idsva_so_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
