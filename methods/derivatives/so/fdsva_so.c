/*
 * fdsva-so: the second-order forward-dynamics derivatives composed from the
 * second-order inverse-dynamics ones and M^-1, as Singh, Russell & Wensing
 * do it (T-RO 2024, "On Second-Order Derivatives of Rigid-Body Dynamics").
 *
 * Differentiate the identity ID(q, v, FD(q, v, tau)) = tau twice.  Once:
 * ID_x + M qdd_x = 0 (x = q, v; M qdd_tau = 1), the first-order FD of
 * fdsva.  Again, along y, with ID linear in a and M independent of v:
 *   ID_xy + (dM/dx) qdd_y + (dM/dy) qdd_x + M qdd_xy = 0,
 * ID's second derivatives taken at a = qdd.  Per slab (method.h's layout,
 * dM_dq(:, l, j) = d/dq_j M(:, l), A_j its slab j):
 *   d2qdd_dq2(:, j, k)    = -M^-1 [d2tau_dq2(:, j, k) + A_j qdd_q(:, k) + A_k qdd_q(:, j)]
 *   d2qdd_dv2(:, j, k)    = -M^-1 d2tau_dv2(:, j, k)
 *   d2qdd_dqdv(:, j, k)   = -M^-1 [d2tau_dqdv(:, j, k) + A_j qdd_v(:, k)]
 *   d2qdd_dqdtau(:, j, k) = -M^-1 A_j M^-1(:, k)
 * (the tangent-space q slab k is taken at q (+) e_k on both sides, so the
 * identity holds slab by slab for Lie-group joints too).
 * Two of the four are first-order derivatives at other states, and are
 * taken so (fdsva-forces; methods/README.md, "fdsva-so below 1e-9"):
 * qdd = M^-1 (tau - C(q, v) v - g) is quadratic in v, so dqdd/dv is linear
 * in v and d2qdd_dv2(:, :, k) = dqdd/dv at (q, e_k, tau) exactly; and
 * d2qdd_dqdtau(:, j, k) = d/dq_j (M^-1 e_k) = dqdd/dq(:, j) at (q, 0, e_k)
 * without gravity.  In d2qdd_dqdv likewise the term (dM/dq_j) qdd_v(:, k)
 * of the bracket: qdd_v(:, k) = -M^-1 dID/dv(:, k), and dID/dv does not
 * depend on a, so d2qdd_dqdv(:, :, k) = dqdd/dq at (q, 0, -dID/dv(:, k))
 * without gravity - M^-1 d2tau_dqdv(:, :, k).  No double composition
 * through M^-1 reaches 1e-9 term-wise on an ill-conditioned chain (the
 * factors rounded once already give 5e-9 there, in long double products);
 * these do (4e-10, 8e-10).  d2qdd_dq2 stays the composition, its A_j terms
 * by dgemm (nv calls each, O(nv^4)), -M^-1 [.] (and d2qdd_dqdv's) by AZA
 * on each slab (ABA(q, 0, -b, 0), aza.c; O(nv^3); on that chain 2.2e-9
 * for 3.5e-9 with the explicit M^-1).
 * That costs 3 nv fdsva-forces calls, 4-9x the plain composition, and
 * still leaves d2qdd_dq2 over 1e-9 on the deep chains: the composition's
 * factors are rounded once, and its -M^-1 [.] cancels.  fd2-cs (fd2_cs.c,
 * the complex step of the tangent-linear ABA) composes nothing through
 * M^-1 and stays near 1e-11 there, at several times fdsva-so-aza's cost
 * (methods/README.md, "fd2-cs").  So
 * three methods here,
 *   fdsva-so-dmm  every tensor -M^-1 [.] by dgemm with the explicit M^-1;
 *   fdsva-so-aza  the first-order slabs and AZA, as above;
 *   fdsva-so      fd2-cs where the longest root-to-leaf path has
 *                 RBD_FDSO_CS_DEPTH dofs or more, else fdsva-so-dmm.
 * qdd_q and qdd_v enter every q slab through A_j qdd_y, so their error is
 * the tensors' error: they come from fdsva-forces (AZA with each column's
 * ancestor rows as one force), not fdsva, whose -M^-1 dID/du product loses
 * five digits on ill-conditioned chains (methods/README.md, "fdsva-so on
 * ill-conditioned chains": 6.6e-6 against 2.3e-9 at N = 100).
 */
#include <cblas.h>
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "derivatives/fd/fd_compose.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

/* The path length (in dofs) from which fdsva-so takes fd2-cs: the
 * composition, with AZA or without, misses 1e-9 term-wise on every chain
 * of 26 or more dofs audited (the multi-dof chain, autoTree's chains of 30
 * and 100) and on no model whose longest path has 16 or fewer (atlas,
 * talos with free-flyer; methods/README.md, "fd2-cs"). */
#define RBD_FDSO_CS_DEPTH 20

typedef enum { FDSO_RULE, FDSO_DMM, FDSO_AZA } fdso_mode;

typedef struct {
    const rbd_model *m;
    int aza;                             /* the first-order slabs and AZA (else dgemm with M^-1) */
    rbd_model g0;                        /* m without gravity (a0 = 0), for d2qdd_dqdtau */
    const rbd_method *fd, *so, *id, *cs;
    void *fd_ws, *fd0_ws, *so_ws, *id_ws, *cs_ws;     /* cs_ws: fd2-cs does it all (the rule's deep paths) */
    rbd_data *d;                         /* ABA at q: Xup, U, D^-1 for AZA */
    rbd_aza *z;
    double *qdd, *Fq, *Fv, *Minv;        /* first order at (q, v, tau) */
    double *e, *zero, *X, *Y;            /* unit vectors, scratch first order */
    double *f, *Gq, *Gv;                 /* -dID/dv(:, k); idsva's dID/dq, dID/dv at (q, v, qdd) */
    double *tau, *T[4];                  /* ID second order at (q, v, qdd); then the bracketed sums */
} fdsva_so_ws;

static void carve(fdsva_so_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nv = (size_t)m->nv, nn = nv * nv;
    RBD_ARENA_TAKE(a, w->qdd, nv); RBD_ARENA_TAKE(a, w->tau, nv);
    RBD_ARENA_TAKE(a, w->e, nv); RBD_ARENA_TAKE(a, w->zero, nv);     /* zeroed, as the arena is */
    RBD_ARENA_TAKE(a, w->Fq, nn); RBD_ARENA_TAKE(a, w->Fv, nn); RBD_ARENA_TAKE(a, w->Minv, nn);
    RBD_ARENA_TAKE(a, w->X, nn); RBD_ARENA_TAKE(a, w->Y, nn);
    RBD_ARENA_TAKE(a, w->f, nv); RBD_ARENA_TAKE(a, w->Gq, nn); RBD_ARENA_TAKE(a, w->Gv, nn);
    for (int t = 0; t < 4; t++) RBD_ARENA_TAKE(a, w->T[t], nn * nv);
}

/* The longest root-to-leaf path in dofs: dof k's depth is its parent's + 1. */
static int dof_depth(const rbd_model *m)
{
    int best = 0, *d = malloc(sizeof *d * (size_t)(m->nv > 0 ? m->nv : 1));
    if (!d) return -1;
    for (int k = 0; k < m->nv; k++) {
        d[k] = m->dof_parent[k] >= 0 ? d[m->dof_parent[k]] + 1 : 1;
        best = d[k] > best ? d[k] : best;
    }
    free(d);
    return best;
}

static void fdsva_so_fini(void *p)
{
    fdsva_so_ws *w = p;
    if (!w) return;
    if (w->fd_ws) w->fd->fini(w->fd_ws);
    if (w->fd0_ws) w->fd->fini(w->fd0_ws);
    if (w->so_ws) w->so->fini(w->so_ws);
    if (w->id_ws) w->id->fini(w->id_ws);
    if (w->cs_ws) w->cs->fini(w->cs_ws);
    rbd_aza_free(w->z);
    rbd_data_free(w->d);
    free(w);
}

static int fdso_init(const rbd_method *self, fdso_mode mode, const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(self, m, out);
    if (rc || (rc = rbd_so_check_size(m, self->name, NULL))) return rc;
    int depth = dof_depth(m);
    if (depth < 0) return rbd_fail(RBD_ENOMEM, "out of memory for %s", self->name);
    const int cs = mode == FDSO_RULE && depth >= RBD_FDSO_CS_DEPTH;
    rbd_arena a = { 0 };
    fdsva_so_ws sizing, *w;
    if (!cs) carve(&sizing, &a, m);                     /* fd2-cs keeps its own buffers */
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the fdsva-so workspace"))) return RBD_ENOMEM;
    if (!cs) carve(w, &a, m);
    w->m = m;
    if (cs) {
        w->cs = rbd_method_find("fd2-cs");
        if ((rc = w->cs->init(m, o, &w->cs_ws))) { w->cs_ws = NULL; fdsva_so_fini(w); return rc; }
        *out = w;
        return RBD_OK;
    }
    w->aza = mode == FDSO_AZA;
    w->g0 = *m;
    for (int c = 0; c < 6; c++) w->g0.a0[c] = 0;
    w->fd = rbd_method_find("fdsva-forces");
    w->so = rbd_method_find("idsva-so");
    w->id = rbd_method_find("idsva");
    rbd_options io;
    rbd_options_default(&io);
    if (o) io = *o;
    io.zeros_preset = 0;
    if (w->aza && (!(w->d = rbd_data_new(m)) || !(w->z = rbd_aza_new(m))))
        rc = rbd_fail(RBD_ENOMEM, "out of memory for %s", self->name);
    else if ((rc = w->fd->init(m, &io, &w->fd_ws))) w->fd_ws = NULL;
    else if (w->aza && (rc = w->fd->init(&w->g0, &io, &w->fd0_ws))) w->fd0_ws = NULL;
    else if ((rc = w->so->init(m, &io, &w->so_ws))) w->so_ws = NULL;
    else if (w->aza && (rc = w->id->init(m, &io, &w->id_ws))) w->id_ws = NULL;
    if (rc) { fdsva_so_fini(w); return rc; }
    *out = w;
    return RBD_OK;
}

/* C(:, j, k) += A_j X(:, k) for every j, k (trans_jk = 0), or
 * C(:, j, k) += A_k X(:, j) (trans_jk = 1); A_j = dM_dq(:, :, j). */
static void add_dM(const double *dM, const double *X, double *C, int n, int trans_jk)
{
    const size_t nn = (size_t)n * n;
    for (int j = 0; j < n; j++)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, dM + nn * j, n, X, n, 1.0,
                    trans_jk ? C + nn * j : C + (size_t)n * j, trans_jk ? n : (int)nn);
}

/* d2qdd_dv2 and d2qdd_dqdtau as first-order derivatives, slab k from
 * fdsva-forces at (q, e_k, tau) and, without gravity, at (q, 0, e_k); and
 * d2qdd_dqdv's term -dM^-1/dq_j dID/dv(:, k) as dqdd/dq(:, j) at
 * (q, 0, -dID/dv(:, k)) without gravity, added to the slab k AZA left. */
static int first_order_slabs(fdsva_so_ws *w, const rbd_state *x, rbd_derivs *out)
{
    const int n = w->m->nv;
    const size_t nn = (size_t)n * n;
    int rc = RBD_OK;
    for (int k = 0; k < n && !rc; k++) {
        w->e[k] = 1;
        rbd_state xv = { x->q, w->e, NULL, x->tau };
        rbd_derivs dv = { .qdd = w->tau, .dqdd_dq = w->X, .dqdd_dv = out->d2qdd_dv2 + nn * k, .dqdd_dtau = w->Y };
        rc = w->fd->eval(w->fd_ws, &xv, &dv);
        rbd_state xt = { x->q, w->zero, NULL, w->e };
        rbd_derivs dt = { .qdd = w->tau, .dqdd_dq = w->X, .dqdd_dv = w->Y, .dqdd_dtau = w->Y };
        if (!rc) rc = w->fd->eval(w->fd0_ws, &xt, &dt);
        w->e[k] = 0;
        double *o = out->d2qdd_dqdtau + nn * k;       /* (:, j, k) = dqdd/dq(:, j) at tau = e_k */
        for (size_t i = 0; !rc && i < nn; i++) o[i] = w->X[i];
        for (int i = 0; i < n; i++) w->f[i] = -w->Gv[i + (size_t)n * k];
        rbd_state xf = { x->q, w->zero, NULL, w->f };
        if (!rc) rc = w->fd->eval(w->fd0_ws, &xf, &dt);
        o = out->d2qdd_dqdv + nn * k;
        for (size_t i = 0; !rc && i < nn; i++) o[i] += w->X[i];
    }
    return rc;
}

static int fdsva_so_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fdsva_so_ws *w = p;
    const rbd_model *m = w->m;
    const int n = m->nv;
    const size_t nn = (size_t)n * n;
    if (!x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->d2qdd_dq2 || !out->d2qdd_dv2 ||
        !out->d2qdd_dqdv || !out->d2qdd_dqdtau)
        return rbd_fail(RBD_EINVAL, "fdsva-so: null state vector or output buffer");
    if (w->cs_ws) return w->cs->eval(w->cs_ws, x, out);
    rbd_derivs f = { .qdd = w->qdd, .dqdd_dq = w->Fq, .dqdd_dv = w->Fv, .dqdd_dtau = w->Minv };
    rbd_state xs = { x->q, x->v, NULL, x->tau };
    int rc = w->fd->eval(w->fd_ws, &xs, &f);                         /* qdd, qdd_q, qdd_v */
    if (rc) return rc;
    rbd_derivs s = { .tau = w->tau, .d2tau_dq2 = w->T[0], .d2tau_dv2 = w->T[1], .d2tau_dqdv = w->T[2],
                     .dM_dq = w->T[3] };
    rbd_state xa = { x->q, x->v, w->qdd, NULL };
    if ((rc = w->so->eval(w->so_ws, &xa, &s))) return rc;            /* ID_xy, dM/dq at a = qdd */
    memcpy(out->qdd, w->qdd, sizeof(double) * (size_t)n);
    const double *dM = w->T[3];
    add_dM(dM, w->Fq, w->T[0], n, 0);
    add_dM(dM, w->Fq, w->T[0], n, 1);
    if (!w->aza) {
        add_dM(dM, w->Fv, w->T[2], n, 0);
        double *O[4] = { out->d2qdd_dq2, out->d2qdd_dv2, out->d2qdd_dqdv, out->d2qdd_dqdtau };
        for (int t = 0; t < 3; t++)
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, (int)nn, n, -1.0, w->Minv, n, w->T[t], n, 0.0,
                        O[t], n);
        /* d2qdd_dqdtau(:, j, k) = -M^-1 A_j M^-1(:, k): A_j M^-1 into the spent ID_qv buffer */
        memset(w->T[2], 0, sizeof(double) * nn * (size_t)n);
        add_dM(dM, w->Minv, w->T[2], n, 0);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, (int)nn, n, -1.0, w->Minv, n, w->T[2], n, 0.0, O[3], n);
        return RBD_OK;
    }
    if ((rc = rbd_aba(m, w->d, x->q, x->v, x->tau, w->tau))) return rc;   /* Xup, U, D^-1 for AZA */
    rbd_derivs g = { .tau = w->tau, .dtau_dq = w->Gq, .dtau_dv = w->Gv };
    if ((rc = w->id->eval(w->id_ws, &xa, &g))) return rc;            /* dID/dv at (q, v, qdd) */
    for (int k = 0; k < n; k++) {                                    /* -M^-1 [.] slab by slab */
        rbd_aza_solve(m, w->d, w->z, w->T[0] + nn * k, out->d2qdd_dq2 + nn * k);
        rbd_aza_solve(m, w->d, w->z, w->T[2] + nn * k, out->d2qdd_dqdv + nn * k);
    }
    return first_order_slabs(w, x, out);
}

#define FDSO(id, str, mode, sum)                                                                \
    extern const rbd_method rbd_method_##id;                                                    \
    static int id##_init(const rbd_model *m, const rbd_options *o, void **out)                  \
    {                                                                                           \
        return fdso_init(&rbd_method_##id, mode, m, o, out);                                    \
    }                                                                                           \
    const rbd_method rbd_method_##id = { .name = str, .summary = sum, .output = RBD_FD_SO_DERIVS, \
                                         .joints = RBD_JOINTS_ALL, .init = id##_init,           \
                                         .eval = fdsva_so_eval, .fini = fdsva_so_fini };

FDSO(fdsva_so, "fdsva-so", FDSO_RULE,
     "second-order FD derivatives (T-RO 2024): fdsva-so-dmm, or fd2-cs on paths of 20 dofs or more")
FDSO(fdsva_so_dmm, "fdsva-so-dmm", FDSO_DMM,
     "second-order FD derivatives: IDSVA-SO at a = qdd and fdsva-forces composed through the explicit M^-1 (dgemm)")
FDSO(fdsva_so_aza, "fdsva-so-aza", FDSO_AZA,
     "second-order FD derivatives: d2qdd_dv2, d2qdd_dqdtau as fdsva-forces slabs, the others composed through AZA")
