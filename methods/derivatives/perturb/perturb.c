/* The perturbation driver (perturb.h): finite differences and the complex
 * step of y = f(q, v, u), column by column. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "derivatives/perturb/perturb.h"
#include "model/joint.h"

typedef struct {
    const rbd_perturb_fn *fn;
    const rbd_model *m;
    void *ctx;                  /* the function's workspace */
    size_t ny;
    int forward;                /* FD: forward instead of central */
    double h;                   /* CS: the step */
    double *q, *x, *dv, *yp, *ym;                   /* FD: q (+) h e_j, a moved v or u, e_j, f(+h), f(-h) */
    double complex *zq, *zv, *zu, *zy, *zd;         /* CS: the complex inputs, f, e_j of one joint */
} pt_ws;

/* The driver's arrays, then the function's workspace: into ctx_sizing (a
 * scratch struct) while sizing, else into the arena. */
static void carve(pt_ws *w, rbd_arena *a, const rbd_model *m, const rbd_perturb_fn *fn, size_t ny,
                  void *ctx_sizing)
{
    if (fn->scheme == RBD_PERTURB_FD) {
        RBD_ARENA_TAKE(a, w->q, m->nq); RBD_ARENA_TAKE(a, w->x, m->nv); RBD_ARENA_TAKE(a, w->dv, m->nv);
        RBD_ARENA_TAKE(a, w->yp, ny); RBD_ARENA_TAKE(a, w->ym, ny);
    } else {
        RBD_ARENA_TAKE(a, w->zq, m->nq); RBD_ARENA_TAKE(a, w->zv, m->nv); RBD_ARENA_TAKE(a, w->zu, m->nv);
        RBD_ARENA_TAKE(a, w->zy, ny); RBD_ARENA_TAKE(a, w->zd, 6);
    }
    w->ctx = rbd_arena_take(a, fn->ctx_size);
    if (fn->carve) fn->carve(a->base ? w->ctx : ctx_sizing, a, m);
}

void rbd_perturb_fini(void *p)
{
    pt_ws *w = p;
    if (!w) return;
    if (w->fn->release) w->fn->release(w->ctx);
    free(w);            /* the workspace heads its arena (arena.h) */
}

int rbd_perturb_init(const rbd_perturb_fn *fn, const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(fn->method, m, out);
    if (rc) return rc;
    rbd_options def;
    if (!o) { rbd_options_default(&def); o = &def; }
    if (fn->scheme == RBD_PERTURB_CS && (!(o->cs_step > 0) || o->cs_step > RBD_CS_STEP_MAX))
        return rbd_fail(RBD_EINVAL, "%s: complex step h = %g must be in (0, %g]", fn->method->name, o->cs_step,
                        RBD_CS_STEP_MAX);
    const size_t ny = fn->ny ? fn->ny(m) : (size_t)m->nv;
    rbd_arena a = { 0 };
    pt_ws sizing = { 0 }, *w;
    void *ctx_sizing = calloc(1, fn->ctx_size ? fn->ctx_size : 1);
    if (!ctx_sizing) return rbd_fail(RBD_ENOMEM, "%s: out of memory", fn->method->name);
    carve(&sizing, &a, m, fn, ny, ctx_sizing);
    free(ctx_sizing);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, fn->method->name))) return RBD_ENOMEM;
    carve(w, &a, m, fn, ny, NULL);  /* zeroed: the directions dv, zd start at 0 */
    w->fn = fn;
    w->m = m;
    w->ny = ny;
    w->forward = o->fd_forward;
    w->h = o->cs_step;
    if (fn->setup && (rc = fn->setup(w->ctx, m))) { free(w); return rc; }
    *out = w;
    return RBD_OK;
}

/* ---------------------------------------------------------------- finite differences */

/* The step for coordinate x (perturb.h): base s, rounded so x + h - x == h. */
static double fd_step(const pt_ws *w, double x)
{
    const double base = w->forward ? sqrt(DBL_EPSILON) : cbrt(DBL_EPSILON);
    volatile double t = x + base * fmax(1, fabs(x));
    return t - x;
}

/* col = (f(+h) - f(-h)) / 2h, or (f(+h) - f(x)) / h forward. */
static void fd_column(const pt_ws *w, const double *y, double h, double *col)
{
    const double *ym = w->forward ? y : w->ym;
    const double s = w->forward ? 1 / h : 1 / (2 * h);
    for (size_t k = 0; k < w->ny; k++) col[k] = (w->yp[k] - ym[k]) * s;
}

/* Column j of dy/dv (which = 0) or dy/du (which = 1): entry j of w->x, a
 * copy of v or u, moved by +-h. */
static int fd_vec_column(pt_ws *w, const double *q, const double *v, const double *u, int which, int j,
                         const double *y, double *col)
{
    const double *base = which ? u : v;
    const double h = fd_step(w, base[j]);
    int rc = RBD_OK;
    memcpy(w->x, base, sizeof(double) * (size_t)w->m->nv);
    for (int s = 0; s < 2 - w->forward && !rc; s++) {
        w->x[j] = base[j] + (s ? -h : h);
        rc = w->fn->f(w->ctx, w->m, q, which ? v : w->x, which ? w->x : u, s ? w->ym : w->yp);
    }
    if (!rc) fd_column(w, y, h, col);
    return rc;
}

static int fd_columns(pt_ws *w, const double *q, const double *v, const double *u, double *y,
                      double *dy_dq, double *dy_dv, double *dy_du)
{
    const rbd_model *m = w->m;
    int rc = w->fn->f(w->ctx, m, q, v, u, y);
    for (int i = 0; i < m->nb && !rc; i++) {
        const int lie = m->nq_of[i] != m->nv_of[i];   /* a Lie group: step about 0, not q */
        for (int dd = 0; dd < m->nv_of[i] && !rc; dd++) {
            const int j = m->idx_v[i] + dd;
            const double h = fd_step(w, lie ? 0 : q[m->idx_q[i]]);
            w->dv[j] = 1;
            for (int s = 0; s < 2 - w->forward && !rc; s++) {
                rbd_integrate(m, q, w->dv, s ? -h : h, w->q);
                rc = w->fn->f(w->ctx, m, w->q, v, u, s ? w->ym : w->yp);
            }
            w->dv[j] = 0;
            if (rc) break;
            fd_column(w, y, h, dy_dq + w->ny * j);
            rc = fd_vec_column(w, q, v, u, 0, j, y, dy_dv + w->ny * j);
            if (!rc && w->fn->du) rc = fd_vec_column(w, q, v, u, 1, j, y, dy_du + w->ny * j);
        }
    }
    return rc;
}

/* ---------------------------------------------------------------- complex step */

static void cs_column(const pt_ws *w, double *col)
{
    for (size_t k = 0; k < w->ny; k++) col[k] = cimag(w->zy[k]) / w->h;
}

/* Column j of dy/dv or dy/du: entry j of z (= zv or zu, equal to x) moved by i h. */
static int cs_vec_column(pt_ws *w, double complex *z, const double *x, int j, double *col)
{
    z[j] = x[j] + w->h * I;
    int rc = w->fn->fz(w->ctx, w->m, w->zq, w->zv, w->zu, w->zy);
    z[j] = x[j];
    if (!rc) cs_column(w, col);
    return rc;
}

static int cs_columns(pt_ws *w, const double *q, const double *v, const double *u, double *y,
                      double *dy_dq, double *dy_dv, double *dy_du)
{
    const rbd_model *m = w->m;
    const double h = w->h;
    for (int k = 0; k < m->nq; k++) w->zq[k] = q[k];
    for (int k = 0; k < m->nv; k++) { w->zv[k] = v[k]; w->zu[k] = u[k]; }
    int rc = w->fn->fz(w->ctx, m, w->zq, w->zv, w->zu, w->zy);
    if (rc) return rc;
    for (size_t k = 0; k < w->ny; k++) y[k] = creal(w->zy[k]);
    for (int i = 0; i < m->nb && !rc; i++) {
        const int iq = m->idx_q[i], nq = m->nq_of[i];
        double complex qi[7];
        for (int k = 0; k < nq; k++) qi[k] = w->zq[iq + k];
        for (int dd = 0; dd < m->nv_of[i] && !rc; dd++) {
            const int j = m->idx_v[i] + dd;
            w->zd[dd] = 1;
            spz_integrate_joint(&m->joint[i], qi, w->zd, h * I, w->zq + iq);     /* q (+) i h e_j */
            w->zd[dd] = 0;
            rc = w->fn->fz(w->ctx, m, w->zq, w->zv, w->zu, w->zy);
            for (int k = 0; k < nq; k++) w->zq[iq + k] = qi[k];
            if (rc) break;
            cs_column(w, dy_dq + w->ny * j);
            rc = cs_vec_column(w, w->zv, v, j, dy_dv + w->ny * j);
            if (!rc && w->fn->du) rc = cs_vec_column(w, w->zu, u, j, dy_du + w->ny * j);
        }
    }
    return rc;
}

/* ---------------------------------------------------------------- entry points */

int rbd_perturb_columns(void *p, const double *q, const double *v, const double *u, double *y,
                        double *dy_dq, double *dy_dv, double *dy_du)
{
    pt_ws *w = p;
    if (!w || !q || !v || !u || !y || !dy_dq || !dy_dv || (w->fn->du && !dy_du))
        return rbd_fail(RBD_EINVAL, "%s: null workspace, state vector or output buffer",
                        w ? w->fn->method->name : "perturbation driver");
    return w->fn->scheme == RBD_PERTURB_FD ? fd_columns(w, q, v, u, y, dy_dq, dy_dv, dy_du)
                                           : cs_columns(w, q, v, u, y, dy_dq, dy_dv, dy_du);
}

int rbd_perturb_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    pt_ws *w = p;
    if (!w || !x || !out)
        return rbd_fail(RBD_EINVAL, "%s: null workspace, state or output", w ? w->fn->method->name : "perturbation driver");
    if (w->fn->method->output == RBD_ID_DERIVS)
        return rbd_perturb_columns(w, x->q, x->v, x->a, out->tau, out->dtau_dq, out->dtau_dv, NULL);
    return rbd_perturb_columns(w, x->q, x->v, x->tau, out->qdd, out->dqdd_dq, out->dqdd_dv, out->dqdd_dtau);
}

void rbd_perturb_promote(const rbd_model *m, spz_xform *Xtree, spz_inertia *Ib)
{
    for (int i = 0; i < m->nb; i++) {
        spz_xform_promote(&m->Xtree[i], &Xtree[i]);
        spz_inertia_promote(&m->inertia[i], &Ib[i]);
    }
}
