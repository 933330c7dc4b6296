/*
 * The cross-check of a peer's second-order function (RBD_PEER_ID_SO_DERIVS,
 * Pinocchio's ComputeRNEASecondOrderDerivatives) against our method of the
 * same kind (func.ours, idsva-so) at the first state of the pool: the four
 * tensors, each max|X - R| / max|R| over its nv^3 entries, in the user
 * numbering of all three indices (peer_api.h).  Called by peer_check_func.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/check.h"
#include "rbdiff/method.h"
#include "peers/peer.h"

/* Ours at the first pool state: the four ID tensors, user numbering. */
static int ours_so(const rbd_model *m, const char *name, uint64_t seed, double *user)
{
    const rbd_method *meth = rbd_method_find(name);
    if (!meth || meth->output != RBD_ID_SO_DERIVS)
        return rbd_fail(RBD_EINVAL, "peer check: '%s' is not a second-order inverse-dynamics method", name);
    size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
    double *buf = calloc((size_t)m->nq + 4 * nv + 4 * n3, sizeof *buf);
    if (!buf) return rbd_fail(RBD_ENOMEM, "out of memory for the second-order check (4 nv^3 doubles, nv = %zu)", nv);
    double *q = buf, *v = q + m->nq, *a = v + nv, *tau = a + nv, *x = tau + nv, *t = x + nv;
    timeable_states(m, 1, seed, q, v, a, tau);
    rbd_derivs d = { 0 };
    d.tau = x;
    d.d2tau_dq2 = t;
    d.d2tau_dv2 = t + n3;
    d.d2tau_dqdv = t + 2 * n3;
    d.dM_dq = t + 3 * n3;
    rbd_options o;
    rbd_options_default(&o);
    void *ws = NULL;
    rbd_state st = { q, v, a, NULL };
    int rc = rbd_method_supports(meth, m);
    if (!rc && !(rc = meth->init(m, &o, &ws))) rc = rbd_method_eval(meth, ws, m, &st, &d);
    if (ws) meth->fini(ws);
    for (int b = 0; !rc && b < RBD_SO_NTENSORS; b++) rbd_tensor_to_user(m, t + (size_t)b * n3, user + (size_t)b * n3);
    free(buf);
    return rc;
}

int peer_check_so(const peer_model *pm, int f, uint64_t seed, peer_check *c)
{
    const rbd_peer_func *pf = &pm->peer->api->func[f];
    const rbd_model *m = pm->m;
    size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
    memset(c, 0, sizeof *c);
    c->err = -1;
    c->kappa = NAN;
    c->tol = pf->tol;
    double bytes;
    int rc = rbd_so_check_size(m, pm->peer->row[f], &bytes);
    if (rc) return rc;
    double *R = malloc(sizeof(double) * 8 * n3);
    if (!R) return rbd_fail(RBD_ENOMEM, "out of memory for the second-order check (8 nv^3 doubles, nv = %zu)", nv);
    double *X = R + 4 * n3, *mat[3] = { X, NULL, NULL };
    if (!(rc = ours_so(m, pf->ours, seed, R))) rc = peer_eval_func(pm, f, seed, NULL, mat, NULL, NULL, NULL, NULL);
    const char *const *names = rbd_so_output_names(RBD_ID_SO_DERIVS);
    for (int b = 0; !rc && b < RBD_SO_NTENSORS; b++) {
        const double *x = X + (size_t)b * n3, *r = R + (size_t)b * n3;
        double rmax = 0, dmax = -1;
        size_t at = 0;
        for (size_t k = 0; k < n3; k++) {
            rmax = fmax(rmax, fabs(r[k]));
            double dk = isnan(x[k]) ? INFINITY : fabs(x[k] - r[k]);
            if (dk > dmax) { dmax = dk; at = k; }
        }
        double e = rmax > 0 ? dmax / rmax : dmax;
        if (e > c->err || (isnan(e) && !isnan(c->err))) {
            c->err = e;
            snprintf(c->worst, sizeof c->worst, "%s(%zu,%zu,%zu): peer %.17g, ours %.17g", names[b + 1], at % nv,
                     at / nv % nv, at / nv / nv, x[at], r[at]);
        }
    }
    if (!rc) c->pass = c->err >= 0 && c->err <= c->tol;
    free(R);
    return rc;
}
