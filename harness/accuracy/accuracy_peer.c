/* The peers' functions in the accuracy audit (accuracy_peer.h). */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "accuracy.h"
#include "accuracy/accuracy_peer.h"
#include "accuracy/accuracy_peer_so.h"
#include "peers/peer.h"

/* The steps swept, a decade apart: central differences balance truncation
 * and rounding near u^(1/3) ~ 6e-6 of the scale, one-sided ones (inverseFD)
 * near u^(1/2) ~ 1e-8, but rms_rel weighs the small entries, whose rounding
 * error is relative to the large ones, and on the default audit the best
 * central step was 1e-3 on 23 of 80 (function, model) pairs when the grid
 * stopped there: so it reaches 1e-2.  The peer's default is added when it is
 * not among them. */
static const double eps_grid[] = { 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10 };
enum { NGRID = sizeof eps_grid / sizeof eps_grid[0], MAXOUT = 4 };

static const char *const id_out[] = { "tau", "dtau_dq", "dtau_dv", NULL };
static const char *const fd_out[] = { "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau", NULL };
static const char *const tau_out[] = { "tau", NULL }, *const qdd_out[] = { "qdd", NULL };
static const char *const M_out[] = { "M", NULL }, *const minv_out[] = { "Minv", NULL };
/* pinocchio-cg's generated derivatives write no tau or qdd (peer_api.h) */
static const char *const id_partials[] = { "dtau_dq", "dtau_dv", NULL };
static const char *const fd_partials[] = { "dqdd_dq", "dqdd_dv", "dqdd_dtau", NULL };

static const rbd_peer_func *func_of(const bench_target *t)
{
    return &t->peer->api->func[t->peer_func];
}

const char *const *audit_peer_outputs(const bench_target *t)
{
    switch (func_of(t)->out) {
    case RBD_PEER_ID_DERIVS: return id_out;
    case RBD_PEER_FD_DERIVS: return fd_out;
    case RBD_PEER_TAU: return tau_out;
    case RBD_PEER_QDD: return qdd_out;
    case RBD_PEER_M: return M_out;
    case RBD_PEER_MINV: return minv_out;
    case RBD_PEER_ID_PARTIALS: return id_partials;
    case RBD_PEER_FD_PARTIALS: return fd_partials;
    case RBD_PEER_ID_SO_DERIVS: return audit_peer_so_outputs();
    }
    return id_out + 3;
}

static void best_name(const bench_target *t, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", t->name, AUDIT_PEER_BEST);
}

int audit_peer_missing(const bench_target *t, const audit_sink *sink)
{
    if (!sink->have) return 1;
    char best[128];
    best_name(t, best, sizeof best);
    int steps = peer_default_step(t->peer, t->peer_func) > 0;
    for (const char *const *o = audit_peer_outputs(t); *o; o++)
        if (!sink->have(sink->ctx, t->name, *o) || (steps && !sink->have(sink->ctx, best, *o))) return 1;
    return 0;
}

__attribute__((format(printf, 2, 3))) static void note(const audit_sink *sink, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (sink->note) sink->note(sink->ctx, msg);
    else fprintf(stderr, "rbdiff: %s\n", msg);
}

/* ------------------------------------------------------- one function bound */

/* A peer function bound to the audit's states, and its outputs at the last
 * state evaluated: in the user numbering as result() gives them (u*), and
 * in the internal numbering of the reference (vec, mat). */
typedef struct {
    const peer_model *pm;
    int f;
    void *ctx;
    double *buf, *uvec, *umat[3], *vec, *mat[3];
} peval;

void *audit_peer_bind(const peer_model *pm, int f, const audit_states *s)
{
    const rbd_model *m = pm->m;
    size_t S = (size_t)s->S, nq = (size_t)m->nq, nv = (size_t)m->nv;
    double *user = malloc(sizeof(double) * S * (nq + 3 * nv));
    if (!user) { rbd_fail(RBD_ENOMEM, "out of memory"); return NULL; }
    double *uq = user, *uv = uq + S * nq, *ua = uv + S * nv, *ut = ua + S * nv;
    for (size_t k = 0; k < S; k++) {
        rbd_q_to_user(m, s->q + k * nq, uq + k * nq);
        rbd_v_to_user(m, s->v + k * nv, uv + k * nv);
        rbd_v_to_user(m, s->a + k * nv, ua + k * nv);
        rbd_v_to_user(m, s->tau + k * nv, ut + k * nv);
    }
    char err[1024] = "";
    void *ctx = pm->peer->api->bind(pm->pm, f, s->S, uq, uv, ua, ut, err, sizeof err);
    free(user);
    if (!ctx) rbd_fail(RBD_EINVAL, "%s: %s", pm->peer->row[f], err);
    return ctx;
}

static void peval_close(peval *e)
{
    if (e->ctx) e->pm->peer->api->unbind(e->ctx);
    free(e->buf);
    memset(e, 0, sizeof *e);
}

static int peval_open(peval *e, const peer_model *pm, int f, const audit_states *s)
{
    size_t nv = (size_t)pm->m->nv, nn = nv * nv;
    memset(e, 0, sizeof *e);
    e->pm = pm;
    e->f = f;
    e->buf = malloc(sizeof(double) * 2 * (nv + 3 * nn));
    if (!e->buf) return rbd_fail(RBD_ENOMEM, "out of memory");
    e->uvec = e->buf;
    e->vec = e->uvec + nv;
    for (int b = 0; b < 3; b++) {
        e->umat[b] = e->vec + nv + (size_t)b * nn;
        e->mat[b] = e->umat[b] + 3 * nn;
    }
    if (!(e->ctx = audit_peer_bind(pm, f, s))) { peval_close(e); return RBD_EINVAL; }
    return RBD_OK;
}

/* The outputs at state k, in the internal numbering (NaN where the peer
 * writes nothing, so a missing entry scores DBL_MAX). */
static int peval_at(peval *e, int k)
{
    const rbd_model *m = e->pm->m;
    const rbd_peer_api *api = e->pm->peer->api;
    size_t nv = (size_t)m->nv, nn = nv * nv;
    for (size_t i = 0; i < 2 * (nv + 3 * nn); i++) e->buf[i] = NAN;
    char err[1024] = "";
    if (api->call(e->ctx, k)) return rbd_fail(RBD_EINVAL, "%s failed at state %d", e->pm->peer->row[e->f], k);
    if (api->result(e->ctx, e->uvec, e->umat[0], e->umat[1], e->umat[2], err, sizeof err))
        return rbd_fail(RBD_EINVAL, "%s: %s", e->pm->peer->row[e->f], err);
    rbd_v_from_user(m, e->uvec, e->vec);
    const int *u = m->user_v;
    for (int b = 0; b < 3; b++)
        for (size_t j = 0; j < nv; j++)
            for (size_t i = 0; i < nv; i++) e->mat[b][i + nv * j] = e->umat[b][(size_t)u[i] + nv * (size_t)u[j]];
    return RBD_OK;
}

/* Where output j of a function of kind out is among vec, mat[0..2]. */
static const double *output_at(const peval *e, rbd_peer_out out, int j)
{
    if (out == RBD_PEER_ID_PARTIALS || out == RBD_PEER_FD_PARTIALS) return e->mat[j];
    if (out == RBD_PEER_ID_DERIVS || out == RBD_PEER_FD_DERIVS) return j ? e->mat[j - 1] : e->vec;
    return out == RBD_PEER_M || out == RBD_PEER_MINV ? e->mat[0] : e->vec;
}

/* worst[j] of each output over the states, at the bound step. */
static int score(peval *e, const audit_states *s, const bench_target *t, rbd_accuracy *worst,
                 volatile sig_atomic_t *stop)
{
    const char *const *outs = audit_peer_outputs(t);
    for (int k = 0; k < s->S; k++) {
        if (stop && *stop) return 1;
        int rc = peval_at(e, k);
        for (int j = 0; !rc && outs[j]; j++) {
            int rows, cols;
            const double *R = rbdref_result_get(&s->ref[k], outs[j], &rows, &cols);
            if (!R) return rbd_fail(RBD_EINVAL, "reference has no output '%s'", outs[j]);
            rbd_accuracy a;
            rc = rbd_accuracy_eval(output_at(e, func_of(t)->out, j), R, (size_t)rows * (size_t)cols, &a);
            if (!rc) audit_worst(&worst[j], &a, k == 0);
        }
        if (rc) return rc;
    }
    return RBD_OK;
}

/* ------------------------------------------------------ the sweep over eps */

typedef struct {
    const rbd_model *m;
    const char *spec;
    double bf;
    const audit_states *s;
    const audit_sink *sink;
    volatile sig_atomic_t *stop;
} audit_at;

static int emit_rows(const audit_at *x, const bench_target *t, const char *name, const rbd_accuracy *w)
{
    const char *const *outs = audit_peer_outputs(t);
    int rc = RBD_OK;
    for (int j = 0; !rc && outs[j]; j++) rc = audit_emit(x->sink, name, outs[j], x->m, x->spec, x->bf, x->s->S, &w[j]);
    return rc;
}

/* The rows at the default step and at the best of the grid, and every
 * step's score to peer_eps.csv.  A step's score: the worst rms_rel over the
 * derivative outputs (j >= 1; the nominal one does not depend on it). */
static int sweep_eps(peval *e, const audit_at *x, const bench_target *t, double step0)
{
    double grid[NGRID + 1], score_rms[NGRID + 1], score_nw[NGRID + 1];
    rbd_accuracy w[NGRID + 1][MAXOUT];
    int n = 0, def = -1, best = -1, nout = 0, rc = RBD_OK;
    while (audit_peer_outputs(t)[nout]) nout++;
    for (int g = 0; g < NGRID; g++) grid[n++] = eps_grid[g];
    for (int g = 0; g < n; g++) if (grid[g] == step0) def = g;
    if (def < 0) grid[def = n++] = step0;
    for (int g = 0; g < n && !rc; g++) {
        if (e->pm->peer->api->set_step(e->ctx, grid[g]))
            return rbd_fail(RBD_EINVAL, "%s refused the step %g", t->name, grid[g]);
        if ((rc = score(e, x->s, t, w[g], x->stop))) break;
        score_rms[g] = score_nw[g] = 0;
        rbd_peer_out out = func_of(t)->out;   /* the nominal output, where there is one, comes first */
        for (int j = out == RBD_PEER_ID_PARTIALS || out == RBD_PEER_FD_PARTIALS ? 0 : 1; j < nout; j++) {
            score_rms[g] = fmax(score_rms[g], w[g][j].rms_rel);
            score_nw[g] = fmax(score_nw[g], w[g][j].normwise);
        }
        if (best < 0 || score_rms[g] < score_rms[best]) best = g;
    }
    if (rc) return rc;
    for (int g = 0; g < n && !rc && x->sink->emit_eps; g++) {
        peer_eps_row r;
        memset(&r, 0, sizeof r);
        snprintf(r.method, sizeof r.method, "%s", t->name);
        snprintf(r.model, sizeof r.model, "%s", x->spec);
        r.bf = x->bf;
        r.eps = grid[g];
        r.N = x->m->nb;
        r.nv = x->m->nv;
        r.states = x->s->S;
        r.rms_rel = score_rms[g];
        r.normwise = score_nw[g];
        snprintf(r.role, sizeof r.role, "%s", g == def && g == best ? "default+best" : g == def ? "default"
                                                : g == best ? "best" : "swept");
        rc = x->sink->emit_eps(x->sink->ctx, &r);
    }
    char bname[128];
    best_name(t, bname, sizeof bname);
    if (!rc) rc = emit_rows(x, t, t->name, w[def]);
    if (!rc) rc = emit_rows(x, t, bname, w[best]);
    return rc;
}

/* --------------------------------------------------------------- a peer */

/* One function of a loaded peer: checked against ours, then scored. */
static int audit_func(const peer_model *pm, const bench_target *t, const audit_at *x, uint64_t seed)
{
    const rbd_peer_func *pf = func_of(t);
    peer_check chk;
    int rc = peer_check_func(pm, t->peer_func, seed, &chk);
    if (rc) {
        note(x->sink, "%s on %s: not audited: its check against ours did not run: %s", t->name, x->spec,
             rbd_last_error());
        return RBD_OK;
    }
    if (!chk.pass) {
        char why[400];
        snprintf(why, sizeof why, "%s by %.3g > tol %.3g at %s", pf->ours, chk.err, chk.tol, chk.worst);
        note(x->sink, "%s on %s: not audited: it differs from %s, so it computes another quantity on this model "
             "(a convention or the model it loaded), not an error to score", t->name, x->spec, why);
        return RBD_OK;
    }
    if (pf->out == RBD_PEER_ID_SO_DERIVS) {     /* its tensors against the second-order reference */
        rc = audit_peer_so(pm, t->peer_func, t->name, x->spec, x->bf, x->s, x->sink, x->stop);
        if (rc < 0) {
            note(x->sink, "%s on %s: not audited: %s", t->name, x->spec, rbd_last_error());
            rc = RBD_OK;
        }
        return rc;
    }
    peval e;
    if ((rc = peval_open(&e, pm, t->peer_func, x->s))) {
        note(x->sink, "%s on %s: not audited: %s", t->name, x->spec, rbd_last_error());
        return RBD_OK;
    }
    double step0 = peer_default_step(pm->peer, t->peer_func);
    if (step0 > 0) {
        rc = sweep_eps(&e, x, t, step0);
    } else {
        rbd_accuracy w[MAXOUT];
        rc = score(&e, x->s, t, w, x->stop);
        if (!rc) rc = emit_rows(x, t, t->name, w);
    }
    peval_close(&e);
    return rc;
}

int audit_peers(const rbd_model *m, const char *spec, double bf, const bench_target *tg, int ntg,
                const audit_states *s, uint64_t seed, const audit_sink *sink, volatile sig_atomic_t *stop)
{
    const audit_at x = { m, spec, bf, s, sink, stop };
    int rc = RBD_OK;
    for (int i = 0; i < ntg && !rc; i++) {
        const rbd_peer *p = tg[i].peer;
        int first = p != NULL, todo = 0;
        for (int j = 0; j < i && first; j++) first = tg[j].peer != p;
        for (int j = i; j < ntg && first; j++) todo |= tg[j].peer == p && audit_peer_missing(&tg[j], sink);
        if (!todo) continue;
        if (m->a0[0] || m->a0[1] || m->a0[2] || m->a0[3] || m->a0[4] || m->a0[5] != 9.81) {
            note(sink, "%s on %s: not audited: the peers take gravity (0, 0, -9.81) (URDF carries none), the "
                 "model has (%g, %g, %g)", p->name, spec, -m->a0[3], -m->a0[4], -m->a0[5]);
            continue;
        }
        peer_model pm;
        if (peer_model_load(p, m, &pm)) {
            note(sink, "%s: not audited: %s", p->name, rbd_last_error());
            continue;
        }
        for (int j = i; j < ntg && !rc; j++) {
            if (stop && *stop) { rc = 1; break; }
            if (tg[j].peer == p && audit_peer_missing(&tg[j], sink)) rc = audit_func(&pm, &tg[j], &x, seed);
        }
        peer_model_free(&pm);
    }
    return rc;
}
