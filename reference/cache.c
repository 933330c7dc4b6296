/*
 * On-disk cache of reference evaluations (issue 5): repeated audits reuse
 * them, an interrupted audit leaves no corrupt file behind.
 *
 * Key: a 128-bit hash of the model's data (structure and every numeric
 * parameter, bit for bit), the state vectors (bit for bit, and which are
 * given), the precision and the step.  File dir/rbdref-<key>.txt, text:
 *   rbdref-cache 1 / key <hex> / sizes and options / the inputs / output
 *   blocks "<name> <rows> <cols>" with values in C99 hex-float (%a: strtod
 *   reads back the very same double) / "end <checksum>".
 * The checksum (FNV-1a 64) covers every byte before the end line, and the
 * stored inputs are compared on reading, so a truncated, corrupt or
 * colliding file is a miss: recomputed and replaced.  Writes go to a
 * temporary file in the same directory, fflush + fsync, then rename(2),
 * which replaces the target atomically on POSIX file systems.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdref.h"

#define CACHE_VERSION 1

/* ---- hashing ---- */

typedef struct { uint64_t a, b; } hash128;

static void h_bytes(hash128 *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t k = 0; k < n; k++) {
        h->a = (h->a ^ c[k]) * 0x100000001b3ULL;                     /* FNV-1a 64 */
        h->b = (h->b + c[k] + 1) * 0x9e3779b97f4a7c15ULL;             /* a second, independent lane */
        h->b ^= h->b >> 29;
    }
}

static void h_int(hash128 *h, long x) { h_bytes(h, &x, sizeof x); }
static void h_dbl(hash128 *h, const double *x, size_t n) { h_bytes(h, x, n * sizeof *x); }

static void h_vec(hash128 *h, const double *x, int n)
{
    h_int(h, x != NULL);
    if (x) h_dbl(h, x, (size_t)n);
}

static long step_of(const rbdref_opts *o) { return o->h_log2 ? o->h_log2 : -(long)o->prec; }

static hash128 cache_key(const rbd_model *m, const double *q, const double *v, const double *a, const double *tau,
                         const rbdref_opts *o)
{
    hash128 h = { 0xcbf29ce484222325ULL, 0x243f6a8885a308d3ULL };
    h_int(&h, CACHE_VERSION);
    h_int(&h, m->nb); h_int(&h, m->nq); h_int(&h, m->nv);
    for (int i = 0; i < m->nb; i++) {
        h_int(&h, m->parent[i]);
        h_int(&h, m->joint[i].type);
        h_dbl(&h, m->joint[i].axis, 3);
        h_dbl(&h, m->Xtree[i].E, 9);
        h_dbl(&h, m->Xtree[i].r, 3);
        h_dbl(&h, &m->inertial[i].mass, 1);
        h_dbl(&h, m->inertial[i].com, 3);
        h_dbl(&h, m->inertial[i].Ic, 9);
        h_int(&h, m->idx_q[i]); h_int(&h, m->idx_v[i]);
    }
    h_dbl(&h, m->S, 6 * (size_t)m->nv);
    h_dbl(&h, m->a0, 6);
    h_vec(&h, q, m->nq); h_vec(&h, v, m->nv); h_vec(&h, a, m->nv); h_vec(&h, tau, m->nv);
    h_int(&h, o->prec);
    h_int(&h, step_of(o));
    return h;
}

static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t k = 0; k < n; k++) h = (h ^ (unsigned char)p[k]) * 0x100000001b3ULL;
    return h;
}

int rbdref_cache_path(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                      const double *tau, const rbdref_opts *o, char *buf, size_t n)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (!dir || !m || !q || !buf) return rbd_fail(RBD_EINVAL, "rbdref_cache_path: null argument");
    hash128 h = cache_key(m, q, v, a, tau, o);
    int len = snprintf(buf, n, "%s/rbdref-%016llx%016llx.txt", dir, (unsigned long long)h.a, (unsigned long long)h.b);
    if (len < 0 || (size_t)len >= n) return rbd_fail(RBD_EINVAL, "cache path under '%s' is too long", dir);
    return RBD_OK;
}

/* ---- writing ---- */

typedef struct { char *p; size_t n, cap; int oom; } sbuf;

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) { b->oom = 1; return; }
        if (b->p && b->n + (size_t)k < b->cap) { b->n += (size_t)k; return; }
        size_t cap = 2 * (b->cap + (size_t)k) + 256;
        char *p = realloc(b->p, cap);
        if (!p) { b->oom = 1; return; }
        b->p = p; b->cap = cap;
    }
}

static void sb_vec(sbuf *b, const char *name, const double *x, int n)
{
    sb_printf(b, "in %s %d", name, x ? n : -1);
    for (int k = 0; x && k < n; k++) sb_printf(b, " %a", x[k]);
    sb_printf(b, "\n");
}

static int write_file(const char *path, const char *dir, const char *data, size_t n)
{
    size_t len = strlen(path) + 16;
    char *tmp = malloc(len);
    if (!tmp) return rbd_fail(RBD_ENOMEM, "out of memory");
    snprintf(tmp, len, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        return rbd_fail(RBD_EIO, "cache: cannot create a temporary file in '%s': %s", dir, strerror(e));
    }
    FILE *f = fdopen(fd, "w");
    int ok = f && fwrite(data, 1, n, f) == n && fflush(f) == 0 && fsync(fd) == 0;
    int e = errno;
    if (f) ok = (fclose(f) == 0) && ok; else close(fd);
    if (ok && rename(tmp, path) != 0) { ok = 0; e = errno; }
    if (!ok) {
        unlink(tmp);
        free(tmp);
        return rbd_fail(RBD_EIO, "cache: cannot write '%s': %s", path, strerror(e));
    }
    free(tmp);
    /* make the rename itself durable (best effort: not every file system allows it) */
    int dfd = open(dir, O_RDONLY);
    if (dfd >= 0) { (void)fsync(dfd); close(dfd); }
    return RBD_OK;
}

static int cache_store(const char *path, const char *dir, const char *key, const rbd_model *m, const double *q,
                       const double *v, const double *a, const double *tau, const rbdref_opts *o,
                       const rbdref_result *r)
{
    static const char *const outs[] = { "tau", "M", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "Minv" };
    sbuf b = { 0 };
    sb_printf(&b, "rbdref-cache %d\nkey %s\nspec %s\n", CACHE_VERSION, key, m->spec ? m->spec : "");
    sb_printf(&b, "nq %d nv %d prec %d h_log2 %ld id %d fd %d\n", m->nq, m->nv, o->prec, step_of(o), r->has_id,
              r->has_fd);
    sb_vec(&b, "q", q, m->nq); sb_vec(&b, "v", v, m->nv); sb_vec(&b, "a", a, m->nv); sb_vec(&b, "tau", tau, m->nv);
    for (int k = 0; k < 8; k++) {
        int rows, cols;
        const double *x = rbdref_result_get(r, outs[k], &rows, &cols);
        if (!x) continue;
        sb_printf(&b, "%s %d %d\n", outs[k], rows, cols);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) sb_printf(&b, j ? " %a" : "%a", x[i + (size_t)rows * j]);
            sb_printf(&b, "\n");
        }
    }
    if (b.oom) { free(b.p); return rbd_fail(RBD_ENOMEM, "out of memory writing the cache"); }
    uint64_t sum = fnv1a(b.p, b.n);
    sb_printf(&b, "end %016llx\n", (unsigned long long)sum);
    if (b.oom) { free(b.p); return rbd_fail(RBD_ENOMEM, "out of memory writing the cache"); }
    int rc = write_file(path, dir, b.p, b.n);
    free(b.p);
    return rc;
}

/* ---- reading: any mismatch is a miss (returns 0) ---- */

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, len = 0;
    char *p = malloc(cap + 1);
    while (p) {
        size_t k = fread(p + len, 1, cap - len, f);
        len += k;
        if (len < cap) break;
        char *q = realloc(p, 2 * cap + 1);
        if (!q) { free(p); p = NULL; break; }
        p = q; cap *= 2;
    }
    int err = ferror(f);
    fclose(f);
    if (!p || err) { free(p); return NULL; }
    p[len] = 0;
    *n = len;
    return p;
}

/* next whitespace-separated token as a double; 0 on failure */
static int next_dbl(char **s, double *x)
{
    char *end;
    *x = strtod(*s, &end);
    if (end == *s) return 0;
    *s = end;
    return 1;
}

static int next_word(char **s, const char *w)
{
    while (**s == ' ' || **s == '\n') (*s)++;
    size_t n = strlen(w);
    if (strncmp(*s, w, n) || ((*s)[n] != ' ' && (*s)[n] != '\n')) return 0;
    *s += n;
    return 1;
}

static int same_vec(char **s, const char *name, const double *x, int n)
{
    long cnt;
    char *end;
    if (!next_word(s, "in") || !next_word(s, name)) return 0;
    cnt = strtol(*s, &end, 10);
    if (end == *s || cnt != (x ? n : -1)) return 0;
    *s = end;
    for (int k = 0; x && k < n; k++) {
        double y;
        if (!next_dbl(s, &y) || memcmp(&y, &x[k], sizeof y)) return 0;
    }
    return 1;
}

static int cache_load(const char *path, const char *key, const rbd_model *m, const double *q, const double *v,
                      const double *a, const double *tau, const rbdref_opts *o, rbdref_result *r)
{
    size_t n;
    char *p = slurp(path, &n);
    if (!p) return 0;
    int ok = 0;
    /* the end line: "end <16 hex>\n" closing the file, checksum of what precedes it */
    char *endl = n >= 22 ? p + n - 21 : NULL;
    if (!endl || strncmp(endl, "end ", 4) || p[n - 1] != '\n' || (endl > p && endl[-1] != '\n')) goto out;
    char *hx;
    unsigned long long sum = strtoull(endl + 4, &hx, 16);
    if (hx != p + n - 1 || sum != (unsigned long long)fnv1a(p, (size_t)(endl - p))) goto out;
    *endl = 0;
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
    if (nq != m->nq || nv != m->nv || prec != o->prec || hl != step_of(o) || id != (a != NULL) ||
        fd != (tau != NULL))
        goto out;
    if (!same_vec(&s, "q", q, m->nq) || !same_vec(&s, "v", v, m->nv) || !same_vec(&s, "a", a, m->nv) ||
        !same_vec(&s, "tau", tau, m->nv))
        goto out;
    r->has_id = id;
    r->has_fd = fd;
    static const char *const outs[] = { "tau", "M", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "Minv" };
    for (int k = 0; k < 8; k++) {
        int rows, cols, rr, cc;
        double *x = rbdref_result_get(r, outs[k], &rows, &cols);
        if (!x) continue;
        if (!next_word(&s, outs[k]) || sscanf(s, "%d %d%n", &rr, &cc, &used) != 2 || rr != rows || cc != cols)
            goto out;
        s += used;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                if (!next_dbl(&s, &x[i + (size_t)rows * j])) goto out;
    }
    while (*s == ' ' || *s == '\n') s++;
    ok = *s == 0;
out:
    if (!ok) r->has_id = r->has_fd = 0;
    free(p);
    return ok;
}

/* mkdir -p: the default cache (~/.cache/rbdiff) may lack its parents on a
 * fresh machine. */
static int make_dirs(const char *dir)
{
    char p[4096];
    size_t n = strlen(dir);
    if (n == 0 || n >= sizeof p) return rbd_fail(RBD_EINVAL, "cache: bad directory name '%s'", dir);
    memcpy(p, dir, n + 1);
    for (size_t k = 1; k <= n; k++)
        if (p[k] == '/' || p[k] == 0) {
            char c = p[k];
            p[k] = 0;
            if (mkdir(p, 0777) != 0 && errno != EEXIST)
                return rbd_fail(RBD_EIO, "cache: cannot create directory '%s': %s", p, strerror(errno));
            p[k] = c;
        }
    return RBD_OK;
}

int rbdref_eval_cached(const char *dir, const rbd_model *m, const double *q, const double *v, const double *a,
                       const double *tau, const rbdref_opts *o, rbdref_result *r, int *hit)
{
    rbdref_opts dflt;
    if (!o) { rbdref_opts_default(&dflt); o = &dflt; }
    if (hit) *hit = 0;
    if (!dir || !m || !q || !r || r->nv != m->nv)
        return rbd_fail(RBD_EINVAL, "rbdref_eval_cached: null argument or result not made for this model");
    int rc = make_dirs(dir);
    if (rc) return rc;
    char path[4096], key[40];
    rc = rbdref_cache_path(dir, m, q, v, a, tau, o, path, sizeof path);
    if (rc) return rc;
    hash128 h = cache_key(m, q, v, a, tau, o);
    snprintf(key, sizeof key, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
    if (cache_load(path, key, m, q, v, a, tau, o, r)) {
        if (hit) *hit = 1;
        return RBD_OK;
    }
    if ((rc = rbdref_eval(m, q, v, a, tau, o, r))) return rc;
    return cache_store(path, dir, key, m, q, v, a, tau, o, r);
}
