/*
 * On-disk cache of second-order reference evaluations (rbdref_so.h): the
 * tensors cost 16 nv^2 RNEA/ABA evaluations at 256 bits (minutes a state at
 * N = 100), so an audit rerun, resumed or widened by a method reads them
 * back instead.  Keyed, written and checked as the first-order cache
 * (cache_io.h, README.md of reference/, "Cache"):
 *
 * Key: the first-order inputs' key (model, state, precision, complex step)
 * extended by the order tag 2 and the difference step d, resolved (so the
 * default and the same step given explicitly share a file).  The file name
 * has its own prefix, dir/rbdref-so-<key>.txt, so a first- and a
 * second-order file never share a name even were their keys to collide.
 * Text: "rbdref-so-cache 1" / key / spec / sizes and options / the inputs /
 * blocks "<name> <count>" (tau and qdd nv values, a tensor nv^3 in its
 * layout order, nv a line) in C99 hex floats / "end <FNV-1a 64>".  A file
 * that is truncated, corrupt or for other inputs is a miss: recomputed and
 * replaced atomically.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache_io.h"
#include "rbdref_so.h"

#define ORDER_TAG 2        /* extends the key: the first-order key has none */

static const char *const so_outs[10] = { "tau", "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq",
                                         "qdd", "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv", "d2qdd_dqdtau" };

static cache_hash so_key(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                         const rbdref_opts *o, long d_log2)
{
    cache_hash h = cache_key_inputs(m, q, v, a, tau, o);
    cache_key_extend(&h, ORDER_TAG);
    cache_key_extend(&h, rbdref_so_step_log2(o, d_log2));
    return h;
}

int rbdref_so_cache_path(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                         const double *tau, const rbdref_opts *o, long d_log2, char *buf, size_t n)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (!dir || !m || !q || !buf) return rbd_fail(RBD_EINVAL, "rbdref_so_cache_path: null argument");
    char key[33];
    cache_key_hex(so_key(m, q, v, a, tau, o, d_log2), key);
    int len = snprintf(buf, n, "%s/rbdref-so-%s.txt", dir, key);
    if (len < 0 || (size_t)len >= n) return rbd_fail(RBD_EINVAL, "cache path under '%s' is too long", dir);
    return RBD_OK;
}

static int so_store(const char *path, const char *dir, const char *key, const rbd_model *m, const double *q,
                    const double *v, const double *a, const double *tau, const rbdref_opts *o, long d_log2,
                    const rbdref_so_result *r)
{
    cache_buf b = { 0 };
    cache_printf(&b, "rbdref-so-cache %d\nkey %s\nspec %s\n", CACHE_VERSION, key, m->spec ? m->spec : "");
    cache_printf(&b, "nq %d nv %d prec %d h_log2 %ld d_log2 %ld id %d fd %d\n", m->nq, m->nv, o->prec,
                 cache_step_log2(o), rbdref_so_step_log2(o, d_log2), r->has_id, r->has_fd);
    cache_put_vec(&b, "q", q, m->nq); cache_put_vec(&b, "v", v, m->nv);
    cache_put_vec(&b, "a", a, m->nv); cache_put_vec(&b, "tau", tau, m->nv);
    for (int k = 0; k < 10; k++) {
        size_t n;
        const double *x = rbdref_so_result_get(r, so_outs[k], &n);
        if (!x) continue;
        cache_printf(&b, "%s %zu\n", so_outs[k], n);
        for (size_t e = 0; e < n; e++)
            cache_printf(&b, (e + 1) % (size_t)m->nv ? "%a " : "%a\n", x[e]);
    }
    return cache_commit(&b, path, dir);
}

/* 1 when the file answers for these inputs (r filled), 0 on any mismatch */
static int so_load(const char *path, const char *key, const rbd_model *m, const double *q, const double *v,
                   const double *a, const double *tau, const rbdref_opts *o, long d_log2, rbdref_so_result *r)
{
    char *p = cache_read_verified(path);
    if (!p) return 0;
    int ok = 0;
    char *s = p, hdr[160];
    snprintf(hdr, sizeof hdr, "rbdref-so-cache %d\nkey %s\n", CACHE_VERSION, key);
    if (strncmp(s, hdr, strlen(hdr))) goto out;
    s = strchr(s + strlen(hdr), '\n');            /* skip the spec line */
    if (!s) goto out;
    int nq, nv, prec, id, fd, used;
    long hl, dl;
    if (sscanf(s, " nq %d nv %d prec %d h_log2 %ld d_log2 %ld id %d fd %d%n", &nq, &nv, &prec, &hl, &dl, &id, &fd,
               &used) != 7)
        goto out;
    s += used;
    if (nq != m->nq || nv != m->nv || prec != o->prec || hl != cache_step_log2(o) ||
        dl != rbdref_so_step_log2(o, d_log2) || id != (a != NULL) || fd != (tau != NULL))
        goto out;
    if (!cache_same_vec(&s, "q", q, m->nq) || !cache_same_vec(&s, "v", v, m->nv) ||
        !cache_same_vec(&s, "a", a, m->nv) || !cache_same_vec(&s, "tau", tau, m->nv))
        goto out;
    r->has_id = id;
    r->has_fd = fd;
    for (int k = 0; k < 10; k++) {
        size_t n;
        char *end;
        double *x = rbdref_so_result_get(r, so_outs[k], &n);
        if (!x) continue;
        if (!cache_next_word(&s, so_outs[k])) goto out;
        unsigned long long cnt = strtoull(s, &end, 10);     /* not sscanf: glibc's measures the whole text */
        if (end == s || cnt != n) goto out;
        s = end;
        for (size_t e = 0; e < n; e++)
            if (!cache_next_dbl(&s, &x[e])) goto out;
    }
    while (*s == ' ' || *s == '\n') s++;
    ok = *s == 0;
out:
    if (!ok) r->has_id = r->has_fd = 0;
    free(p);
    return ok;
}

int rbdref_so_eval_cached(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                          const double *tau, const rbdref_opts *o, long d_log2, rbdref_so_result *r, int *hit)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (hit) *hit = 0;
    if (!dir || !m || !q || !r || r->nv != m->nv)
        return rbd_fail(RBD_EINVAL, "rbdref_so_eval_cached: null argument or result not made for this model");
    int rc = cache_make_dirs(dir);
    if (rc) return rc;
    char path[4096], key[33];
    if ((rc = rbdref_so_cache_path(dir, m, q, v, a, tau, o, d_log2, path, sizeof path))) return rc;
    cache_key_hex(so_key(m, q, v, a, tau, o, d_log2), key);
    if (so_load(path, key, m, q, v, a, tau, o, d_log2, r)) {
        if (hit) *hit = 1;
        return RBD_OK;
    }
    if ((rc = rbdref_so_eval(m, q, v, a, tau, o, d_log2, r))) return rc;
    return so_store(path, dir, key, m, q, v, a, tau, o, d_log2, r);
}
