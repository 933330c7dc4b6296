/* The checks of a results set before a run adds to it (resume.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "rbdiff/rbd.h"
#include "store/meta.h"
#include "store/results.h"
#include "store/resume.h"

json_t *resume_settings(const sweep_config *c)
{
    return json_pack("{s:I, s:i, s:i, s:f, s:f, s:i, s:i, s:b, s:o}", "seed", (json_int_t)c->seed, "pool", c->pool,
                     "batches", c->batches, "batch_ms", c->batch_ms, "warmup_ms", c->warmup_ms, "pin_cpu", c->pin,
                     "blas_threads", c->blas_threads, "counters", c->counters, "method_options",
                     meta_method_options(c));
}

/* A table of a results set, plain or packed, is in dir. */
static int has_table(const char *dir)
{
    char p[4200];
    for (const results_table *t = results_tables; t->file; t++) {
        snprintf(p, sizeof p, "%s/%s", dir, t->file);
        if (access(p, F_OK) == 0) return 1;
        snprintf(p, sizeof p, "%s/%s.gz", dir, t->file);
        if (access(p, F_OK) == 0) return 1;
    }
    return 0;
}

/* Whether dir/file (or its packed .gz: gzread reads a plain file as it
 * is) holds a line after its header. */
static int has_rows(const char *dir, const char *file)
{
    char p[4200], buf[4096];
    int lines = 0, rows = 0;
    for (int gz = 0; gz < 2 && !rows; gz++) {
        snprintf(p, sizeof p, "%s/%s%s", dir, file, gz ? ".gz" : "");
        gzFile z = access(p, F_OK) == 0 ? gzopen(p, "rb") : NULL;
        if (!z) continue;
        for (lines = 0; !rows && gzgets(z, buf, sizeof buf);) {
            if (lines && buf[0] != '\n') rows = 1;
            if (strchr(buf, '\n')) lines++;
        }
        gzclose(z);
    }
    return rows;
}

/* The tables whose rows a recorded setting shapes: the audit's settings
 * the audit's tables, every other setting the timed ones. */
static const char *shaped_by(const char *dir, const char *top)
{
    static const char *const audit[] = { ACCURACY_CSV, CONDITIONING_CSV, PEER_EPS_CSV, NULL };
    static const char *const timed[] = { TIMINGS_CSV, CROSSOVER_CSV, NULL };
    const char *const *t = strcmp(top, "accuracy_settings") ? timed : audit;
    for (; *t; t++)
        if (has_rows(dir, *t)) return *t;
    return NULL;
}

/* Equal as settings: numbers by value (an int stored as a real), else JSON equality. */
static int same_value(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) return json_number_value(a) == json_number_value(b);
    return json_equal((json_t *)a, (json_t *)b);
}

/* printf into the end of buf, after ", " when buf holds something. */
__attribute__((format(printf, 3, 4))) static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t n = strlen(buf);
    if (n && n + 2 < len) { memcpy(buf + n, ", ", 3); n += 2; }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
}

/* Appends "key = VALUE (the set has OLD)" to diff for each setting that
 * differs, method_options and accuracy_settings compared one entry at a
 * time.  A setting the set does not record (written before it was, or by
 * hand) is adopted when the tables it shapes hold no row, else appended to
 * unknown as "key (TABLE has rows)": those rows' value is not known. */
static void differences(const json_t *old, const json_t *now, const char *prefix, const char *dir, char *diff,
                        char *unknown, size_t len)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)now, key, v) {
        char name[160];
        snprintf(name, sizeof name, "%s%s%s", prefix ? prefix : "", prefix ? "." : "", key);
        const json_t *o = json_object_get(old, key);
        if (!o) {
            char top[160];
            snprintf(top, sizeof top, "%.*s", (int)strcspn(name, "."), name);
            const char *t = shaped_by(dir, top);
            if (t) append(unknown, len, "%s (%s/%s has rows)", name, dir, t);
            continue;
        }
        if (json_is_object(v) && json_is_object(o)) {     /* accuracy_settings.states, method_options.minv */
            differences(o, v, name, dir, diff, unknown, len);
            continue;
        }
        if (same_value(o, v)) continue;
        char *a = json_dumps(v, JSON_ENCODE_ANY), *b = json_dumps(o, JSON_ENCODE_ANY);
        append(diff, len, "%s = %s (the set has %s)", name, a ? a : "?", b ? b : "?");
        free(a);
        free(b);
    }
}

int resume_check(const char *dir, const json_t *settings)
{
    char *path = results_path(dir, "meta.json");
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    if (access(path, F_OK) != 0) {
        if (has_table(dir))
            rc = rbd_fail(RBD_EINVAL, "%s holds results but no meta.json: not a set rbdiff wrote whole; "
                          "resuming would adopt rows of unknown settings: use a new --out DIR", dir);
        free(path);
        return rc ? rc : results_check_tables(dir);
    }
    json_error_t err;
    json_t *old = json_load_file(path, 0, &err);
    const char *id = json_string_value(json_object_get(old, "build_id"));
    if (!old)
        rc = rbd_fail(RBD_EPARSE, "%s:%d: not JSON (%s): a set to resume must have a readable meta.json", path,
                      err.line, err.text);
    else if (!json_is_object(old) || !id)
        rc = rbd_fail(RBD_EPARSE, "%s: no build_id: not a meta.json rbdiff wrote", path);
    else if (strcmp(id, meta_build_id()))
        rc = rbd_fail(RBD_EINVAL, "%s holds timings of another build ('%s', this is '%s'); resuming would mix them: "
                      "use a new --out DIR", dir, id, meta_build_id());
    else if (settings) {
        char diff[2048] = "", unknown[2048] = "";
        differences(old, settings, NULL, dir, diff, unknown, sizeof diff);
        if (*diff)
            rc = rbd_fail(RBD_EINVAL, "%s was measured with other settings than this run's: %s; resuming would "
                          "mix them in one set: rerun with the set's settings or use a new --out DIR", dir, diff);
        else if (*unknown)
            rc = rbd_fail(RBD_EINVAL, "%s records no %s: rows measured with settings it does not say; resuming "
                          "would mix this run's rows with them under this run's settings: use a new --out DIR",
                          path, unknown);
    }
    json_decref(old);
    free(path);
    return rc ? rc : results_check_tables(dir);
}

int resume_open(results_lock *lk, const char *dir, const char *cmdline, const json_t *settings, int *bad_input)
{
    int rc = results_lock_take(lk, dir, cmdline);
    *bad_input = rc == RBD_EINVAL;
    if (rc) return rc;
    /* a place that cannot hold the set (read-only, a file in the way) is
     * the --out given: refused as input (atomicio.h write_place_code) */
    if ((rc = results_prepare_dir(dir))) { *bad_input = rc == RBD_EINVAL; return rc; }
    rc = resume_check(dir, settings);
    *bad_input = rc && rc != RBD_ENOMEM;
    return rc;
}
