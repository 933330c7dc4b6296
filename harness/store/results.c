/* Results directories and the timings.csv row format. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/gbench.h"
#include "store/results.h"

#define T timing_row
const csv_col timings_cols[TIMINGS_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("kind", T, kind), CSV_COL_STR("model", T, model),
    CSV_COL_OPTNUM("bf", T, bf, "%.17g"), CSV_COL_INT("N", T, N), CSV_COL_INT("nv", T, nv),
    /* %.6g: ns per call carries no more than a few significant digits */
    CSV_COL_NUM("median_ns", T, median_ns, "%.6g"), CSV_COL_NUM("min_ns", T, min_ns, "%.6g"),
    CSV_COL_NUM("q1_ns", T, q1_ns, "%.6g"), CSV_COL_NUM("q3_ns", T, q3_ns, "%.6g"),
    CSV_COL_NUM("iqr_ns", T, iqr_ns, "%.6g"), CSV_COL_INT("batches", T, batches),
    CSV_COL_INT("calls_per_batch", T, calls_per_batch), CSV_COL_OPTNUM("instructions", T, instructions, "%.6g"),
    CSV_COL_OPTNUM("cycles", T, cycles, "%.6g"), CSV_COL_OPTINT("nq", T, nq),
    CSV_COL_OPTNUM("fp_ops", T, fp_ops, "%.6g"), CSV_COL_OPTNUM("flops", T, flops, "%.10g"),
};
#undef T

#define T sample_row
const csv_col samples_cols[SAMPLES_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("kind", T, kind), CSV_COL_STR("model", T, model),
    CSV_COL_INT("batch", T, batch), CSV_COL_NUM("ns", T, ns, "%.6g"),
};
#undef T

#define T instruction_row
const csv_col instructions_cols[INSTRUCTIONS_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("model", T, model), CSV_COL_OPTNUM("bf", T, bf, "%.17g"),
    CSV_COL_INT("N", T, N), CSV_COL_INT("calls_lo", T, calls_lo), CSV_COL_INT("calls_hi", T, calls_hi),
    CSV_COL_NUM("instructions", T, instructions, "%.17g"), CSV_COL_STR("tool", T, tool),
};
#undef T

/* Errors to 4 digits; an unbounded one (a singular M) as DBL_MAX in full,
 * which rounded to 4 digits would read as inf. */
#define METRIC(name, T, f) { name, CSV_NUM, CSV_AT(T, f), "%.4g", CSV_NONNEG | CSV_DBLMAX }

/* Written by the accuracy audit: errors of one output of one method on one
 * model against the MPFR reference, over `states` random states (reference/README.md,
 * "Numbers that must mean the same everywhere"). */
#define T accuracy_row
const csv_col accuracy_cols[ACCURACY_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("output", T, output), CSV_COL_STR("model", T, model),
    CSV_COL_OPTNUM("bf", T, bf, "%.17g"), CSV_COL_INT("N", T, N), CSV_COL_INT("nv", T, nv),
    CSV_COL_INT("states", T, states), METRIC("rms_rel", T, rms_rel), METRIC("max_abs", T, max_abs),
    METRIC("normwise", T, normwise), { "zero_max", CSV_OPTNUM, CSV_AT(T, zero_max), "%.4g", CSV_NONNEG | CSV_DBLMAX },
};
#undef T

#define T peer_eps_row
const csv_col peer_eps_cols[PEER_EPS_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("model", T, model), CSV_COL_OPTNUM("bf", T, bf, "%.17g"),
    CSV_COL_NUM("eps", T, eps, "%.3g"), CSV_COL_INT("N", T, N), CSV_COL_INT("nv", T, nv),
    CSV_COL_INT("states", T, states), METRIC("rms_rel", T, rms_rel), METRIC("normwise", T, normwise),
    CSV_COL_STR("role", T, role),
};
#undef T

#define T cond_row
const csv_col conditioning_cols[CONDITIONING_NCOLS] = {
    CSV_COL_STR("model", T, model), CSV_COL_OPTNUM("bf", T, bf, "%.17g"), CSV_COL_INT("N", T, N),
    CSV_COL_INT("nv", T, nv), CSV_COL_INT("states", T, states), METRIC("cond_M", T, cond_M),
    METRIC("cond_M_min", T, cond_M_min),
};
#undef T

#define T crossover_row
const csv_col crossover_cols[CROSSOVER_NCOLS] = {
    CSV_COL_STR("A", T, A), CSV_COL_STR("B", T, B), CSV_COL_NUM("bf", T, bf, "%g"), CSV_COL_STR("range", T, range),
    CSV_COL_OPTNUM("N_cross", T, N_cross, "%.17g"), CSV_COL_INT("bracket_lo", T, bracket_lo),
    CSV_COL_INT("bracket_hi", T, bracket_hi), CSV_COL_STR("status", T, status), CSV_COL_INT("probes", T, probes),
    CSV_COL_INT("repetitions", T, repetitions), CSV_COL_NUM("confidence", T, confidence, "%.4f"),
};
#undef T

#define T probe_row
const csv_col crossover_probes_cols[CROSSOVER_PROBES_NCOLS] = {
    CSV_COL_STR("A", T, A), CSV_COL_STR("B", T, B), CSV_COL_NUM("bf", T, bf, "%g"), CSV_COL_INT("N", T, N),
    CSV_COL_INT("pairs", T, pairs), CSV_COL_NUM("tA_median_ns", T, tA_median_ns, "%.6g"),
    CSV_COL_NUM("tB_median_ns", T, tB_median_ns, "%.6g"), CSV_COL_NUM("ratio_BA", T, ratio_BA, "%.6g"),
    CSV_COL_NUM("ratio_q1", T, ratio_q1, "%.6g"), CSV_COL_NUM("ratio_q3", T, ratio_q3, "%.6g"),
    CSV_COL_INT("A_faster", T, A_faster),
};
#undef T

#define T peer_check_row
const csv_col peer_checks_cols[PEER_CHECKS_NCOLS] = {
    CSV_COL_STR("function", T, function), CSV_COL_STR("model", T, model), CSV_COL_INT("nv", T, nv),
    CSV_COL_STR("ours", T, ours), CSV_COL_OPTNUM("err", T, err, "%.3g"), CSV_COL_NUM("tol", T, tol, "%.3g"),
    CSV_COL_STR("timed", T, timed), CSV_COL_STR("detail", T, detail),
};
#undef T

#define T pair_row
const csv_col pair_cols[PAIR_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("model", T, model), CSV_COL_STR("build", T, build),
    CSV_COL_STR("reference", T, reference), CSV_COL_INT("rounds", T, rounds),
    CSV_COL_NUM("ratio_median", T, ratio_median, "%.6g"), CSV_COL_NUM("ratio_q1", T, ratio_q1, "%.6g"),
    CSV_COL_NUM("ratio_q3", T, ratio_q3, "%.6g"), CSV_COL_INT("slower_rounds", T, slower_rounds),
    CSV_COL_NUM("p_slower", T, p_slower, "%.6g"), CSV_COL_NUM("p_faster", T, p_faster, "%.6g"),
    CSV_COL_NUM("t_ref_ns", T, t_ref_ns, "%.6g"), CSV_COL_NUM("t_build_ns", T, t_build_ns, "%.6g"),
    CSV_COL_OPTNUM("instructions_ratio", T, instructions_ratio, "%.6g"), CSV_COL_STR("verdict", T, verdict),
};
#undef T

#define T pair_sample_row
const csv_col pair_samples_cols[PAIR_SAMPLES_NCOLS] = {
    CSV_COL_STR("method", T, method), CSV_COL_STR("model", T, model), CSV_COL_STR("build", T, build),
    CSV_COL_INT("round", T, round), CSV_COL_NUM("ns_per_call", T, ns_per_call, "%.6g"),
    CSV_COL_OPTNUM("instructions_per_call", T, instructions_per_call, "%.6g"),
};
#undef T

char *results_path(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (p) snprintf(p, len, "%s/%s", dir, name);
    return p;
}

int results_open_table(csvlog *log, const char *dir, const char *file, const csv_col *cols, int ncols, int nkey)
{
    char *p = results_path(dir, file);
    int rc = p ? csvlog_open(log, p, cols, ncols, nkey) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(p);
    return rc;
}

const results_table results_tables[] = {
    { TIMINGS_CSV, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY, sizeof(timing_row) },
    { SAMPLES_CSV, samples_cols, SAMPLES_NCOLS, SAMPLES_NKEY, sizeof(sample_row) },
    { CROSSOVER_CSV, crossover_cols, CROSSOVER_NCOLS, CROSSOVER_NKEY, sizeof(crossover_row) },
    { CROSSOVER_PROBES_CSV, crossover_probes_cols, CROSSOVER_PROBES_NCOLS, CROSSOVER_PROBES_NKEY, sizeof(probe_row) },
    { ACCURACY_CSV, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY, sizeof(accuracy_row) },
    { CONDITIONING_CSV, conditioning_cols, CONDITIONING_NCOLS, CONDITIONING_NKEY, sizeof(cond_row) },
    { INSTRUCTIONS_CSV, instructions_cols, INSTRUCTIONS_NCOLS, INSTRUCTIONS_NKEY, sizeof(instruction_row) },
    { PEER_CHECKS_CSV, peer_checks_cols, PEER_CHECKS_NCOLS, PEER_CHECKS_NKEY, sizeof(peer_check_row) },
    { PEER_EPS_CSV, peer_eps_cols, PEER_EPS_NCOLS, PEER_EPS_NKEY, sizeof(peer_eps_row) },
    { NULL, NULL, 0, 0, 0 }
};

int results_check_tables(const char *dir)
{
    int rc = RBD_OK;
    for (const results_table *t = results_tables; t->file && !rc; t++) {
        char *p = results_path(dir, t->file);
        if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
        if (csvlog_exists(p)) {
            csvlog log;
            rc = csvlog_read(&log, p, t->cols, t->ncols, t->nkey);
            csvlog_close(&log);
        }
        free(p);
    }
    return rc;
}

int results_prepare_dir(const char *dir)
{
    int rc = mkdir_p(dir);
    if (rc) return rc;
    char *probe = results_path(dir, ".rbdiff-probeXXXXXX");
    if (!probe) return rbd_fail(RBD_ENOMEM, "out of memory");
    int fd = mkstemp(probe);
    if (fd < 0) {
        rc = rbd_fail(write_place_code(errno), "results directory '%s' is not writable: %s", dir, strerror(errno));
    } else {
        /* one byte, synced: a full file system fails here, before any result
         * file is created (an empty timings.csv would be left otherwise) */
        if (write(fd, "x", 1) != 1 || fsync(fd) != 0)
            rc = rbd_fail(write_place_code(errno), "results directory '%s' is not writable: %s", dir, strerror(errno));
        close(fd);
        unlink(probe);
    }
    free(probe);
    return rc;
}

int timing_row_from_fields(char *const *f, timing_row *r)
{
    memset(r, 0, sizeof *r);
    csv_row_decode(timings_cols, TIMINGS_NCOLS, f, r);
    return RBD_OK;
}

/* nq defaults to nv (the trees, where q and v have the same size) */
static timing_row with_nq(const timing_row *r)
{
    timing_row c = *r;
    if (c.nq <= 0) c.nq = c.nv;
    return c;
}

void timing_row_to_fields(const timing_row *r, char buf[TIMINGS_NCOLS][64], const char *f[TIMINGS_NCOLS])
{
    /* fields point into the row for strings: encode from r itself, and
     * print nq (the column of that field) as nv when it is not set */
    csv_row_encode(timings_cols, TIMINGS_NCOLS, r, buf, f);
    for (int c = 0; c < TIMINGS_NCOLS && r->nq <= 0; c++)
        if (timings_cols[c].offset == offsetof(timing_row, nq)) snprintf(buf[c], 64, "%d", r->nv);
}

int timings_append(csvlog *log, const timing_row *r)
{
    timing_row c = with_nq(r);
    return csvlog_append_row(log, &c);
}

int samples_append(csvlog *log, const timing_row *r)
{
    sample_row s;
    memset(&s, 0, sizeof s);
    snprintf(s.method, sizeof s.method, "%s", r->method);
    snprintf(s.kind, sizeof s.kind, "%s", r->kind);
    snprintf(s.model, sizeof s.model, "%s", r->model);
    for (int b = 0; b < r->nsamples; b++) {
        s.batch = b;
        s.ns = r->samples[b];
        if (csvlog_find_row(log, &s) >= 0) continue;    /* kept from a run cut short */
        int rc = csvlog_append_row(log, &s);
        if (rc) return rc;
    }
    return RBD_OK;
}

/* Rows ordered by method, model, kind: the samples (method, kind, model)
 * and instruction counts (method, model) of a set find their timings row
 * by binary search, O((rows + samples) log rows). */
static int cmp_mmk(const void *a, const void *b)
{
    const timing_row *x = *(const timing_row *const *)a, *y = *(const timing_row *const *)b;
    int c = strcmp(x->method, y->method);
    if (!c) c = strcmp(x->model, y->model);
    return c ? c : strcmp(x->kind, y->kind);
}

static int cmp_mm(const timing_row *x, const char *method, const char *model)
{
    int c = strcmp(x->method, method);
    return c ? c : strcmp(x->model, model);
}

/* The first of sorted[0..n) with this method and model, or n. */
static int lower_mm(timing_row *const *sorted, int n, const char *method, const char *model)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cmp_mm(sorted[mid], method, model) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static void attach_samples(const csvlog *t, timing_row *const *sorted, int n)
{
    for (int k = 0; k < t->nrows; k++) {
        sample_row s;
        csv_row_decode(samples_cols, SAMPLES_NCOLS, t->rows[k], &s);
        if (s.batch < 0 || s.batch >= RBD_MAX_SAMPLES) continue;
        for (int j = lower_mm(sorted, n, s.method, s.model); j < n && !cmp_mm(sorted[j], s.method, s.model); j++) {
            timing_row *r = sorted[j];
            if (strcmp(r->kind, s.kind)) continue;
            r->samples[s.batch] = s.ns;
            if (s.batch >= r->nsamples) r->nsamples = s.batch + 1;
        }
    }
}

static void attach_instructions(const csvlog *t, timing_row *const *sorted, int n)
{
    for (int k = 0; k < t->nrows; k++) {
        instruction_row ir;
        csv_row_decode(instructions_cols, INSTRUCTIONS_NCOLS, t->rows[k], &ir);
        for (int j = lower_mm(sorted, n, ir.method, ir.model); j < n && !cmp_mm(sorted[j], ir.method, ir.model); j++)
            if (!isfinite(sorted[j]->instructions)) sorted[j]->instructions = ir.instructions;
    }
}

int timing_rows_attach(const char *dir, timing_row *rows, int n)
{
    timing_row **sorted = malloc(sizeof *sorted * ((size_t)n + 1));
    if (!sorted) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = 0; k < n; k++) sorted[k] = &rows[k];
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_mmk);
    int rc = RBD_OK;
    static const struct { const char *file; int samples; } src[] = { { SAMPLES_CSV, 1 }, { INSTRUCTIONS_CSV, 0 } };
    for (int s = 0; s < 2 && !rc; s++) {
        char *p = results_path(dir, src[s].file);
        if (!p) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); break; }
        csvlog t;
        /* instructions.csv is never packed: the plain file only */
        int here = src[s].samples ? csvlog_exists(p) : access(p, F_OK) == 0;
        if (here && !(rc = src[s].samples ? csvlog_read(&t, p, samples_cols, SAMPLES_NCOLS, SAMPLES_NKEY)
                                          : csvlog_read(&t, p, instructions_cols, INSTRUCTIONS_NCOLS,
                                                        INSTRUCTIONS_NKEY))) {
            if (src[s].samples) attach_samples(&t, sorted, n);
            else attach_instructions(&t, sorted, n);
            csvlog_close(&t);
        }
        free(p);
    }
    free(sorted);
    return rc;
}

static int load_csv(const char *path, timing_row **rows, int *n)
{
    /* instructions.csv on its own (scripts/instructions) is a run too:
     * one row per method x model with instruction counts and no times */
    csvlog t0;
    if (!csvlog_read(&t0, path, instructions_cols, INSTRUCTIONS_NCOLS, INSTRUCTIONS_NKEY)) {
        *rows = calloc((size_t)t0.nrows + 1, sizeof **rows);
        if (!*rows) { csvlog_close(&t0); return rbd_fail(RBD_ENOMEM, "out of memory"); }
        for (int k = 0; k < t0.nrows; k++) {
            timing_row *r = &(*rows)[k];
            instruction_row ir;
            csv_row_decode(instructions_cols, INSTRUCTIONS_NCOLS, t0.rows[k], &ir);
            snprintf(r->method, sizeof r->method, "%s", ir.method);
            snprintf(r->model, sizeof r->model, "%s", ir.model);
            strcpy(r->kind, "?");
            r->bf = ir.bf;
            r->N = ir.N;
            r->median_ns = r->min_ns = r->q1_ns = r->q3_ns = NAN;
            r->instructions = ir.instructions;
            r->cycles = r->fp_ops = r->flops = NAN;
        }
        *n = t0.nrows;
        csvlog_close(&t0);
        return RBD_OK;
    }
    csvlog t;
    int rc = csvlog_read(&t, path, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY);
    if (rc) return rc;
    void *a = NULL;
    rc = csvlog_rows(&t, sizeof **rows, &a);
    *rows = a;
    *n = rc ? 0 : t.nrows;
    csvlog_close(&t);
    return rc;
}

const timing_row *timing_rows_find(const timing_row *rows, int n, const char *method, const char *model)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(rows[k].method, method) && !strcmp(rows[k].model, model)) return &rows[k];
    return NULL;
}

int timing_rows_load(const char *path, timing_row **rows, int *n)
{
    *rows = NULL;
    *n = 0;
    struct stat st;
    if (stat(path, &st) != 0) return rbd_fail(RBD_EIO, "%s: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode)) {
        char *p = results_path(path, TIMINGS_CSV);
        if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
        if (access(p, F_OK) != 0) {   /* a directory of instruction counts alone */
            char *ip = results_path(path, INSTRUCTIONS_CSV);
            if (ip && access(ip, F_OK) == 0) { free(p); p = ip; }
            else free(ip);
        }
        int rc = load_csv(p, rows, n);
        free(p);
        if (!rc) rc = timing_rows_attach(path, *rows, *n);
        if (rc) { free(*rows); *rows = NULL; *n = 0; }
        return rc;
    }
    size_t len = strlen(path);
    if (len > 5 && !strcmp(path + len - 5, ".json")) return gbench_read(path, rows, n);
    return load_csv(path, rows, n);
}
