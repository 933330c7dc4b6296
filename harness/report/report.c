/* tables.md: median microseconds per call, one table per branching factor
 * (N rows x method columns) and one for the other models. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "report/report_accuracy.h"
#include "report/report_ratios.h"
#include "store/results.h"
#include "store/timing_index.h"

typedef struct {
    const timing_row *rows;
    int n;
    const char *dir;
} tables_ctx;

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
static void write_rates(FILE *f, const timing_row *rows, int n)
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
    fputs(".\n\n| method | model | median us | instructions | cycles | FP ops | flops | GFLOP/s | % dgemm peak |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|\n", f);
    for (int k = 0; k < n; k++) {
        const timing_row *r = &rows[k];
        if (!isfinite(r->instructions) && !isfinite(r->flops) && !isfinite(r->fp_ops)) continue;
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

/* One table per bf: N rows (ascending) x method columns; x->by_bnm holds
 * the autoTree rows sorted by bf, N, method. */
static void bf_tables(FILE *f, const timing_index *x, const char **meth, int nm)
{
    for (int s = 0; s < x->nb;) {
        double bf = x->by_bnm[s]->bf;
        int e = s;
        while (e < x->nb && x->by_bnm[e]->bf == bf) e++;
        fprintf(f, "\n## bf = %g%s\n\n| N |", bf, bf == 1 ? " (serial chain)" : "");
        for (int m = 0; m < nm; m++) fprintf(f, " %s |", meth[m]);
        fputs("\n|---:|", f);
        for (int m = 0; m < nm; m++) fputs("---:|", f);
        fputc('\n', f);
        for (int k = s; k < e; k++) {
            int N = x->by_bnm[k]->N;
            if (k > s && x->by_bnm[k - 1]->N == N) continue;
            fprintf(f, "| %d |", N);
            for (int m = 0; m < nm; m++) cell(f, timing_index_find_bnm(x, bf, N, meth[m]));
            fputc('\n', f);
        }
        s = e;
    }
}

static int cmp_model_pos(const void *pa, const void *pb)
{
    const timing_row *a = *(const timing_row *const *)pa, *b = *(const timing_row *const *)pb;
    int c = strcmp(a->model, b->model);
    return c ? c : (a > b) - (a < b);
}

/* The other models (robots, URDFs), one row each in order of first
 * appearance, the columns of the methods timed on them (robot_methods may
 * leave most out). */
static int other_table(FILE *f, const tables_ctx *c, const timing_index *x, const char **meth, int nm)
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
        for (int m = 0; m < nt; m++) cell(f, timing_index_find(x, meth[m], r->model));
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
    const char **meth = malloc(sizeof *meth * (size_t)(c->n + 1));
    timing_index x;
    if (!meth || timing_index_build(c->rows, c->n, &x)) { free(meth); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int nm = methods_of(c->rows, c->n, meth), rc = RBD_OK;
    if (c->n) fputs("# Timings: median microseconds per call\n\n"
          "Median over the timed batches of the wall time per call (timings.csv has min, quartiles and "
          "counters). autoTree models with the skew and taper in timings.csv.\n", f);
    bf_tables(f, &x, meth, nm);
    if (x.nb < c->n) rc = other_table(f, c, &x, meth, nm);
    timing_index_free(&x);
    free(meth);
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
    write_rates(f, c->rows, c->n);
    return RBD_OK;
}

int report_write_tables(const char *dir, const timing_row *rows, int n)
{
    char *path = results_path(dir, "tables.md");
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    tables_ctx c = { rows, n, dir };
    int rc = atomic_write(path, write_tables, &c);
    free(path);
    return rc;
}
