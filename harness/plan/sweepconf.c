/* The sweep config: key = value lines, shared with the flags of `sweep`;
 * one table of keys (name, type, range, setter), the lists in sweeplists.c. */
#include <ctype.h>
#include <getopt.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "rbdiff/method.h"
#include "plan/modelspec.h"
#include "peers/peer.h"
#include "plan/sweepconf.h"
#include "plan/sweeplists.h"

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
    c->slices = 1;
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
    sweep_strs_free(s, n);
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
    free_strs(c->so_methods, c->nso_methods);
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
    for (int k = 0; rbd_emit_methods[k]; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "",
                                 rbd_emit_methods[k]->name);
    for (int k = 0; rbd_base_algos[k].name; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "",
                                 rbd_base_algos[k].name);
    snprintf(buf + used, used < len ? len - used : 0, "%sdgemm", used ? ", " : "");
}

int known_method_name(const char *name)
{
    return rbd_method_find(name) || rbd_base_algo_find(name) || !strcmp(name, "dgemm");
}

int sweep_config_robot_times(const sweep_config *c, const char *target)
{
    if (!c->nrobot_methods) return 1;
    for (int k = 0; k < c->nrobot_methods; k++)
        if (peer_row_matches(c->robot_methods[k], target)) return 1;
    return 0;
}

static int to_num(const char *tok, double *x)
{
    *x = NAN;
    return rbd_text_number(tok, strlen(tok), x) == RBD_OK;     /* the one rule (model/text.h) */
}

/* ---- the keys: one row each, what it holds, its range, its setter */

typedef enum { T_NUM, T_INT, T_YESNO, T_INTS, T_NUMS, T_SPECS, T_TEXT, T_SET } key_type;

typedef struct {
    const char *name;
    key_type type;
    size_t at, count;           /* the field in sweep_config (and the count of a list) */
    double lo, hi;              /* the range: [lo, hi], or (lo, hi] where open */
    int open, repeatable;       /* repeatable: each line adds one (model, crossover) */
    int (*set)(sweep_config *c, const char *v, const char *where);    /* T_SET */
} sweep_key;

static int set_name(sweep_config *c, const char *v, const char *where)
{
    if (strlen(v) > SWEEP_NAME_MAX)     /* part of a directory name: refused here, not by mkdir after work */
        return rbd_fail(RBD_EPARSE, "%s: name: '%.40s...' is %zu bytes long (at most %d)", where, v, strlen(v),
                        SWEEP_NAME_MAX);
    for (const char *p = v; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_' && *p != '.')
            return rbd_fail(RBD_EPARSE, "%s: name: '%s' may hold only letters, digits, '-', '_', '.'", where, v);
    free(c->name);
    return (c->name = strdup(v)) ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
}

static int set_seed(sweep_config *c, const char *v, const char *where)
{
    double x;
    if (!to_num(v, &x) || x != floor(x)) return rbd_fail(RBD_EPARSE, "%s: seed: '%s' is not a whole number", where, v);
    if (x < 0 || x > 9007199254740992.0)
        return rbd_fail(RBD_EINVAL, "%s: seed: %s is out of range [0, 2^53]", where, v);
    c->seed = (uint64_t)x;
    return RBD_OK;
}

/* crossover = A B: two registered methods, the one value whose items are
 * blank-separated (it names a pair, not a list) */
static int set_crossover(sweep_config *c, const char *v, const char *where)
{
    rbd_text_list l;
    rbd_text_list_begin(&l, v, "", 1, 0, SWEEP_NAME_MAX);
    char ab[2][SWEEP_NAME_MAX + 1];
    const char *item;
    size_t len;
    int n = 0, rc;
    while ((rc = rbd_text_list_next(&l, &item, &len)) == 1 && n < 3) {
        if (n < 2) snprintf(ab[n], sizeof ab[n], "%.*s", (int)len, item);
        n++;
    }
    if (rc == RBD_EPARSE) return sweep_list_fail(l.why, where, "crossover", v);
    if (n != 2) return rbd_fail(RBD_EPARSE, "%s: crossover: '%s' is not two method names 'A B'", where, v);
    for (int j = 0; j < 2; j++)
        if (!rbd_method_find(ab[j])) {
            char valid[2048];
            valid_method_names(valid, sizeof valid);
            return rbd_fail(RBD_EINVAL, "%s: crossover: unknown method '%s' (valid: %s)", where, ab[j],
                            *valid ? valid : "none registered");
        }
    if ((rc = push_str(&c->xo_a, &c->nxo, ab[0]))) return rc;
    c->nxo--;
    return push_str(&c->xo_b, &c->nxo, ab[1]);
}

static int set_crossover_range(sweep_config *c, const char *v, const char *where)
{
    const char *colon = strchr(v, ':');
    if (!colon || strchr(colon + 1, ':') || strpbrk(v, ", \t"))
        return rbd_fail(RBD_EPARSE, "%s: crossover_range: '%s' is not LO:HI with 1 <= LO < HI", where, v);
    int *r, n, rc = parse_int_list(v, where, "crossover_range", 1, &r, &n);
    if (rc) return rc;
    int ok = n >= 2;
    if (ok) { c->xo_lo = r[0]; c->xo_hi = r[n - 1]; }
    free(r);
    return ok ? RBD_OK : rbd_fail(RBD_EPARSE, "%s: crossover_range: '%s' is not LO:HI with 1 <= LO < HI", where, v);
}

static int set_minv(sweep_config *c, const char *v, const char *where)
{
    for (int kind = 0; kind < RBD_MINV_NKINDS; kind++)
        if (!strcmp(v, rbd_minv_name((rbd_minv_kind)kind))) { c->minv = kind; return RBD_OK; }
    return rbd_fail(RBD_EPARSE, "%s: minv: unknown variant '%s' (valid: analytic, ltdl, lapack)", where, v);
}

static int set_fdsva_dmm(sweep_config *c, const char *v, const char *where)
{
    if (!strcmp(v, "measure") || !strcmp(v, "rule")) { c->fdsva_dmm_rule = !strcmp(v, "rule"); return RBD_OK; }
    return rbd_fail(RBD_EPARSE, "%s: fdsva_dmm: '%s' is neither measure nor rule", where, v);
}

#define AT(f) offsetof(sweep_config, f)
#define LIST(f, n) AT(f), AT(n)
#define KEY_SET(nm, fn) { nm, T_SET, 0, 0, 0, 0, 0, 0, fn }
static const sweep_key keys[] = {
    KEY_SET("name", set_name),
    KEY_SET("methods", sweep_set_methods),
    { "base", T_YESNO, AT(base), 0, 0, 0, 0, 0, NULL },
    { "N", T_INTS, LIST(N, nN), 1, 0, 0, 0, NULL },
    { "bf", T_NUMS, LIST(bf, nbf), 1, 0, 0, 0, NULL },
    { "skew", T_NUM, AT(skew), 0, -1e3, 1e3, 0, 0, NULL },
    { "taper", T_NUM, AT(taper), 0, 0, 1e3, 1, 0, NULL },
    { "model", T_SPECS, LIST(models, nmodels), 0, 0, 0, 1, NULL },
    KEY_SET("seed", set_seed),
    { "pool", T_INT, AT(pool), 0, 1, 1 << 20, 0, 0, NULL },
    { "batches", T_INT, AT(batches), 0, 1, 100000, 0, 0, NULL },
    { "batch_ms", T_NUM, AT(batch_ms), 0, 0, 1e6, 1, 0, NULL },
    { "warmup_ms", T_NUM, AT(warmup_ms), 0, 0, 1e6, 0, 0, NULL },
    { "pin", T_INT, AT(pin), 0, -1, 4095, 0, 0, NULL },
    { "blas_threads", T_INT, AT(blas_threads), 0, 1, 1024, 0, 0, NULL },
    { "counters", T_YESNO, AT(counters), 0, 0, 0, 0, 0, NULL },
    { "crossover", T_SET, 0, 0, 0, 0, 0, 1, set_crossover },
    KEY_SET("crossover_range", set_crossover_range),
    KEY_SET("robots", sweep_set_robots),
    { "accuracy_N", T_INTS, LIST(acc_N, nacc_N), 1, 0, 0, 0, NULL },
    { "accuracy_bf", T_NUMS, LIST(acc_bf, nacc_bf), 1, 0, 0, 0, NULL },
    { "accuracy_skew", T_NUM, AT(acc_skew), 0, -1e3, 1e3, 0, 0, NULL },
    { "accuracy_taper", T_NUM, AT(acc_taper), 0, 0, 1e3, 1, 0, NULL },
    { "accuracy_model", T_SPECS, LIST(acc_models, nacc_models), 0, 0, 0, 1, NULL },
    { "accuracy_states", T_INT, AT(acc_states), 0, 1, 10000, 0, 0, NULL },
    { "cache", T_TEXT, AT(cache), 0, 0, 0, 0, 0, NULL },
    KEY_SET("minv", set_minv),
    { "fdsva_crossover", T_INT, AT(fdsva_crossover), 0, 0, 1 << 20, 0, 0, NULL },
    { "zeros_preset", T_YESNO, AT(zeros_preset), 0, 0, 0, 0, 0, NULL },
    KEY_SET("fdsva_dmm", set_fdsva_dmm),
    KEY_SET("peers", sweep_set_peers),
    KEY_SET("robot_methods", sweep_set_robot_methods),
    KEY_SET("so_methods", sweep_set_so_methods),
    { "so_nv_max", T_INT, AT(so_nv_max), 0, 0, 1 << 20, 0, 0, NULL },
    { "accuracy_so_nv_max", T_INT, AT(acc_so_nv_max), 0, 0, 1 << 20, 0, 0, NULL },
};
#define NKEYS ((int)(sizeof keys / sizeof *keys))
_Static_assert(sizeof keys / sizeof *keys <= SWEEP_KEYS_MAX, "more keys than sweep_config.seen holds");

const char *sweep_key_name(int k)
{
    return k >= 0 && k < NKEYS ? keys[k].name : NULL;
}

static int key_index(const char *name)
{
    for (int k = 0; k < NKEYS; k++)
        if (!strcmp(keys[k].name, name)) return k;
    return -1;
}

int sweep_config_given(const sweep_config *c, const char *key)
{
    int k = key_index(key);
    return k >= 0 && c->seen[k];
}

/* A number of key k within its range, as its row says. */
static int set_number(const sweep_key *k, const char *v, const char *where, double *x)
{
    if (!to_num(v, x)) return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a number", where, k->name, v);
    if (*x < k->lo || (k->open && *x == k->lo) || *x > k->hi)
        return rbd_fail(RBD_EINVAL, "%s: %s: %s is out of range %c%.15g, %.15g]", where, k->name, v, k->open ? '(' : '[',
                        k->lo, k->hi);
    if (k->type == T_INT && *x != floor(*x))
        return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a whole number", where, k->name, v);
    return RBD_OK;
}

static int set_value(sweep_config *c, const sweep_key *k, const char *v, const char *where)
{
    char *f = (char *)c + k->at;
    int *count = (int *)((char *)c + k->count);
    double x = 0;
    int rc;
    switch (k->type) {
    case T_NUM:
        if (!(rc = set_number(k, v, where, &x))) *(double *)f = x;
        return rc;
    case T_INT:
        if (!(rc = set_number(k, v, where, &x))) *(int *)f = (int)x;
        return rc;
    case T_YESNO:
        if (!strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "true")) { *(int *)f = 1; return RBD_OK; }
        if (!strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "false")) { *(int *)f = 0; return RBD_OK; }
        return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not yes or no", where, k->name, v);
    case T_INTS:
        free(*(int **)f);
        return parse_int_list(v, where, k->name, (int)k->lo, (int **)f, count);
    case T_NUMS:
        free(*(double **)f);
        return parse_num_list(v, where, k->name, k->lo, (double **)f, count);
    case T_SPECS:
        if (strncmp(v, "urdf:", 5) && strncmp(v, "autotree:", 9))
            return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a model spec (urdf:PATH[,OPTION]... or "
                            "autotree:N=..,bf=..)", where, k->name, v);
        return push_str((char ***)f, count, v);
    case T_TEXT:
        free(*(char **)f);
        return (*(char **)f = strdup(v)) ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
    case T_SET: return k->set(c, v, where);
    }
    return RBD_OK;
}

int sweep_config_set(sweep_config *c, const char *key, const char *v, const char *where)
{
    int k = key_index(key);
    if (k < 0) {
        char valid[768];
        size_t used = 0;
        for (int j = 0; j < NKEYS; j++)
            used += (size_t)snprintf(valid + used, sizeof valid - used, "%s%s", j ? ", " : "", keys[j].name);
        return rbd_fail(RBD_EPARSE, "%s: unknown key '%s' (valid: %s)", where, key, valid);
    }
    if (!keys[k].repeatable && c->seen[k]) return rbd_fail(RBD_EPARSE, "%s: key '%s' given twice", where, key);
    c->seen[k] = 1;
    if (!*v) return rbd_fail(RBD_EPARSE, "%s: %s: no value", where, key);
    /* a value's bytes by the one rule (model/text.h): no control byte; the
     * lists and numbers say more themselves */
    int col;
    char why[48];
    if (rbd_text_line_bytes(v, strlen(v), &col, why, sizeof why))
        return rbd_fail(RBD_EPARSE, "%s: %s: a %s at byte %d of the value", where, key, why, col);
    return set_value(c, &keys[k], v, where);
}

void sweep_config_allow_override(sweep_config *c)
{
    memset(c->seen, 0, sizeof c->seen);
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
        int col;
        char why[48];
        if (line == 1 && !strncmp(buf, "\xef\xbb\xbf", 3)) {
            rc = rbd_fail(RBD_EPARSE, "%s: a UTF-8 byte-order mark before the first key (save the file without one)",
                          where);
            break;
        }
        if (rbd_text_line_bytes(buf, (size_t)len, &col, why, sizeof why)) {
            rc = rbd_fail(RBD_EPARSE, "%s: %s in a text file (column %d)", where, why, col);
            break;
        }
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
    if (key < 0 || key >= NKEYS) return rbd_fail(RBD_EINVAL, "sweep_config_flag: no key %d", key);
    snprintf(name, sizeof name, "%s", keys[key].name);
    snprintf(flag, sizeof flag, "--%s", name);
    for (char *p = flag; *p; p++)
        if (*p == '_') *p = '-';
    return sweep_config_set(c, name, value, flag);
}

struct option *sweep_options(const struct option *extra, int nextra)
{
    int nk = NKEYS;
    struct option *o = calloc((size_t)(nk + nextra + 1), sizeof *o);
    static char names[NKEYS][32];
    if (!o) return NULL;
    for (int k = 0; k < nk; k++) {
        snprintf(names[k], sizeof names[k], "%s", keys[k].name);
        for (char *p = names[k]; *p; p++)
            if (*p == '_') *p = '-';
        o[k].name = names[k];
        o[k].has_arg = required_argument;
        o[k].val = SWEEP_OPT_BASE + k;
    }
    for (int k = 0; k < nextra; k++) o[nk + k] = extra[k];
    return o;
}
