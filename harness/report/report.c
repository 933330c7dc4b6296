/* tables.md: median microseconds per call, per branching factor a table
 * per kind of method (N rows x method columns), and one for the other
 * models; then the ratios, the accuracy summary and the counters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "report/report.h"
#include "accuracy/accuracy_summary.h"
#include "report/report_ratios.h"
#include "store/gbench.h"
#include "store/results.h"
#include "store/timing_index.h"

typedef struct {
    const timing_row *rows;
    int n;
    const char *dir;
    timing_index x;         /* rows found by bisection: O(n log n) for n rows */
} tables_ctx;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Method names in order of first appearance. */
static int methods_of(const timing_row *rows, int n, const char **out)
{
    int nm = 0;
    for (int k = 0; k < n; k++) {
        int j = 0;
        while (j < nm && strcmp(out[j], rows[k].method)) j++;
        if (j == nm) out[nm++] = rows[k].method;
    }
    return nm;
}

static void cell(FILE *f, const timing_row *r)
{
    if (r) fprintf(f, " %.4g |", r->median_ns / 1e3);
    else fputs(" - |", f);
}

static void opt_cell(FILE *f, const char *fmt, double x)
{
    if (isfinite(x)) fprintf(f, fmt, x);
    else fputs(" - |", f);
}

/* Counters and the achieved arithmetic rate (issue 8), one line per row
 * that has any: GFLOP/s = analytic flops / median, and that rate as % of
 * the best rate OpenBLAS dgemm reached in the run (the roofline timed with
 * the same settings).  Not of the dgemm of the same n: at small n dgemm
 * runs far below its rate (2 flops at n = 1), which made the column read
 * up to 26,000 %. */
static void write_rates(FILE *f, const timing_row *rows, int n, const timing_index *x)
{
    int any = 0;
    for (int k = 0; k < n && !any; k++)
        any = isfinite(rows[k].instructions) || isfinite(rows[k].flops) || isfinite(rows[k].fp_ops);
    if (!any) return;
    const timing_row *peak = NULL;
    for (int j = 0; j < n; j++)
        if (!strcmp(rows[j].method, "dgemm") && isfinite(rows[j].flops) && rows[j].median_ns > 0 &&
            (!peak || rows[j].flops / rows[j].median_ns > peak->flops / peak->median_ns))
            peak = &rows[j];
    fputs("\n## Counters and arithmetic rate\n\n"
          "Per call: instructions, cycles and FP operations from the PMU (medians over the batches; '-' where "
          "the kernel gave none), flops counted from the algorithm (harness/measure/flops.c), GFLOP/s = flops / median", f);
    if (peak)
        fprintf(f, ", and that rate as %% of the best rate of OpenBLAS dgemm in this run (%.3g GFLOP/s at n = %d, "
                   "timed with the same settings; a dgemm of the model's own small n is far from its rate, so "
                   "not that)", peak->flops / peak->median_ns, peak->nv);
    fputs(".  The autoTree rows at the largest N of each bf and the other models; every row's counters and "
          "flops are in timings.csv.\n\n| method | model | median us | instructions | cycles | FP ops | flops | GFLOP/s | "
          "% dgemm peak |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|\n", f);
    for (int k = 0; k < n; k++) {
        const timing_row *r = &rows[k];
        if (!isfinite(r->instructions) && !isfinite(r->flops) && !isfinite(r->fp_ops)) continue;
        /* autoTree: the largest N of its bf only; timings.csv has every row */
        if (isfinite(r->bf) && r->N < timing_index_max_N(x, r->bf)) continue;
        double rate = r->flops / r->median_ns;
        double frac = peak ? 100 * rate / (peak->flops / peak->median_ns) : NAN;
        fprintf(f, "| %s | %s | %.4g |", r->method, r->model, r->median_ns / 1e3);
        opt_cell(f, " %.4g |", r->instructions);
        opt_cell(f, " %.4g |", r->cycles);
        opt_cell(f, " %.4g |", r->fp_ops);
        opt_cell(f, " %.4g |", r->flops);
        opt_cell(f, " %.3g |", rate);
        opt_cell(f, " %.3g |", frac);
        fputc('\n', f);
    }
}

/* The column groups of a timings table: ID derivatives, FD derivatives,
 * second-order derivatives (ID2, FD2), base algorithms (with the roofline
 * dgemm), then each peer's functions (group PEERS).  One table of 42
 * columns (every method, base algorithm and peer function) did not fit a
 * screen (issue 29); a group is at most 14. */
enum { PEERS = 4 };
static int group_of(const tables_ctx *c, const char *method, char *peer, size_t len)
{
    const timing_row *r = timing_index_of_method(&c->x, method);
    if (!r) return PEERS;
    if (!strcmp(r->kind, "ID")) return 0;
    if (!strcmp(r->kind, "FD")) return 1;
    if (!strcmp(r->kind, "ID2") || !strcmp(r->kind, "FD2")) return 2;
    if (strcmp(r->kind, "peer")) return 3;
    snprintf(peer, len, "%.*s", (int)strcspn(method, "."), method);
    return PEERS;
}

static const char *const group_name[PEERS] = { "ID derivatives", "FD derivatives", "second-order derivatives",
                                               "base algorithms" };

/* The methods of group g (for g = 3: of the peer named peer), into sub. */
static int group_methods(const tables_ctx *c, const char **meth, int nm, int g, const char *peer, const char **sub)
{
    int ns = 0;
    for (int m = 0; m < nm; m++) {
        char p[64] = "";
        if (group_of(c, meth[m], p, sizeof p) == g && (g < PEERS || !strcmp(p, peer))) sub[ns++] = meth[m];
    }
    return ns;
}

/* N rows x the methods sub[] at one bf. */
static void bf_table(FILE *f, const tables_ctx *c, double bf, const int *Ns, int nN, const char **sub, int ns)
{
    fputs("\n| N |", f);
    for (int m = 0; m < ns; m++) fprintf(f, " %s |", sub[m]);
    fputs("\n|---:|", f);
    for (int m = 0; m < ns; m++) fputs("---:|", f);
    fputc('\n', f);
    for (int i = 0; i < nN; i++) {
        fprintf(f, "| %d |", Ns[i]);
        for (int m = 0; m < ns; m++) cell(f, timing_index_find_bnm(&c->x, bf, Ns[i], sub[m]));
        fputc('\n', f);
    }
}

/* "## bf = 2" and a table per column group present. */
static void bf_section(FILE *f, const tables_ctx *c, double bf, int *Ns, const char **meth, int nm, const char **sub)
{
    int nN = timing_index_Ns(&c->x, bf, Ns);
    fprintf(f, "\n## bf = %g%s\n", bf, bf == 1 ? " (serial chain)" : "");
    char peers[4][64];
    int np = 0;
    for (int m = 0; m < nm; m++) {
        char p[64] = "";
        if (group_of(c, meth[m], p, sizeof p) != PEERS || !*p) continue;
        int j = 0;
        while (j < np && strcmp(peers[j], p)) j++;
        if (j == np && np < 4) snprintf(peers[np++], sizeof peers[0], "%s", p);
    }
    for (int g = 0; g < PEERS + np; g++) {
        int ns = group_methods(c, meth, nm, g < PEERS ? g : PEERS, g < PEERS ? "" : peers[g - PEERS], sub);
        if (!ns) continue;
        fprintf(f, "\n%s%s:\n", g < PEERS ? group_name[g] : peers[g - PEERS], g < PEERS ? "" : " (peer, live)");
        bf_table(f, c, bf, Ns, nN, sub, ns);
    }
}

static int cmp_model_pos(const void *pa, const void *pb)
{
    const timing_row *a = *(const timing_row *const *)pa, *b = *(const timing_row *const *)pb;
    int c = strcmp(a->model, b->model);
    return c ? c : (a > b) - (a < b);
}

/* "## Other models": one row per model in order of first appearance, the
 * methods timed on them (robot_methods may leave most out). */
static int others_section(FILE *f, const tables_ctx *c, const char **meth, int nm)
{
    const timing_row **o = malloc(sizeof *o * ((size_t)c->n + 1));
    char *first = calloc((size_t)c->n + 1, 1), *timed = calloc((size_t)nm + 1, 1);
    if (!o || !first || !timed) { free(o); free(first); free(timed); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int no = 0;
    for (int k = 0; k < c->n; k++)
        if (!isfinite(c->rows[k].bf)) o[no++] = &c->rows[k];
    qsort(o, (size_t)no, sizeof *o, cmp_model_pos);
    for (int k = 0; k < no; k++)
        if (!k || strcmp(o[k - 1]->model, o[k]->model)) first[o[k] - c->rows] = 1;
    for (int k = 0; k < no; k++)
        for (int m = 0; m < nm; m++) timed[m] |= !strcmp(o[k]->method, meth[m]);
    int nt = 0;
    for (int m = 0; m < nm; m++)
        if (timed[m]) meth[nt++] = meth[m];
    fputs("\n## Other models\n\n| model | nq | nv |", f);
    for (int m = 0; m < nt; m++) fprintf(f, " %s |", meth[m]);
    fputs("\n|---|---:|---:|", f);
    for (int m = 0; m < nt; m++) fputs("---:|", f);
    fputc('\n', f);
    for (int k = 0; k < c->n; k++) {
        const timing_row *r = &c->rows[k];
        if (!first[k]) continue;
        fprintf(f, "| %s | %d | %d |", r->model, r->nq, r->nv);
        for (int m = 0; m < nt; m++) cell(f, timing_index_find(&c->x, meth[m], r->model));
        fputc('\n', f);
    }
    free(o);
    free(first);
    free(timed);
    return RBD_OK;
}

static int write_tables(FILE *f, void *p)
{
    const tables_ctx *c = p;
    const char **meth = malloc(sizeof *meth * (size_t)(c->n + 1)), **sub = malloc(sizeof *sub * (size_t)(c->n + 1));
    double *bfs = malloc(sizeof *bfs * (size_t)(c->n + 1));
    int *Ns = malloc(sizeof *Ns * (size_t)(c->n + 1));
    if (!meth || !sub || !bfs || !Ns) {
        free(meth), free(sub), free(bfs), free(Ns);
        return rbd_fail(RBD_ENOMEM, "out of memory");
    }
    int nm = methods_of(c->rows, c->n, meth), nbf = 0, others = 0;
    for (int k = 0; k < c->n; k++) {
        if (!isfinite(c->rows[k].bf)) { others = 1; continue; }
        int j = 0;
        while (j < nbf && bfs[j] != c->rows[k].bf) j++;
        if (j == nbf) bfs[nbf++] = c->rows[k].bf;
    }
    qsort(bfs, (size_t)nbf, sizeof *bfs, cmp_double);
    fputs("Sections: timings (per bf, a table per kind: ID, FD, second order, base algorithms, each peer), paired "
          "ratios (to idsva, to fdsva, to idsva-so and fdsva-so, DMM over AZA), accuracy against the MPFR reference, counters.  Every number "
          "is also in the CSV files beside this one (timings.csv, accuracy.csv), which a script should read "
          "instead.\n\n", f);
    if (c->n) fputs("# Timings: median microseconds per call\n\n"
          "Median over the timed batches of the wall time per call (timings.csv has min, quartiles and "
          "counters). autoTree models with the skew and taper in timings.csv.\n", f);
    int rc = RBD_OK;
    for (int b = 0; b < nbf && !rc; b++) {
        bf_section(f, c, bfs[b], Ns, meth, nm, sub);
        if (atomic_stopped()) rc = rbd_fail(RBD_EIO, "interrupted");     /* Ctrl-C in a merge (atomicio.h) */
    }
    if (!rc && others) rc = others_section(f, c, meth, nm);
    if (!rc && atomic_stopped()) rc = rbd_fail(RBD_EIO, "interrupted");
    free(meth), free(sub), free(bfs), free(Ns);
    if (rc) return rc;
    report_ratios(f, c->rows, c->n);
    /* the accuracy audit's summary, when the run has one */
    csvlog acc;
    int present = 0;
    rc = accuracy_read(c->dir, &acc, &present);
    if (rc) return rc;
    if (present) {
        csvlog cond;
        int have_cond = 0;
        if ((rc = conditioning_read(c->dir, &cond, &have_cond))) { csvlog_close(&acc); return rc; }
        if (c->n) fputc('\n', f);
        accuracy_summary(f, &acc, have_cond ? &cond : NULL);
        csvlog_close(&acc);
        if (have_cond) csvlog_close(&cond);
    }
    write_rates(f, c->rows, c->n, &c->x);
    return RBD_OK;
}

int report_write_tables(const char *dir, const timing_row *rows, int n)
{
    char *path = results_path(dir, "tables.md");
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    tables_ctx c = { rows, n, dir, { NULL, NULL, 0, 0 } };
    int rc = timing_index_build(rows, n, &c.x);
    if (!rc) rc = atomic_write(path, write_tables, &c);
    timing_index_free(&c.x);
    free(path);
    return rc;
}

int report_write_derived(const char *dir, const timing_row *rows, int n, const char *cmdline)
{
    char *gb = results_path(dir, "benchmarks.json");
    int rc = gb ? report_write_tables(dir, rows, n) : rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc) rc = gbench_write(gb, rows, n, cmdline);
    free(gb);
    return rc;
}

int report_write_derived_log(const char *dir, const csvlog *timings, const char *cmdline)
{
    void *rows = NULL;
    int rc = csvlog_rows(timings, sizeof(timing_row), &rows);
    if (!rc) rc = timing_rows_attach(dir, rows, timings->nrows);
    if (!rc) rc = report_write_derived(dir, rows, timings->nrows, cmdline);
    free(rows);
    return rc;
}
