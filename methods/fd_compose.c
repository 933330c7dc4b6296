/*
 * The generic composer of fdcr, pin26-fd and fdsva-*: inner ID method +
 * M^-1 (rbd_options.minv) + DMM or AZA (fd_compose.h has the equations).
 * Per evaluation:
 *   1. qdd0 = ABA(q, qd, tau) (rbd_aba), leaving Xup, IA, U, D^-1 in d;
 *   2. dID/dq, dID/dqd at (q, qd, qdd0) by the inner method;
 *   3. M^-1 by the chosen variant into dqdd_dtau (its own scratch dm, so d
 *      keeps the ABA's quantities for AZA);
 *   4. dqdd_du = -M^-1 dID/du by DMM or AZA.
 */
#include <stdlib.h>
#include "fd_compose.h"

typedef struct {
    const rbd_model *m;
    const rbd_fd_compose *c;
    void *idws;
    rbd_minv_kind minv;
    rbd_combine combine;        /* after resolving the switch for this model */
    rbd_data *d, *dm;
    double *G, *tau;            /* [2 nv nv] dID/dq then dID/dqd; [nv] ID's tau */
    rbd_aza *aza;
    rbd_dmm_rows rows;
} fdc_ws;

void rbd_fdc_fini(void *p)
{
    fdc_ws *w = p;
    if (!w) return;
    if (w->idws) w->c->id->fini(w->idws);
    rbd_data_free(w->d);
    rbd_data_free(w->dm);
    free(w->G); free(w->tau);
    rbd_aza_free(w->aza);
    rbd_dmm_rows_fini(&w->rows);
    free(w);
}

int rbd_fdc_init(const rbd_fd_compose *c, const rbd_model *m, const rbd_options *o, void **out)
{
    const char *name = c->self->name;
    if (!m || !out) return rbd_fail(RBD_EINVAL, "%s: null model or workspace pointer", name);
    *out = NULL;
    int rc = rbd_method_supports(c->self, m);
    if (rc) return rc;
    rbd_options def;
    if (!o) { rbd_options_default(&def); o = &def; }
    if (o->minv < 0 || o->minv >= RBD_MINV_NKINDS)
        return rbd_fail(RBD_EINVAL, "%s: unknown M^-1 variant %d", name, (int)o->minv);
    if (o->fdsva_crossover < 0)
        return rbd_fail(RBD_EINVAL, "%s: fdsva_crossover = %d must be >= 0 (0: the built-in %d)", name,
                        o->fdsva_crossover, RBD_FDSVA_CROSSOVER_DEFAULT);
    fdc_ws *w = calloc(1, sizeof *w);
    if (!w) return rbd_fail(RBD_ENOMEM, "%s: out of memory", name);
    w->m = m;
    w->c = c;
    w->minv = o->minv;
    w->combine = c->combine;
    if (w->combine == RBD_COMBINE_SWITCH) {
        int nx = o->fdsva_crossover > 0 ? o->fdsva_crossover : RBD_FDSVA_CROSSOVER_DEFAULT;
        w->combine = m->nv < nx ? RBD_COMBINE_DMM_BLAS : RBD_COMBINE_AZA;
    }
    if ((rc = c->id->init(m, o, &w->idws))) { w->idws = NULL; rbd_fdc_fini(w); return rc; }
    size_t nv = (size_t)m->nv;
    w->d = rbd_data_new(m);
    w->dm = rbd_data_new(m);
    w->G = malloc(sizeof(double) * 2 * nv * nv);
    w->tau = malloc(sizeof(double) * nv);
    if (w->combine == RBD_COMBINE_AZA && !(w->aza = rbd_aza_new(m))) { rbd_fdc_fini(w); return RBD_ENOMEM; }
    if (w->combine == RBD_COMBINE_DMM_SPARSE && (rc = rbd_dmm_rows_init(m, &w->rows))) { rbd_fdc_fini(w); return rc; }
    if (!w->d || !w->dm || !w->G || !w->tau) {
        rbd_fdc_fini(w);
        return rbd_fail(RBD_ENOMEM, "%s: out of memory for %d dofs", name, m->nv);
    }
    *out = w;
    return RBD_OK;
}

int rbd_fdc_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fdc_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "%s: null workspace, state vector or output buffer",
                        w ? w->c->self->name : "fd-compose");
    const rbd_model *m = w->m;
    const size_t nn = (size_t)m->nv * (size_t)m->nv;
    int rc = rbd_aba(m, w->d, x->q, x->v, x->tau, out->qdd);
    if (rc) return rc;
    const rbd_state xa = { .q = x->q, .v = x->v, .a = out->qdd };
    rbd_derivs di = { .tau = w->tau, .dtau_dq = w->G, .dtau_dv = w->G + nn };
    if ((rc = w->c->id->eval(w->idws, &xa, &di))) return rc;
    if ((rc = rbd_minv(m, w->dm, w->minv, x->q, out->dqdd_dtau))) return rc;
    const double *Mi = out->dqdd_dtau;
    switch (w->combine) {
    case RBD_COMBINE_DMM_BLAS:
        rbd_dmm_blas(m->nv, Mi, w->G, out->dqdd_dq);
        rbd_dmm_blas(m->nv, Mi, w->G + nn, out->dqdd_dv);
        break;
    case RBD_COMBINE_DMM_LOOP:
        rbd_dmm_loop(m->nv, Mi, w->G, out->dqdd_dq);
        rbd_dmm_loop(m->nv, Mi, w->G + nn, out->dqdd_dv);
        break;
    case RBD_COMBINE_DMM_SPARSE:
        rbd_dmm_sparse(m, &w->rows, Mi, w->G, out->dqdd_dq);
        rbd_dmm_sparse(m, &w->rows, Mi, w->G + nn, out->dqdd_dv);
        break;
    default:
        rbd_aza_solve(m, w->d, w->aza, w->G, out->dqdd_dq);
        rbd_aza_solve(m, w->d, w->aza, w->G + nn, out->dqdd_dv);
        break;
    }
    return RBD_OK;
}
