/* Crossover N: bisection over N with a sign test at every probe. */
#include <math.h>
#include "rbdiff/rbd.h"
#include "measure/crossover.h"

void xo_opts_default(xo_opts *o)
{
    o->lo = 1;
    o->hi = 500;
    o->min_reps = 7;     /* 7 of 7 pairs one way: p = 1/128 < 0.01 */
    o->max_reps = 41;
    o->alpha = 0.01;     /* ~9 probes over [1, 500]: confidence >= ~0.9 */
}

const char *xo_status_name(xo_status s)
{
    static const char *n[] = { "found", "at-lo", "none", "unresolved" };
    return s >= XO_FOUND && s <= XO_UNRESOLVED ? n[s] : "?";
}

double xo_sign_tail(int k, int n)
{
    if (k <= 0) return 1;
    if (k > n) return 0;
    /* sum_{j >= k} C(n, j) 2^-n, in logs so n up to thousands is safe */
    double s = 0;
    for (int j = k; j <= n; j++) s += exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0) - n * log(2.0));
    return s > 1 ? 1 : s;
}

int xo_probe(xo_measure f, void *ctx, const xo_opts *o, int N, double *p, int *reps, int *err)
{
    int a_wins = 0, n = 0;
    *p = 1;
    *err = 0;
    while (n < o->max_reps) {
        /* Alternate the order so drift (frequency, heat) hits both alike. */
        double ta, tb;
        if (n % 2 == 0) { ta = f(ctx, 0, N); tb = ta < 0 ? ta : f(ctx, 1, N); }
        else { tb = f(ctx, 1, N); ta = tb < 0 ? tb : f(ctx, 0, N); }
        if (ta < 0 || tb < 0) { *err = (int)(ta < 0 ? ta : tb); *reps = n; return 0; }
        n++;
        if (ta < tb) a_wins++;
        if (n < o->min_reps) continue;
        double pa = xo_sign_tail(a_wins, n), pb = xo_sign_tail(n - a_wins, n);
        if (pa <= o->alpha) { *p = pa; *reps = n; return 1; }
        if (pb <= o->alpha) { *p = pb; *reps = n; return -1; }
    }
    *reps = n;
    return 0;
}

int xo_bisect(xo_measure f, void *ctx, const xo_opts *o, xo_result *r)
{
    if (o->lo < 1 || o->hi <= o->lo)
        return rbd_fail(RBD_EINVAL, "crossover: range [%d, %d] must satisfy 1 <= lo < hi", o->lo, o->hi);
    if (o->min_reps < 1 || o->max_reps < o->min_reps || !(o->alpha > 0 && o->alpha < 1))
        return rbd_fail(RBD_EINVAL, "crossover: need 1 <= min_reps <= max_reps and 0 < alpha < 1");
    r->lo = o->lo;
    r->hi = o->hi;
    r->probes = r->reps = 0;
    r->n_cross = 0;
    double psum = 0, p;
    int reps, err;

#define PROBE(N, dec)                                                     \
    do {                                                                  \
        dec = xo_probe(f, ctx, o, (N), &p, &reps, &err);                  \
        r->probes++;                                                      \
        r->reps += reps;                                                  \
        if (err) return err;                                              \
        if (dec) psum += p;                                               \
    } while (0)

    int dec;
    PROBE(o->hi, dec);
    if (dec == 0) { r->status = XO_UNRESOLVED; r->n_cross = o->hi; goto done; }
    if (dec < 0) { r->status = XO_NONE; goto done; }
    PROBE(o->lo, dec);
    if (dec == 0) { r->status = XO_UNRESOLVED; r->n_cross = o->lo; goto done; }
    if (dec > 0) { r->status = XO_AT_LO; r->n_cross = o->lo; r->hi = o->lo; goto done; }
    /* Invariant: B faster at r->lo, A faster at r->hi. */
    while (r->hi - r->lo > 1) {
        int mid = r->lo + (r->hi - r->lo) / 2;
        PROBE(mid, dec);
        if (dec == 0) { r->status = XO_UNRESOLVED; r->n_cross = mid; goto done; }
        if (dec > 0) r->hi = mid; else r->lo = mid;
    }
    r->status = XO_FOUND;
    r->n_cross = r->hi;
done:
    r->confidence = 1 - psum < 0 ? 0 : 1 - psum;
    return RBD_OK;
#undef PROBE
}
