/*
 * Complex-step derivatives of ABA (Squire & Trapp 1998): d qdd / d x_j =
 * Im ABA(x + i h e_j) / h for x = q (tangent space, through the complex
 * joint integration spz_integrate_joint), qd and tau; the tau columns are
 * M^-1.  The complex ABA is aba_tpl.h itself with T = double complex, the
 * very source rbd_aba runs (as id-cs does for RNEA).
 */
#include <complex.h>
#include <stdlib.h>
#include "model/arena.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"
#include "rbdiff/method.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/aba_tpl.h"

typedef struct {
    const rbd_model *m;
    double h;
    spz_xform *Xtree, *Xup;     /* [nb] promoted model data and scratch */
    spz_inertia *Ib;
    double complex (*v)[6], (*c)[6], (*pA)[6], (*a)[6], (*IA)[36], (*U)[6], *Dinv, *u;
    double complex *q, *qd, *tau, *qdd, *d;
} fcs_ws;

static void carve(fcs_ws *w, rbd_arena *a, const rbd_model *m)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, w->Xtree, nb); RBD_ARENA_TAKE(a, w->Xup, nb); RBD_ARENA_TAKE(a, w->Ib, nb);
    RBD_ARENA_TAKE(a, w->v, nb); RBD_ARENA_TAKE(a, w->c, nb); RBD_ARENA_TAKE(a, w->pA, nb);
    RBD_ARENA_TAKE(a, w->a, nb); RBD_ARENA_TAKE(a, w->IA, nb); RBD_ARENA_TAKE(a, w->U, nv);
    RBD_ARENA_TAKE(a, w->Dinv, 36 * nb); RBD_ARENA_TAKE(a, w->u, nv);
    RBD_ARENA_TAKE(a, w->q, m->nq); RBD_ARENA_TAKE(a, w->qd, nv);
    RBD_ARENA_TAKE(a, w->tau, nv); RBD_ARENA_TAKE(a, w->qdd, nv); RBD_ARENA_TAKE(a, w->d, 6);
}

extern const rbd_method rbd_method_fd_cs;

static int fcs_init(const rbd_model *m, const rbd_options *o, void **out)
{
    int rc = rbd_method_init_check(&rbd_method_fd_cs, m, out);
    if (rc) return rc;
    rbd_options def;
    if (!o) { rbd_options_default(&def); o = &def; }
    if (!(o->cs_step > 0) || o->cs_step > RBD_CS_STEP_MAX)
        return rbd_fail(RBD_EINVAL, "fd-cs: complex step h = %g must be in (0, %g]", o->cs_step, RBD_CS_STEP_MAX);
    rbd_arena a = { 0 };
    fcs_ws sizing, *w;
    carve(&sizing, &a, m);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, "the fd-cs workspace"))) return RBD_ENOMEM;
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

static int fcs_aba(fcs_ws *w)
{
    const spz_aba_ws z = { w->Xup, w->v, w->c, w->pA, w->a, w->IA, w->U, w->Dinv, w->u, NULL };
    int i = spz_aba(w->m, w->Xtree, w->Ib, &z, w->q, w->qd, w->tau, w->qdd);
    if (i >= 0)
        return rbd_fail(RBD_ESINGULAR, "fd-cs: joint '%s' (body '%s'): S^T IA S is singular at this configuration",
                        w->m->joint_name[i], w->m->body_name[i]);
    return RBD_OK;
}

static void fcs_column(const fcs_ws *w, double *col)
{
    for (int k = 0; k < w->m->nv; k++) col[k] = cimag(w->qdd[k]) / w->h;
}

static int fcs_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fcs_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "fd-cs: null workspace, state vector or output buffer");
    const rbd_model *m = w->m;
    const int nv = m->nv;
    const double h = w->h;
    for (int k = 0; k < m->nq; k++) w->q[k] = x->q[k];
    for (int k = 0; k < nv; k++) { w->qd[k] = x->v[k]; w->tau[k] = x->tau[k]; }
    int rc = fcs_aba(w);
    if (rc) return rc;
    for (int k = 0; k < nv; k++) out->qdd[k] = creal(w->qdd[k]);
    for (int i = 0; i < m->nb; i++) {
        const int iq = m->idx_q[i], nq = m->nq_of[i];
        double complex qi[7];
        for (int k = 0; k < nq; k++) qi[k] = w->q[iq + k];
        for (int dd = 0; dd < m->nv_of[i]; dd++) {
            const int j = m->idx_v[i] + dd;
            w->d[dd] = 1;
            spz_integrate_joint(&m->joint[i], qi, w->d, h * I, w->q + iq);     /* q (+) i h e_j */
            w->d[dd] = 0;
            if ((rc = fcs_aba(w))) return rc;
            fcs_column(w, out->dqdd_dq + (size_t)nv * j);
            for (int k = 0; k < nq; k++) w->q[iq + k] = qi[k];
            w->qd[j] = x->v[j] + h * I;
            if ((rc = fcs_aba(w))) return rc;
            fcs_column(w, out->dqdd_dv + (size_t)nv * j);
            w->qd[j] = x->v[j];
            w->tau[j] = x->tau[j] + h * I;
            if ((rc = fcs_aba(w))) return rc;
            fcs_column(w, out->dqdd_dtau + (size_t)nv * j);
            w->tau[j] = x->tau[j];
        }
    }
    return RBD_OK;
}

const rbd_method rbd_method_fd_cs = {
    .name = "fd-cs",
    .summary = "complex step on ABA (one source, T = double complex), tangent-space q, h = 1e-20; M^-1 = dqdd/dtau",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fcs_init,
    .eval = fcs_eval,
    .fini = free,     /* the workspace heads its arena (arena.h) */
};
