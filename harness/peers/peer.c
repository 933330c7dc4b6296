/* Peers: modules opened with dlopen, their models, the cross-check and the
 * timeable (peer.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE          /* strverscmp */
#endif
#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"
#include "peers/peer.h"
#include "common/datadir.h"

const char *const peer_known[] = { "pinocchio", "mujoco", "pinocchio-cg", NULL };

const char *peer_dir(void)
{
    const char *d = getenv("RBD_PEER_DIR");
    if (d && *d) return d;
    static char def[768];
#ifdef RBD_PEER_LIBDIR
    /* an installed rbdiff: the modules cmake --install copied beside it */
    if (!*def && installed_path(def, sizeof def, RBD_PEER_LIBDIR)) *def = 0;
#endif
    if (!*def) data_path(def, sizeof def, "build/peers");
    return def;
}

/* What scripts/peers recorded about this peer (peers.txt), for the message
 * of a peer that is not there. */
static void build_note(const char *name, char *buf, size_t len)
{
    char path[1100], line[512];
    snprintf(path, sizeof path, "%s/peers.txt", peer_dir());
    snprintf(buf, len, "run scripts/peers to build it");
    FILE *f = fopen(path, "r");
    if (!f) return;
    size_t n = strlen(name);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, name, n) && (line[n] == ' ' || line[n] == '@')) {
            line[strcspn(line, "\n")] = 0;
            snprintf(buf, len, "scripts/peers said: %.300s", line);
        }
    fclose(f);
}

int peer_name_parse(const char *s, peer_name *out)
{
    memset(out, 0, sizeof *out);
    out->family = -1;
    size_t len = strlen(s);
    for (const char *d = strchr(s, '.'); d; d = strchr(d + 1, '.'))
        if (!(d[1] >= '0' && d[1] <= '9')) {
            len = (size_t)(d - s);
            out->func = d + 1;
            break;
        }
    if (len >= sizeof out->peer || (out->func && !*out->func)) return -1;
    memcpy(out->peer, s, len);
    char *at = strchr(out->peer, '@');
    size_t n = at ? (size_t)(at - out->peer) : len;
    if (at) {
        size_t vlen = strlen(at + 1);
        if (!vlen || strspn(at + 1, "0123456789.") != vlen || vlen >= sizeof out->version) return -1;
        memcpy(out->version, at + 1, vlen + 1);   /* not snprintf: gcc -O1 cannot see vlen's bound */
    }
    for (int k = 0; peer_known[k]; k++)
        if (strlen(peer_known[k]) == n && !strncmp(peer_known[k], s, n)) out->family = k;
    return out->family < 0 ? -1 : 0;
}

int peer_family(const char *name)
{
    peer_name pn;
    peer_name_parse(name, &pn);
    return pn.family;
}

int peer_row_matches(const char *want, const char *row)
{
    if (!strcmp(want, row)) return 1;
    peer_name w, r;
    if (peer_name_parse(want, &w) || peer_name_parse(row, &r) || !w.func || !r.func) return 0;
    return !*w.version && *r.version && w.family == r.family && !strcmp(w.func, r.func);
}

static int newer_first(const void *a, const void *b)
{
    return strverscmp((const char *)b, (const char *)a);
}

int peer_versions(const char *family, char (*ver)[32], int max)
{
    enum { ALL = 32 };
    char all[ALL][32];
    DIR *d = opendir(peer_dir());
    if (!d) return 0;
    char pre[64];
    snprintf(pre, sizeof pre, "rbdpeer-%.40s@", family);
    size_t np = strlen(pre);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < ALL;) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, pre, np) || len < np + 4 || strcmp(e->d_name + len - 3, ".so") || len - np - 3 >= 32)
            continue;
        snprintf(all[n], 32, "%.*s", (int)(len - np - 3), e->d_name + np);
        n++;
    }
    closedir(d);
    qsort(all, (size_t)n, sizeof *all, newer_first);
    if (n > max) n = max;
    memcpy(ver, all, sizeof *all * (size_t)n);
    return n;
}

int peer_open(const char *name, rbd_peer *p)
{
    memset(p, 0, sizeof *p);
    peer_name pn;
    if (strlen(name) >= sizeof p->name || peer_name_parse(name, &pn) || pn.func)
        return rbd_fail(RBD_EINVAL, "peer name '%s' is not a peer (known: pinocchio, mujoco, as NAME or NAME@VERSION)",
                        name);
    char ver[1][32];
    if (!strchr(name, '@') && peer_versions(name, ver, 1) == 1)   /* the newest built */
        snprintf(p->name, sizeof p->name, "%.15s@%.15s", name, ver[0]);
    else
        snprintf(p->name, sizeof p->name, "%s", name);
    snprintf(p->path, sizeof p->path, "%s/rbdpeer-%s.so", peer_dir(), p->name);
    if (!strchr(p->name, '@') || access(p->path, F_OK)) {
        char note[400];
        build_note(name, note, sizeof note);
        if (!strchr(p->name, '@')) snprintf(p->path, sizeof p->path, "%s/rbdpeer-%s@*.so", peer_dir(), name);
        return rbd_fail(RBD_ENOTSUP, "peer %s not found: no %s (%s)", name, p->path, note);
    }
    /* NODELETE: a peer's libraries keep their globals mapped after dlclose, so
     * what they hold stays reachable (LeakSanitizer saw it as leaked) */
    p->dl = dlopen(p->path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!p->dl) return rbd_fail(RBD_EINVAL, "peer %s: %s does not load: %s", p->name, p->path, dlerror());
    const rbd_peer_api *(*entry)(void);
    *(void **)&entry = dlsym(p->dl, "rbd_peer_entry");
    p->api = entry ? entry() : NULL;
    int rc = RBD_OK;
    if (!p->api) rc = rbd_fail(RBD_EINVAL, "peer %s: %s has no rbd_peer_entry", p->name, p->path);
    else if (p->api->abi < 1 || p->api->abi > RBD_PEER_ABI)
        rc = rbd_fail(RBD_EINVAL, "peer %s: %s speaks interface %d, rbdiff 1 to %d: rebuild it (scripts/peers)",
                      p->name, p->path, p->api->abi, RBD_PEER_ABI);
    else if (!(p->row = calloc((size_t)p->api->nfunc + 1, sizeof *p->row)))
        rc = rbd_fail(RBD_ENOMEM, "out of memory");
    if (rc) { peer_close(p); return rc; }
    for (int f = 0; f < p->api->nfunc; f++) snprintf(p->row[f], sizeof p->row[f], "%s.%s", p->name, p->api->func[f].name);
    return RBD_OK;
}

void peer_close(rbd_peer *p)
{
    if (!p) return;
    if (p->dl) dlclose(p->dl);
    free(p->row);
    memset(p, 0, sizeof *p);
}

double peer_default_step(const rbd_peer *p, int f)
{
    if (p->api->abi < 2 || !p->api->default_step || !p->api->set_step) return 0;
    return p->api->default_step(f);
}

int peer_func_find(const rbd_peer *p, const char *fn)
{
    for (int f = 0; f < p->api->nfunc; f++)
        if (!strcmp(fn, p->row[f]) || !strcmp(fn, p->api->func[f].name)) return f;
    return -1;
}

/* ---------------------------------------------------------------- the model */

int peer_model_load_file(const rbd_peer *p, const rbd_model *m, const char *urdf, peer_model *out)
{
    memset(out, 0, sizeof *out);
    rbd_peer_joint *j = calloc((size_t)m->nb, sizeof *j);
    if (!j) return rbd_fail(RBD_ENOMEM, "out of memory");
    /* our joints in the user order, with their user offsets */
    for (int k = 0; k < m->nb; k++) {
        rbd_peer_joint *u = &j[m->user_body[k]];
        u->name = m->joint_name[k];
        u->type = (int)m->joint[k].type;
        u->nq = m->nq_of[k];
        u->nv = m->nv_of[k];
        u->idx_q = m->user_q[m->idx_q[k]];
        u->idx_v = m->user_v[m->idx_v[k]];
        u->mass = m->inertial[k].mass;
        memcpy(u->com, m->inertial[k].com, sizeof u->com);
        memcpy(u->Ic, m->inertial[k].Ic, sizeof u->Ic);
    }
    char err[1024] = "";
    out->pm = p->api->load(urdf, m->nb, j, m->nq, m->nv, err, sizeof err);
    free(j);
    if (!out->pm) return rbd_fail(RBD_EINVAL, "peer %s cannot take %s: %s", p->name, m->spec ? m->spec : "the model", err);
    out->peer = p;
    out->m = m;
    return RBD_OK;
}

int peer_model_load(const rbd_peer *p, const rbd_model *m, peer_model *out)
{
    memset(out, 0, sizeof *out);
    const char *tmp = getenv("TMPDIR");
    char path[1100];
    snprintf(path, sizeof path, "%s/rbdiff-peer-XXXXXX.urdf", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemps(path, 5);
    if (fd < 0) return rbd_fail(RBD_EIO, "peer %s: cannot create a temporary URDF file %s", p->name, path);
    FILE *f = fdopen(fd, "w");
    if (!f) { close(fd); unlink(path); return rbd_fail(RBD_EIO, "peer %s: cannot write %s", p->name, path); }
    int rc = rbd_urdf_write(m, f);
    if (fclose(f) && !rc) rc = rbd_fail(RBD_EIO, "peer %s: write error on %s", p->name, path);
    if (!rc) rc = peer_model_load_file(p, m, path, out);
    unlink(path);
    return rc;
}

void peer_model_free(peer_model *pm)
{
    if (pm && pm->pm) pm->peer->api->unload(pm->pm);
    if (pm) memset(pm, 0, sizeof *pm);
}

/* ---------------------------------------------------------------- states */

/* The pool of timeable_states, in the user numbering. */
typedef struct {
    int pool;
    double *q, *v, *a, *tau;
} user_pool;

static void user_pool_free(user_pool *u)
{
    free(u->q);
    memset(u, 0, sizeof *u);
}

static int user_pool_draw(const rbd_model *m, int pool, uint64_t seed, user_pool *u)
{
    size_t P = (size_t)pool, nq = (size_t)m->nq, nv = (size_t)m->nv;
    double *buf = malloc(sizeof(double) * 2 * P * (nq + 3 * nv));
    if (!buf) return rbd_fail(RBD_ENOMEM, "out of memory for a pool of %d states", pool);
    double *iq = buf + P * (nq + 3 * nv), *iv = iq + P * nq, *ia = iv + P * nv, *it = ia + P * nv;
    timeable_states(m, pool, seed, iq, iv, ia, it);
    u->pool = pool;
    u->q = buf;
    u->v = u->q + P * nq;
    u->a = u->v + P * nv;
    u->tau = u->a + P * nv;
    for (size_t k = 0; k < P; k++) {
        rbd_q_to_user(m, iq + k * nq, u->q + k * nq);
        rbd_v_to_user(m, iv + k * nv, u->v + k * nv);
        rbd_v_to_user(m, ia + k * nv, u->a + k * nv);
        rbd_v_to_user(m, it + k * nv, u->tau + k * nv);
    }
    return RBD_OK;
}

/* ---------------------------------------------------------------- the check */

/* Our counterpart's outputs at the first pool state, in the user numbering:
 * vec and mat[0..2] laid out as the peer's result() lays them out; with
 * kappa, also M's 1-norm condition number there. */
static int ours_eval(const rbd_model *m, const rbd_peer_func *pf, uint64_t seed, double *vec, double *mat[3],
                     double *kappa)
{
    size_t nv = (size_t)m->nv, nn = nv * nv;
    const rbd_method *meth = rbd_method_find(pf->ours);
    const rbd_base_algo *base = meth ? NULL : rbd_base_algo_find(pf->ours);
    if (!meth && !base) return rbd_fail(RBD_EINVAL, "peer function %s: no method or base algorithm '%s'", pf->name, pf->ours);
    double *buf = calloc((size_t)m->nq + 4 * nv + 4 * nn, sizeof *buf);
    if (!buf) return rbd_fail(RBD_ENOMEM, "out of memory");
    double *q = buf, *v = q + m->nq, *a = v + nv, *tau = a + nv, *x = tau + nv, *out = x + nv;
    timeable_states(m, 1, seed, q, v, a, tau);
    double rcond;
    int rc = kappa ? rbd_mass_rcond(m, q, &rcond) : RBD_OK;
    if (kappa) *kappa = rc ? NAN : 1 / rcond;
    if (meth) {
        rbd_options o;
        rbd_options_default(&o);
        void *ws = NULL;
        int id = meth->output == RBD_ID_DERIVS;
        rbd_derivs d = { 0 };
        if (id) { d.tau = x; d.dtau_dq = out; d.dtau_dv = out + nn; }
        else { d.qdd = x; d.dqdd_dq = out; d.dqdd_dv = out + nn; d.dqdd_dtau = out + 2 * nn; }
        rbd_state st = { q, v, id ? a : NULL, id ? NULL : tau };
        rc = rbd_method_supports(meth, m);
        if (!rc && !(rc = meth->init(m, &o, &ws))) rc = rbd_method_eval(meth, ws, m, &st, &d);
        if (ws) meth->fini(ws);
        if (!rc) rbd_v_to_user(m, x, vec);
        for (int b = 0; !rc && b < (id ? 2 : 3); b++) rbd_mat_to_user(m, out + (size_t)b * nn, mat[b]);
    } else {
        rbd_data *d = rbd_data_new(m);
        rc = d ? rbd_base_eval(base, m, d, q, v, a, tau, out) : RBD_ENOMEM;
        rbd_data_free(d);
        if (!rc && base->out_matrix) rbd_mat_to_user(m, out, mat[0]);
        else if (!rc) rbd_v_to_user(m, out, vec);
    }
    free(buf);
    return rc;
}

/* max|X - R| / max|R| of one block, and where it is largest. */
static void compare_block(const char *name, const double *X, const double *R, int rows, int cols, peer_check *c)
{
    double rmax = 0, dmax = -1;
    int at = 0;
    for (int k = 0; k < rows * cols; k++) {
        rmax = fmax(rmax, fabs(R[k]));
        double d = isnan(X[k]) ? INFINITY : fabs(X[k] - R[k]);
        if (d > dmax) { dmax = d; at = k; }
    }
    double e = rmax > 0 ? dmax / rmax : dmax;
    if (e > c->err || (isnan(e) && !isnan(c->err))) {
        c->err = e;
        snprintf(c->worst, sizeof c->worst, "%s(%d,%d): peer %.17g, ours %.17g", name, at % rows, at / rows, X[at], R[at]);
    }
}

int peer_check_func(const peer_model *pm, int f, uint64_t seed, peer_check *c)
{
    const rbd_peer_api *api = pm->peer->api;
    const rbd_peer_func *pf = &api->func[f];
    if (pf->out == RBD_PEER_ID_SO_DERIVS) return peer_check_so(pm, f, seed, c);
    const rbd_model *m = pm->m;
    size_t nv = (size_t)m->nv, nn = nv * nv;
    memset(c, 0, sizeof *c);
    c->err = -1;            /* the first block compared sets err and worst */
    c->kappa = NAN;
    c->tol = pf->tol;
    double *buf = calloc(2 * (nv + 3 * nn), sizeof *buf);
    if (!buf) return rbd_fail(RBD_ENOMEM, "out of memory");
    double *rv = buf, *xv = rv + nv, *rm[3], *xm[3];
    for (int b = 0; b < 3; b++) {
        rm[b] = xv + nv + (size_t)b * nn;
        xm[b] = rm[b] + 3 * nn;
    }
    int rc = ours_eval(m, pf, seed, rv, rm, pf->tol_cond > 0 ? &c->kappa : NULL);
    if (!rc && pf->tol_cond > 0 && pf->tol_cond * c->kappa > c->tol) c->tol = pf->tol_cond * c->kappa;
    if (!rc) rc = peer_eval_func(pm, f, seed, xv, xm, NULL, NULL, NULL, NULL);
    if (!rc) {
        static const char *const names[][4] = {
            [RBD_PEER_ID_DERIVS] = { "tau", "dtau_dq", "dtau_dv", NULL },
            [RBD_PEER_FD_DERIVS] = { "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau" },
            [RBD_PEER_TAU] = { "tau", NULL }, [RBD_PEER_QDD] = { "qdd", NULL },
            [RBD_PEER_M] = { NULL, "M", NULL }, [RBD_PEER_MINV] = { NULL, "Minv", NULL },
            [RBD_PEER_ID_PARTIALS] = { NULL, "dtau_dq", "dtau_dv", NULL },
            [RBD_PEER_FD_PARTIALS] = { NULL, "dqdd_dq", "dqdd_dv", "dqdd_dtau" },
        };
        const char *const *nm = names[pf->out];
        if (nm[0]) compare_block(nm[0], xv, rv, m->nv, 1, c);
        for (int b = 0; b < 3; b++)
            if (nm[b + 1]) compare_block(nm[b + 1], xm[b], rm[b], m->nv, m->nv, c);
        c->pass = c->err >= 0 && c->err <= c->tol;
        size_t len = strlen(c->worst);
        if (isfinite(c->kappa)) snprintf(c->worst + len, sizeof c->worst - len, "; kappa(M) %.2g", c->kappa);
    }
    free(buf);
    return rc;
}

int peer_eval_func(const peer_model *pm, int f, uint64_t seed, double *vec, double *mat[3], double *q, double *v,
                   double *a, double *tau)
{
    const rbd_peer_api *api = pm->peer->api;
    const rbd_model *m = pm->m;
    user_pool u = { 0 };
    void *ctx = NULL;
    char err[1024] = "";
    int rc = user_pool_draw(m, 1, seed, &u);
    if (!rc && !(ctx = api->bind(pm->pm, f, 1, u.q, u.v, u.a, u.tau, err, sizeof err)))
        rc = rbd_fail(RBD_EINVAL, "%s: %s", pm->peer->row[f], err);
    if (!rc && api->call(ctx, 0)) rc = rbd_fail(RBD_EINVAL, "%s failed on %s", pm->peer->row[f], m->spec);
    if (!rc && api->result(ctx, vec, mat[0], mat[1], mat[2], err, sizeof err))
        rc = rbd_fail(RBD_EINVAL, "%s: %s", pm->peer->row[f], err);
    if (!rc) {
        size_t nq = (size_t)m->nq, nv = (size_t)m->nv;
        if (q) memcpy(q, u.q, sizeof(double) * nq);
        if (v) memcpy(v, u.v, sizeof(double) * nv);
        if (a) memcpy(a, u.a, sizeof(double) * nv);
        if (tau) memcpy(tau, u.tau, sizeof(double) * nv);
    }
    if (ctx) api->unbind(ctx);
    user_pool_free(&u);
    return rc;
}

/* ---------------------------------------------------------------- the timeable */

typedef struct {
    const rbd_peer_api *api;
    void *ctx;
} peer_tctx;

static int peer_call(void *p, int k)
{
    peer_tctx *c = p;
    return c->api->call(c->ctx, k);
}

static void peer_fini(void *p)
{
    peer_tctx *c = p;
    if (c && c->ctx) c->api->unbind(c->ctx);
    free(c);
}

int timeable_peer(const peer_model *pm, int f, int pool, uint64_t seed, rbd_timeable *t)
{
    memset(t, 0, sizeof *t);
    if (pool < 1) return rbd_fail(RBD_EINVAL, "state pool of %d states: need at least 1", pool);
    user_pool u;
    int rc = user_pool_draw(pm->m, pool, seed, &u);
    if (rc) return rc;
    peer_tctx *c = calloc(1, sizeof *c);
    char err[1024] = "";
    if (!c) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    else if (!(c->ctx = pm->peer->api->bind(pm->pm, f, pool, u.q, u.v, u.a, u.tau, err, sizeof err)))
        rc = rbd_fail(RBD_EINVAL, "%s: %s", pm->peer->row[f], err);
    user_pool_free(&u);
    if (rc) { free(c); return rc; }
    c->api = pm->peer->api;
    t->name = pm->peer->row[f];
    t->kind = "peer";
    t->nv = pm->m->nv;
    t->pool = pool;
    t->ctx = c;
    t->call = peer_call;
    t->fini = peer_fini;
    return RBD_OK;
}
