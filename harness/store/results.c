/* Results directories and the timings.csv row format. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/results.h"

const csv_col timings_cols[TIMINGS_NCOLS] = {
    { "method", CSV_STR }, { "kind", CSV_STR }, { "model", CSV_STR }, { "bf", CSV_OPTNUM }, { "N", CSV_INT },
    { "nv", CSV_INT }, { "median_ns", CSV_NUM }, { "min_ns", CSV_NUM }, { "q1_ns", CSV_NUM }, { "q3_ns", CSV_NUM },
    { "iqr_ns", CSV_NUM }, { "batches", CSV_INT }, { "calls_per_batch", CSV_INT }, { "instructions", CSV_OPTNUM },
    { "cycles", CSV_OPTNUM }, { "nq", CSV_OPTNUM }, { "fp_ops", CSV_OPTNUM }, { "flops", CSV_OPTNUM },
};

const csv_col samples_cols[SAMPLES_NCOLS] = {
    { "method", CSV_STR }, { "kind", CSV_STR }, { "model", CSV_STR }, { "batch", CSV_INT }, { "ns", CSV_NUM },
};

const csv_col instructions_cols[INSTRUCTIONS_NCOLS] = {
    { "method", CSV_STR }, { "model", CSV_STR }, { "bf", CSV_OPTNUM }, { "N", CSV_INT }, { "calls_lo", CSV_INT },
    { "calls_hi", CSV_INT }, { "instructions", CSV_NUM }, { "tool", CSV_STR },
};

/* Written by the accuracy audit: errors of one output of one method on one
 * model against the MPFR reference, over `states` random states (reference/README.md,
 * "Numbers that must mean the same everywhere"). */
const csv_col accuracy_cols[ACCURACY_NCOLS] = {
    { "method", CSV_STR }, { "output", CSV_STR }, { "model", CSV_STR }, { "bf", CSV_OPTNUM }, { "N", CSV_INT },
    { "nv", CSV_INT }, { "states", CSV_INT }, { "rms_rel", CSV_NUM }, { "max_abs", CSV_NUM },
    { "normwise", CSV_NUM }, { "zero_max", CSV_OPTNUM },
};

const csv_col conditioning_cols[CONDITIONING_NCOLS] = {
    { "model", CSV_STR }, { "bf", CSV_OPTNUM }, { "N", CSV_INT }, { "nv", CSV_INT }, { "states", CSV_INT },
    { "cond_M", CSV_NUM }, { "cond_M_min", CSV_NUM },
};

const csv_col crossover_cols[CROSSOVER_NCOLS] = {
    { "A", CSV_STR }, { "B", CSV_STR }, { "bf", CSV_NUM }, { "range", CSV_STR }, { "N_cross", CSV_OPTNUM },
    { "bracket_lo", CSV_INT }, { "bracket_hi", CSV_INT }, { "status", CSV_STR }, { "probes", CSV_INT },
    { "repetitions", CSV_INT }, { "confidence", CSV_NUM },
};

const csv_col crossover_probes_cols[CROSSOVER_PROBES_NCOLS] = {
    { "A", CSV_STR }, { "B", CSV_STR }, { "bf", CSV_NUM }, { "N", CSV_INT }, { "pairs", CSV_INT },
    { "tA_median_ns", CSV_NUM }, { "tB_median_ns", CSV_NUM }, { "ratio_BA", CSV_NUM }, { "ratio_q1", CSV_NUM },
    { "ratio_q3", CSV_NUM }, { "A_faster", CSV_INT },
};

const csv_col peer_checks_cols[PEER_CHECKS_NCOLS] = {
    { "function", CSV_STR }, { "model", CSV_STR }, { "nv", CSV_INT }, { "ours", CSV_STR }, { "err", CSV_OPTNUM },
    { "tol", CSV_NUM }, { "timed", CSV_STR }, { "detail", CSV_STR },
};

char *results_path(const char *dir, const char *name)
{
    size_t len = strlen(dir) + strlen(name) + 2;
    char *p = malloc(len);
    if (p) snprintf(p, len, "%s/%s", dir, name);
    return p;
}

const results_table results_tables[] = {
    { TIMINGS_CSV, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY },
    { SAMPLES_CSV, samples_cols, SAMPLES_NCOLS, SAMPLES_NKEY },
    { CROSSOVER_CSV, crossover_cols, CROSSOVER_NCOLS, CROSSOVER_NKEY },
    { CROSSOVER_PROBES_CSV, crossover_probes_cols, CROSSOVER_PROBES_NCOLS, CROSSOVER_PROBES_NKEY },
    { ACCURACY_CSV, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY },
    { CONDITIONING_CSV, conditioning_cols, CONDITIONING_NCOLS, CONDITIONING_NKEY },
    { INSTRUCTIONS_CSV, instructions_cols, INSTRUCTIONS_NCOLS, INSTRUCTIONS_NKEY },
    { PEER_CHECKS_CSV, peer_checks_cols, PEER_CHECKS_NCOLS, PEER_CHECKS_NKEY },
    { NULL, NULL, 0, 0 }
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
        rc = rbd_fail(RBD_EIO, "results directory '%s' is not writable: %s", dir, strerror(errno));
    } else {
        /* one byte, synced: a full file system fails here, before any result
         * file is created (an empty timings.csv would be left otherwise) */
        if (write(fd, "x", 1) != 1 || fsync(fd) != 0)
            rc = rbd_fail(RBD_EIO, "results directory '%s' is not writable: %s", dir, strerror(errno));
        close(fd);
        unlink(probe);
    }
    free(probe);
    return rc;
}

static double num_or_nan(const char *s)
{
    return *s ? strtod(s, NULL) : NAN;
}

int timing_row_from_fields(char *const *f, timing_row *r)
{
    memset(r, 0, sizeof *r);
    if (strlen(f[0]) >= sizeof r->method || strlen(f[1]) >= sizeof r->kind || strlen(f[2]) >= sizeof r->model)
        return rbd_fail(RBD_EPARSE, "timings row: method, kind or model too long");
    strcpy(r->method, f[0]);
    strcpy(r->kind, f[1]);
    strcpy(r->model, f[2]);
    r->bf = num_or_nan(f[3]);
    r->N = atoi(f[4]);
    r->nv = atoi(f[5]);
    r->median_ns = strtod(f[6], NULL);
    r->min_ns = strtod(f[7], NULL);
    r->q1_ns = strtod(f[8], NULL);
    r->q3_ns = strtod(f[9], NULL);
    r->iqr_ns = strtod(f[10], NULL);
    r->batches = atoi(f[11]);
    r->calls_per_batch = atol(f[12]);
    r->instructions = num_or_nan(f[13]);
    r->cycles = num_or_nan(f[14]);
    r->nq = atoi(f[15]);
    r->fp_ops = num_or_nan(f[16]);
    r->flops = num_or_nan(f[17]);
    return RBD_OK;
}

void timing_row_to_fields(const timing_row *r, char buf[TIMINGS_NCOLS][64], const char *f[TIMINGS_NCOLS])
{
    f[0] = r->method;
    f[1] = r->kind;
    f[2] = r->model;
    for (int k = 3; k < TIMINGS_NCOLS; k++) { buf[k][0] = 0; f[k] = buf[k]; }
    if (isfinite(r->bf)) snprintf(buf[3], 64, "%.17g", r->bf);
    snprintf(buf[4], 64, "%d", r->N);
    snprintf(buf[5], 64, "%d", r->nv);
    /* %.6g: ns per call carries no more than a few significant digits */
    snprintf(buf[6], 64, "%.6g", r->median_ns);
    snprintf(buf[7], 64, "%.6g", r->min_ns);
    snprintf(buf[8], 64, "%.6g", r->q1_ns);
    snprintf(buf[9], 64, "%.6g", r->q3_ns);
    snprintf(buf[10], 64, "%.6g", r->iqr_ns);
    snprintf(buf[11], 64, "%d", r->batches);
    snprintf(buf[12], 64, "%ld", r->calls_per_batch);
    if (isfinite(r->instructions)) snprintf(buf[13], 64, "%.6g", r->instructions);
    if (isfinite(r->cycles)) snprintf(buf[14], 64, "%.6g", r->cycles);
    snprintf(buf[15], 64, "%d", r->nq > 0 ? r->nq : r->nv);
    if (isfinite(r->fp_ops)) snprintf(buf[16], 64, "%.6g", r->fp_ops);
    if (isfinite(r->flops)) snprintf(buf[17], 64, "%.10g", r->flops);
}

void sample_fields(const timing_row *r, int b, char buf[SAMPLES_NCOLS][64], const char *f[SAMPLES_NCOLS])
{
    f[0] = r->method;
    f[1] = r->kind;
    f[2] = r->model;
    snprintf(buf[3], 64, "%d", b);
    snprintf(buf[4], 64, "%.6g", r->samples[b]);
    f[3] = buf[3];
    f[4] = buf[4];
}

int timing_rows_attach(const char *dir, timing_row *rows, int n)
{
    char *p = results_path(dir, SAMPLES_CSV);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    csvlog t;
    int rc = RBD_OK;
    if (csvlog_exists(p) && !(rc = csvlog_read(&t, p, samples_cols, SAMPLES_NCOLS, SAMPLES_NKEY))) {
        for (int k = 0; k < t.nrows; k++) {
            char **f = t.rows[k];
            int b = atoi(f[3]);
            if (b < 0 || b >= RBD_MAX_SAMPLES) continue;
            for (int j = 0; j < n; j++) {
                timing_row *r = &rows[j];
                if (strcmp(r->method, f[0]) || strcmp(r->kind, f[1]) || strcmp(r->model, f[2])) continue;
                r->samples[b] = strtod(f[4], NULL);
                if (b >= r->nsamples) r->nsamples = b + 1;
            }
        }
        csvlog_close(&t);
    }
    free(p);
    if (rc) return rc;
    p = results_path(dir, INSTRUCTIONS_CSV);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    if (access(p, F_OK) == 0 && !(rc = csvlog_read(&t, p, instructions_cols, INSTRUCTIONS_NCOLS, INSTRUCTIONS_NKEY))) {
        for (int k = 0; k < t.nrows; k++)
            for (int j = 0; j < n; j++)
                if (!strcmp(rows[j].method, t.rows[k][0]) && !strcmp(rows[j].model, t.rows[k][1]) &&
                    !isfinite(rows[j].instructions))
                    rows[j].instructions = strtod(t.rows[k][6], NULL);
        csvlog_close(&t);
    }
    free(p);
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
            snprintf(r->method, sizeof r->method, "%s", t0.rows[k][0]);
            snprintf(r->model, sizeof r->model, "%s", t0.rows[k][1]);
            strcpy(r->kind, "?");
            r->bf = num_or_nan(t0.rows[k][2]);
            r->N = atoi(t0.rows[k][3]);
            r->median_ns = r->min_ns = r->q1_ns = r->q3_ns = NAN;
            r->instructions = strtod(t0.rows[k][6], NULL);
            r->cycles = r->fp_ops = r->flops = NAN;
        }
        *n = t0.nrows;
        csvlog_close(&t0);
        return RBD_OK;
    }
    csvlog t;
    int rc = csvlog_read(&t, path, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY);
    if (rc) return rc;
    *rows = calloc((size_t)t.nrows + 1, sizeof **rows);
    if (!*rows) { csvlog_close(&t); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int k = 0; k < t.nrows && !rc; k++) rc = timing_row_from_fields(t.rows[k], &(*rows)[k]);
    *n = t.nrows;
    csvlog_close(&t);
    if (rc) { free(*rows); *rows = NULL; *n = 0; }
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
