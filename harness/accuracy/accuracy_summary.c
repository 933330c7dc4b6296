/* accuracy.csv -> the summary tables (stdout, tables.md) and accuracy.json. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "store/atomicio.h"
#include "plan/modelspec.h"
#include "accuracy/accuracy_summary.h"
#include "store/results.h"

/* accuracy.csv and conditioning.csv as typed rows (store/rows.h); the
 * tables themselves stay for look-ups by key (row k of a is row k of t). */
typedef struct {
    const csvlog *t, *cond;     /* cond NULL: no conditioning.csv */
    accuracy_row *a;
    int n;
    cond_row *k;
    int nk;
} acc_set;

enum { METRIC_RMS, METRIC_NORM };   /* the metric a table shows */

static double metric(const accuracy_row *r, int m) { return m == METRIC_RMS ? r->rms_rel : r->normwise; }

/* The unit roundoff of double, 2^-53. */
#define U_DOUBLE 0x1p-53

int accuracy_solves_with_M(const char *output)
{
    static const char *const solve[] = { "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau", "Minv" };
    for (int k = 0; k < 5; k++)
        if (!strcmp(output, solve[k])) return 1;
    return 0;
}

double accuracy_expected(const char *output, double cond_M)
{
    return accuracy_solves_with_M(output) && cond_M > 0 ? U_DOUBLE * cond_M : NAN;
}

int accuracy_cs_counterpart(const char *method, const char *output, const char **cs_method, const char **cs_output)
{
    static const char *const id_out[] = { "tau", "dtau_dq", "dtau_dv" };
    static const char *const fd_out[] = { "qdd", "dqdd_dq", "dqdd_dv", "dqdd_dtau" };
    if (!strcmp(method, "fd-cs") || !strcmp(method, "id-cs")) return 0;
    *cs_output = output;
    for (int k = 0; k < 3; k++)
        if (!strcmp(output, id_out[k])) { *cs_method = "id-cs"; return 1; }
    for (int k = 0; k < 4; k++)
        if (!strcmp(output, fd_out[k])) { *cs_method = "fd-cs"; return 1; }
    if (!strcmp(output, "Minv")) { *cs_method = "fd-cs"; *cs_output = "dqdd_dtau"; return 1; }
    return 0;   /* M: no complex-step counterpart */
}

double accuracy_cs_ratio(double err, double err_cs)
{
    return err / fmax(err_cs, U_DOUBLE);
}

/* cond(M) (max over states) of row r's model from conditioning.csv, or NAN. */
static double cond_of(const acc_set *s, const accuracy_row *r)
{
    if (!s->cond) return NAN;
    cond_row key;
    memset(&key, 0, sizeof key);
    snprintf(key.model, sizeof key.model, "%s", r->model);
    key.bf = r->bf;
    int j = csvlog_find_row(s->cond, &key);
    return j < 0 ? NAN : s->k[j].cond_M;
}

/* The ratios of row k to its complex-step counterpart (NAN: none). */
static void cs_ratios(const acc_set *s, int k, double *rms, double *norm)
{
    const accuracy_row *r = &s->a[k];
    const char *cm, *co;
    *rms = *norm = NAN;
    if (!accuracy_cs_counterpart(r->method, r->output, &cm, &co)) return;
    accuracy_row key = *r;
    snprintf(key.method, sizeof key.method, "%s", cm);
    snprintf(key.output, sizeof key.output, "%s", co);
    int j = csvlog_find_row(s->t, &key);
    if (j < 0) return;
    *rms = accuracy_cs_ratio(r->rms_rel, s->a[j].rms_rel);
    *norm = accuracy_cs_ratio(r->normwise, s->a[j].normwise);
}

static int flagged(double rms, double norm)
{
    return rms > ACCURACY_FLAG_RATIO || norm > ACCURACY_FLAG_RATIO;
}

/* The group of a row: an autoTree spec without its N (bf, skew, taper), or
 * "" for every other model (one table, a column per model). */
static void group_of(const char *spec, char *buf, size_t len)
{
    buf[0] = 0;
    if (strncmp(spec, "autotree:", 9)) return;
    size_t used = (size_t)snprintf(buf, len, "autoTree");
    const char *p = spec + 9;
    while (*p && used < len) {
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', n);
        /* values at 6 digits: 0.98999999999999999 reads 0.99 */
        if (strncmp(p, "N=", 2) && eq)
            used += (size_t)snprintf(buf + used, len - used, " %.*s=%.6g", (int)(eq - p), p, strtod(eq + 1, NULL));
        p += n + (comma ? 1 : 0);
    }
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static int str_index(const char **arr, int n, const char *s)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(arr[k], s)) return k;
    return -1;
}

/* One table: rows method/output, columns N (autoTree group) or model;
 * cells the metric m, marked ! where the row loses more than
 * ACCURACY_FLAG_RATIO against the complex step.  With cond, first the rows
 * cond(M) and u cond(M). */
static void table(FILE *f, const acc_set *s, const char *grp, int m, int with_cond)
{
    int n = s->n, ncol = 0, nrow = 0;
    const char **cols = malloc(sizeof *cols * (size_t)(n + 1));
    int *Ns = malloc(sizeof *Ns * (size_t)(n + 1));
    const char **rm = malloc(sizeof *rm * (size_t)(n + 1)), **ro = malloc(sizeof *ro * (size_t)(n + 1));
    char g[600];
    if (!cols || !Ns || !rm || !ro) goto out;
    for (int k = 0; k < n; k++) {
        const accuracy_row *r = &s->a[k];
        group_of(r->model, g, sizeof g);
        if (strcmp(g, grp)) continue;
        if (*grp) {
            int N = r->N, j = 0;
            while (j < ncol && Ns[j] != N) j++;
            if (j == ncol) Ns[ncol++] = N;
        } else if (str_index(cols, ncol, r->model) < 0) {
            cols[ncol++] = r->model;
        }
        int j = 0;
        while (j < nrow && (strcmp(rm[j], r->method) || strcmp(ro[j], r->output))) j++;
        if (j == nrow) { rm[nrow] = r->method; ro[nrow++] = r->output; }
    }
    if (*grp) qsort(Ns, (size_t)ncol, sizeof *Ns, cmp_int);
    if (m == METRIC_RMS) fprintf(f, "\n## %s\n\n| method | output |", *grp ? grp : "Robots and other models");
    else fprintf(f, "\nNormwise ||X - R||_F / ||R||_F, next to u cond(M):\n\n| method | output |");
    for (int c = 0; c < ncol; c++) {
        char lab[600];
        if (*grp) fprintf(f, " N = %d |", Ns[c]);
        else { spec_label(cols[c], lab, sizeof lab); fprintf(f, " %s |", lab); }
    }
    fputs("\n|---|---|", f);
    for (int c = 0; c < ncol; c++) fputs("---:|", f);
    fputc('\n', f);
    for (int e = 0; with_cond && s->cond && e < 2; e++) {   /* cond(M), then u cond(M), per column */
        fprintf(f, e ? "| u cond(M) | solves |" : "| cond(M) | max over states |");
        for (int c = 0; c < ncol; c++) {
            double k = NAN;
            for (int r = 0; r < s->nk && isnan(k); r++) {
                const cond_row *row = &s->k[r];
                group_of(row->model, g, sizeof g);
                if (strcmp(g, grp)) continue;
                if (*grp ? row->N == Ns[c] : !strcmp(row->model, cols[c])) k = row->cond_M;
            }
            if (isnan(k)) fputs(" - |", f);
            else fprintf(f, " %.1e |", e ? U_DOUBLE * k : k);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < nrow; i++) {
        fprintf(f, "| %s | %s |", rm[i], ro[i]);
        for (int c = 0; c < ncol; c++) {
            int at = -1;
            for (int k = 0; k < n && at < 0; k++) {
                const accuracy_row *r = &s->a[k];
                if (strcmp(r->method, rm[i]) || strcmp(r->output, ro[i])) continue;
                group_of(r->model, g, sizeof g);
                if (strcmp(g, grp)) continue;
                if (*grp ? r->N == Ns[c] : !strcmp(r->model, cols[c])) at = k;
            }
            if (at < 0) { fputs(" - |", f); continue; }
            double rr, rn;
            cs_ratios(s, at, &rr, &rn);
            fprintf(f, " %.1e%s |", metric(&s->a[at], m), (m == METRIC_RMS ? rr : rn) > ACCURACY_FLAG_RATIO ? " !" : "");
        }
        fputc('\n', f);
    }
out:
    free(cols); free(Ns); free(rm); free(ro);
}

/* The rows that lose more than ACCURACY_FLAG_RATIO against the complex
 * step; finite differences counted, not listed (their truncation error is
 * expected to). */
static void flag_list(FILE *f, const acc_set *s)
{
    int nfd = 0, nfd_all = 0, nlist = 0;
    for (int k = 0; k < s->n; k++) {
        double rr, rn;
        cs_ratios(s, k, &rr, &rn);
        const accuracy_row *r = &s->a[k];
        int fd = !strcmp(r->method, "fd-fd") || !strcmp(r->method, "id-fd");
        nfd_all += fd && !isnan(rr);
        if (!flagged(rr, rn)) continue;
        if (fd) { nfd++; continue; }
        if (!nlist++)
            fprintf(f, "\n## Rows more than %gx less accurate than the complex step\n\n"
                    "Against fd-cs (FD outputs, qdd, Minv) or id-cs (ID outputs, tau) on the same model; "
                    "u cond(M) where the output solves with M. fd-fd and id-fd are left out (below).\n\n"
                    "| method | output | model | rms_rel | x cs | normwise | x cs | u cond(M) | normwise / u cond(M) |\n"
                    "|---|---|---|---:|---:|---:|---:|---:|---:|\n", (double)ACCURACY_FLAG_RATIO);
        char lab[700], g[600];
        group_of(r->model, g, sizeof g);
        if (*g) snprintf(lab, sizeof lab, "%s N=%d", g, r->N);
        else spec_label(r->model, lab, sizeof lab);
        double e = accuracy_expected(r->output, cond_of(s, r)), nw = r->normwise;
        fprintf(f, "| %s | %s | %s | %.1e | %.0f | %.1e | %.0f |", r->method, r->output, lab, r->rms_rel, rr, nw, rn);
        if (isnan(e)) fputs(" - | - |\n", f);
        else fprintf(f, " %.1e | %.2g |\n", e, nw / e);
    }
    if (!nlist) fprintf(f, "\nNo row is more than %gx less accurate than the complex step (fd-fd and id-fd left out).\n",
                        (double)ACCURACY_FLAG_RATIO);
    if (nfd_all)
        fprintf(f, "\nThe finite differences (fd-fd, id-fd) lose more than %gx on %d of their %d rows.\n",
                (double)ACCURACY_FLAG_RATIO, nfd, nfd_all);
}

/* s's typed rows decoded from t and cond (NULL: none); free with set_free. */
static int set_open(acc_set *s, const csvlog *t, const csvlog *cond)
{
    void *a = NULL, *k = NULL;
    memset(s, 0, sizeof *s);
    int rc = csvlog_rows(t, sizeof(accuracy_row), &a);
    if (!rc && cond) rc = csvlog_rows(cond, sizeof(cond_row), &k);
    *s = (acc_set){ t, cond, a, t->nrows, k, cond ? cond->nrows : 0 };
    return rc;
}

static void set_free(acc_set *s)
{
    free(s->a);
    free(s->k);
}

/* The summary's tables: one pair per autoTree group, one for the other
 * models, then the rows flagged against the complex step. */
static void summary_tables(FILE *f, const acc_set *s)
{
    char **groups = malloc(sizeof *groups * (size_t)(s->n + 1));
    int ng = 0, others = 0;
    if (!groups) return;
    for (int k = 0; k < s->n; k++) {
        char g[600];
        group_of(s->a[k].model, g, sizeof g);
        if (!*g) { others = 1; continue; }
        if (str_index((const char **)groups, ng, g) < 0 && (groups[ng] = strdup(g))) ng++;
    }
    for (int k = 0; k < ng; k++) {
        table(f, s, groups[k], METRIC_RMS, 0);
        table(f, s, groups[k], METRIC_NORM, 1);
    }
    if (others) {
        table(f, s, "", METRIC_RMS, 0);
        table(f, s, "", METRIC_NORM, 1);
    }
    flag_list(f, s);
    for (int k = 0; k < ng; k++) free(groups[k]);
    free(groups);
}

void accuracy_summary(FILE *f, const csvlog *t, const csvlog *cond)
{
    fputs("# Accuracy: term-wise RMS relative error against the MPFR reference\n\n"
          "Worst over the random states of each model (accuracy.csv: states, max_abs, normwise and the max on the "
          "reference's structural zeros; accuracy.json: the same with the audit settings). Entries with "
          "|R_ij| <= 1e-12 max|R| are left out of the RMS (reference/README.md).\n", f);
    if (cond)
        fprintf(f, "\nConditioning (conditioning.csv): cond(M) = lambda_max / lambda_min of the reference's M, the "
                "largest over the states. An output that solves with M (qdd, dqdd_*, Minv) computed by a backward-"
                "stable solve can be expected to reach a normwise error of about u cond(M), u = 2^-53; ID outputs "
                "solve nothing and have no such figure (-). ! marks a cell more than %gx the complex step's "
                "(fd-cs, id-cs) on the same output and model, in that metric (errors below u count as u).\n",
                (double)ACCURACY_FLAG_RATIO);
    acc_set s;
    if (!set_open(&s, t, cond)) summary_tables(f, &s);
    set_free(&s);
}

int accuracy_read(const char *dir, csvlog *t, int *present)
{
    *present = 0;
    char *p = results_path(dir, ACCURACY_CSV);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    if (access(p, R_OK) == 0) {
        rc = csvlog_read(t, p, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY);
        *present = !rc;
    }
    free(p);
    return rc;
}

int conditioning_read(const char *dir, csvlog *t, int *present)
{
    *present = 0;
    char *p = results_path(dir, CONDITIONING_CSV);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    if (access(p, R_OK) == 0) {
        rc = csvlog_read(t, p, conditioning_cols, CONDITIONING_NCOLS, CONDITIONING_NKEY);
        *present = !rc;
    }
    free(p);
    return rc;
}

static json_t *num_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* A typed row's column c as JSON, by the column's type: text, a whole
 * number, a number (an empty optional one null). */
static json_t *field_json(const csv_col *c, const void *row)
{
    const char *p = (const char *)row + c->offset;
    switch (c->type) {
    case CSV_STR: return json_string(p);
    case CSV_INT: case CSV_OPTINT: return json_integer(*(const int *)p);
    default: return num_or_null(*(const double *)p);
    }
}

/* accuracy.json's rows: every column, then (with conditioning.csv) the
 * expectation and the complex-step ratios. */
static json_t *json_rows(const acc_set *s)
{
    json_t *rows = json_array();
    for (int k = 0; rows && k < s->n; k++) {
        const accuracy_row *r = &s->a[k];
        json_t *o = json_object();
        for (int c = 0; c < ACCURACY_NCOLS && o; c++)
            json_object_set_new(o, accuracy_cols[c].name, field_json(&accuracy_cols[c], r));
        if (o && s->cond) {
            double rr, rn, kc = cond_of(s, r);
            cs_ratios(s, k, &rr, &rn);
            json_object_set_new(o, "cond_M", num_or_null(kc));
            json_object_set_new(o, "expected_normwise", num_or_null(accuracy_expected(r->output, kc)));
            json_object_set_new(o, "cs_ratio_rms", num_or_null(rr));
            json_object_set_new(o, "cs_ratio_normwise", num_or_null(rn));
            json_object_set_new(o, "flag_vs_cs", json_boolean(flagged(rr, rn)));
        }
        if (o) json_array_append_new(rows, o);
    }
    return rows;
}

int accuracy_write_json(const char *dir, const csvlog *t, const csvlog *cond, json_t *settings, json_t *not_audited)
{
    acc_set s;
    if (set_open(&s, t, cond)) { set_free(&s); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    json_t *rows = json_rows(&s), *root = json_object();
    if (!rows || !root) {
        json_decref(rows);
        json_decref(root);
        set_free(&s);
        return rbd_fail(RBD_ENOMEM, "out of memory");
    }
    json_object_set_new(root, "metric",
                        json_string("worst over states; rms_rel: term-wise RMS relative error over |R_ij| > "
                                    "1e-12 max|R|; max_abs; normwise ||X-R||_F/||R||_F; zero_max: max |X| where R "
                                    "is exactly 0 (null: none); DBL_MAX marks a non-finite output"));
    if (cond) {
        json_t *ca = json_array();
        for (int k = 0; ca && k < s.nk; k++) {
            const cond_row *r = &s.k[k];
            json_array_append_new(ca, json_pack("{s:s, s:o, s:i, s:i, s:i, s:f, s:f}", "model", r->model, "bf",
                                                num_or_null(r->bf), "N", r->N, "nv", r->nv, "states", r->states,
                                                "cond_M", r->cond_M, "cond_M_min", r->cond_M_min));
        }
        json_object_set_new(root, "conditioning", ca);
        json_object_set_new(root, "expectation",
                            json_string("expected_normwise = u cond(M), u = 2^-53, for the outputs that solve with M "
                                        "(qdd, dqdd_*, Minv), null for the others; cs_ratio_*: the row's error over "
                                        "the complex step's (fd-cs, id-cs) on the same output and model, errors "
                                        "below u counted as u; flag_vs_cs: a ratio above 100"));
    }
    if (settings) json_object_set(root, "settings", settings);
    if (not_audited && json_array_size(not_audited)) json_object_set(root, "not_audited", not_audited);
    json_object_set_new(root, "rows", rows);
    char *p = results_path(dir, "accuracy.json");
    int rc = p ? atomic_write_json(p, root) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(p);
    json_decref(root);
    set_free(&s);
    return rc;
}
