/* The checks of a results set before a run adds to it (resume.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

/* Equal as settings: numbers by value (an int stored as a real), else JSON equality. */
static int same_value(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) return json_number_value(a) == json_number_value(b);
    return json_equal((json_t *)a, (json_t *)b);
}

/* Appends "key VALUE (DIR has OLD)" to buf for each setting that differs;
 * method_options compared one option at a time. */
static void differences(const json_t *old, const json_t *now, const char *prefix, char *buf, size_t len)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)now, key, v) {
        const json_t *o = json_object_get(old, key);
        if (!o) continue;       /* a set written before the setting was recorded */
        if (json_is_object(v) && json_is_object(o)) {     /* accuracy_settings.states, method_options.minv */
            char inner[128];
            snprintf(inner, sizeof inner, "%s%s%s", prefix ? prefix : "", prefix ? "." : "", key);
            differences(o, v, inner, buf, len);
            continue;
        }
        if (same_value(o, v)) continue;
        char *a = json_dumps(v, JSON_ENCODE_ANY), *b = json_dumps(o, JSON_ENCODE_ANY);
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s%s%s = %s (the set has %s)", n ? ", " : "", prefix ? prefix : "",
                 prefix ? "." : "", key, a ? a : "?", b ? b : "?");
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
        char diff[2048] = "";
        differences(old, settings, NULL, diff, sizeof diff);
        if (*diff)
            rc = rbd_fail(RBD_EINVAL, "%s was measured with other settings than this run's: %s; resuming would "
                          "mix them in one set: rerun with the set's settings or use a new --out DIR", dir, diff);
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
    if ((rc = results_prepare_dir(dir))) return rc;
    rc = resume_check(dir, settings);
    *bad_input = rc && rc != RBD_ENOMEM;
    return rc;
}
