/*
 * The reference cache's shared parts (cache_io.h): key, text, atomic write,
 * verified read.  Used by cache.c (first order) and cache_so.c (second).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cache_io.h"

/* ---- the key ---- */

static void h_bytes(cache_hash *h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t k = 0; k < n; k++) {
        h->a = (h->a ^ c[k]) * 0x100000001b3ULL;                     /* FNV-1a 64 */
        h->b = (h->b + c[k] + 1) * 0x9e3779b97f4a7c15ULL;             /* a second, independent lane */
        h->b ^= h->b >> 29;
    }
}

void cache_key_extend(cache_hash *h, long x) { h_bytes(h, &x, sizeof x); }
static void h_dbl(cache_hash *h, const double *x, size_t n) { h_bytes(h, x, n * sizeof *x); }

static void h_vec(cache_hash *h, const double *x, int n)
{
    cache_key_extend(h, x != NULL);
    if (x) h_dbl(h, x, (size_t)n);
}

long cache_step_log2(const rbdref_opts *o) { return o->h_log2 ? o->h_log2 : -(long)o->prec; }

cache_hash cache_key_inputs(const rbd_model *m, const double *q, const double *v, const double *a,
                            const double *tau, const rbdref_opts *o)
{
    cache_hash h = { 0xcbf29ce484222325ULL, 0x243f6a8885a308d3ULL };
    cache_key_extend(&h, CACHE_VERSION);
    cache_key_extend(&h, m->nb); cache_key_extend(&h, m->nq); cache_key_extend(&h, m->nv);
    for (int i = 0; i < m->nb; i++) {
        cache_key_extend(&h, m->parent[i]);
        cache_key_extend(&h, m->joint[i].type);
        h_dbl(&h, m->joint[i].axis, 3);
        h_dbl(&h, m->Xtree[i].E, 9);
        h_dbl(&h, m->Xtree[i].r, 3);
        h_dbl(&h, &m->inertial[i].mass, 1);
        h_dbl(&h, m->inertial[i].com, 3);
        h_dbl(&h, m->inertial[i].Ic, 9);
        cache_key_extend(&h, m->idx_q[i]); cache_key_extend(&h, m->idx_v[i]);
    }
    h_dbl(&h, m->S, 6 * (size_t)m->nv);
    h_dbl(&h, m->a0, 6);
    h_vec(&h, q, m->nq); h_vec(&h, v, m->nv); h_vec(&h, a, m->nv); h_vec(&h, tau, m->nv);
    cache_key_extend(&h, o->prec);
    cache_key_extend(&h, cache_step_log2(o));
    return h;
}

void cache_key_hex(cache_hash h, char key[33])
{
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

static uint64_t fnv1a(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t k = 0; k < n; k++) h = (h ^ (unsigned char)p[k]) * 0x100000001b3ULL;
    return h;
}

/* ---- writing ---- */

void cache_printf(cache_buf *b, const char *fmt, ...)
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

void cache_put_vec(cache_buf *b, const char *name, const double *x, int n)
{
    cache_printf(b, "in %s %d", name, x ? n : -1);
    for (int k = 0; x && k < n; k++) cache_printf(b, " %a", x[k]);
    cache_printf(b, "\n");
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

int cache_commit(cache_buf *b, const char *path, const char *dir)
{
    if (!b->oom) {
        uint64_t sum = fnv1a(b->p, b->n);
        cache_printf(b, "end %016llx\n", (unsigned long long)sum);
    }
    int rc = b->oom ? rbd_fail(RBD_ENOMEM, "out of memory writing the cache") : write_file(path, dir, b->p, b->n);
    free(b->p);
    memset(b, 0, sizeof *b);
    return rc;
}

/* ---- reading: any mismatch is a miss ---- */

/* The whole file; sized by fstat so that a second-order file (about 165 MB
 * at nv = 100) is read into one buffer of its size, not a doubled one. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    struct stat st;
    char *p = NULL;
    if (fstat(fileno(f), &st) == 0 && st.st_size >= 0 && (p = malloc((size_t)st.st_size + 1))) {
        size_t len = fread(p, 1, (size_t)st.st_size, f);
        if (len != (size_t)st.st_size || ferror(f)) { free(p); p = NULL; }
        else { p[len] = 0; *n = len; }
    }
    fclose(f);
    return p;
}

char *cache_read_verified(const char *path)
{
    size_t n;
    char *p = slurp(path, &n);
    if (!p) return NULL;
    /* the end line: "end <16 hex>\n" closing the file, checksum of what precedes it */
    char *endl = n >= 22 ? p + n - 21 : NULL;
    char *hx = NULL;
    unsigned long long sum = 0;
    if (endl && !strncmp(endl, "end ", 4) && p[n - 1] == '\n' && (endl == p || endl[-1] == '\n'))
        sum = strtoull(endl + 4, &hx, 16);
    if (!hx || hx != p + n - 1 || sum != (unsigned long long)fnv1a(p, (size_t)(endl - p))) {
        free(p);
        return NULL;
    }
    *endl = 0;
    return p;
}

int cache_next_dbl(char **s, double *x)
{
    char *end;
    *x = strtod(*s, &end);
    if (end == *s) return 0;
    *s = end;
    return 1;
}

int cache_next_word(char **s, const char *w)
{
    while (**s == ' ' || **s == '\n') (*s)++;
    size_t n = strlen(w);
    if (strncmp(*s, w, n) || ((*s)[n] != ' ' && (*s)[n] != '\n')) return 0;
    *s += n;
    return 1;
}

int cache_same_vec(char **s, const char *name, const double *x, int n)
{
    long cnt;
    char *end;
    if (!cache_next_word(s, "in") || !cache_next_word(s, name)) return 0;
    cnt = strtol(*s, &end, 10);
    if (end == *s || cnt != (x ? n : -1)) return 0;
    *s = end;
    for (int k = 0; x && k < n; k++) {
        double y;
        if (!cache_next_dbl(s, &y) || memcmp(&y, &x[k], sizeof y)) return 0;
    }
    return 1;
}

/* mkdir -p: the default cache (~/.cache/rbdiff) may lack its parents on a
 * fresh machine. */
int cache_make_dirs(const char *dir)
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
