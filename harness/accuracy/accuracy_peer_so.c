/*
 * A peer's second-order function (RBD_PEER_ID_SO_DERIVS: Pinocchio's
 * ComputeRNEASecondOrderDerivatives) in the accuracy audit: its four
 * tensors at the audit's states, brought from the user numbering back to
 * the internal one, scored against the 256-bit second-order reference
 * (reference/ref_so.c) with the metrics of our second-order methods
 * (accuracy_run.c's audit_target), one accuracy.csv row per tensor.  It
 * writes no tau (peer_api.h), so tau has no row.
 */
#include <math.h>
#include <stdlib.h>
#include "accuracy.h"
#include "accuracy/accuracy_peer.h"
#include "accuracy/accuracy_peer_so.h"
#include "peers/peer.h"
#include "rbdiff/method.h"
#include "rbdref_so.h"

static const char *const so_out[] = { "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq", NULL };

const char *const *audit_peer_so_outputs(void)
{
    return so_out;
}

/* internal[i + nv j + nv^2 k] = user[u_i + nv u_j + nv^2 u_k]: the inverse of rbd_tensor_to_user. */
static void tensor_from_user(const rbd_model *m, const double *user, double *internal)
{
    const size_t nv = (size_t)m->nv;
    const int *u = m->user_v;
    for (size_t k = 0; k < nv; k++)
        for (size_t j = 0; j < nv; j++)
            for (size_t i = 0; i < nv; i++)
                internal[i + nv * (j + nv * k)] = user[(size_t)u[i] + nv * ((size_t)u[j] + nv * (size_t)u[k])];
}

int audit_peer_so(const peer_model *pm, int f, const char *name, const char *spec, double bf,
                  const audit_states *s, const audit_sink *sink, volatile sig_atomic_t *stop)
{
    const rbd_model *m = pm->m;
    const rbd_peer_api *api = pm->peer->api;
    size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
    if (!s->so) return rbd_fail(RBD_EINVAL, "%s on %s: no second-order reference to score it against", name, spec);
    int rc = rbd_so_check_size(m, name, NULL);
    if (rc) return rc;
    double *buf = malloc(sizeof(double) * (8 * n3 + nv));
    if (!buf) return rbd_fail(RBD_ENOMEM, "out of memory for %s's tensors (8 nv^3 doubles, nv = %zu)", name, nv);
    double *user = buf, *mine = buf + 4 * n3, *vec = mine + 4 * n3;
    void *ctx = audit_peer_bind(pm, f, s);
    if (!ctx) { free(buf); return RBD_EINVAL; }
    rbd_accuracy worst[4];
    char err[1024] = "";
    for (int k = 0; k < s->S && !rc; k++) {
        if (stop && *stop) { rc = 1; break; }
        for (size_t i = 0; i < 4 * n3; i++) user[i] = NAN;        /* an entry not written scores DBL_MAX */
        if (api->call(ctx, k)) { rc = rbd_fail(RBD_EINVAL, "%s failed at state %d", name, k); break; }
        if (api->result(ctx, vec, user, NULL, NULL, err, sizeof err)) {
            rc = rbd_fail(RBD_EINVAL, "%s: %s", name, err);
            break;
        }
        for (int t = 0; t < 4 && !rc; t++) {
            size_t n = 0;
            const double *R = rbdref_so_result_get(&s->so[k], so_out[t], &n);
            if (!R || n != n3) { rc = rbd_fail(RBD_EINVAL, "reference has no output '%s'", so_out[t]); break; }
            tensor_from_user(m, user + (size_t)t * n3, mine + (size_t)t * n3);
            rbd_accuracy a;
            rc = rbd_accuracy_eval(mine + (size_t)t * n3, R, n3, &a);
            if (!rc) audit_worst(&worst[t], &a, k == 0);
        }
    }
    api->unbind(ctx);
    free(buf);
    for (int t = 0; t < 4 && !rc; t++) rc = audit_emit(sink, name, so_out[t], m, spec, bf, s->S, &worst[t]);
    return rc;
}
