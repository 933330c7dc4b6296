/*
 * Complex-step derivatives of RNEA (Squire & Trapp 1998): d tau / d x_j =
 * Im tau(x + i h e_j) / h, exact to rounding for any h this small because no
 * difference is taken.  The complex RNEA is rnea_tpl.h itself, instantiated
 * for T = double complex, so it is the very source `rbd_rnea` runs.  q is
 * perturbed in the tangent space through the complex joint integration
 * (spz_integrate_joint), so Lie-group joints are handled.  tau does not
 * depend on a beyond M(q) a, so nothing is perturbed for a.
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"
#include "rbdiff/method.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/rnea_tpl.h"

typedef struct {
    const rbd_model *m;
    double h;
    spz_xform *Xtree, *Xup;         /* [nb] promoted model data and scratch */
    spz_inertia *Ib;
    double complex (*v)[6], (*a)[6], (*f)[6];
    double complex *q, *qd, *qdd, *tau, *d;
} cs_ws;

static void carve(cs_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv, nq = (size_t)m->nq;
    RBD_ARENA_TAKE(a, w->Xtree, nb); RBD_ARENA_TAKE(a, w->Xup, nb); RBD_ARENA_TAKE(a, w->Ib, nb);
    RBD_ARENA_TAKE(a, w->v, nb); RBD_ARENA_TAKE(a, w->a, nb); RBD_ARENA_TAKE(a, w->f, nb);
    RBD_ARENA_TAKE(a, w->q, nq); RBD_ARENA_TAKE(a, w->qd, nv); RBD_ARENA_TAKE(a, w->qdd, nv);
    RBD_ARENA_TAKE(a, w->tau, nv); RBD_ARENA_TAKE(a, w->d, 6);
}

extern const rbd_method rbd_method_id_cs;

static int cs_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_id_cs, m, out);
    if (rc) return rc;
    rbd_options def;
    if (!o) { rbd_options_default(&def); o = &def; }
    if (!(o->cs_step > 0) || o->cs_step > RBD_CS_STEP_MAX)
        return rbd_fail(RBD_EINVAL, "id-cs: complex step h = %g must be in (0, %g]", o->cs_step, RBD_CS_STEP_MAX);
    rbd_arena a = { 0 };
    cs_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the id-cs workspace"))) return RBD_ENOMEM;
    carve(w, &a, m);                /* zeroed: the direction w->d starts at 0 */
    w->m = m;
    w->h = o->cs_step;
    for (int i = 0; i < m->nb; i++) {
        spz_xform_promote(&m->Xtree[i], &w->Xtree[i]);
        spz_inertia_promote(&m->inertia[i], &w->Ib[i]);
    }
    *out = w;
    return RBD_OK;
}

static void cs_rnea(cs_ws *w)
{
    spz_rnea(w->m, w->Xtree, w->Ib, w->Xup, w->v, w->a, w->f, w->q, w->qd, w->qdd, w->tau);
}

static int cs_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    cs_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "id-cs: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const int nv = m->nv;
    const double h = w->h;
    for (int k = 0; k < m->nq; k++) w->q[k] = x->q[k];
    for (int k = 0; k < nv; k++) { w->qd[k] = x->v[k]; w->qdd[k] = x->a[k]; }
    cs_rnea(w);
    for (int k = 0; k < nv; k++) out->tau[k] = creal(w->tau[k]);
    for (int i = 0; i < m->nb; i++) {
        const int iq = m->idx_q[i], nq = m->nq_of[i];
        double complex qi[7];
        for (int k = 0; k < nq; k++) qi[k] = w->q[iq + k];
        for (int d = 0; d < m->nv_of[i]; d++) {
            const int j = m->idx_v[i] + d;
            w->d[d] = 1;
            spz_integrate_joint(&m->joint[i], qi, w->d, h * I, w->q + iq);   /* q (+) i h e_j */
            w->d[d] = 0;
            cs_rnea(w);
            for (int k = 0; k < nv; k++) out->dtau_dq[k + (size_t)nv * j] = cimag(w->tau[k]) / h;
            for (int k = 0; k < nq; k++) w->q[iq + k] = qi[k];
            w->qd[j] = x->v[j] + h * I;
            cs_rnea(w);
            for (int k = 0; k < nv; k++) out->dtau_dv[k + (size_t)nv * j] = cimag(w->tau[k]) / h;
            w->qd[j] = x->v[j];
        }
    }
    return RBD_OK;
}

const rbd_method rbd_method_id_cs = {
    .name = "id-cs",
    .summary = "complex step on RNEA (one source, T = double complex), tangent-space q, h = 1e-20",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = cs_init,
    .eval = cs_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
