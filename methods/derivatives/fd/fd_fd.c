/*
 * Finite differences of ABA, column by column, for q (tangent space, via
 * rbd_integrate), qd and tau (the tau columns approximate M^-1).  Step sizes
 * as id_fd.c: central h = cbrt(eps) * scale, forward (rbd_options.fd_forward)
 * h = sqrt(eps) * scale, scale = max(1, |x_j|) for plain coordinates and 1
 * for Lie-group tangent coordinates; h rounded so that x + h - x == h.
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
    rbd_data *d;
    int forward;
    double *q, *x, *dv, *fp, *fm;
} ffd_ws;

static void carve(ffd_ws *w, rbd_arena *a, const rbd_model *m)
{
    RBD_ARENA_TAKE(a, w->q, m->nq); RBD_ARENA_TAKE(a, w->x, m->nv); RBD_ARENA_TAKE(a, w->dv, m->nv);
    RBD_ARENA_TAKE(a, w->fp, m->nv); RBD_ARENA_TAKE(a, w->fm, m->nv);
}

static void ffd_fini(void *p)
{
    ffd_ws *w = p;
    if (!w) return;
    rbd_data_free(w->d);
    free(w);            /* the workspace heads its arena (arena.h) */
}

extern const rbd_method rbd_method_fd_fd;

static int ffd_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_fd_fd, m, out);
    if (rc) return rc;
    rbd_arena a = { 0 };
    ffd_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the fd-fd workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);                /* zeroed: the direction w->dv starts at 0 */
    w->m = m;
    w->forward = o ? o->fd_forward : 0;
    if (!(w->d = rbd_data_new(m))) { free(w); return RBD_ENOMEM; }
    *out = w;
    return RBD_OK;
}

static double step(const ffd_ws *w, double x)
{
    const double base = w->forward ? sqrt(DBL_EPSILON) : cbrt(DBL_EPSILON);
    volatile double t = x + base * fmax(1, fabs(x));
    return t - x;
}

static void column(const ffd_ws *w, const double *qdd, double h, double *col)
{
    const int nv = w->m->nv;
    const double *fm = w->forward ? qdd : w->fm;
    const double s = w->forward ? 1 / h : 1 / (2 * h);
    for (int k = 0; k < nv; k++) col[k] = (w->fp[k] - fm[k]) * s;
}

/* fp = ABA at (q, qd, tau) with entry j of the vector `which` (1: qd, 2: tau)
 * moved by sgn h; fm likewise with -h unless forward. */
static int vec_column(ffd_ws *w, const rbd_state *x, int which, int j, const double *qdd, double *col)
{
    const rbd_model *m = w->m;
    const double *base = which == 1 ? x->v : x->tau;
    memcpy(w->x, base, sizeof(double) * (size_t)m->nv);
    double h = step(w, base[j]);
    int rc;
    for (int s = 0; s < 2 - w->forward; s++) {
        w->x[j] = base[j] + (s ? -h : h);
        const double *v = which == 1 ? w->x : x->v, *tau = which == 1 ? x->tau : w->x;
        if ((rc = rbd_aba(m, w->d, x->q, v, tau, s ? w->fm : w->fp))) return rc;
    }
    column(w, qdd, h, col);
    return RBD_OK;
}

static int ffd_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    ffd_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "fd-fd: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const size_t nv = (size_t)m->nv;
    int rc = rbd_aba(m, w->d, x->q, x->v, x->tau, out->qdd);
    if (rc) return rc;
    for (int i = 0; i < m->nb; i++) {
        const int lie = m->nq_of[i] != m->nv_of[i];   /* a Lie group: step about 0, not q */
        for (int dd = 0; dd < m->nv_of[i]; dd++) {
            const int j = m->idx_v[i] + dd;
            double h = step(w, lie ? 0 : x->q[m->idx_q[i]]);
            w->dv[j] = 1;
            for (int s = 0; s < 2 - w->forward; s++) {
                rbd_integrate(m, x->q, w->dv, s ? -h : h, w->q);
                if ((rc = rbd_aba(m, w->d, w->q, x->v, x->tau, s ? w->fm : w->fp))) { w->dv[j] = 0; return rc; }
            }
            w->dv[j] = 0;
            column(w, out->qdd, h, out->dqdd_dq + nv * j);
            if ((rc = vec_column(w, x, 1, j, out->qdd, out->dqdd_dv + nv * j))) return rc;
            if ((rc = vec_column(w, x, 2, j, out->qdd, out->dqdd_dtau + nv * j))) return rc;
        }
    }
    return RBD_OK;
}

const rbd_method rbd_method_fd_fd = {
    .name = "fd-fd",
    .summary = "finite differences of ABA, central (cbrt(eps) step) or forward (sqrt(eps)), tangent-space q",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = ffd_init,
    .eval = ffd_eval,
    .fini = ffd_fini,
};
