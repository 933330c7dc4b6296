/* The sweep config: key = value lines, shared with the flags of `sweep`. */
#include <ctype.h>
#include <getopt.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "rbdiff/method.h"
#include "plan/modelspec.h"
#include "peers/peer.h"
#include "plan/sweepconf.h"
#include "measure/timeable.h"

void sweep_config_init(sweep_config *c)
{
    memset(c, 0, sizeof *c);
    c->name = strdup("sweep");
    c->base = 1;
    c->taper = 1;
    c->seed = 1;
    c->pool = 32;
    c->batches = 11;
    c->batch_ms = 10;
    c->warmup_ms = 20;
    c->pin = -1;
    c->blas_threads = 1;
    c->counters = 1;
    c->xo_lo = 2;
    c->xo_hi = 200;
    c->acc_skew = 1.0471975511965976;   /* pi/3 */
    c->acc_taper = 0.99;
    c->acc_states = 3;
    c->minv = RBD_MINV_ANALYTIC;
}

void sweep_config_method_options(const sweep_config *c, rbd_options *o)
{
    rbd_options_default(o);
    o->minv = (rbd_minv_kind)c->minv;
    o->fdsva_crossover = c->fdsva_crossover;
    o->zeros_preset = c->zeros_preset;
    o->fdsva_dmm_rule = c->fdsva_dmm_rule;
}

static void free_strs(char **s, int n)
{
    for (int k = 0; k < n; k++) free(s[k]);
    free(s);
}

void sweep_config_free(sweep_config *c)
{
    free(c->name);
    free_strs(c->methods, c->nmethods);
    free(c->N);
    free(c->bf);
    free_strs(c->models, c->nmodels);
    free_strs(c->xo_a, c->nxo);
    free_strs(c->xo_b, c->nxo);
    free_strs(c->robots, c->nrobots);
    free_strs(c->robot_methods, c->nrobot_methods);
    free_strs(c->peers, c->npeers);
    free(c->acc_N);
    free(c->acc_bf);
    free_strs(c->acc_models, c->nacc_models);
    free(c->cache);
    memset(c, 0, sizeof *c);
}

void valid_method_names(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int k = 0; rbd_methods[k]; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "",
                                 rbd_methods[k]->name);
    for (int k = 0; rbd_so_methods[k]; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "",
                                 rbd_so_methods[k]->name);
    for (int k = 0; rbd_base_algos[k].name; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "",
                                 rbd_base_algos[k].name);
    snprintf(buf + used, used < len ? len - used : 0, "%sdgemm", used ? ", " : "");
}

int known_method_name(const char *name)
{
    return rbd_method_find(name) || rbd_base_algo_find(name) || !strcmp(name, "dgemm");
}

/* Next token of a comma/space separated list into tok; returns 0 at end. */
static int next_token(const char **s, char *tok, size_t len)
{
    const char *p = *s;
    while (*p == ',' || isspace((unsigned char)*p)) p++;
    if (!*p) { *s = p; return 0; }
    size_t n = 0;
    while (*p && *p != ',' && !isspace((unsigned char)*p)) {
        if (n + 1 < len) tok[n++] = *p;
        p++;
    }
    tok[n] = 0;
    *s = p;
    return 1;
}

static int to_num(const char *tok, double *x)
{
    *x = NAN;
    return rbd_text_number(tok, strlen(tok), x) == RBD_OK;     /* the one rule (model/text.h) */
}

/* More entries than anyone sweeps: a range such as 1:1000000000 is a typo,
 * refused before it fills memory (found by fuzz_sweepconf). */
#define SWEEP_LIST_MAX 100000

/* Geometric growth: a range of 10^5 entries grown one by one copied
 * O(n^2) bytes (2 GB of allocator churn under ASan; found by fuzz_sweepconf). */
static int push_int(int **out, int *n, int *cap, int v)
{
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        int *p = realloc(*out, sizeof *p * (size_t)c);
        if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
        *out = p;
        *cap = c;
    }
    (*out)[(*n)++] = v;
    return RBD_OK;
}

int parse_int_list(const char *s, const char *where, const char *key, int min, int **out, int *n)
{
    *out = NULL;
    *n = 0;
    char tok[128];
    int rc = RBD_OK, cap = 0;
    while (!rc && next_token(&s, tok, sizeof tok)) {
        double a[3];
        int k = 0, colons = 0;
        for (const char *q = tok; *q; q++) colons += *q == ':';
        if (colons > 2) { rc = rbd_fail(RBD_EPARSE, "%s: %s: '%s': bad range (use A:B or A:STEP:B)", where, key, tok); break; }
        /* every part must be there: "1::5" or "1:" is a typo, not 1:5 or 1 */
        for (char *part = tok, *colon; k <= colons; part = colon + 1, k++) {
            colon = strchr(part, ':');
            if (colon) *colon = 0;
            if (!to_num(part, &a[k]) || a[k] != floor(a[k]) || fabs(a[k]) > 1e9) {
                rc = rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a whole number%s", where, key, part,
                              colons ? " (use A:B or A:STEP:B)" : "");
                break;
            }
            if (!colon) { k++; break; }
        }
        if (rc) break;
        double lo = a[0], step = k == 3 ? a[1] : 1, hi = k == 1 ? a[0] : a[k - 1];
        if (step < 1 || hi < lo) {
            rc = rbd_fail(RBD_EPARSE, "%s: %s: range %g:%g:%g is empty or has a step < 1", where, key, lo, step, hi);
            break;
        }
        if ((hi - lo) / step + 1 + *n > SWEEP_LIST_MAX) {
            rc = rbd_fail(RBD_EINVAL, "%s: %s: range %g:%g:%g has more than %d entries", where, key, lo, step, hi,
                          SWEEP_LIST_MAX);
            break;
        }
        for (double v = lo; v <= hi && !rc; v += step) {
            if (v < min) rc = rbd_fail(RBD_EINVAL, "%s: %s: %g is out of range (%s >= %d)", where, key, v, key, min);
            else rc = push_int(out, n, &cap, (int)v);
        }
    }
    if (!rc && *n == 0) rc = rbd_fail(RBD_EPARSE, "%s: %s: empty list", where, key);
    if (rc) { free(*out); *out = NULL; *n = 0; }
    return rc;
}

int parse_num_list(const char *s, const char *where, const char *key, double min, double **out, int *n)
{
    *out = NULL;
    *n = 0;
    char tok[128];
    int rc = RBD_OK;
    while (!rc && next_token(&s, tok, sizeof tok)) {
        double x;
        if (!to_num(tok, &x)) { rc = rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a number", where, key, tok); break; }
        if (x < min) { rc = rbd_fail(RBD_EINVAL, "%s: %s: %s is out of range (%s >= %g)", where, key, tok, key, min); break; }
        if (*n >= SWEEP_LIST_MAX) { rc = rbd_fail(RBD_EINVAL, "%s: %s: more than %d entries", where, key, SWEEP_LIST_MAX); break; }
        double *p = realloc(*out, sizeof *p * (size_t)(*n + 1));
        if (!p) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        p[(*n)++] = x;
        *out = p;
    }
    if (!rc && *n == 0) rc = rbd_fail(RBD_EPARSE, "%s: %s: empty list", where, key);
    if (rc) { free(*out); *out = NULL; *n = 0; }
    return rc;
}

static int one_num(const char *v, const char *where, const char *key, double min, double max, double *out)
{
    double x;
    if (!to_num(v, &x)) return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a number", where, key, v);
    if (x < min || x > max)
        return rbd_fail(RBD_EINVAL, "%s: %s: %s is out of range [%g, %g]", where, key, v, min, max);
    *out = x;
    return RBD_OK;
}

static int one_int(const char *v, const char *where, const char *key, int min, int max, int *out)
{
    double x = 0;
    int rc = one_num(v, where, key, min, max, &x);
    if (rc) return rc;
    if (x != floor(x)) return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a whole number", where, key, v);
    *out = (int)x;
    return RBD_OK;
}

static int yes_no(const char *v, const char *where, const char *key, int *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "true")) { *out = 1; return RBD_OK; }
    if (!strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "false")) { *out = 0; return RBD_OK; }
    return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not yes or no", where, key, v);
}

/* A name given twice in one list (methods, robots, peers) is refused:
 * measured twice, its rows would collide at the end of a long run. */
static int check_unique(char *const *arr, int n, const char *s, const char *where, const char *key)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(arr[k], s)) return rbd_fail(RBD_EINVAL, "%s: %s: '%s' is given twice", where, key, s);
    return RBD_OK;
}

static int push_str(char ***arr, int *n, const char *s)
{
    char **p = realloc(*arr, sizeof *p * (size_t)(*n + 1));
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    *arr = p;
    if (!(p[*n] = strdup(s))) return rbd_fail(RBD_ENOMEM, "out of memory");
    (*n)++;
    return RBD_OK;
}

/* A list key given again (a flag over the file's value) starts afresh. */
static void reset_strs(char ***arr, int *n)
{
    free_strs(*arr, *n);
    *arr = NULL;
    *n = 0;
}

static int set_methods(sweep_config *c, const char *v, const char *where)
{
    char tok[128];
    const char *s = v;
    reset_strs(&c->methods, &c->nmethods);
    if (!strcmp(v, "all")) return RBD_OK;
    while (next_token(&s, tok, sizeof tok)) {
        if (!known_method_name(tok)) {
            char valid[2048];
            valid_method_names(valid, sizeof valid);
            return rbd_fail(RBD_EINVAL, "%s: methods: unknown method '%s' (valid: %s)", where, tok,
                            *valid ? valid : "none registered");
        }
        int rc = check_unique(c->methods, c->nmethods, tok, where, "methods");
        if (!rc) rc = push_str(&c->methods, &c->nmethods, tok);
        if (rc) return rc;
    }
    if (!c->nmethods) return rbd_fail(RBD_EPARSE, "%s: methods: empty list (or 'all')", where);
    return RBD_OK;
}

/* robot_methods = idsva, pin26, pinocchio.computeRNEADerivatives, ...: a
 * registered name, or a peer's function (PEER.FUNCTION, checked by the
 * sweep once the peers are open; a PEER without @VERSION names the function
 * of every version timed). */
static int set_robot_methods(sweep_config *c, const char *v, const char *where)
{
    char tok[128];
    const char *s = v;
    reset_strs(&c->robot_methods, &c->nrobot_methods);
    while (next_token(&s, tok, sizeof tok)) {
        if (!known_method_name(tok) && !strchr(tok, '.')) {
            char valid[2048];
            valid_method_names(valid, sizeof valid);
            return rbd_fail(RBD_EINVAL, "%s: robot_methods: unknown method '%s' (valid: %s, or PEER.FUNCTION)", where,
                            tok, *valid ? valid : "none registered");
        }
        int rc = check_unique(c->robot_methods, c->nrobot_methods, tok, where, "robot_methods");
        if (!rc) rc = push_str(&c->robot_methods, &c->nrobot_methods, tok);
        if (rc) return rc;
    }
    return c->nrobot_methods ? RBD_OK : rbd_fail(RBD_EPARSE, "%s: robot_methods: empty list", where);
}

int sweep_config_robot_times(const sweep_config *c, const char *target)
{
    if (!c->nrobot_methods) return 1;
    for (int k = 0; k < c->nrobot_methods; k++)
        if (peer_row_matches(c->robot_methods[k], target)) return 1;
    return 0;
}

/* robots = ur5, hyq:freeflyer, urdf:PATH, ... (modelspec.h) */
static int set_robots(sweep_config *c, const char *v, const char *where)
{
    char tok[512], spec[600];
    const char *s = v;
    reset_strs(&c->robots, &c->nrobots);
    while (next_token(&s, tok, sizeof tok)) {
        if (robot_spec(tok, spec, sizeof spec)) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", rbd_last_error());   /* rbd_fail formats into that buffer */
            return rbd_fail(RBD_EPARSE, "%s: %s", where, msg);
        }
        int rc = check_unique(c->robots, c->nrobots, spec, where, "robots");
        if (!rc) rc = push_str(&c->robots, &c->nrobots, spec);
        if (rc) return rc;
    }
    return c->nrobots ? RBD_OK : rbd_fail(RBD_EPARSE, "%s: robots: empty list", where);
}

/* peers = none | all | NAME[@VERSION], ... (peer.h): a bare NAME is the
 * newest version built, all every version of every peer ("NAME@*", expanded
 * by bench_peers_open once the modules are looked for). */
static int set_peers(sweep_config *c, const char *v, const char *where)
{
    char tok[64];
    const char *s = v;
    reset_strs(&c->peers, &c->npeers);
    c->peers_named = 0;
    if (!strcmp(v, "none")) return RBD_OK;
    if (!strcmp(v, "all")) {
        for (int k = 0; peer_known[k]; k++) {
            snprintf(tok, sizeof tok, "%s@*", peer_known[k]);
            if (push_str(&c->peers, &c->npeers, tok)) return RBD_ENOMEM;
        }
        return RBD_OK;
    }
    while (next_token(&s, tok, sizeof tok)) {
        const char *at = strchr(tok, '@');
        int bad = peer_family(tok) < 0 || (at && (!at[1] || strspn(at + 1, "0123456789.") != strlen(at + 1)));
        if (bad)
            return rbd_fail(RBD_EINVAL, "%s: peers: unknown peer '%s' (valid: pinocchio, mujoco, NAME@VERSION such as "
                            "pinocchio@4.1.0, all, none)", where, tok);
        int rc = check_unique(c->peers, c->npeers, tok, where, "peers");
        if (!rc) rc = push_str(&c->peers, &c->npeers, tok);
        if (rc) return rc;
    }
    c->peers_named = 1;
    return c->npeers ? RBD_OK : rbd_fail(RBD_EPARSE, "%s: peers: empty list (or 'none')", where);
}

const char *const sweep_keys[] = { "name", "methods", "base", "N", "bf", "skew", "taper", "model", "seed", "pool",
                                    "batches", "batch_ms", "warmup_ms", "pin", "blas_threads", "counters",
                                    "crossover", "crossover_range", "robots", "accuracy_N", "accuracy_bf",
                                    "accuracy_skew", "accuracy_taper", "accuracy_model", "accuracy_states", "cache",
                                    "minv", "fdsva_crossover", "zeros_preset", "fdsva_dmm", "peers", "robot_methods",
                                    NULL };
/* sweep_config.seen has a bit per key and sweep_options 32 name slots */
_Static_assert(sizeof sweep_keys / sizeof *sweep_keys - 1 <= 32, "more than 32 sweep keys");

int sweep_config_set(sweep_config *c, const char *key, const char *v, const char *where)
{
    int k = 0;
    while (sweep_keys[k] && strcmp(sweep_keys[k], key)) k++;
    if (!sweep_keys[k]) {
        char valid[512];
        size_t used = 0;
        for (int j = 0; sweep_keys[j]; j++)
            used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s", j ? ", " : "", sweep_keys[j]);
        return rbd_fail(RBD_EPARSE, "%s: unknown key '%s' (valid: %s)", where, key, valid);
    }
    int repeatable = !strcmp(key, "model") || !strcmp(key, "crossover") || !strcmp(key, "accuracy_model");
    if (!repeatable && (c->seen & (1u << k))) return rbd_fail(RBD_EPARSE, "%s: key '%s' given twice", where, key);
    c->seen |= 1u << k;
    if (!*v) return rbd_fail(RBD_EPARSE, "%s: %s: no value", where, key);
    double x = 0;
    int rc;
    switch (k) {
    case 0:
        for (const char *p = v; *p; p++)
            if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
                return rbd_fail(RBD_EPARSE, "%s: name: '%s' may hold only letters, digits, '-', '_', '.'", where, v);
        free(c->name);
        return (c->name = strdup(v)) ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
    case 1: return set_methods(c, v, where);
    case 2: return yes_no(v, where, key, &c->base);
    case 3: free(c->N); return parse_int_list(v, where, "N", 1, &c->N, &c->nN);
    case 4: free(c->bf); return parse_num_list(v, where, "bf", 1, &c->bf, &c->nbf);
    case 5: return one_num(v, where, key, -1e3, 1e3, &c->skew);
    case 6:
        if ((rc = one_num(v, where, key, 0, 1e3, &x))) return rc;
        if (!(x > 0)) return rbd_fail(RBD_EINVAL, "%s: taper: %s is out of range (taper > 0)", where, v);
        c->taper = x;
        return RBD_OK;
    case 7:
    case 23:
        if (strncmp(v, "urdf:", 5) && strncmp(v, "autotree:", 9))
            return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a model spec (urdf:PATH[,OPTION]... or "
                            "autotree:N=..,bf=..)", where, key, v);
        return k == 7 ? push_str(&c->models, &c->nmodels, v) : push_str(&c->acc_models, &c->nacc_models, v);
    case 8:
        if ((rc = one_num(v, where, key, 0, 9007199254740992.0, &x))) return rc;
        if (x != floor(x)) return rbd_fail(RBD_EPARSE, "%s: seed: '%s' is not a whole number", where, v);
        c->seed = (uint64_t)x;
        return RBD_OK;
    case 9: return one_int(v, where, key, 1, 1 << 20, &c->pool);
    case 10: return one_int(v, where, key, 1, 100000, &c->batches);
    case 11:
        if ((rc = one_num(v, where, key, 0, 1e6, &c->batch_ms))) return rc;
        return c->batch_ms > 0 ? RBD_OK : rbd_fail(RBD_EINVAL, "%s: batch_ms: must be > 0", where);
    case 12: return one_num(v, where, key, 0, 1e6, &c->warmup_ms);
    case 13: return one_int(v, where, key, -1, 4095, &c->pin);
    case 14: return one_int(v, where, key, 1, 1024, &c->blas_threads);
    case 15: return yes_no(v, where, key, &c->counters);
    case 16: {
        char a[128], b[128], extra[8];
        if (sscanf(v, "%127s %127s %7s", a, b, extra) != 2)
            return rbd_fail(RBD_EPARSE, "%s: crossover: '%s' is not two method names 'A B'", where, v);
        for (int j = 0; j < 2; j++) {
            const char *nm = j ? b : a;
            if (!rbd_method_find(nm)) {
                char valid[2048];
                valid_method_names(valid, sizeof valid);
                return rbd_fail(RBD_EINVAL, "%s: crossover: unknown method '%s' (valid: %s)", where, nm,
                                *valid ? valid : "none registered");
            }
        }
        if ((rc = push_str(&c->xo_a, &c->nxo, a))) return rc;
        c->nxo--;
        return push_str(&c->xo_b, &c->nxo, b);
    }
    case 17: {
        int lo, hi;
        char extra;
        if (sscanf(v, "%d:%d%c", &lo, &hi, &extra) != 2 || lo < 1 || hi <= lo)
            return rbd_fail(RBD_EPARSE, "%s: crossover_range: '%s' is not LO:HI with 1 <= LO < HI", where, v);
        c->xo_lo = lo;
        c->xo_hi = hi;
        return RBD_OK;
    }
    case 18: return set_robots(c, v, where);
    case 19: free(c->acc_N); return parse_int_list(v, where, key, 1, &c->acc_N, &c->nacc_N);
    case 20: free(c->acc_bf); return parse_num_list(v, where, key, 1, &c->acc_bf, &c->nacc_bf);
    case 21: return one_num(v, where, key, -1e3, 1e3, &c->acc_skew);
    case 22:
        if ((rc = one_num(v, where, key, 0, 1e3, &x))) return rc;
        if (!(x > 0)) return rbd_fail(RBD_EINVAL, "%s: accuracy_taper: %s is out of range (> 0)", where, v);
        c->acc_taper = x;
        return RBD_OK;
    case 24: return one_int(v, where, key, 1, 10000, &c->acc_states);
    case 25:
        free(c->cache);
        return (c->cache = strdup(v)) ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
    case 26:
        for (int kind = 0; kind < RBD_MINV_NKINDS; kind++)
            if (!strcmp(v, rbd_minv_name((rbd_minv_kind)kind))) { c->minv = kind; return RBD_OK; }
        return rbd_fail(RBD_EPARSE, "%s: minv: unknown variant '%s' (valid: analytic, ltdl, lapack)", where, v);
    case 27: return one_int(v, where, key, 0, 1 << 20, &c->fdsva_crossover);
    case 28: return yes_no(v, where, key, &c->zeros_preset);
    case 29:
        if (!strcmp(v, "measure") || !strcmp(v, "rule")) { c->fdsva_dmm_rule = !strcmp(v, "rule"); return RBD_OK; }
        return rbd_fail(RBD_EPARSE, "%s: fdsva_dmm: '%s' is neither measure nor rule", where, v);
    case 30: return set_peers(c, v, where);
    case 31: return set_robot_methods(c, v, where);
    }
    return RBD_OK;
}

void sweep_config_allow_override(sweep_config *c)
{
    c->seen = 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

int sweep_config_read(sweep_config *c, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return rbd_fail(RBD_EIO, "%s: cannot read config: %s", path, strerror(errno));
    int rc = sweep_config_read_stream(c, f, path);
    fclose(f);
    return rc;
}

int sweep_config_read_stream(sweep_config *c, FILE *f, const char *path)
{
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int line = 0, rc = RBD_OK;
    while (!rc && (len = getline(&buf, &cap, f)) >= 0) {
        line++;
        char where[1100];
        snprintf(where, sizeof where, "%s:%d", path, line);
        if ((size_t)len != strlen(buf)) { rc = rbd_fail(RBD_EPARSE, "%s: NUL byte in a text file", where); break; }
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *s = trim(buf);
        if (!*s) continue;
        char *eq = strchr(s, '=');
        if (!eq) { rc = rbd_fail(RBD_EPARSE, "%s: expected 'key = value', got '%s'", where, s); break; }
        *eq = 0;
        char *key = trim(s), *val = trim(eq + 1);
        if (!*key) { rc = rbd_fail(RBD_EPARSE, "%s: no key before '='", where); break; }
        rc = sweep_config_set(c, key, val, where);
    }
    if (!rc && ferror(f)) rc = rbd_fail(RBD_EIO, "%s: read error", path);
    free(buf);
    return rc;
}

int sweep_config_flag(sweep_config *c, int key, const char *value)
{
    char flag[72], name[64];
    snprintf(name, sizeof name, "%s", sweep_keys[key]);
    snprintf(flag, sizeof flag, "--%s", name);
    for (char *p = flag; *p; p++)
        if (*p == '_') *p = '-';
    return sweep_config_set(c, name, value, flag);
}

struct option *sweep_options(const struct option *extra, int nextra)
{
    int nk = 0;
    while (sweep_keys[nk]) nk++;
    struct option *o = calloc((size_t)(nk + nextra + 1), sizeof *o);
    static char names[32][32];
    if (!o) return NULL;
    for (int k = 0; k < nk && k < 32; k++) {
        snprintf(names[k], sizeof names[k], "%s", sweep_keys[k]);
        for (char *p = names[k]; *p; p++)
            if (*p == '_') *p = '-';
        o[k].name = names[k];
        o[k].has_arg = required_argument;
        o[k].val = SWEEP_OPT_BASE + k;
    }
    for (int k = 0; k < nextra; k++) o[nk + k] = extra[k];
    return o;
}
