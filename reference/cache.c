/*
 * On-disk cache of first-order reference evaluations (issue 5): repeated
 * audits reuse them, an interrupted audit leaves no corrupt file behind.
 *
 * Key: cache_key_inputs (cache_io.h): the model's data (structure and every
 * numeric parameter, bit for bit), the state vectors (bit for bit, and which
 * are given), the precision and the step.  File dir/rbdref-<key>.txt, text:
 *   rbdref-cache 1 / key <hex> / sizes and options / the inputs / output
 *   blocks "<name> <rows> <cols>" with values in C99 hex-float (%a: strtod
 *   reads back the very same double) / "end <checksum>".
 * The checksum (FNV-1a 64) covers every byte before the end line, and the
 * stored inputs are compared on reading, so a truncated, corrupt or
 * colliding file is a miss: recomputed and replaced.  Writes go to a
 * temporary file in the same directory, fflush + fsync, then rename(2),
 * which replaces the target atomically on POSIX file systems.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache_io.h"

static const char *const outs[] = { "tau", "M", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "Minv" };

int rbdref_cache_path(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                      const double *tau, const rbdref_opts *o, char *buf, size_t n)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (!dir || !m || !q || !buf) return rbd_fail(RBD_EINVAL, "rbdref_cache_path: null argument");
    char key[33];
    cache_key_hex(cache_key_inputs(m, q, v, a, tau, o), key);
    int len = snprintf(buf, n, "%s/rbdref-%s.txt", dir, key);
    if (len < 0 || (size_t)len >= n) return rbd_fail(RBD_EINVAL, "cache path under '%s' is too long", dir);
    return RBD_OK;
}

static int cache_store(const char *path, const char *dir, const char *key, const rbd_model *m, const double *q,
                       const double *v, const double *a, const double *tau, const rbdref_opts *o,
                       const rbdref_result *r)
{
    cache_buf b = { 0 };
    cache_printf(&b, "rbdref-cache %d\nkey %s\nspec %s\n", CACHE_VERSION, key, m->spec ? m->spec : "");
    cache_printf(&b, "nq %d nv %d prec %d h_log2 %ld id %d fd %d\n", m->nq, m->nv, o->prec, cache_step_log2(o),
                 r->has_id, r->has_fd);
    cache_put_vec(&b, "q", q, m->nq); cache_put_vec(&b, "v", v, m->nv);
    cache_put_vec(&b, "a", a, m->nv); cache_put_vec(&b, "tau", tau, m->nv);
    for (int k = 0; k < 8; k++) {
        int rows, cols;
        const double *x = rbdref_result_get(r, outs[k], &rows, &cols);
        if (!x) continue;
        cache_printf(&b, "%s %d %d\n", outs[k], rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) cache_printf(&b, j ? " %a" : "%a", x[i + (size_t)rows * j]);
            cache_printf(&b, "\n");
        }
    }
    return cache_commit(&b, path, dir);
}

/* 1 when the file answers for these inputs (r filled), 0 on any mismatch */
static int cache_load(const char *path, const char *key, const rbd_model *m, const double *q, const double *v,
                      const double *a, const double *tau, const rbdref_opts *o, rbdref_result *r)
{
    char *p = cache_read_verified(path);
    if (!p) return 0;
    int ok = 0;
    char *s = p, hdr[160];
    snprintf(hdr, sizeof hdr, "rbdref-cache %d\nkey %s\n", CACHE_VERSION, key);
    if (strncmp(s, hdr, strlen(hdr))) goto out;
    s = strchr(s + strlen(hdr), '\n');            /* skip the spec line */
    if (!s) goto out;
    int nq, nv, prec, id, fd;
    long hl;
    int used;
    if (sscanf(s, " nq %d nv %d prec %d h_log2 %ld id %d fd %d%n", &nq, &nv, &prec, &hl, &id, &fd, &used) != 6)
        goto out;
    s += used;
    if (nq != m->nq || nv != m->nv || prec != o->prec || hl != cache_step_log2(o) || id != (a != NULL) ||
        fd != (tau != NULL))
        goto out;
    if (!cache_same_vec(&s, "q", q, m->nq) || !cache_same_vec(&s, "v", v, m->nv) ||
        !cache_same_vec(&s, "a", a, m->nv) || !cache_same_vec(&s, "tau", tau, m->nv))
        goto out;
    r->has_id = id;
    r->has_fd = fd;
    for (int k = 0; k < 8; k++) {
        int rows, cols, rr, cc;
        double *x = rbdref_result_get(r, outs[k], &rows, &cols);
        if (!x) continue;
        if (!cache_next_word(&s, outs[k]) || sscanf(s, "%d %d%n", &rr, &cc, &used) != 2 || rr != rows ||
            cc != cols)
            goto out;
        s += used;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                if (!cache_next_dbl(&s, &x[i + (size_t)rows * j])) goto out;
    }
    while (*s == ' ' || *s == '\n') s++;
    ok = *s == 0;
out:
    if (!ok) r->has_id = r->has_fd = 0;
    free(p);
    return ok;
}

int rbdref_eval_cached(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                       const double *tau, const rbdref_opts *o, rbdref_result *r, int *hit)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (hit) *hit = 0;
    if (!dir || !m || !q || !r || r->nv != m->nv)
        return rbd_fail(RBD_EINVAL, "rbdref_eval_cached: null argument or result not made for this model");
    int rc = cache_make_dirs(dir);
    if (rc) return rc;
    char path[4096], key[33];
    rc = rbdref_cache_path(dir, m, q, v, a, tau, o, path, sizeof path);
    if (rc) return rc;
    cache_key_hex(cache_key_inputs(m, q, v, a, tau, o), key);
    if (cache_load(path, key, m, q, v, a, tau, o, r)) {
        if (hit) *hit = 1;
        return RBD_OK;
    }
    if ((rc = rbdref_eval(m, q, v, a, tau, o, r))) return rc;
    return cache_store(path, dir, key, m, q, v, a, tau, o, r);
}
