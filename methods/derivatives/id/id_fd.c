/*
 * Finite differences of RNEA, column by column.  q is perturbed in the tangent
 * space (rbd_integrate), so Lie-group joints work.
 *
 * Step size (e.g. Nocedal & Wright, Numerical Optimization, sec. 8.1): with
 * rounding error eps*|tau| and truncation error ~ h f'' (forward) or h^2 f'''
 * (central), the total error is smallest near
 *   forward: h = sqrt(eps) * scale,   central: h = cbrt(eps) * scale,
 * scale = max(1, |x_j|) for a plain coordinate (revolute/prismatic q, every v)
 * and 1 for a tangent coordinate of a Lie-group joint (the perturbation is
 * about the identity).  h is then rounded so that x + h - x == h exactly.
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
    double *q, *v, *dv, *tp, *tm;
} fd_ws;

static void carve(fd_ws *w, rbd_arena *a, const rbd_model *m)
{
    RBD_ARENA_TAKE(a, w->q, m->nq); RBD_ARENA_TAKE(a, w->v, m->nv); RBD_ARENA_TAKE(a, w->dv, m->nv);
    RBD_ARENA_TAKE(a, w->tp, m->nv); RBD_ARENA_TAKE(a, w->tm, m->nv);
}

static void fd_fini(void *p)
{
    fd_ws *w = p;
    if (!w) return;
    rbd_data_free(w->d);
    free(w);            /* the workspace heads its arena (arena.h) */
}

extern const rbd_method rbd_method_id_fd;

static int fd_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_id_fd, m, out);
    if (rc) return rc;
    rbd_arena a = { 0 };
    fd_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the id-fd workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);                /* zeroed: the direction w->dv starts at 0 */
    w->m = m;
    w->forward = o ? o->fd_forward : 0;
    if (!(w->d = rbd_data_new(m))) { free(w); return RBD_ENOMEM; }
    *out = w;
    return RBD_OK;
}

/* Column j of a derivative from tau(+h) in tp and tau(-h) (or tau) in tm. */
static void fd_column(const fd_ws *w, double h, double *col)
{
    const int nv = w->m->nv;
    const double s = w->forward ? 1 / h : 1 / (2 * h);
    for (int k = 0; k < nv; k++) col[k] = (w->tp[k] - w->tm[k]) * s;
}

static int fd_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fd_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "id-fd: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const int nv = m->nv;
    const double base = w->forward ? sqrt(DBL_EPSILON) : cbrt(DBL_EPSILON);
    rbd_rnea(m, w->d, x->q, x->v, x->a, out->tau);
    for (int i = 0; i < m->nb; i++) {
        const int lie = m->nq_of[i] != m->nv_of[i];   /* a Lie group: step about 0, not q */
        for (int dd = 0; dd < m->nv_of[i]; dd++) {
            const int j = m->idx_v[i] + dd;
            /* q column */
            double qj = lie ? 0 : x->q[m->idx_q[i]];
            volatile double t = qj + base * fmax(1, fabs(qj));
            double h = t - qj;
            w->dv[j] = 1;
            rbd_integrate(m, x->q, w->dv, h, w->q);
            rbd_rnea(m, w->d, w->q, x->v, x->a, w->tp);
            if (w->forward) memcpy(w->tm, out->tau, sizeof(double) * (size_t)nv);
            else {
                rbd_integrate(m, x->q, w->dv, -h, w->q);
                rbd_rnea(m, w->d, w->q, x->v, x->a, w->tm);
            }
            w->dv[j] = 0;
            fd_column(w, h, out->dtau_dq + (size_t)nv * j);
            /* v column */
            memcpy(w->v, x->v, sizeof(double) * (size_t)nv);
            t = x->v[j] + base * fmax(1, fabs(x->v[j]));
            h = t - x->v[j];
            w->v[j] = x->v[j] + h;
            rbd_rnea(m, w->d, x->q, w->v, x->a, w->tp);
            if (w->forward) memcpy(w->tm, out->tau, sizeof(double) * (size_t)nv);
            else {
                w->v[j] = x->v[j] - h;
                rbd_rnea(m, w->d, x->q, w->v, x->a, w->tm);
            }
            fd_column(w, h, out->dtau_dv + (size_t)nv * j);
        }
    }
    return RBD_OK;
}

const rbd_method rbd_method_id_fd = {
    .name = "id-fd",
    .summary = "finite differences of RNEA, central (cbrt(eps) step) or forward (sqrt(eps)), tangent-space q",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fd_init,
    .eval = fd_eval,
    .fini = fd_fini,
};
