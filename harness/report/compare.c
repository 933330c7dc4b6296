/* compare.h: rank test on batch samples, IQR fallback, instruction counts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rbdiff/rbd.h"
#include "report/compare.h"
#include "store/timing_index.h"

void cmp_opts_default(cmp_opts *o)
{
    o->threshold = 0.10;
    o->ins_threshold = 0.02;
    o->alpha = 0.01;
}

const char *cmp_verdict_name(cmp_verdict v)
{
    return v == CMP_FASTER ? "faster" : v == CMP_SLOWER ? "slower" : "same within noise";
}

typedef struct {
    double v;
    int from_y;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    double x = ((const ranked *)a)->v, y = ((const ranked *)b)->v;
    return (x > y) - (x < y);
}

double mann_whitney_p_greater(const double *x, int nx, const double *y, int ny)
{
    if (nx < 1 || ny < 1) return NAN;
    int n = nx + ny;
    ranked s[2 * RBD_MAX_SAMPLES];
    if (n > 2 * RBD_MAX_SAMPLES) return NAN;
    for (int k = 0; k < nx; k++) s[k] = (ranked){ x[k], 0 };
    for (int k = 0; k < ny; k++) s[nx + k] = (ranked){ y[k], 1 };
    qsort(s, (size_t)n, sizeof *s, cmp_ranked);
    /* midranks; ties shrink the variance by sum (t^3 - t) / (n (n - 1)) */
    double ry = 0, ties = 0;
    for (int a = 0; a < n;) {
        int b = a;
        while (b + 1 < n && s[b + 1].v == s[a].v) b++;
        double mid = 0.5 * (a + b) + 1, t = b - a + 1;
        for (int k = a; k <= b; k++)
            if (s[k].from_y) ry += mid;
        ties += t * t * t - t;
        a = b + 1;
    }
    double U = ry - 0.5 * ny * (ny + 1.0);  /* pairs with y > x (+ 1/2 per tie) */
    double mu = 0.5 * nx * ny;
    double var = nx * ny / 12.0 * ((n + 1.0) - ties / ((double)n * (n - 1)));
    if (!(var > 0)) return 0.5;             /* all equal: no evidence either way */
    double z = (U - mu - 0.5) / sqrt(var);  /* continuity correction */
    return 0.5 * erfc(z / sqrt(2.0));
}

void compare_rows(const timing_row *b, const timing_row *n, const cmp_opts *o, cmp_result *r)
{
    r->ratio = n->median_ns / b->median_ns;
    r->p = NAN;
    r->verdict = CMP_SAME;
    if (isfinite(r->ratio)) {
        if (b->nsamples >= CMP_MIN_SAMPLES && n->nsamples >= CMP_MIN_SAMPLES) {
            double up = mann_whitney_p_greater(b->samples, b->nsamples, n->samples, n->nsamples);
            double down = mann_whitney_p_greater(n->samples, n->nsamples, b->samples, b->nsamples);
            if (up <= o->alpha && r->ratio > 1) { r->verdict = CMP_SLOWER; r->p = up; }
            else if (down <= o->alpha && r->ratio < 1) { r->verdict = CMP_FASTER; r->p = down; }
            else r->p = r->ratio >= 1 ? up : down;
        } else if (n->q1_ns > b->q3_ns) {
            /* half of each run's batches lie inside its IQR: disjoint IQRs
             * mean most batches of one run beat most of the other's */
            r->verdict = CMP_SLOWER;
        } else if (n->q3_ns < b->q1_ns) {
            r->verdict = CMP_FASTER;
        }
    }
    r->ins_ratio = isfinite(b->instructions) && isfinite(n->instructions) && b->instructions > 0
                       ? n->instructions / b->instructions : NAN;
    r->time_regression = r->verdict == CMP_SLOWER && r->ratio > 1 + o->threshold;
    r->ins_regression = isfinite(r->ins_ratio) && r->ins_ratio > 1 + o->ins_threshold;
    r->regression = r->time_regression || r->ins_regression;
}

static void num(char *buf, size_t len, const char *fmt, double x)
{
    if (isfinite(x)) snprintf(buf, len, fmt, x);
    else snprintf(buf, len, "-");
}

int compare_runs(FILE *f, const timing_row *b, int nb, const timing_row *n, int nn, const cmp_opts *o,
                 const char *base_name, const char *new_name)
{
    timing_names bx, nx;
    int rc = timing_names_build(b, nb, &bx);
    if (rc) return rc;
    if ((rc = timing_names_build(n, nn, &nx))) {
        timing_names_free(&bx);
        return rc;
    }
    int regressions = 0, common = 0, faster = 0, slower = 0, ranked = 0, any = 0;
    for (int i = 0; i < nb && !any; i++) any = timing_names_find(&nx, bx.name[i]) >= 0;
    if (!any) {     /* refused before any table is printed */
        timing_names_free(&bx);
        timing_names_free(&nx);
        return rbd_fail(RBD_EINVAL, "no benchmark in common between %s and %s", base_name, new_name);
    }
    fprintf(f, "%-40s %12s %12s %7s %8s %8s  %s\n", "benchmark", "base_ns", "new_ns", "ratio", "p", "instr", "verdict");
    for (int i = 0; i < nb; i++) {
        char name[700], bs[32], ns[32], rs[32], ps[32], is[32];
        timing_row_name(&b[i], name, sizeof name);
        int j = timing_names_find(&nx, name);
        num(bs, sizeof bs, "%.1f", b[i].median_ns);
        if (j < 0) { fprintf(f, "%-40s %12s %12s %7s %8s %8s  only in BASE\n", name, bs, "-", "-", "-", "-"); continue; }
        cmp_result r;
        compare_rows(&b[i], &n[j], o, &r);
        num(ns, sizeof ns, "%.1f", n[j].median_ns);
        num(rs, sizeof rs, "%.3f", r.ratio);
        num(is, sizeof is, "%.4f", r.ins_ratio);
        if (isfinite(r.p)) snprintf(ps, sizeof ps, "%.2g", r.p);
        else snprintf(ps, sizeof ps, isfinite(r.ratio) ? "iqr" : "-");
        const char *why = r.time_regression && r.ins_regression ? "  REGRESSION (time, instructions)"
                          : r.time_regression                   ? "  REGRESSION (time)"
                          : r.ins_regression                    ? "  REGRESSION (instructions)"
                                                                : "";
        fprintf(f, "%-40s %12s %12s %7s %8s %8s  %s%s\n", name, bs, ns, rs, ps, is,
               isfinite(r.ratio) ? cmp_verdict_name(r.verdict) : "no times", why);
        common++;
        ranked += isfinite(r.p);
        regressions += r.regression;
        faster += r.verdict == CMP_FASTER;
        slower += r.verdict == CMP_SLOWER;
    }
    for (int j = 0; j < nn; j++) {
        char name[700], ns[32];
        timing_row_name(&n[j], name, sizeof name);
        num(ns, sizeof ns, "%.1f", n[j].median_ns);
        if (timing_names_find(&bx, name) < 0) fprintf(f, "%-40s %12s %12s %7s %8s %8s  only in NEW\n", name, "-", ns, "-", "-", "-");
    }
    fprintf(f, "\n%d compared (%d by rank test): %d faster, %d slower, %d same within noise; %d regression%s "
           "(time beyond %g%%, instructions beyond %g%%)\n",
           common, ranked, faster, slower, common - faster - slower, regressions, regressions == 1 ? "" : "s",
            100 * o->threshold, 100 * o->ins_threshold);
    timing_names_free(&bx);
    timing_names_free(&nx);
    return regressions;
}
