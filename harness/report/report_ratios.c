/* tables.md, "Paired ratios": every ID method's time over idsva's, every
 * FD method's over fdsva's, every second-order one's over idsva-so's (ID2)
 * or fdsva-so's (FD2), model by model, from the per-batch samples.
 * The methods of one model are timed in rounds (timing_measure_set), so
 * batch b of two methods was taken side by side: the ratio is the median
 * over rounds of ns_b / baseline ns_b, and the count says in how many
 * rounds the baseline was the faster one, so a reader can tell a real
 * difference (11/11) from a tie (6/11). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "report/report_ratios.h"
#include "measure/method_facts.h"
#include "store/timing_index.h"
#include "measure/timing.h"

int report_paired_q(const timing_row *r, const timing_row *b, double *ratio, double *q1, double *q3,
                    int *base_faster)
{
    int K = r->nsamples < b->nsamples ? r->nsamples : b->nsamples;
    if (K < 1) return 0;
    rbd_stats st;
    if (timing_paired_stats(r->samples, b->samples, K, &st)) st.median = st.q1 = st.q3 = NAN;
    *ratio = st.median;
    *q1 = st.q1;
    *q3 = st.q3;
    *base_faster = 0;
    for (int k = 0; k < K; k++) *base_faster += b->samples[k] < r->samples[k];
    return K;
}

int report_paired(const timing_row *r, const timing_row *b, double *ratio, int *base_faster)
{
    double q1, q3;
    return report_paired_q(r, b, ratio, &q1, &q3, base_faster);
}

int report_vs_peer(const timing_row *ours, const timing_row *peer, double *ratio, int *ours_faster)
{
    int K = report_paired(ours, peer, ratio, ours_faster);
    *ours_faster = 0;
    for (int k = 0; k < K; k++) *ours_faster += ours->samples[k] < peer->samples[k];
    return K;
}

/* Rows of the methods in meth[] (by name) and the baseline's model rows. */
static void ratio_rows(FILE *f, const timing_row *rows, int n, const timing_index *x, const char *base,
                       const char **meth, int nm)
{
    for (int k = 0; k < n; k++) {
        const timing_row *b = &rows[k];
        if (strcmp(b->method, base)) continue;
        const char *model = b->model + (strncmp(b->model, "autotree:", 9) ? 0 : 9);
        fprintf(f, "| %s | %d |", model, b->nv);
        for (int m = 0; m < nm; m++) {
            const timing_row *r = timing_index_find(x, meth[m], b->model);
            double q;
            int w, K = r ? report_paired(r, b, &q, &w) : 0;
            if (K && isfinite(q)) fprintf(f, " %.3g (%d/%d) |", q, w, K);
            else fputs(" - |", f);
        }
        fputc('\n', f);
    }
}

/* Fig. 7: t(DMM flavour) / t(fdsva-aza), above 1 where AZA is faster. */
static void table_fig7(FILE *f, const timing_row *rows, int n, const timing_index *x)
{
    static const char *const dmm[] = { "fdsva-dmm", "fdsva-dmm-loop" };
    const char *meth[2];
    int nm = 0, any = 0;
    for (int m = 0; m < 2; m++) {
        int have = 0;
        for (int k = 0; k < n && !have; k++) have = !strcmp(rows[k].method, dmm[m]) && rows[k].nsamples > 0;
        if (have) meth[nm++] = dmm[m];
    }
    for (int k = 0; k < n && !any; k++) any = !strcmp(rows[k].method, "fdsva-aza") && rows[k].nsamples > 0;
    if (!nm || !any) return;
    fputs("\n## Paired ratios DMM over AZA (Fig. 7)\n\n"
          "Each cell: median over the rounds of the DMM flavour's ns per call over fdsva-aza's in the same round "
          "(above 1: AZA faster; fig7_speedup plots these), and (w/K): in w of K rounds fdsva-aza was the "
          "faster.\n\n| model | nv |", f);
    for (int m = 0; m < nm; m++) fprintf(f, " %s |", meth[m]);
    fputs("\n|---|---:|", f);
    for (int m = 0; m < nm; m++) fputs("---:|", f);
    fputc('\n', f);
    ratio_rows(f, rows, n, x, "fdsva-aza", meth, nm);
}

static void table(FILE *f, const timing_row *rows, int n, const timing_index *x, const char *kind, const char *base)
{
    const char **meth = malloc(sizeof *meth * ((size_t)n + 1));
    if (!meth) return;
    int nm = 0;
    for (int k = 0; k < n; k++) {
        if (strcmp(rows[k].kind, kind) || !strcmp(rows[k].method, base)) continue;
        int j = 0;
        while (j < nm && strcmp(meth[j], rows[k].method)) j++;
        if (j == nm) meth[nm++] = rows[k].method;
    }
    int any = 0;
    for (int k = 0; k < n && !any; k++) any = !strcmp(rows[k].method, base) && rows[k].nsamples > 0;
    if (!nm || !any) { free(meth); return; }
    fprintf(f, "\n## Paired ratios to %s (%s methods)\n\n"
               "Each cell: median over the rounds of this method's ns per call over %s's in the same round, "
               "and (w/K): in w of K rounds %s was the faster.\n\n| model | nv |", base, kind, base, base);
    for (int m = 0; m < nm; m++) fprintf(f, " %s |", meth[m]);
    fputs("\n|---|---:|", f);
    for (int m = 0; m < nm; m++) fputs("---:|", f);
    fputc('\n', f);
    ratio_rows(f, rows, n, x, base, meth, nm);
    free(meth);
}

void report_ratios(FILE *f, const timing_row *rows, int n)
{
    timing_index x;
    if (timing_index_build(rows, n, &x)) return;
    table(f, rows, n, &x, "ID", method_kind_baseline("ID"));
    table(f, rows, n, &x, "FD", method_kind_baseline("FD"));
    table(f, rows, n, &x, "ID2", method_kind_baseline("ID2"));
    table(f, rows, n, &x, "FD2", method_kind_baseline("FD2"));
    table_fig7(f, rows, n, &x);
    timing_index_free(&x);
}
