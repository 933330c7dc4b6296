/*
 * Second-order derivatives by central differences of a first-order analytic
 * method: id2-fd differentiates idsva (dtau/dq, dtau/dv) and CRBA (M),
 * fd2-fd differentiates fdsva (dqdd/dq, dqdd/dv, M^-1).  Slab k of each
 * tensor (method.h) is
 *     (J(x + h e_k) - J(x - h e_k)) / (2 h),
 * q perturbed in the tangent space, q (+) h e_k (rbd_integrate), as the
 * layout defines slab k.  The step is the first-order methods' (id_fd.c):
 * h = cbrt(eps) max(1, |x_k|), 1 for a Lie-group tangent coordinate, rounded
 * so that x + h - x == h.  The error is truncation h^2 J'''/6 plus rounding
 * eps |J| / h, ~ eps^(2/3) ~ 4e-11 times the scale ratios of J and its
 * derivatives; the tests hold it to 1e-6 term-wise RMS (README.md, "The
 * methods").  tau is quadratic in v and so is qdd = M^-1 (tau - C(q, v) v
 * - g), so dtau/dv and dqdd/dv are linear in v and their v slabs take a
 * unit step (max(1, |v_k|)): exact but for rounding.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

typedef struct {
    const rbd_model *m;
    const rbd_method *inner;    /* idsva or fdsva */
    void *iws;
    rbd_data *d;                /* CRBA for dM/dq (ID) */
    int id;
    double *q, *v, *dv;
    double *p[4], *n[4];        /* the first-order matrices at x + h e_k, x - h e_k */
    double *vec;                /* tau or qdd of the perturbed calls (not used) */
} so_fd_ws;

static void carve(so_fd_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nn = (size_t)m->nv * m->nv;
    RBD_ARENA_TAKE(a, w->q, m->nq); RBD_ARENA_TAKE(a, w->v, m->nv); RBD_ARENA_TAKE(a, w->dv, m->nv);
    RBD_ARENA_TAKE(a, w->vec, m->nv);
    for (int k = 0; k < 4; k++) { RBD_ARENA_TAKE(a, w->p[k], nn); RBD_ARENA_TAKE(a, w->n[k], nn); }
}

static void so_fd_fini(void *p)
{
    so_fd_ws *w = p;
    if (!w) return;
    if (w->iws) w->inner->fini(w->iws);
    rbd_data_free(w->d);
    free(w);
}

static int so_fd_init(const rbd_method *self, const char *inner, const rbd_model *m, const rbd_options *o,
                      void **out)
{
    int rc = rbd_method_init_check(self, m, out);
    if (rc || (rc = rbd_so_check_size(m, self->name, NULL))) return rc;
    rbd_arena a = { 0 };
    so_fd_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, self->name))) return RBD_ENOMEM;
    carve(w, &a, m);
    w->m = m;
    w->id = rbd_output_is_id(self->output);
    w->inner = rbd_method_find(inner);
    rbd_options io;
    rbd_options_default(&io);
    if (o) io = *o;
    io.zeros_preset = 0;          /* p and n are reused for other matrices: every entry written */
    if ((rc = w->inner->init(m, &io, &w->iws)) || (w->id && !(w->d = rbd_data_new(m)))) {
        w->iws = rc ? NULL : w->iws;
        so_fd_fini(w);
        return rc ? rc : RBD_ENOMEM;
    }
    *out = w;
    return RBD_OK;
}

/* The first-order matrices at (q, v) into J[0..2] (ID: dq, dv, M; FD: dq, dv, M^-1). */
static int first_order(so_fd_ws *w, const double *q, const double *v, const rbd_state *x, double *J[4])
{
    rbd_state s = { q, v, x->a, x->tau };
    rbd_derivs d = { 0 };
    if (w->id) { d.tau = w->vec; d.dtau_dq = J[0]; d.dtau_dv = J[1]; }
    else { d.qdd = w->vec; d.dqdd_dq = J[0]; d.dqdd_dv = J[1]; d.dqdd_dtau = J[2]; }
    int rc = w->inner->eval(w->iws, &s, &d);
    if (!rc && w->id) rc = rbd_crba(w->m, w->d, q, J[2]);
    return rc;
}

/* slab k of T = (P - N) / (2 h); transposed (mixed q-v or q-tau tensors,
 * whose slab is along the second variable, method.h): entry (i, j) of the
 * difference along q_k goes to T(i, k, j) */
static void slab(double *T, const double *P, const double *N, size_t nv, int k, double h, int transposed)
{
    const double s = 1 / (2 * h);
    const size_t nn = nv * nv;
    if (!transposed) {
        double *t = T + nn * (size_t)k;
        for (size_t e = 0; e < nn; e++) t[e] = (P[e] - N[e]) * s;
        return;
    }
    for (size_t j = 0; j < nv; j++)
        for (size_t i = 0; i < nv; i++) T[i + nv * (size_t)k + nn * j] = (P[i + nv * j] - N[i + nv * j]) * s;
}

static int so_fd_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    so_fd_ws *w = p;
    const rbd_model *m = w->m;
    const int nv = m->nv;
    double *T[1 + RBD_SO_NTENSORS];       /* vector, d/dq of J[0], d/dv of J[1], d/dq of J[1], d/dq of J[2] */
    rbd_so_output_ptrs(w->id ? RBD_ID_SO_DERIVS : RBD_FD_SO_DERIVS, out, T);
    if (!x || !x->q || !x->v || !(w->id ? x->a : x->tau))
        return rbd_fail(RBD_EINVAL, "%s: null state vector", w->id ? "id2-fd" : "fd2-fd");
    for (int k = 0; k <= RBD_SO_NTENSORS; k++)
        if (!T[k]) return rbd_fail(RBD_EINVAL, "%s: null output buffer", w->id ? "id2-fd" : "fd2-fd");
    const double base = cbrt(DBL_EPSILON);
    int rc = first_order(w, x->q, x->v, x, w->p);     /* the vector at x itself */
    if (rc) return rc;
    memcpy(T[0], w->vec, sizeof(double) * (size_t)nv);
    for (int i = 0; i < m->nb; i++) {
        const int lie = m->nq_of[i] != m->nv_of[i];   /* a Lie group: step about 0, not q */
        for (int dd = 0; dd < m->nv_of[i]; dd++) {
            const int k = m->idx_v[i] + dd;
            double qk = lie ? 0 : x->q[m->idx_q[i]];
            volatile double t = qk + base * fmax(1, fabs(qk));
            double h = t - qk;
            w->dv[k] = 1;
            rbd_integrate(m, x->q, w->dv, h, w->q);
            if ((rc = first_order(w, w->q, x->v, x, w->p))) return rc;
            rbd_integrate(m, x->q, w->dv, -h, w->q);
            if ((rc = first_order(w, w->q, x->v, x, w->n))) return rc;
            w->dv[k] = 0;
            slab(T[1], w->p[0], w->n[0], (size_t)nv, k, h, 0);
            slab(T[3], w->p[1], w->n[1], (size_t)nv, k, h, 1);
            slab(T[4], w->p[2], w->n[2], (size_t)nv, k, h, !w->id);     /* dM/dq: slab along q; dM^-1: along tau */
            memcpy(w->v, x->v, sizeof(double) * (size_t)nv);
            /* dtau/dv and dqdd/dv are linear in v (tau, qdd quadratic), so a
             * central difference is exact for any step: a unit step leaves
             * only the rounding of J over h = max(1, |v_k|) */
            t = x->v[k] + fmax(1, fabs(x->v[k]));
            h = t - x->v[k];
            w->v[k] = x->v[k] + h;
            if ((rc = first_order(w, x->q, w->v, x, w->p))) return rc;
            w->v[k] = x->v[k] - h;
            if ((rc = first_order(w, x->q, w->v, x, w->n))) return rc;
            slab(T[2], w->p[1], w->n[1], (size_t)nv, k, h, 0);
        }
    }
    return RBD_OK;
}

extern const rbd_method rbd_method_id2_fd, rbd_method_fd2_fd;

static int id2_init(const rbd_model *m, const rbd_options *o, void **out)
{
    return so_fd_init(&rbd_method_id2_fd, "idsva", m, o, out);
}

static int fd2_init(const rbd_model *m, const rbd_options *o, void **out)
{
    return so_fd_init(&rbd_method_fd2_fd, "fdsva", m, o, out);
}

const rbd_method rbd_method_id2_fd = {
    .name = "id2-fd",
    .summary = "second-order ID derivatives: central differences of idsva and CRBA (cbrt(eps) step), tangent-space q",
    .output = RBD_ID_SO_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = id2_init,
    .eval = so_fd_eval,
    .fini = so_fd_fini,
};

const rbd_method rbd_method_fd2_fd = {
    .name = "fd2-fd",
    .summary = "second-order FD derivatives: central differences of fdsva (cbrt(eps) step), tangent-space q",
    .output = RBD_FD_SO_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fd2_init,
    .eval = so_fd_eval,
    .fini = so_fd_fini,
};
