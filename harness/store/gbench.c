/*
 * Google Benchmark's JSON format (benchmark/docs/user_guide.md, "Output
 * Formats"), so its compare.py and other tools read rbdiff runs: a "context"
 * object and a "benchmarks" array with, per measurement, one "iteration"
 * entry per timed batch (real_time = its ns per call; the median when the
 * batches are not known; iterations = calls per batch,
 * repetitions = batches, user counters instructions/cycles) followed by
 * "aggregate" entries median, min, q1 and q3.  Reading accepts any
 * Google Benchmark output: aggregates when present, else the repetitions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/gbench.h"
#include "store/results.h"
#include "common/stats.h"

static json_t *context(const char *cmdline)
{
    char host[256] = "unknown", date[64];
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", &tm);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    return json_pack("{s:s, s:s, s:s, s:I, s:b, s:[], s:s, s:s}", "date", date, "host_name", host, "executable",
                     "rbdiff", "num_cpus", (json_int_t)ncpu, "cpu_scaling_enabled", 0, "caches",
                     "library_build_type", "release", "rbdiff_command_line", cmdline ? cmdline : "");
}

static json_t *entry(const char *name, const char *run_type, const char *agg, const timing_row *r, double t,
                     json_int_t iterations)
{
    json_t *e = json_object();
    json_object_set_new(e, "name", json_string(name));
    json_object_set_new(e, "run_name", json_string(name));
    json_object_set_new(e, "run_type", json_string(run_type));
    json_object_set_new(e, "repetitions", json_integer(r->batches));
    json_object_set_new(e, "threads", json_integer(1));
    if (agg) {
        json_object_set_new(e, "aggregate_name", json_string(agg));
        json_object_set_new(e, "aggregate_unit", json_string("time"));
    } else {
        json_object_set_new(e, "repetition_index", json_integer(0));
    }
    json_object_set_new(e, "iterations", json_integer(iterations));
    json_object_set_new(e, "real_time", json_real(t));
    json_object_set_new(e, "cpu_time", json_real(t));
    json_object_set_new(e, "time_unit", json_string("ns"));
    if (isfinite(r->instructions)) json_object_set_new(e, "instructions", json_real(r->instructions));
    if (isfinite(r->cycles)) json_object_set_new(e, "cycles", json_real(r->cycles));
    if (isfinite(r->fp_ops)) json_object_set_new(e, "fp_ops", json_real(r->fp_ops));
    if (isfinite(r->flops)) json_object_set_new(e, "flops", json_real(r->flops));
    return e;
}

/* j as JSON_INDENT(2) would print it at nesting depth `depth` of the whole
 * document: every line after the first indented by 2 depth spaces. */
static int dump_nested(FILE *f, const json_t *j, int depth)
{
    char *t = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    if (!t) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (const char *c = t; *c; c++) {
        fputc(*c, f);
        if (*c == '\n') fprintf(f, "%*s", 2 * depth, "");
    }
    free(t);
    return RBD_OK;
}

/* One row's entries: an iteration per timed batch when its samples are
 * known (repetitions, so a reader can rank-test them), else the median;
 * then the aggregates median, min, q1 and q3. */
static int write_row(FILE *f, const timing_row *r, int k, int *first)
{
    char name[700], agg[720];
    timing_row_name(r, name, sizeof name);
    int nit = r->nsamples > 0 ? r->nsamples : 1, rc = RBD_OK;
    static const char *an[] = { "median", "min", "q1", "q3" };
    double av[] = { r->median_ns, r->min_ns, r->q1_ns, r->q3_ns };
    for (int b = 0; b < nit + 4 && !rc; b++) {
        json_t *e;
        if (b < nit) {
            e = entry(name, "iteration", NULL, r, r->nsamples ? r->samples[b] : r->median_ns, r->calls_per_batch);
            json_object_set_new(e, "repetition_index", json_integer(b));
        } else {
            snprintf(agg, sizeof agg, "%s_%s", name, an[b - nit]);
            e = entry(agg, "aggregate", an[b - nit], r, av[b - nit], r->batches);
            json_object_set_new(e, "run_name", json_string(name));
        }
        json_object_set_new(e, "family_index", json_integer(k));
        json_object_set_new(e, "per_family_instance_index", json_integer(0));
        fputs(*first ? "\n    " : ",\n    ", f);
        *first = 0;
        rc = dump_nested(f, e, 2);
        json_decref(e);
    }
    return rc;
}

typedef struct {
    const timing_row *rows;
    int n;
    const char *cmdline;
} gbench_doc;

/* The document as json_dumpf printed the whole tree (the same bytes), one
 * entry at a time: 10^5 rows of 11 batches are 1.5 million entries, which
 * as one tree took seconds to build and free, with no point at which a
 * Ctrl-C was looked at (merge, pack --unpack). */
static int write_doc(FILE *f, void *ctx)
{
    const gbench_doc *d = ctx;
    json_t *c = context(d->cmdline);
    fputs("{\n  \"context\": ", f);
    int rc = c ? dump_nested(f, c, 1) : rbd_fail(RBD_ENOMEM, "out of memory");
    json_decref(c);
    fputs(",\n  \"benchmarks\": [", f);
    int first = 1;
    for (int k = 0; k < d->n && !rc; k++) {
        if (atomic_stopped()) return rbd_fail(RBD_EIO, "interrupted");
        rc = write_row(f, &d->rows[k], k, &first);
    }
    fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
    return rc;
}

int gbench_write(const char *path, const timing_row *rows, int n, const char *cmdline)
{
    gbench_doc d = { rows, n, cmdline };
    return atomic_write(path, write_doc, &d);
}

typedef struct {
    char name[700];
    timing_row row;
    double *samples;
    int ns, cap;
    int have_median, have_min, have_q1, have_q3;
} acc;

static double unit_scale(const char *u)
{
    if (!u || !strcmp(u, "ns")) return 1;
    if (!strcmp(u, "us")) return 1e3;
    if (!strcmp(u, "ms")) return 1e6;
    if (!strcmp(u, "s")) return 1e9;
    return -1;
}

/* x's row completed from its runs: the statistics the aggregates did not
 * give, the samples, the IQR. */
static int finish_row(acc *x, const char *path)
{
    int rc = RBD_OK;
    if (x->ns) {
        double *scratch = malloc(sizeof(double) * (size_t)x->ns);
        rbd_stats st;
        if (!scratch) return rbd_fail(RBD_ENOMEM, "out of memory");
        if (!stats_compute(x->samples, x->ns, scratch, &st)) {
            if (!x->have_median) x->row.median_ns = st.median;
            if (!x->have_min) x->row.min_ns = st.min;
            x->row.nsamples = x->ns < RBD_MAX_SAMPLES ? x->ns : RBD_MAX_SAMPLES;
            memcpy(x->row.samples, x->samples, sizeof(double) * (size_t)x->row.nsamples);
            if (!x->have_q1) x->row.q1_ns = x->ns > 1 ? st.q1 : x->row.median_ns;
            if (!x->have_q3) x->row.q3_ns = x->ns > 1 ? st.q3 : x->row.median_ns;
        }
        free(scratch);
        if (!x->row.batches) x->row.batches = x->ns;
    } else if (!x->have_median) {
        rc = rbd_fail(RBD_EPARSE, "%s: benchmark '%s' has neither runs nor a median", path, x->row.method);
    }
    if (!x->have_q1 && !x->ns) x->row.q1_ns = x->row.median_ns;
    if (!x->have_q3 && !x->ns) x->row.q3_ns = x->row.median_ns;
    if (!x->have_min && !x->ns) x->row.min_ns = x->row.median_ns;
    x->row.iqr_ns = x->row.q3_ns - x->row.q1_ns;
    return rc;
}

int gbench_read(const char *path, timing_row **rows, int *n)
{
    *rows = NULL;
    *n = 0;
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    if (!root) return rbd_fail(RBD_EPARSE, "%s:%d: %s", path, err.line, err.text);
    json_t *list = json_object_get(root, "benchmarks");
    int rc = RBD_OK;
    if (!json_is_array(list)) {
        json_decref(root);
        return rbd_fail(RBD_EPARSE, "%s: no \"benchmarks\" array (not Google Benchmark JSON)", path);
    }
    size_t cnt = json_array_size(list);
    acc *a = calloc(cnt + 1, sizeof *a);
    int na = 0;
    if (!a) { json_decref(root); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (size_t k = 0; k < cnt && !rc; k++) {
        json_t *e = json_array_get(list, k);
        const char *name = json_string_value(json_object_get(e, "run_name"));
        if (!name) name = json_string_value(json_object_get(e, "name"));
        const char *type = json_string_value(json_object_get(e, "run_type"));
        json_t *rt = json_object_get(e, "real_time");
        double scale = unit_scale(json_string_value(json_object_get(e, "time_unit")));
        if (!name || !json_is_number(rt) || scale < 0) {
            rc = rbd_fail(RBD_EPARSE, "%s: benchmarks[%zu]: needs a name, a numeric real_time and a time_unit "
                          "of ns/us/ms/s", path, k);
            break;
        }
        double t = json_number_value(rt) * scale;
        int j;
        for (j = 0; j < na; j++)
            if (!strcmp(a[j].name, name)) break;
        if (j == na) {
            if ((rc = timing_row_parse_name(name, &a[na].row))) break;
            snprintf(a[na].name, sizeof a[na].name, "%s", name);
            strcpy(a[na].row.kind, "?");
            a[na].row.instructions = a[na].row.cycles = a[na].row.fp_ops = a[na].row.flops = NAN;
            na++;
        }
        acc *x = &a[j];
        json_t *ins = json_object_get(e, "instructions"), *cyc = json_object_get(e, "cycles");
        if (json_is_number(ins)) x->row.instructions = json_number_value(ins);
        if (json_is_number(cyc)) x->row.cycles = json_number_value(cyc);
        json_t *fpo = json_object_get(e, "fp_ops"), *fl = json_object_get(e, "flops");
        if (json_is_number(fpo)) x->row.fp_ops = json_number_value(fpo);
        if (json_is_number(fl)) x->row.flops = json_number_value(fl);
        if (type && !strcmp(type, "aggregate")) {
            const char *ag = json_string_value(json_object_get(e, "aggregate_name"));
            if (!ag) continue;
            if (!strcmp(ag, "median")) { x->row.median_ns = t; x->have_median = 1; }
            else if (!strcmp(ag, "min")) { x->row.min_ns = t; x->have_min = 1; }
            else if (!strcmp(ag, "q1")) { x->row.q1_ns = t; x->have_q1 = 1; }
            else if (!strcmp(ag, "q3")) { x->row.q3_ns = t; x->have_q3 = 1; }
            continue;
        }
        if (x->ns == x->cap) {
            int c2 = x->cap ? 2 * x->cap : 8;
            double *s = realloc(x->samples, sizeof *s * (size_t)c2);
            if (!s) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
            x->samples = s;
            x->cap = c2;
        }
        x->samples[x->ns++] = t;
        json_t *it = json_object_get(e, "iterations");
        if (json_is_integer(it)) x->row.calls_per_batch = (long)json_integer_value(it);
    }
    for (int j = 0; j < na && !rc; j++) rc = finish_row(&a[j], path);
    if (!rc) {
        *rows = malloc(sizeof **rows * (size_t)(na + 1));
        if (!*rows) rc = rbd_fail(RBD_ENOMEM, "out of memory");
        else for (int j = 0; j < na; j++) (*rows)[j] = a[j].row;
        *n = rc ? 0 : na;
    }
    for (int j = 0; j < na; j++) free(a[j].samples);
    free(a);
    json_decref(root);
    return rc;
}

/* ---------------------------------------------------------------- benchmark names */

/* skew and taper of an autotree spec (defaults 0 and 1). */
static void spec_skew_taper(const char *spec, double *skew, double *taper)
{
    *skew = 0;
    *taper = 1;
    const char *p;
    if ((p = strstr(spec, "skew="))) *skew = strtod(p + 5, NULL);
    if ((p = strstr(spec, "taper="))) *taper = strtod(p + 6, NULL);
}

void timing_row_name(const timing_row *r, char *buf, size_t len)
{
    if (!strncmp(r->model, "autotree:", 9) && isfinite(r->bf)) {
        double skew, taper;
        spec_skew_taper(r->model, &skew, &taper);
        int n = snprintf(buf, len, "%s/bf:%g/N:%d", r->method, r->bf, r->N);
        if ((skew != 0 || taper != 1) && n > 0 && (size_t)n < len)
            snprintf(buf + n, len - (size_t)n, "/skew:%g/taper:%g", skew, taper);
    } else {
        snprintf(buf, len, "%s/model:%s", r->method, r->model);
    }
}

int timing_row_parse_name(const char *name, timing_row *r)
{
    const char *slash = strchr(name, '/');
    size_t ml = slash ? (size_t)(slash - name) : strlen(name);
    if (ml >= sizeof r->method) return rbd_fail(RBD_EPARSE, "benchmark name '%s': method part too long", name);
    memcpy(r->method, name, ml);
    r->method[ml] = 0;
    r->bf = NAN;
    r->N = 0;
    if (!slash) { snprintf(r->model, sizeof r->model, "%s", name); return RBD_OK; }
    if (!strncmp(slash, "/model:", 7)) { snprintf(r->model, sizeof r->model, "%s", slash + 7); return RBD_OK; }
    double bf, skew = 0, taper = 1;
    int N, used = 0;
    if (sscanf(slash, "/bf:%lf/N:%d%n", &bf, &N, &used) == 2) {
        if (slash[used] && sscanf(slash + used, "/skew:%lf/taper:%lf", &skew, &taper) != 2)
            skew = 0, taper = 1;
        r->bf = bf;
        r->N = N;
        snprintf(r->model, sizeof r->model, "autotree:N=%d,bf=%g,skew=%g,taper=%g", N, bf, skew, taper);
        return RBD_OK;
    }
    /* Some other tool's benchmark: its name after the method is the model. */
    snprintf(r->model, sizeof r->model, "%s", slash + 1);
    return RBD_OK;
}
