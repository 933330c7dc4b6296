/* Claims of the paper against measured data (report_claims.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rbdiff/rbd.h"
#include "report/report_claims.h"
#include "report/report_ratios.h"

/* WHERE: N=100 | N>=2 | N=2..500, bf=1 | bf=*, skew=X (accuracy: the autoTree
 * skew of the model spec, 0 where it names none), robot=NAME | robot=A|B|.. | robot=* */
typedef struct {
    int Nlo, Nhi, robot, any_bf, has_skew;
    double bf, skew;
    char name[64];
} where_t;

static int parse_where(const char *w, where_t *o)
{
    memset(o, 0, sizeof *o);
    o->Nlo = 1;
    o->Nhi = 1 << 30;
    o->any_bf = 1;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", w);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
        int a, b;
        if (sscanf(t, "N=%d..%d", &a, &b) == 2) { o->Nlo = a; o->Nhi = b; }
        else if (sscanf(t, "N>=%d", &a) == 1) o->Nlo = a;
        else if (sscanf(t, "N=%d", &a) == 1) o->Nlo = o->Nhi = a;
        else if (!strcmp(t, "bf=*")) o->any_bf = 1;
        else if (!strncmp(t, "bf=", 3)) { o->any_bf = 0; o->bf = atof(t + 3); }
        else if (!strncmp(t, "skew=", 5)) { o->has_skew = 1; o->skew = atof(t + 5); }
        else if (!strncmp(t, "robot=", 6)) { o->robot = 1; snprintf(o->name, sizeof o->name, "%s", t + 6); }
        else return rbd_fail(RBD_EPARSE, "where: '%s' is not N=.., N>=.., N=a..b, bf=.., skew=.. or robot=..", t);
    }
    return RBD_OK;
}

/* The skew of an autoTree spec (0, autoTree's default, where it names none). */
static double spec_skew(const char *spec)
{
    const char *p = strstr(spec, "skew=");
    return p ? atof(p + 5) : 0.0;
}

/* 1 if the model spec is one of the robots NAME or A|B|C (tests/models/NAME.urdf), or any for "*" */
static int robot_match(const char *model, const char *names)
{
    if (!strcmp(names, "*")) return 1;
    for (const char *p = names; *p;) {
        size_t k = strcspn(p, "|");
        char pat[80];
        snprintf(pat, sizeof pat, "/%.*s.urdf", (int)k, p);
        if (strstr(model, pat)) return 1;
        p += k + (p[k] == '|');
    }
    return 0;
}

static int row_in(const timing_row *r, const where_t *w)
{
    if (w->robot) return !isfinite(r->bf) && robot_match(r->model, w->name);
    return isfinite(r->bf) && r->N >= w->Nlo && r->N <= w->Nhi && (w->any_bf || r->bf == w->bf);
}

static const char *short_model(const char *m)
{
    if (!strncmp(m, "autotree:", 9)) return m + 9;
    const char *s = strrchr(m, '/');
    return s ? s + 1 : m;
}

/* t(a) / t(b): paired (the median over the rounds of the per-round ratio),
 * the ratio of the medians for rows without samples. */
static double pair_ratio(const timing_row *a, const timing_row *b)
{
    double q;
    int wins;
    return report_paired(a, b, &q, &wins) ? q : a->median_ns / b->median_ns;
}

/* Paired t(A) / t(B) over the models of w: min, max, where; count. */
static int ratios(const claim_data *d, const claim *c, const where_t *w, double *mn, double *mx, char *at_min,
                  char *at_max, size_t len)
{
    int cnt = 0;
    *mn = INFINITY;
    *mx = -INFINITY;
    for (int k = 0; k < d->nrows; k++) {
        const timing_row *b = &d->rows[k];
        if (strcmp(b->method, c->B) || !row_in(b, w)) continue;
        const timing_row *a = timing_rows_find(d->rows, d->nrows, c->A, b->model);
        if (!a) continue;
        double q = pair_ratio(a, b);
        if (!isfinite(q)) continue;
        cnt++;
        char where[160];  /* N=..,bf=.. or the URDF name */
        if (isfinite(b->bf)) snprintf(where, sizeof where, "N=%d,bf=%g", b->N, b->bf);
        else snprintf(where, sizeof where, "%.80s", short_model(b->model));
        if (q < *mn) {
            /* where, and (paired rows) in how many rounds B was the faster there */
            double q2;
            int wins, K = report_paired(a, b, &q2, &wins);
            *mn = q;
            if (K) snprintf(at_min, len, "%.100s, %.40s faster in %d of %d rounds", where, c->B, wins, K);
            else snprintf(at_min, len, "%s", where);
        }
        if (q > *mx) { *mx = q; snprintf(at_max, len, "%s", where); }
    }
    return cnt;
}

/* Which way a measured value differs from the paper's (f = measured /
 * paper), in the claim's own terms, so "differs" says what it means. */
static const char *direction(const claim *c, double f)
{
    static char buf[400];
    if (!strncmp(c->kind, "accuracy", 8)) return f > 1 ? "less accurate here" : "more accurate here";
    if (!strncmp(c->kind, "crossover", 9))
        snprintf(buf, sizeof buf, "%s overtakes %s at a %s N here", c->A, c->B, f > 1 ? "larger" : "smaller");
    else if (f > 1) snprintf(buf, sizeof buf, "t(%s)/t(%s) higher: %s's lead over %s larger here", c->A, c->B, c->B, c->A);
    else snprintf(buf, sizeof buf, "t(%s)/t(%s) lower: %s's lead over %s smaller here", c->A, c->B, c->B, c->A);
    return buf;
}

static claim_verdict against(double v, double paper, double tol, const claim *c, char *verdict, size_t vlen,
                             const char *fmt)
{
    char mv[32], pv[32];
    snprintf(mv, sizeof mv, fmt, v);
    snprintf(pv, sizeof pv, fmt, paper);
    double f = v / paper;
    if (f <= tol && f >= 1 / tol) {
        snprintf(verdict, vlen, "reproduced: %s against the paper's %s (x%.2f, within x%g)", mv, pv, f, tol);
        return CLAIM_REPRODUCED;
    }
    snprintf(verdict, vlen, "differs: %s against the paper's %s (x%.2g: %s)%s%s", mv, pv, f, direction(c, f),
             strcmp(c->setup, "-") ? "; " : "", strcmp(c->setup, "-") ? c->setup : "");
    return CLAIM_DIFFERS;
}

/* ratio, min, range: t(A) / t(B) paired per model over the models of WHERE. */
static claim_verdict check_ratios(const claim *c, const char *kind, const claim_data *d, const where_t *w,
                                  double paper, double tol, char *measured, size_t mlen, char *verdict, size_t vlen)
{
    double mn, mx;
    char at_min[320] = "", at_max[320] = "";
    int n = ratios(d, c, w, &mn, &mx, at_min, at_max, sizeof at_min);
    if (!n) {
        snprintf(verdict, vlen, "not measured: no paired %s and %s rows at %s in this run", c->A, c->B, c->where);
        return CLAIM_NOT_MEASURED;
    }
    if (!strcmp(kind, "ratio")) {
        snprintf(measured, mlen, "%.3g", mn);
        if (n > 1) snprintf(measured, mlen, "%.3g-%.3g (%d models)", mn, mx, n);
        return against(n > 1 ? sqrt(mn * mx) : mn, paper, tol, c, verdict, vlen, "%.3g");
    }
    if (!strcmp(kind, "min")) {
        snprintf(measured, mlen, "min %.3g at %s (%d models)", mn, at_min, n);
        if (mn > paper) {
            snprintf(verdict, vlen, "reproduced: above %g on all %d models (smallest %.3g at %s)", paper, n, mn,
                     at_min);
            return CLAIM_REPRODUCED;
        }
        int below = 0;
        for (int k = 0; k < d->nrows; k++) {
            const timing_row *b = &d->rows[k];
            if (strcmp(b->method, c->B) || !row_in(b, w)) continue;
            const timing_row *a = timing_rows_find(d->rows, d->nrows, c->A, b->model);
            if (a && pair_ratio(a, b) <= paper) below++;
        }
        snprintf(verdict, vlen, "differs: %.3g at %s, at or below %g on %d of %d models (t(%s)/t(%s) lower than the "
                 "paper's bound: %s not faster there)%s%s", mn, at_min, paper, below, n, c->A, c->B, c->B,
                 strcmp(c->setup, "-") ? "; " : "", strcmp(c->setup, "-") ? c->setup : "");
        return CLAIM_DIFFERS;
    }
    double lo, hi;
    sscanf(c->paper, "%lf:%lf", &lo, &hi);
    snprintf(measured, mlen, "%.3g (%s) to %.3g (%s)", mn, at_min, mx, at_max);
    if (mn >= lo / tol && mx <= hi * tol) {
        snprintf(verdict, vlen, "reproduced: %.3g-%.3g within the paper's %g-%g (x%g)", mn, mx, lo, hi, tol);
        return CLAIM_REPRODUCED;
    }
    snprintf(verdict, vlen, "differs: %.3g-%.3g against the paper's %g-%g (%s%s%s)%s%s", mn, mx, lo, hi,
             mn < lo / tol ? "below its low end" : "", mn < lo / tol && mx > hi * tol ? " and " : "",
             mx > hi * tol ? "above its high end" : "", strcmp(c->setup, "-") ? "; " : "",
             strcmp(c->setup, "-") ? c->setup : "");
    return CLAIM_DIFFERS;
}

/* crossover: the N at which A beats B (crossover.csv), or its bracket. */
static claim_verdict check_crossover(const claim *c, const claim_data *d, const where_t *w, double paper, double tol,
                                     char *measured, size_t mlen, char *verdict, size_t vlen)
{
    for (int i = 0; i < d->ncrossover; i++) {
        const crossover_row *r = &d->crossover[i];
        if (strcmp(r->A, c->A) || strcmp(r->B, c->B) || (!w->any_bf && r->bf != w->bf)) continue;
        if (isfinite(r->N_cross)) {
            snprintf(measured, mlen, "%.0f", r->N_cross);
            return against(r->N_cross, paper, tol, c, verdict, vlen, "%.0f");
        }
        if (!strcmp(r->status, "none")) {
            snprintf(measured, mlen, "none up to %d", r->bracket_hi);
            snprintf(verdict, vlen, "differs: %s not faster anywhere up to N = %d (range %s) against the paper's "
                     "%g%s%s", c->A, r->bracket_hi, r->range, paper, strcmp(c->setup, "-") ? "; " : "",
                     strcmp(c->setup, "-") ? c->setup : "");
            return CLAIM_DIFFERS;
        }
        /* unresolved: the crossover lies in the bracket; a verdict only if the whole bracket says one */
        int blo = r->bracket_lo, bhi = r->bracket_hi;
        double lo = blo, hi = bhi;
        snprintf(measured, mlen, "unresolved in [%d, %d]", blo, bhi);
        if (lo >= paper / tol && hi <= paper * tol) {
            snprintf(verdict, vlen, "reproduced: the whole bracket [%d, %d] (noise left it unresolved) is within "
                     "x%g of the paper's %g", blo, bhi, tol, paper);
            return CLAIM_REPRODUCED;
        }
        if (hi >= paper / tol && lo <= paper * tol) {
            snprintf(verdict, vlen, "not measured: the search stayed unresolved in [%d, %d], which holds the "
                     "paper's %g (x%g); noise prevented a decision (rerun on a quieter machine)", blo, bhi, paper,
                     tol);
            return CLAIM_NOT_MEASURED;
        }
        snprintf(verdict, vlen, "differs: the bracket [%d, %d] (unresolved) against the paper's %g (x%.2g: %s)%s%s",
                 blo, bhi, paper, sqrt(lo * hi) / paper, direction(c, sqrt(lo * hi) / paper),
                 strcmp(c->setup, "-") ? "; " : "", strcmp(c->setup, "-") ? c->setup : "");
        return CLAIM_DIFFERS;
    }
    snprintf(verdict, vlen, "not measured: no %s vs %s search at %s in this run", c->A, c->B, c->where);
    return CLAIM_NOT_MEASURED;
}

/* accuracy: the worst rms_rel of method A, output B at the models of WHERE. */
static claim_verdict check_accuracy(const claim *c, const claim_data *d, const where_t *w, double paper, double tol,
                                    char *measured, size_t mlen, char *verdict, size_t vlen)
{
    double worst = -1;
    for (int i = 0; i < d->naccuracy; i++) {
        const accuracy_row *r = &d->accuracy[i];
        if (strcmp(r->method, c->A) || strcmp(r->output, c->B)) continue;
        int in = 0;
        if (w->robot) in = !isfinite(r->bf) && robot_match(r->model, w->name);
        else in = isfinite(r->bf) && r->N >= w->Nlo && r->N <= w->Nhi && (w->any_bf || r->bf == w->bf) &&
                  (!w->has_skew || fabs(spec_skew(r->model) - w->skew) < 1e-12);
        if (in && r->rms_rel > worst) worst = r->rms_rel;
    }
    if (worst < 0) {
        snprintf(verdict, vlen, "not measured: no accuracy rows of %s, %s at %s", c->A, c->B, c->where);
        return CLAIM_NOT_MEASURED;
    }
    snprintf(measured, mlen, "%.2g", worst);
    return against(worst, paper, tol, c, verdict, vlen, "%.2g");
}

claim_verdict claim_check(const claim *c, const claim_data *run, const claim_data *with, char *measured, size_t mlen,
                          char *verdict, size_t vlen)
{
    int use_with = strstr(c->kind, "-with") != NULL;
    const claim_data *d = use_with ? with : run;
    char kind[32];
    snprintf(kind, sizeof kind, "%.*s", (int)strcspn(c->kind, "-"), c->kind);
    snprintf(measured, mlen, "-");
    where_t w;
    if (parse_where(c->where, &w)) {
        snprintf(verdict, vlen, "not checked: %s", rbd_last_error());
        return CLAIM_NOT_MEASURED;
    }
    double tol = strcmp(c->tol, "-") ? atof(c->tol) : 1, paper = atof(c->paper);
    if (!d) {
        snprintf(verdict, vlen, "not measured: needs a second build's run (`rbdiff report --with DIR`; scripts/run "
                 "times the robots and the crossover with clang)");
        return CLAIM_NOT_MEASURED;
    }
    if (!strcmp(kind, "ratio") || !strcmp(kind, "min") || !strcmp(kind, "range"))
        return check_ratios(c, kind, d, &w, paper, tol, measured, mlen, verdict, vlen);
    if (!strcmp(kind, "crossover")) return check_crossover(c, d, &w, paper, tol, measured, mlen, verdict, vlen);
    return check_accuracy(c, d, &w, paper, tol, measured, mlen, verdict, vlen);
}
