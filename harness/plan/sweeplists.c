/*
 * The lists of a sweep config and of the flags (N, bf, methods, robots,
 * peers, robot_methods): one reader, model/text.h's list rule, for every
 * one of them, so that what one refuses (an empty item, a control byte, an
 * over-long item, a name given twice) the others refuse too (issue 30).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/text.h"
#include "rbdiff/method.h"
#include "plan/modelspec.h"
#include "peers/peer.h"
#include "plan/sweepconf.h"
#include "plan/sweeplists.h"

/* More entries than anyone sweeps: a range such as 1:1000000000 is a typo,
 * refused before it fills memory (found by fuzz_sweepconf). */
#define SWEEP_LIST_MAX 100000

int sweep_list_fail(const char *why, const char *where, const char *key, const char *v)
{
    int cut = strlen(v) > 120;
    return rbd_fail(RBD_EPARSE, "%s: %s: '%.*s%s': %s", where, key, 120, v, cut ? "..." : "", why);
}

void sweep_strs_free(char **s, int n)
{
    for (int k = 0; k < n; k++) free(s[k]);
    free(s);
}

int sweep_list_items(const char *v, const char *where, const char *key, int flags, char ***out, int *n)
{
    int paths = flags & SWEEP_LIST_PATHS;
    *out = NULL;
    *n = 0;
    rbd_text_list l;
    rbd_text_list_begin(&l, v, ",", 1, paths, paths ? SWEEP_PATH_MAX : SWEEP_NAME_MAX);
    const char *item;
    size_t len;
    int rc;
    while ((rc = rbd_text_list_next(&l, &item, &len)) == 1) {
        if (!(flags & SWEEP_LIST_REPEATS) && rbd_text_list_repeat(&l, item, len, (const char *const *)*out, *n)) {
            rc = RBD_EPARSE;
            break;
        }
        if (*n >= SWEEP_LIST_MAX) {
            snprintf(l.why, sizeof l.why, "more than %d items", SWEEP_LIST_MAX);
            rc = RBD_EPARSE;
            break;
        }
        char **p = realloc(*out, sizeof *p * (size_t)(*n + 1));
        if (!p) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        *out = p;
        if (!(p[*n] = strndup(item, len))) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        (*n)++;
    }
    if (rc == RBD_EPARSE) rc = sweep_list_fail(l.why, where, key, v);
    else if (!rc && !*n) rc = rbd_fail(RBD_EPARSE, "%s: %s: empty list", where, key);
    if (rc) { sweep_strs_free(*out, *n); *out = NULL; *n = 0; }
    return rc;
}

static int to_num(const char *tok, double *x)
{
    *x = NAN;
    return rbd_text_number(tok, strlen(tok), x) == RBD_OK;     /* the one rule (model/text.h) */
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A value given twice ("1, 2, 1", "1:5, 3") would be measured twice and
 * its rows collide at the end of the run: refused now, in O(n log n). */
static int check_repeats(const double *x, int n, const char *where, const char *key, const char *v)
{
    double *s = malloc(sizeof *s * (size_t)(n ? n : 1));
    if (!s) return rbd_fail(RBD_ENOMEM, "out of memory");
    memcpy(s, x, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    int rc = RBD_OK;
    for (int k = 1; k < n && !rc; k++)
        if (s[k] == s[k - 1]) {
            char why[64];
            snprintf(why, sizeof why, "%g is given twice", s[k]);
            rc = sweep_list_fail(why, where, key, v);
        }
    free(s);
    return rc;
}

/* One item A, A:B or A:STEP:B of a list of whole numbers into a[], k parts. */
static int range_parts(char *tok, const char *where, const char *key, double a[3], int *k)
{
    int colons = 0;
    for (const char *q = tok; *q; q++) colons += *q == ':';
    if (colons > 2) return rbd_fail(RBD_EPARSE, "%s: %s: '%s': bad range (use A:B or A:STEP:B)", where, key, tok);
    /* every part must be there: "1::5" or "1:" is a typo, not 1:5 or 1 */
    *k = 0;
    for (char *part = tok, *colon; *k <= colons; part = colon + 1) {
        colon = strchr(part, ':');
        if (colon) *colon = 0;
        if (!to_num(part, &a[*k]) || a[*k] != floor(a[*k]) || fabs(a[*k]) > 1e9)
            return rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a whole number%s", where, key, part,
                            colons ? " (use A:B or A:STEP:B)" : "");
        (*k)++;
        if (!colon) break;
    }
    return RBD_OK;
}

int parse_int_list(const char *s, const char *where, const char *key, int min, int **out, int *n)
{
    *out = NULL;
    *n = 0;
    char **items;
    int nitems, rc = sweep_list_items(s, where, key, 0, &items, &nitems);
    if (rc) return rc;
    double *all = NULL;
    int cap = 0;
    for (int t = 0; t < nitems && !rc; t++) {
        double a[3] = { 0, 0, 0 };
        int k = 1;
        if ((rc = range_parts(items[t], where, key, a, &k))) break;
        double lo = a[0], step = k == 3 ? a[1] : 1, hi = a[k - 1];
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
            if (v < min) { rc = rbd_fail(RBD_EINVAL, "%s: %s: %g is out of range (%s >= %d)", where, key, v, key, min); break; }
            if (*n == cap) {     /* geometric growth: 10^5 entries one by one copied O(n^2) bytes */
                cap = cap ? 2 * cap : 16;
                double *p = realloc(all, sizeof *p * (size_t)cap);
                if (!p) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
                all = p;
            }
            all[(*n)++] = v;
        }
    }
    sweep_strs_free(items, nitems);
    if (!rc) rc = check_repeats(all, *n, where, key, s);
    if (!rc && !(*out = malloc(sizeof **out * (size_t)*n))) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = 0; !rc && k < *n; k++) (*out)[k] = (int)all[k];
    free(all);
    if (rc) { free(*out); *out = NULL; *n = 0; }
    return rc;
}

int parse_num_list(const char *s, const char *where, const char *key, double min, double **out, int *n)
{
    *out = NULL;
    *n = 0;
    char **items;
    int nitems, rc = sweep_list_items(s, where, key, 0, &items, &nitems);
    if (rc) return rc;
    double *x = malloc(sizeof *x * (size_t)nitems);
    if (!x) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = 0; k < nitems && !rc; k++) {
        if (!to_num(items[k], &x[k])) rc = rbd_fail(RBD_EPARSE, "%s: %s: '%s' is not a number", where, key, items[k]);
        else if (x[k] < min)
            rc = rbd_fail(RBD_EINVAL, "%s: %s: %s is out of range (%s >= %g)", where, key, items[k], key, min);
    }
    if (!rc) rc = check_repeats(x, nitems, where, key, s);
    sweep_strs_free(items, nitems);
    if (rc) { free(x); return rc; }
    *out = x;
    *n = nitems;
    return RBD_OK;
}

static int unknown_method(const char *where, const char *key, const char *name, const char *also)
{
    char valid[2048];
    valid_method_names(valid, sizeof valid);
    return rbd_fail(RBD_EINVAL, "%s: %s: unknown method '%s' (valid: %s%s)", where, key, name,
                    *valid ? valid : "none registered", also);
}

int sweep_set_methods(sweep_config *c, const char *v, const char *where)
{
    sweep_strs_free(c->methods, c->nmethods);
    c->methods = NULL;
    c->nmethods = 0;
    if (!strcmp(v, "all")) return RBD_OK;
    char **items;
    int n, rc = sweep_list_items(v, where, "methods", 0, &items, &n);
    for (int k = 0; !rc && k < n; k++)
        if (!known_method_name(items[k])) rc = unknown_method(where, "methods", items[k], "");
    if (rc) { sweep_strs_free(items, n); return rc; }
    c->methods = items;
    c->nmethods = n;
    return RBD_OK;
}

/* so_methods = all | none | idsva-so, fdsva-so, ...: second-order methods
 * only (a first-order one belongs in methods). */
int sweep_set_so_methods(sweep_config *c, const char *v, const char *where)
{
    sweep_strs_free(c->so_methods, c->nso_methods);
    c->so_methods = NULL;
    c->nso_methods = 0;
    if (!strcmp(v, "none")) return RBD_OK;
    char **items = NULL;
    int n = 0, rc = RBD_OK;
    if (!strcmp(v, "all")) {
        while (rbd_so_methods[n]) n++;
        if (!(items = calloc((size_t)n + 1, sizeof *items))) return rbd_fail(RBD_ENOMEM, "out of memory");
        for (int k = 0; !rc && k < n; k++)
            if (!(items[k] = strdup(rbd_so_methods[k]->name))) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    } else {
        rc = sweep_list_items(v, where, "so_methods", 0, &items, &n);
    }
    for (int k = 0; !rc && k < n; k++) {
        const rbd_method *m = rbd_method_find(items[k]);
        if (m && rbd_output_order(m->output) == 2) continue;
        char valid[512];
        size_t used = 0;
        for (int j = 0; rbd_so_methods[j]; j++)
            used += (size_t)snprintf(valid + used, used < sizeof valid ? sizeof valid - used : 0, "%s%s",
                                     j ? ", " : "", rbd_so_methods[j]->name);
        rc = rbd_fail(RBD_EINVAL, "%s: so_methods: '%s' is not a second-order method (valid: %s, all, none)", where,
                      items[k], valid);
    }
    if (rc) { sweep_strs_free(items, n); return rc; }
    c->so_methods = items;
    c->nso_methods = n;
    return RBD_OK;
}

/* robot_methods = idsva, pin26, pinocchio.computeRNEADerivatives, ...: a
 * registered name, or a peer's function (PEER.FUNCTION, checked by the
 * sweep once the peers are open; a PEER without @VERSION names the function
 * of every version timed). */
int sweep_set_robot_methods(sweep_config *c, const char *v, const char *where)
{
    sweep_strs_free(c->robot_methods, c->nrobot_methods);
    c->robot_methods = NULL;
    c->nrobot_methods = 0;
    char **items;
    int n, rc = sweep_list_items(v, where, "robot_methods", 0, &items, &n);
    for (int k = 0; !rc && k < n; k++)
        if (!known_method_name(items[k]) && !strchr(items[k], '.'))
            rc = unknown_method(where, "robot_methods", items[k], ", or PEER.FUNCTION");
    if (rc) { sweep_strs_free(items, n); return rc; }
    c->robot_methods = items;
    c->nrobot_methods = n;
    return RBD_OK;
}

/* Whether text (a robots token: [urdf:]PATH[:OPTION]...) names a file. */
static int names_file(const char *text, size_t len)
{
    char p[SWEEP_PATH_MAX + 8];
    if (len >= sizeof p) return 0;
    memcpy(p, text, len);
    p[len] = 0;
    const char *path = strncmp(p, "urdf:", 5) ? p : p + 5;
    if (access(path, F_OK) == 0) return 1;
    char *slash = strrchr(p, '/'), *colon = strchr(slash ? slash : p, ':');   /* PATH:freeflyer */
    if (colon && colon > path) *colon = 0;
    return colon && access(path, F_OK) == 0;
}

/* A list splits at ',' and blanks, so a path holding them (a,b/ur5.urdf)
 * arrives as several items, and the first failed later as "cannot open"
 * naming a piece the user never wrote.  When items k..j, as they stand in
 * v, name a file, that is said instead, with the way to give it. */
static int split_path(const char *v, char *const *items, int n, const char *where)
{
    const char *at = v, *start[64];
    int m = n < 64 ? n : 64;
    for (int k = 0; k < m; k++) {
        start[k] = strstr(at, items[k]);          /* items are v's pieces, in order */
        if (!start[k]) return RBD_OK;
        at = start[k] + strlen(items[k]);
    }
    for (int k = 0; k + 1 < m; k++) {
        if (names_file(items[k], strlen(items[k]))) continue;
        for (int j = k + 1; j < m && j < k + 8; j++) {
            size_t len = (size_t)(start[j] - start[k]) + strlen(items[j]);
            if (names_file(start[k], len))
                return rbd_fail(RBD_EPARSE, "%s: robots: '%.*s' is one path holding ',' or a blank, which separate "
                                "the list's items: give it as --model urdf:PATH[,OPTION]... (a config's model = "
                                "urdf:PATH), which takes the spec whole", where, (int)len, start[k]);
        }
    }
    return RBD_OK;
}

/* robots = ur5, hyq:freeflyer, urdf:PATH, ... (modelspec.h): two tokens
 * that name one model (ur5 and urdf:tests/models/ur5.urdf) are one robot
 * given twice. */
int sweep_set_robots(sweep_config *c, const char *v, const char *where)
{
    sweep_strs_free(c->robots, c->nrobots);
    c->robots = NULL;
    c->nrobots = 0;
    char **items;
    int n, rc = sweep_list_items(v, where, "robots", SWEEP_LIST_PATHS | SWEEP_LIST_REPEATS, &items, &n);
    if (!rc) rc = split_path(v, items, n, where);
    for (int k = 0; !rc && k < n; k++) {
        char spec[SWEEP_PATH_MAX + 600];
        if (robot_spec(items[k], spec, sizeof spec)) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", rbd_last_error());   /* rbd_fail formats into that buffer */
            rc = rbd_fail(RBD_EPARSE, "%s: %s", where, msg);
            break;
        }
        free(items[k]);
        if (!(items[k] = strdup(spec))) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        for (int j = 0; j < k && !rc; j++)
            if (!strcmp(items[j], spec)) rc = rbd_fail(RBD_EINVAL, "%s: robots: '%s' is given twice", where, spec);
    }
    if (rc) { sweep_strs_free(items, n); return rc; }
    c->robots = items;
    c->nrobots = n;
    return RBD_OK;
}

/* peers = none | all | NAME[@VERSION], ... (peer.h): a bare NAME is the
 * newest version built, all every version of every peer ("NAME@*", expanded
 * by bench_peers_open once the modules are looked for). */
int sweep_set_peers(sweep_config *c, const char *v, const char *where)
{
    sweep_strs_free(c->peers, c->npeers);
    c->peers = NULL;
    c->npeers = 0;
    c->peers_named = 0;
    if (!strcmp(v, "none")) return RBD_OK;
    if (!strcmp(v, "all")) {
        int n = 0;
        while (peer_known[n]) n++;
        if (!(c->peers = calloc((size_t)n, sizeof *c->peers))) return rbd_fail(RBD_ENOMEM, "out of memory");
        for (; c->npeers < n; c->npeers++) {
            char tok[64];
            snprintf(tok, sizeof tok, "%s@*", peer_known[c->npeers]);
            if (!(c->peers[c->npeers] = strdup(tok))) return rbd_fail(RBD_ENOMEM, "out of memory");
        }
        return RBD_OK;
    }
    char **items;
    int n, rc = sweep_list_items(v, where, "peers", 0, &items, &n);
    for (int k = 0; !rc && k < n; k++) {
        peer_name pn;
        if (peer_name_parse(items[k], &pn) || pn.func)
            rc = rbd_fail(RBD_EINVAL, "%s: peers: unknown peer '%s' (valid: pinocchio, mujoco, NAME@VERSION such as "
                          "pinocchio@4.1.0, all, none)", where, items[k]);
    }
    if (rc) { sweep_strs_free(items, n); return rc; }
    c->peers = items;
    c->npeers = n;
    c->peers_named = 1;
    return RBD_OK;
}
