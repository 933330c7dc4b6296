/* accuracy.csv -> the summary tables (stdout, tables.md) and accuracy.json. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "store/atomicio.h"
#include "plan/modelspec.h"
#include "report/report_accuracy.h"
#include "store/results.h"

enum { C_METHOD, C_OUTPUT, C_MODEL, C_BF, C_N, C_NV, C_STATES, C_RMS, C_MAXABS, C_NORM, C_ZERO };
enum { K_MODEL, K_BF, K_N, K_NV, K_STATES, K_COND, K_COND_MIN };

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

/* Row index of (method, output, model, bf) in t, or -1. */
static int find_row(const csvlog *t, const char *method, const char *output, const char *model, const char *bf)
{
    const char *key[4] = { method, output, model, bf };
    return csvlog_find(t, key);
}

/* cond(M) (max over states) of a model from conditioning.csv, or NAN. */
static double cond_of(const csvlog *cond, const char *model, const char *bf)
{
    if (!cond) return NAN;
    const char *key[2] = { model, bf };
    int r = csvlog_find(cond, key);
    return r < 0 ? NAN : strtod(cond->rows[r][K_COND], NULL);
}

/* The ratios of row k of t to its complex-step counterpart (NAN: none). */
static void cs_ratios(const csvlog *t, int k, double *rms, double *norm)
{
    char *const *r = t->rows[k];
    const char *cm, *co;
    *rms = *norm = NAN;
    if (!accuracy_cs_counterpart(r[C_METHOD], r[C_OUTPUT], &cm, &co)) return;
    int j = find_row(t, cm, co, r[C_MODEL], r[C_BF]);
    if (j < 0) return;
    *rms = accuracy_cs_ratio(strtod(r[C_RMS], NULL), strtod(t->rows[j][C_RMS], NULL));
    *norm = accuracy_cs_ratio(strtod(r[C_NORM], NULL), strtod(t->rows[j][C_NORM], NULL));
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
 * cells the metric in column mcol, marked ! where the row loses more than
 * ACCURACY_FLAG_RATIO against the complex step.  With cond, first the rows
 * cond(M) and u cond(M). */
static void table(FILE *f, const csvlog *t, const char *grp, int mcol, const csvlog *cond)
{
    int n = t->nrows, ncol = 0, nrow = 0;
    const char **cols = malloc(sizeof *cols * (size_t)(n + 1));
    int *Ns = malloc(sizeof *Ns * (size_t)(n + 1));
    const char **rm = malloc(sizeof *rm * (size_t)(n + 1)), **ro = malloc(sizeof *ro * (size_t)(n + 1));
    char g[600];
    if (!cols || !Ns || !rm || !ro) goto out;
    for (int k = 0; k < n; k++) {
        char *const *r = t->rows[k];
        group_of(r[C_MODEL], g, sizeof g);
        if (strcmp(g, grp)) continue;
        if (*grp) {
            int N = atoi(r[C_N]), j = 0;
            while (j < ncol && Ns[j] != N) j++;
            if (j == ncol) Ns[ncol++] = N;
        } else if (str_index(cols, ncol, r[C_MODEL]) < 0) {
            cols[ncol++] = r[C_MODEL];
        }
        int j = 0;
        while (j < nrow && (strcmp(rm[j], r[C_METHOD]) || strcmp(ro[j], r[C_OUTPUT]))) j++;
        if (j == nrow) { rm[nrow] = r[C_METHOD]; ro[nrow++] = r[C_OUTPUT]; }
    }
    if (*grp) qsort(Ns, (size_t)ncol, sizeof *Ns, cmp_int);
    if (mcol == C_RMS) fprintf(f, "\n## %s\n\n| method | output |", *grp ? grp : "Robots and other models");
    else fprintf(f, "\nNormwise ||X - R||_F / ||R||_F, next to u cond(M):\n\n| method | output |");
    for (int c = 0; c < ncol; c++) {
        char lab[600];
        if (*grp) fprintf(f, " N = %d |", Ns[c]);
        else { spec_label(cols[c], lab, sizeof lab); fprintf(f, " %s |", lab); }
    }
    fputs("\n|---|---|", f);
    for (int c = 0; c < ncol; c++) fputs("---:|", f);
    fputc('\n', f);
    for (int e = 0; cond && e < 2; e++) {   /* cond(M), then u cond(M), per column */
        fprintf(f, e ? "| u cond(M) | solves |" : "| cond(M) | max over states |");
        for (int c = 0; c < ncol; c++) {
            double k = NAN;
            for (int r = 0; r < cond->nrows && isnan(k); r++) {
                char *const *row = cond->rows[r];
                group_of(row[K_MODEL], g, sizeof g);
                if (strcmp(g, grp)) continue;
                if (*grp ? atoi(row[K_N]) == Ns[c] : !strcmp(row[K_MODEL], cols[c])) k = strtod(row[K_COND], NULL);
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
                char *const *r = t->rows[k];
                if (strcmp(r[C_METHOD], rm[i]) || strcmp(r[C_OUTPUT], ro[i])) continue;
                group_of(r[C_MODEL], g, sizeof g);
                if (strcmp(g, grp)) continue;
                if (*grp ? atoi(r[C_N]) == Ns[c] : !strcmp(r[C_MODEL], cols[c])) at = k;
            }
            if (at < 0) { fputs(" - |", f); continue; }
            double rr, rn;
            cs_ratios(t, at, &rr, &rn);
            fprintf(f, " %.1e%s |", strtod(t->rows[at][mcol], NULL), (mcol == C_RMS ? rr : rn) > ACCURACY_FLAG_RATIO ? " !" : "");
        }
        fputc('\n', f);
    }
out:
    free(cols); free(Ns); free(rm); free(ro);
}

/* The rows that lose more than ACCURACY_FLAG_RATIO against the complex
 * step; finite differences counted, not listed (their truncation error is
 * expected to). */
static void flag_list(FILE *f, const csvlog *t, const csvlog *cond)
{
    int nfd = 0, nfd_all = 0, nlist = 0;
    for (int k = 0; k < t->nrows; k++) {
        double rr, rn;
        cs_ratios(t, k, &rr, &rn);
        char *const *r = t->rows[k];
        int fd = !strcmp(r[C_METHOD], "fd-fd") || !strcmp(r[C_METHOD], "id-fd");
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
        group_of(r[C_MODEL], g, sizeof g);
        if (*g) snprintf(lab, sizeof lab, "%s N=%s", g, r[C_N]);
        else spec_label(r[C_MODEL], lab, sizeof lab);
        double e = accuracy_expected(r[C_OUTPUT], cond_of(cond, r[C_MODEL], r[C_BF])), nw = strtod(r[C_NORM], NULL);
        fprintf(f, "| %s | %s | %s | %.1e | %.0f | %.1e | %.0f |", r[C_METHOD], r[C_OUTPUT], lab, strtod(r[C_RMS], NULL),
                rr, nw, rn);
        if (isnan(e)) fputs(" - | - |\n", f);
        else fprintf(f, " %.1e | %.2g |\n", e, nw / e);
    }
    if (!nlist) fprintf(f, "\nNo row is more than %gx less accurate than the complex step (fd-fd and id-fd left out).\n",
                        (double)ACCURACY_FLAG_RATIO);
    if (nfd_all)
        fprintf(f, "\nThe finite differences (fd-fd, id-fd) lose more than %gx on %d of their %d rows.\n",
                (double)ACCURACY_FLAG_RATIO, nfd, nfd_all);
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
    char **groups = malloc(sizeof *groups * (size_t)(t->nrows + 1));
    int ng = 0, others = 0;
    if (!groups) return;
    for (int k = 0; k < t->nrows; k++) {
        char g[600];
        group_of(t->rows[k][C_MODEL], g, sizeof g);
        if (!*g) { others = 1; continue; }
        if (str_index((const char **)groups, ng, g) < 0 && (groups[ng] = strdup(g))) ng++;
    }
    for (int k = 0; k < ng; k++) {
        table(f, t, groups[k], C_RMS, NULL);
        table(f, t, groups[k], C_NORM, cond);
    }
    if (others) {
        table(f, t, "", C_RMS, NULL);
        table(f, t, "", C_NORM, cond);
    }
    flag_list(f, t, cond);
    for (int k = 0; k < ng; k++) free(groups[k]);
    free(groups);
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

int accuracy_write_json(const char *dir, const csvlog *t, const csvlog *cond, json_t *settings)
{
    json_t *rows = json_array(), *root = json_object();
    if (!rows || !root) { json_decref(rows); json_decref(root); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    for (int k = 0; k < t->nrows; k++) {
        char *const *r = t->rows[k];
        json_t *o = json_object();
        for (int c = 0; c < ACCURACY_NCOLS && o; c++) {
            json_t *v;
            if (c <= C_MODEL) v = json_string(r[c]);
            else if (!*r[c]) v = json_null();
            else if (c == C_N || c == C_NV || c == C_STATES) v = json_integer(atoi(r[c]));
            else v = json_real(strtod(r[c], NULL));
            json_object_set_new(o, accuracy_cols[c].name, v);
        }
        if (o && cond) {
            double rr, rn, kc = cond_of(cond, r[C_MODEL], r[C_BF]);
            cs_ratios(t, k, &rr, &rn);
            json_object_set_new(o, "cond_M", num_or_null(kc));
            json_object_set_new(o, "expected_normwise", num_or_null(accuracy_expected(r[C_OUTPUT], kc)));
            json_object_set_new(o, "cs_ratio_rms", num_or_null(rr));
            json_object_set_new(o, "cs_ratio_normwise", num_or_null(rn));
            json_object_set_new(o, "flag_vs_cs", json_boolean(flagged(rr, rn)));
        }
        if (o) json_array_append_new(rows, o);
    }
    json_object_set_new(root, "metric",
                        json_string("worst over states; rms_rel: term-wise RMS relative error over |R_ij| > "
                                    "1e-12 max|R|; max_abs; normwise ||X-R||_F/||R||_F; zero_max: max |X| where R "
                                    "is exactly 0 (null: none); DBL_MAX marks a non-finite output"));
    if (cond) {
        json_t *ca = json_array();
        for (int k = 0; ca && k < cond->nrows; k++) {
            char *const *r = cond->rows[k];
            json_array_append_new(ca, json_pack("{s:s, s:o, s:i, s:i, s:i, s:f, s:f}", "model", r[K_MODEL], "bf",
                                                *r[K_BF] ? json_real(strtod(r[K_BF], NULL)) : json_null(), "N",
                                                atoi(r[K_N]), "nv", atoi(r[K_NV]), "states", atoi(r[K_STATES]),
                                                "cond_M", strtod(r[K_COND], NULL), "cond_M_min",
                                                strtod(r[K_COND_MIN], NULL)));
        }
        json_object_set_new(root, "conditioning", ca);
        json_object_set_new(root, "expectation",
                            json_string("expected_normwise = u cond(M), u = 2^-53, for the outputs that solve with M "
                                        "(qdd, dqdd_*, Minv), null for the others; cs_ratio_*: the row's error over "
                                        "the complex step's (fd-cs, id-cs) on the same output and model, errors "
                                        "below u counted as u; flag_vs_cs: a ratio above 100"));
    }
    if (settings) json_object_set(root, "settings", settings);
    json_object_set_new(root, "rows", rows);
    char *p = results_path(dir, "accuracy.json");
    int rc = p ? atomic_write_json(p, root) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(p);
    json_decref(root);
    return rc;
}
