/* Shard partition and the merge of shard results (shard.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/meta.h"
#include "store/results.h"
#include "store/shard.h"
#include "store/staging.h"

int shard_parse(const char *s, shard_spec *sh)
{
    int k, n, used = 0;
    if (sscanf(s, "%d/%d%n", &k, &n, &used) != 2 || s[used] || n < 1 || k < 1 || k > n)
        return rbd_fail(RBD_EINVAL, "--shard %s: expected K/N with 1 <= K <= N (e.g. 2/8)", s);
    sh->k = k;
    sh->n = n;
    return RBD_OK;
}

int shard_owns(const shard_spec *sh, long cell)
{
    return sh->n <= 1 || cell % sh->n == sh->k - 1;
}

/* ------------------------------------------------------------------ merge */


typedef struct {
    const results_table *kind;
    csvlog *in;             /* one per input dir (nrows 0 when absent) */
    int nin;
    const volatile sig_atomic_t *stop;     /* SIGINT: looked at every 1024 rows */
} table_join;

/* Every row of every input in order, the first of each key written: a key
 * index over the rows kept so far makes the join O(rows). */
static int write_join(FILE *f, void *p)
{
    const table_join *j = p;
    int total = 0;
    for (int d = 0; d < j->nin; d++) total += j->in[d].nrows;
    char ***kept = malloc(sizeof *kept * ((size_t)total + 1));
    csv_keyidx idx = { NULL, 0 };
    if (!kept) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int c = 0; c < j->kind->ncols; c++) {
        if (c) fputc(',', f);
        csv_write_field(f, j->kind->cols[c].name);
    }
    fputc('\n', f);
    int nkept = 0, rc = RBD_OK;
    for (int d = 0; d < j->nin && !rc; d++)
        for (int r = 0; r < j->in[d].nrows && !rc; r++) {
            char **row = j->in[d].rows[r];
            if (!(r & 1023) && j->stop && *j->stop) { rc = MERGE_INTERRUPTED; break; }
            if (csv_keyidx_find(&idx, kept, j->kind->nkey, (const char *const *)row) >= 0) continue;
            kept[nkept] = row;
            if ((rc = csv_keyidx_add(&idx, kept, j->kind->nkey, nkept))) break;
            nkept++;
            for (int c = 0; c < j->kind->ncols; c++) {
                if (c) fputc(',', f);
                csv_write_field(f, row[c]);
            }
            fputc('\n', f);
        }
    csv_keyidx_free(&idx);
    free(kept);
    if (rc) return rc;
    return ferror(f) ? rbd_fail(RBD_EIO, "write error") : RBD_OK;
}

/* Joins one table over the inputs into out; *present = 1 if any input has it. */
static int merge_table(const results_table *k, const char *out, char *const *dirs, int ndirs, int *present,
                       int *bad_input, const volatile sig_atomic_t *stop)
{
    table_join j = { k, calloc((size_t)ndirs, sizeof(csvlog)), ndirs, stop };
    if (!j.in) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    *present = 0;
    for (int d = 0; d < ndirs && !rc; d++) {
        char *p = results_path(dirs[d], k->file);
        if (stop && *stop) rc = MERGE_INTERRUPTED;
        else if (!p) rc = rbd_fail(RBD_ENOMEM, "out of memory");
        if (rc) { free(p); break; }
        if (csvlog_exists(p)) {
            *present = 1;
            rc = csvlog_read(&j.in[d], p, k->cols, k->ncols, k->nkey);
            *bad_input = rc != RBD_OK && rc != RBD_ENOMEM;
        }
        free(p);
    }
    if (!rc && *present) {
        char *p = results_path(out, k->file);
        rc = p ? atomic_write(p, write_join, &j) : rbd_fail(RBD_ENOMEM, "out of memory");
        free(p);
    }
    for (int d = 0; d < ndirs; d++) csvlog_close(&j.in[d]);
    free(j.in);
    return rc;
}

static json_t *load_meta(const char *dir)
{
    char *p = results_path(dir, "meta.json");
    json_t *m = p ? json_load_file(p, 0, NULL) : NULL;
    free(p);
    return m;
}

/* meta.json of the merged set: the first input's, with every input's
 * build, shard, host and invocations under "shards". */
static int write_merged_meta(const char *stage, json_t **meta, char *const *dirs, int ndirs, int force,
                             const char *cmdline)
{
    int rc;
    json_t *m = json_deep_copy(meta[0]), *shards = json_array();
    for (int d = 0; d < ndirs; d++) {
        json_t *s = json_pack("{s:o}", "dir", meta_json_text(dirs[d]));    /* a Latin-1 name too */
        static const char *keys[] = { "build_id", "shard", "date", "hostname", "compiler", "flags", "cpu_model",
                                      "git_commit", "invocations" };
        for (size_t q = 0; q < sizeof keys / sizeof *keys; q++) {
            json_t *v = json_object_get(meta[d], keys[q]);
            if (v) json_object_set(s, keys[q], v);
        }
        json_array_append_new(shards, s);
    }
    json_object_del(m, "shard");
    json_object_del(m, "invocations");
    json_object_set_new(m, "shards", shards);
    json_object_set_new(m, "merged_by", json_string(cmdline ? cmdline : ""));
    json_object_set_new(m, "merge_forced", json_boolean(force));
    char *mp = results_path(stage, "meta.json");
    rc = mp ? atomic_write_json(mp, m) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(mp);
    json_decref(m);
    return rc;
}

int merge_results(const char *out, char *const *dirs, int ndirs, int force, const char *cmdline, merge_derive_fn derive,
                  int *bad_input, const volatile sig_atomic_t *stop)
{
    *bad_input = 1;
    if (ndirs < 1) return rbd_fail(RBD_EINVAL, "merge: no input directories");
    csvlog_stop_on(stop);       /* Ctrl-C within 4096 lines of any table read (csvlog.h) */
    atomic_stop_on(stop);       /* and within a buffer of any file written (atomicio.h) */
    json_t **meta = calloc((size_t)ndirs, sizeof *meta);
    if (!meta) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    for (int d = 0; d < ndirs && !rc; d++) {
        struct stat st;
        if (stat(dirs[d], &st) != 0 || !S_ISDIR(st.st_mode))
            rc = rbd_fail(RBD_EIO, "merge: %s is not a results directory", dirs[d]);
        else if (!(meta[d] = load_meta(dirs[d])))
            rc = rbd_fail(RBD_EPARSE, "merge: %s/meta.json is missing or not JSON", dirs[d]);
    }
    /* shards of one sweep come from one binary; mixing builds would put
     * different compilers' numbers in one table */
    const char *id0 = rc ? NULL : json_string_value(json_object_get(meta[0], "build_id"));
    for (int d = 1; d < ndirs && !rc && !force; d++) {
        const char *id = json_string_value(json_object_get(meta[d], "build_id"));
        if (!id0 || !id || strcmp(id0, id))
            rc = rbd_fail(RBD_EINVAL, "merge: %s comes from build '%s' but %s from '%s'; use --force to merge anyway",
                          dirs[d], id ? id : "?", dirs[0], id0 ? id0 : "?");
    }
    char *tout = rc ? NULL : results_path(out, TIMINGS_CSV);
    if (!rc && !tout) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc && access(tout, F_OK) == 0)
        rc = rbd_fail(RBD_EINVAL, "merge: %s already exists; merge into a new directory", tout);
    /* everything is written into a staging directory beside out and swapped
     * in whole at the end (staging.h): a kill -9 or SIGINT at any moment
     * leaves out as it was.  It is made before the inputs are read, so that
     * an OUT beside which nothing can be made (its parent read-only) is
     * refused before the work (2, as a read-only OUT is) */
    results_stage st = { NULL, NULL };
    if (!rc && (rc = results_stage_begin(&st, out)) && rc != RBD_EINVAL) *bad_input = 0;
    if (!rc && (rc = results_prepare_dir(st.stage))) *bad_input = 0;     /* a full disk: found here too */
    /* every input table read once before anything is written: a malformed
     * one is refused without leaving OUT behind */
    int have_timings = 0;
    for (int k = 0; results_tables[k].file && !rc; k++)
        for (int d = 0; d < ndirs && !rc; d++) {
            if (stop && *stop) { rc = MERGE_INTERRUPTED; break; }
            char *p = results_path(dirs[d], results_tables[k].file);
            csvlog t;
            memset(&t, 0, sizeof t);
            if (!p) rc = rbd_fail(RBD_ENOMEM, "out of memory");
            else if (csvlog_exists(p)) {
                have_timings |= k == 0;
                rc = csvlog_read(&t, p, results_tables[k].cols, results_tables[k].ncols, results_tables[k].nkey);
                csvlog_close(&t);
            }
            free(p);
        }
    if (!rc && !have_timings) rc = rbd_fail(RBD_EINVAL, "merge: no input has a %s", TIMINGS_CSV);
    if (!rc) *bad_input = 0;   /* from here on a failure is the run's, unless an input table is malformed */
    const char *stage = st.stage;
    for (int k = 0; results_tables[k].file && !rc; k++) {
        int present = 0;
        rc = merge_table(&results_tables[k], stage, dirs, ndirs, &present, bad_input, stop);
        if (!rc && stop && *stop) rc = MERGE_INTERRUPTED;
    }
    if (!rc) {
        /* derived files from the merged table, as the sweep makes them */
        timing_row *rows = NULL;
        int n = 0;
        rc = timing_rows_load(stage, &rows, &n);
        if (!rc && stop && *stop) rc = MERGE_INTERRUPTED;
        if (!rc) rc = derive(stage, rows, n, cmdline);
        free(rows);
    }
    if (!rc) rc = write_merged_meta(stage, meta, dirs, ndirs, force, cmdline);
    if (stop && *stop) rc = MERGE_INTERRUPTED;      /* whatever stopped first, a read or a write */
    if (!rc) rc = results_stage_commit(&st);
    csvlog_stop_on(NULL);
    atomic_stop_on(NULL);
    results_stage_abort(&st);
    free(tout);
    for (int d = 0; d < ndirs; d++) json_decref(meta[d]);
    free(meta);
    if (rc == RBD_ENOMEM) *bad_input = 0;   /* the machine's, not the input's */
    return rc;
}
