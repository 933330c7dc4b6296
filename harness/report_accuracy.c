/* accuracy.csv -> the summary tables (stdout, tables.md) and accuracy.json. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "atomicio.h"
#include "modelspec.h"
#include "report_accuracy.h"
#include "results.h"

enum { C_METHOD, C_OUTPUT, C_MODEL, C_BF, C_N, C_NV, C_STATES, C_RMS, C_MAXABS, C_NORM, C_ZERO };

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

/* One table: rows method/output, columns N (autoTree group) or model. */
static void table(FILE *f, const csvlog *t, const char *grp)
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
    fprintf(f, "\n## %s\n\n| method | output |", *grp ? grp : "Robots and other models");
    for (int c = 0; c < ncol; c++) {
        char lab[600];
        if (*grp) fprintf(f, " N = %d |", Ns[c]);
        else { spec_label(cols[c], lab, sizeof lab); fprintf(f, " %s |", lab); }
    }
    fputs("\n|---|---|", f);
    for (int c = 0; c < ncol; c++) fputs("---:|", f);
    fputc('\n', f);
    for (int i = 0; i < nrow; i++) {
        fprintf(f, "| %s | %s |", rm[i], ro[i]);
        for (int c = 0; c < ncol; c++) {
            const char *cell = NULL;
            for (int k = 0; k < n && !cell; k++) {
                char *const *r = t->rows[k];
                if (strcmp(r[C_METHOD], rm[i]) || strcmp(r[C_OUTPUT], ro[i])) continue;
                group_of(r[C_MODEL], g, sizeof g);
                if (strcmp(g, grp)) continue;
                if (*grp ? atoi(r[C_N]) == Ns[c] : !strcmp(r[C_MODEL], cols[c])) cell = r[C_RMS];
            }
            if (cell) fprintf(f, " %.1e |", strtod(cell, NULL));
            else fputs(" - |", f);
        }
        fputc('\n', f);
    }
out:
    free(cols); free(Ns); free(rm); free(ro);
}

void accuracy_summary(FILE *f, const csvlog *t)
{
    fputs("# Accuracy: term-wise RMS relative error against the MPFR reference\n\n"
          "Worst over the random states of each model (accuracy.csv: states, max_abs, normwise and the max on the "
          "reference's structural zeros; accuracy.json: the same with the audit settings). Entries with "
          "|R_ij| <= 1e-12 max|R| are left out of the RMS (reference/README.md).\n", f);
    char **groups = malloc(sizeof *groups * (size_t)(t->nrows + 1));
    int ng = 0, others = 0;
    if (!groups) return;
    for (int k = 0; k < t->nrows; k++) {
        char g[600];
        group_of(t->rows[k][C_MODEL], g, sizeof g);
        if (!*g) { others = 1; continue; }
        if (str_index((const char **)groups, ng, g) < 0 && (groups[ng] = strdup(g))) ng++;
    }
    for (int k = 0; k < ng; k++) table(f, t, groups[k]);
    if (others) table(f, t, "");
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

int accuracy_write_json(const char *dir, const csvlog *t, json_t *settings)
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
        if (o) json_array_append_new(rows, o);
    }
    json_object_set_new(root, "metric",
                        json_string("worst over states; rms_rel: term-wise RMS relative error over |R_ij| > "
                                    "1e-12 max|R|; max_abs; normwise ||X-R||_F/||R||_F; zero_max: max |X| where R "
                                    "is exactly 0 (null: none); DBL_MAX marks a non-finite output"));
    if (settings) json_object_set(root, "settings", settings);
    json_object_set_new(root, "rows", rows);
    char *p = results_path(dir, "accuracy.json");
    int rc = p ? atomic_write_json(p, root) : rbd_fail(RBD_ENOMEM, "out of memory");
    free(p);
    json_decref(root);
    return rc;
}
