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
 * identity holds slab by slab for Lie-group joints too).  The products are
 * dgemm calls: nv per tensor for the A_j terms (O(nv^4) in all), one
 * nv x nv^2 product with M^-1 per tensor.
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
#include "rbdiff/method.h"

typedef struct {
    const rbd_model *m;
    const rbd_method *fd, *so;
    void *fd_ws, *so_ws;
    double *qdd, *Fq, *Fv, *Minv;        /* first order at (q, v, tau) */
    double *tau, *T[4];                  /* ID second order at (q, v, qdd); then the bracketed sums */
} fdsva_so_ws;

static void carve(fdsva_so_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nv = (size_t)m->nv, nn = nv * nv;
    RBD_ARENA_TAKE(a, w->qdd, nv); RBD_ARENA_TAKE(a, w->tau, nv);
    RBD_ARENA_TAKE(a, w->Fq, nn); RBD_ARENA_TAKE(a, w->Fv, nn); RBD_ARENA_TAKE(a, w->Minv, nn);
    for (int t = 0; t < 4; t++) RBD_ARENA_TAKE(a, w->T[t], nn * nv);
}

static void fdsva_so_fini(void *p)
{
    fdsva_so_ws *w = p;
    if (!w) return;
    if (w->fd_ws) w->fd->fini(w->fd_ws);
    if (w->so_ws) w->so->fini(w->so_ws);
    free(w);
}

extern const rbd_method rbd_method_fdsva_so;

static int fdsva_so_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_fdsva_so, m, out);
    if (rc || (rc = rbd_so_check_size(m, "fdsva-so", NULL))) return rc;
    rbd_arena a = { 0 };
    fdsva_so_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the fdsva-so workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);
    w->m = m;
    w->fd = rbd_method_find("fdsva-forces");
    w->so = rbd_method_find("idsva-so");
    rbd_options io;
    rbd_options_default(&io);
    if (o) io = *o;
    io.zeros_preset = 0;
    if ((rc = w->fd->init(m, &io, &w->fd_ws))) w->fd_ws = NULL;
    else if ((rc = w->so->init(m, &io, &w->so_ws))) w->so_ws = NULL;
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

static int fdsva_so_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fdsva_so_ws *w = p;
    const rbd_model *m = w->m;
    const int n = m->nv;
    const size_t nn = (size_t)n * n;
    if (!x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->d2qdd_dq2 || !out->d2qdd_dv2 ||
        !out->d2qdd_dqdv || !out->d2qdd_dqdtau)
        return rbd_fail(RBD_EINVAL, "fdsva-so: null state vector or output buffer");
    rbd_derivs f = { .qdd = w->qdd, .dqdd_dq = w->Fq, .dqdd_dv = w->Fv, .dqdd_dtau = w->Minv };
    rbd_state xs = { x->q, x->v, NULL, x->tau };
    int rc = w->fd->eval(w->fd_ws, &xs, &f);                         /* qdd, qdd_q, qdd_v, M^-1 */
    if (rc) return rc;
    rbd_derivs s = { .tau = w->tau, .d2tau_dq2 = w->T[0], .d2tau_dv2 = w->T[1], .d2tau_dqdv = w->T[2],
                     .dM_dq = w->T[3] };
    rbd_state xa = { x->q, x->v, w->qdd, NULL };
    if ((rc = w->so->eval(w->so_ws, &xa, &s))) return rc;            /* ID_xy, dM/dq at a = qdd */
    memcpy(out->qdd, w->qdd, sizeof(double) * (size_t)n);
    const double *dM = w->T[3];
    add_dM(dM, w->Fq, w->T[0], n, 0);
    add_dM(dM, w->Fq, w->T[0], n, 1);
    add_dM(dM, w->Fv, w->T[2], n, 0);
    double *O[4] = { out->d2qdd_dq2, out->d2qdd_dv2, out->d2qdd_dqdv, out->d2qdd_dqdtau };
    for (int t = 0; t < 3; t++)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, (int)nn, n, -1.0, w->Minv, n, w->T[t], n, 0.0, O[t], n);
    /* d2qdd_dqdtau(:, j, k) = -M^-1 A_j M^-1(:, k): A_j M^-1 into the spent ID_qv buffer */
    memset(w->T[2], 0, sizeof(double) * nn * (size_t)n);
    add_dM(dM, w->Minv, w->T[2], n, 0);
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, (int)nn, n, -1.0, w->Minv, n, w->T[2], n, 0.0, O[3], n);
    return RBD_OK;
}

const rbd_method rbd_method_fdsva_so = {
    .name = "fdsva-so",
    .summary = "second-order FD derivatives: IDSVA-SO at a = qdd and fdsva-forces composed through M^-1 (T-RO 2024)",
    .output = RBD_FD_SO_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fdsva_so_init,
    .eval = fdsva_so_eval,
    .fini = fdsva_so_fini,
};
