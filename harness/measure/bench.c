/* The measurement plan and one measurement. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "measure/bench.h"
#include "plan/modelspec.h"
#include "measure/method_facts.h"
#include "measure/roofline.h"
#include "measure/timing.h"

int bench_targets(const sweep_config *c, bench_target **out, int *n)
{
    int nbase = 0;
    while (rbd_base_algos[nbase].name) nbase++;
    int cap = c->nmethods + rbd_method_count() + nbase + c->nso_methods + 1;
    bench_target *t = calloc((size_t)cap, sizeof *t);
    if (!t) return rbd_fail(RBD_ENOMEM, "out of memory");
    int k = 0;
    if (c->nmethods) {
        for (int j = 0; j < c->nmethods; j++) {
            if (!strcmp(c->methods[j], ROOFLINE_NAME)) {
                t[k].name = ROOFLINE_NAME;
                t[k].kind = ROOFLINE_KIND;
                t[k++].dgemm = 1;
                continue;
            }
            const rbd_method *m = rbd_method_find(c->methods[j]);
            const rbd_base_algo *b = m ? NULL : rbd_base_algo_find(c->methods[j]);
            if (!m && !b) { free(t); return rbd_fail(RBD_EINVAL, "unknown method '%s'", c->methods[j]); }
            t[k].name = m ? m->name : b->name;
            t[k].method = m;
            t[k].base = b;
            t[k].kind = m ? rbd_output_name(m->output) : "base";
            k++;
        }
    } else {
        for (int j = 0; rbd_methods[j]; j++, k++) {
            t[k].name = rbd_methods[j]->name;
            t[k].method = rbd_methods[j];
            t[k].kind = rbd_output_name(rbd_methods[j]->output);
        }
        for (int j = 0; c->base && rbd_base_algos[j].name; j++, k++) {
            t[k].name = rbd_base_algos[j].name;
            t[k].base = &rbd_base_algos[j];
            t[k].kind = "base";
        }
        if (c->base) {
            t[k].name = ROOFLINE_NAME;
            t[k].kind = ROOFLINE_KIND;
            t[k++].dgemm = 1;
        }
    }
    for (int j = 0; j < c->nso_methods; j++, k++) {    /* checked by sweep_set_so_methods */
        t[k].method = rbd_method_find(c->so_methods[j]);
        if (!t[k].method) { free(t); return rbd_fail(RBD_EINVAL, "unknown method '%s'", c->so_methods[j]); }
        t[k].name = t[k].method->name;
        t[k].kind = rbd_output_name(t[k].method->output);
    }
    *out = t;
    *n = k;
    return RBD_OK;
}

/* NAME@* (peers = all) opens every version of NAME built, newest first. */
int bench_peers_open(const char *cmd, const sweep_config *c, rbd_peer **out, int *n)
{
    enum { MAXV = 8 };
    *out = calloc((size_t)c->npeers * MAXV + 1, sizeof **out);
    *n = 0;
    if (!*out) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = 0; k < c->npeers; k++) {
        char want[MAXV][48], ver[MAXV][32];
        int nw = 1;
        snprintf(want[0], sizeof want[0], "%s", c->peers[k]);
        size_t len = strlen(want[0]);
        if (len > 2 && !strcmp(want[0] + len - 2, "@*")) {
            char fam[16];
            snprintf(fam, sizeof fam, "%.*s", (int)(len - 2), want[0]);
            want[0][len - 2] = 0;
            nw = peer_versions(fam, ver, MAXV);
            for (int v = 0; v < nw; v++) snprintf(want[v], sizeof want[v], "%s@%.31s", fam, ver[v]);
            if (!nw) nw = 1;    /* none built: peer_open says why */
        }
        for (int v = 0; v < nw; v++) {
            if (!peer_open(want[v], &(*out)[*n])) {
                (*n)++;
                continue;
            }
            /* a peer asked for by name that is not there: a comparison the
             * user wanted would compare nothing, so nothing is timed */
            if (c->peers_named) {
                char why[1024];
                snprintf(why, sizeof why, "%s", rbd_last_error());   /* rbd_fail writes the same buffer */
                int rc = rbd_fail(RBD_ENOTSUP, "%s: asked for by name, so nothing is timed without it "
                                  "('--peers all' takes the peers that load and goes on without the others)", why);
                bench_peers_close(*out, *n);
                *out = NULL;
                *n = 0;
                return rc;
            }
            fprintf(stderr, "rbdiff %s: %s; going on without it\n", cmd, rbd_last_error());
        }
    }
    return RBD_OK;
}

void bench_peers_close(rbd_peer *p, int n)
{
    for (int k = 0; k < n; k++) peer_close(&p[k]);
    free(p);
}

int bench_target_is_so(const bench_target *b)
{
    if (b->peer) return b->peer->api && b->peer->api->func[b->peer_func].out == RBD_PEER_ID_SO_DERIVS;
    return b->method && (b->method->output == RBD_ID_SO_DERIVS || b->method->output == RBD_FD_SO_DERIVS);
}

int bench_target_fits(const sweep_config *c, const bench_target *t, int nv, int audit)
{
    int max = audit ? c->acc_so_nv_max : c->so_nv_max;
    return !max || !bench_target_is_so(t) || nv <= max;
}

int bench_add_peer_targets(bench_target **t, int *n, const rbd_peer *p, int np)
{
    /* A peer function joins when ours has a target of its order: the
     * second-order ones beside a second-order method, the first-order ones
     * beside a first-order method or base algorithm (or when ours has none),
     * so first-order runs time what they did and each order its own table. */
    int has[2] = { *n == 0, 0 }, add = 0;
    for (int i = 0; i < *n; i++) has[bench_target_is_so(&(*t)[i])] = 1;
    for (int k = 0; k < np; k++) add += p[k].api->nfunc;
    /* one spare slot, as bench_targets leaves for the roofline */
    bench_target *tt = realloc(*t, sizeof *tt * (size_t)(*n + add + 1));
    if (!tt) return rbd_fail(RBD_ENOMEM, "out of memory");
    *t = tt;
    for (int k = 0; k < np; k++)
        for (int f = 0; f < p[k].api->nfunc; f++) {
            if (!has[p[k].api->func[f].out == RBD_PEER_ID_SO_DERIVS]) continue;
            bench_target *b = &tt[(*n)++];
            memset(b, 0, sizeof *b);
            b->name = p[k].row[f];
            b->peer = &p[k];
            b->peer_func = f;
            b->kind = "peer";
        }
    memset(&tt[*n], 0, sizeof tt[*n]);
    return RBD_OK;
}

int bench_check_robot_methods(const sweep_config *c, const rbd_peer *peers, int npeers, const bench_target *tg,
                              int ntg)
{
    for (int r = 0; r < c->nrobot_methods; r++) {
        const char *name = c->robot_methods[r];
        peer_name pn;
        int known = !peer_name_parse(name, &pn), loaded = 0, found = 0;
        if (known && !pn.func) known = 0;           /* a bare peer name is not a function */
        else if (!known && !strchr(name, '.')) continue;   /* one of our methods (checked with the methods) */
        for (int k = 0; known && k < npeers; k++)   /* that very version, or any version of a bare NAME */
            loaded |= !strcmp(peers[k].name, pn.peer) || (!*pn.version && peer_family(peers[k].name) == pn.family);
        for (int i = 0; i < ntg; i++) found |= tg[i].peer && peer_row_matches(name, tg[i].name);
        /* a second-order function joins only beside a second-order method
         * (so_methods); without one it is not timed, as on the trees */
        int any_so = 0, is_so = 0;
        for (int i = 0; i < ntg; i++) any_so |= bench_target_is_so(&tg[i]);
        for (int k = 0; known && !any_so && k < npeers; k++)
            for (int f = 0; peers[k].api && f < peers[k].api->nfunc; f++)
                is_so |= peer_row_matches(name, peers[k].row[f]) && peers[k].api->func[f].out == RBD_PEER_ID_SO_DERIVS;
        if (is_so) continue;
        if (!known || (loaded && !found))
            return rbd_fail(RBD_EINVAL, "robot_methods: '%s' is not a function of a %s peer", name,
                            known ? "loaded" : "known");
    }
    return RBD_OK;
}

void bench_autotree_spec(char *buf, size_t len, int N, double bf, double skew, double taper)
{
    snprintf(buf, len, "autotree:N=%d,bf=%g,skew=%.17g,taper=%.17g", N, bf, skew, taper);
}

int bench_models(const sweep_config *c, bench_model **out, int *n)
{
    int cnt = c->nbf * c->nN + c->nmodels + c->nrobots;
    bench_model *m = calloc((size_t)cnt + 1, sizeof *m);
    if (!m) return rbd_fail(RBD_ENOMEM, "out of memory");
    int k = 0;
    for (int b = 0; b < c->nbf; b++)
        for (int i = 0; i < c->nN; i++, k++) {
            bench_autotree_spec(m[k].spec, sizeof m[k].spec, c->N[i], c->bf[b], c->skew, c->taper);
            m[k].bf = c->bf[b];
        }
    for (int j = 0; j < c->nmodels; j++, k++) {
        snprintf(m[k].spec, sizeof m[k].spec, "%s", c->models[j]);
        m[k].bf = NAN;
    }
    for (int j = 0; j < c->nrobots; j++, k++) {
        snprintf(m[k].spec, sizeof m[k].spec, "%s", c->robots[j]);
        m[k].bf = NAN;
    }
    *out = m;
    *n = k;
    return RBD_OK;
}

int bench_models_check(const bench_model *bm, int n)
{
    for (int j = 0; j < n; j++) {
        rbd_model *m;
        int rc = model_from_spec(bm[j].spec, &m);
        if (rc) return rc;
        rbd_model_free(m);
    }
    return RBD_OK;
}

int bench_so_sizes_check(const sweep_config *c, const bench_model *bm, int n, int audit)
{
    bench_target *t = NULL;
    int nt = 0, rc = bench_targets(c, &t, &nt), so = 0;
    for (int i = 0; !rc && i < nt; i++) so |= bench_target_is_so(&t[i]);
    for (int j = 0; so && !rc && j < n; j++) {
        rbd_model *m;
        if ((rc = model_from_spec(bm[j].spec, &m))) break;
        for (int i = 0; i < nt; i++) {
            if (!bench_target_is_so(&t[i]) || !bench_target_fits(c, &t[i], m->nv, audit)) continue;
            char who[700];
            snprintf(who, sizeof who, "%s %s on %s", audit ? "auditing" : "timing", t[i].name, bm[j].spec);
            rc = rbd_so_check_size(m, who, NULL);
            break;
        }
        rbd_model_free(m);
    }
    free(t);
    return rc;
}

int bench_setup(const sweep_config *c)
{
    timing_blas_threads(c->blas_threads);
    return c->pin >= 0 ? timing_pin_cpu(c->pin) : RBD_OK;
}

perfctr *bench_counters(const char *cmd, int enabled)
{
    if (!enabled) return NULL;
    char why[256];
    perfctr *pc = perfctr_open(why, sizeof why);
    if (!pc) fprintf(stderr, "rbdiff %s: hardware counters unavailable (%s); timing only\n", cmd, why);
    return pc;
}

static int make_timeable(const bench_target *t, const rbd_model *m, const sweep_config *c, rbd_timeable *tm)
{
    rbd_options mo;
    sweep_config_method_options(c, &mo);
    int rc = t->dgemm    ? timeable_dgemm(m->nv, c->seed, tm)
             : t->method ? timeable_method(t->method, m, &mo, c->pool, c->seed, tm)
                         : timeable_base(t->base, m, c->pool, c->seed, tm);
    if (rc) return rc;
    /* One checked evaluation first: a method that fails or returns NaN on
     * this model is an error, never a timing row (the timed loop itself
     * does not check). */
    if (tm->check && (rc = tm->check(tm->ctx, 0))) timeable_free(tm);
    return rc;
}

static void fill_row(const bench_target *t, const rbd_model *m, const bench_model *bm, const timing_result *r,
                     timing_row *row)
{
    memset(row, 0, sizeof *row);
    snprintf(row->method, sizeof row->method, "%s", t->name);
    snprintf(row->kind, sizeof row->kind, "%s", t->kind);
    snprintf(row->model, sizeof row->model, "%s", bm->spec);
    row->bf = bm->bf;
    row->N = m->nb;
    row->nv = m->nv;
    row->nq = m->nq;
    row->median_ns = r->ns.median;
    row->min_ns = r->ns.min;
    row->q1_ns = r->ns.q1;
    row->q3_ns = r->ns.q3;
    row->iqr_ns = r->ns.iqr;
    row->batches = r->batches;
    row->calls_per_batch = r->calls_per_batch;
    row->instructions = r->instructions;
    row->cycles = r->cycles;
    row->fp_ops = r->fp_ops;
    flops_tree ft;
    flops_tree_of(m, &ft);
    row->flops = method_flops(t->name, &ft);
    row->nsamples = r->nsamples < RBD_MAX_SAMPLES ? r->nsamples : RBD_MAX_SAMPLES;
    memcpy(row->samples, r->samples, sizeof(double) * (size_t)row->nsamples);
}

/* A peer's model for one bench_measure_set, or why it could not load. */
typedef struct {
    peer_model pm;
    const rbd_peer *peer;
    char why[640];
} peer_slot;

/* Each peer among t[] loads m once; each of its targets is checked against
 * ours and made a timeable when it agrees, else marked BENCH_NOT_TIMED with
 * the reason in note.  ps[] keeps the models (freed by the caller after the
 * timeables). */
static int peer_timeables(const bench_target *const *t, int n, const rbd_model *m, const sweep_config *c,
                          peer_slot *ps, int *nps, rbd_timeable *tm, int *status, bench_peer_note *note)
{
    for (int i = 0; i < n; i++) {
        const rbd_peer *p = t[i]->peer;
        if (!p) continue;
        int j = 0;
        while (j < *nps && ps[j].peer != p) j++;
        if (j == *nps) {
            ps[j].peer = p;
            if (peer_model_load(p, m, &ps[j].pm)) snprintf(ps[j].why, sizeof ps[j].why, "%s", rbd_last_error());
            (*nps)++;
        }
        bench_peer_note *nt = &note[i];
        memset(nt, 0, sizeof *nt);
        status[i] = BENCH_NOT_TIMED;
        if (*ps[j].why) { snprintf(nt->why, sizeof nt->why, "%s", ps[j].why); continue; }
        const rbd_peer_func *pf = &p->api->func[t[i]->peer_func];
        int rc = peer_check_func(&ps[j].pm, t[i]->peer_func, c->seed, &nt->chk);
        if (rc == RBD_ENOMEM) return rc;
        nt->checked = !rc;
        if (rc) snprintf(nt->why, sizeof nt->why, "its check against %s did not run: %s", pf->ours, rbd_last_error());
        else if (!nt->chk.pass)
            snprintf(nt->why, sizeof nt->why, "outputs disagree with %s: %.3g relative > %.3g, at %s", pf->ours,
                     nt->chk.err, nt->chk.tol, nt->chk.worst);
        else if ((rc = timeable_peer(&ps[j].pm, t[i]->peer_func, c->pool, c->seed, &tm[i])))
            snprintf(nt->why, sizeof nt->why, "%s", rbd_last_error());
        if (!*nt->why) status[i] = 0;
    }
    return RBD_OK;
}

int bench_measure_set(const bench_target *const *t, int n, const rbd_model *m, const bench_model *bm,
                      const sweep_config *c, perfctr *pc, volatile sig_atomic_t *stop, timing_row *rows, int *status,
                      bench_peer_note *note)
{
    rbd_timeable *tm = calloc((size_t)n + 1, sizeof *tm);   /* tm[i] for t[i]; NULL call: not timed */
    rbd_timeable *set = calloc((size_t)n + 1, sizeof *set);
    timing_result *r = calloc((size_t)n + 1, sizeof *r);
    int *idx = malloc(sizeof(int) * ((size_t)n + 1));
    peer_slot *ps = calloc((size_t)n + 1, sizeof *ps);
    bench_peer_note *nt = note ? note : calloc((size_t)n + 1, sizeof *nt);
    int na = 0, nps = 0, rc = 0;
    if (!tm || !set || !r || !idx || !ps || !nt) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); goto done; }
    for (int i = 0; i < n; i++) status[i] = RBD_ENOTSUP;
    for (int i = 0; i < n && !rc; i++) {
        if (t[i]->peer) continue;
        int e = make_timeable(t[i], m, c, &tm[i]);
        if (e == RBD_ENOTSUP) continue;     /* not applicable: its joints, an emitted method's nv limit */
        status[i] = e;
        if (e) rc = e;
    }
    if (!rc) rc = peer_timeables(t, n, m, c, ps, &nps, tm, status, nt);
    for (int i = 0; i < n && !rc; i++)
        if (tm[i].call) { set[na] = tm[i]; idx[na++] = i; }
    if (!rc && na) {
        timing_opts o;
        timing_opts_default(&o);
        o.batches = c->batches;
        o.batch_ns = c->batch_ms * 1e6;
        o.warmup_ns = c->warmup_ms * 1e6;
        o.slices = c->slices;
        o.pc = pc;
        o.stop = stop;
        rc = timing_measure_set(set, na, &o, r);
        if (rc) for (int a = 0; a < na; a++) status[idx[a]] = rc;
        else for (int a = 0; a < na; a++) fill_row(t[idx[a]], m, bm, &r[a], &rows[idx[a]]);
    }
done:
    for (int i = 0; tm && i < n; i++) timeable_free(&tm[i]);
    for (int j = 0; j < nps; j++) peer_model_free(&ps[j].pm);
    if (nt != note) free(nt);
    free(tm);
    free(set);
    free(r);
    free(idx);
    free(ps);
    return rc;
}

int bench_measure(const bench_target *t, const rbd_model *m, const bench_model *bm, const sweep_config *c,
                  perfctr *pc, volatile sig_atomic_t *stop, timing_row *row)
{
    int st = RBD_ENOTSUP;
    int rc = bench_measure_set(&t, 1, m, bm, c, pc, stop, row, &st, NULL);
    return rc ? rc : st;
}
