/*
 * Scoring of the second-order methods (rbd_so_methods) against the 256-bit
 * reference (reference/ref_so.c), shared by tests/test_so_methods.c and
 * tests/test_so_large.c: term-wise RMS relative error per tensor over the
 * entries above 1e-6 of its largest, and normwise; the analytical methods
 * under 1e-9, the central differences (id2-fd, fd2-fd) under their bounds
 * (bound_of; README.md, "The methods").  RBD_SO_VERBOSE=1 prints every figure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "so_score.h"
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "rbdref_so.h"

/* Term-wise RMS relative error over the entries |R| > floor max|R| (the
 * audit's metric with floor 1e-12), and the normwise ||X - R||_F / ||R||_F.
 * The tensors hold many entries that are small by cancellation of terms of
 * the size of max|R|: any double computation gets them to ~u max|R| in
 * absolute terms, so an entry at 1e-12 max|R| carries a relative error
 * near 1e-4 whatever the method (hyq's dM/dq has such entries).  The
 * tests therefore count the entries above 1e-6 max|R|, where that rounding
 * is ~1e-10 relative, under the 1e-9 target; README.md says so. */
double so_rms_rel_above(const double *X, const double *R, size_t n, double floor, double *normwise)
{
    double mx = 0, s = 0, d2 = 0, r2 = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < n; k++) mx = isnan(R[k]) ? mx : fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++) {
        if (isnan(R[k])) continue;      /* an entry the reference did not compute (rbdref_so_eval_slabs) */
        d2 += (X[k] - R[k]) * (X[k] - R[k]);
        r2 += R[k] * R[k];
        if (fabs(R[k]) > floor * mx) {
            double e = (X[k] - R[k]) / R[k];
            s += e * e;
            cnt++;
        }
    }
    *normwise = r2 > 0 ? sqrt(d2 / r2) : sqrt(d2);
    return cnt ? sqrt(s / cnt) : 0;
}

/* The analytical methods: 1e-9 term-wise and normwise.  Central differences
 * (id2-fd, fd2-fd): an absolute error ~ eps^(2/3) max|T| (so_fd.c), so 1e-6
 * normwise, and term-wise 1e-2 (an entry at 1e-6 max|T| may lose that much;
 * the multi-dof chain's d2qdd/dq2 reaches 1.0e-3). */
static int is_fd(const rbd_method *meth)
{
    return strstr(meth->name, "-fd") != NULL;
}

/* A composition through M^-1 has a floor of its own on deep chains: from
 * exact factors rounded once, its products in long double still reach
 * 1.7e-9 (d2qdd_dq2) and 8.4e-9 (d2qdd_dqdtau) term-wise on the chain of
 * 100 (cond(M) 1e8; tests/so_stages, methods/README.md "fdsva-so below
 * 1e-9"): the factors' rounding, not the products.  fdsva-so-dmm (dgemm
 * with M^-1) reaches 3.5e-9 to 1.0e-8 there, 1.3e-9 to 3.3e-9 on the
 * multi-dof chain (cond(M) 2.4e4): max(1e-9, min(2e-12 cond(M), 1e-7)).
 * fdsva-so-aza forms d2qdd_dv2 and d2qdd_dqdtau as first-order slabs (4e-10
 * there), part of d2qdd_dqdv too (7.8e-10), and d2qdd_dq2 through AZA:
 * 1.7e-9 to 2.2e-9 on the chain of 100, 1.3e-9 on the multi-dof chain, so
 * max(1e-9, min(2e-13 cond(M), 5e-9)).  Every other analytical method is
 * held to 1e-9 on every model: idsva-so, id2-cs, fd2-cs (the complex step
 * of the tangent-linear ABA, no composition: 4e-12 to 2e-11 on those
 * chains) and fdsva-so, which takes fd2-cs on them (its depth rule). */
/* Central differences of fdsva (fd2-fd) lose more on the chains of 100
 * (4.3e-6 normwise, 6.6e-2 term-wise on the skewed chain with taper 0.99;
 * 7.7e-6 and 5.6e-2 with taper 0.97, cond(M) 1.5e11): 1e-5 normwise and
 * 1e-1 term-wise for them (README.md). */
static double bound_of(const rbd_method *meth, int termwise, double cond)
{
    if (is_fd(meth) && !rbd_output_is_id(meth->output))
        return termwise ? 1e-1 : 1e-5;
    if (is_fd(meth)) return termwise ? 1e-2 : 1e-6;
    if (!strcmp(meth->name, "fdsva-so-dmm")) return fmax(1e-9, fmin(2e-12 * cond, 1e-7));
    if (!strcmp(meth->name, "fdsva-so-aza")) return fmax(1e-9, fmin(2e-13 * cond, 5e-9));
    return 1e-9;
}

void so_score_model(rbd_model *m, const char *label, uint64_t seed, const int *slabs, int nslabs)
{
    const size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * nv), *a = malloc(sizeof(double) * nv),
           *tau = malloc(sizeof(double) * nv);
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    rbd_random_state(m, &r, q, v, a, tau);
    rbdref_so_result ref;
    assert_int_equal(rbdref_so_result_init(&ref, m->nv), 0);
    if (slabs ? rbdref_so_eval_slabs(m, q, v, a, tau, NULL, 0, slabs, nslabs, &ref) : rbdref_so_eval(m, q, v, a, tau, NULL, 0, &ref)) fail_msg("%s: reference: %s", label, rbd_last_error());
    double rcond = 1;
    assert_int_equal(rbd_mass_rcond(m, q, &rcond), 0);
    if (getenv("RBD_SO_VERBOSE")) printf("%s: cond(M) ~ %.3g\n", label, 1 / rcond);
    double *buf = calloc(2 * nv + 4 * n3, sizeof *buf);
    char bad[256] = "";                 /* the first method over its bound; the rest still scored */
    for (int k = 0; rbd_so_methods[k]; k++) {
        const rbd_method *meth = rbd_so_methods[k];
        if (rbd_method_supports(meth, m)) continue;
        rbd_derivs d = { 0 };
        double **p[5] = { &d.tau, &d.d2tau_dq2, &d.d2tau_dv2, &d.d2tau_dqdv, &d.dM_dq };
        double **pf[5] = { &d.qdd, &d.d2qdd_dq2, &d.d2qdd_dv2, &d.d2qdd_dqdv, &d.d2qdd_dqdtau };
        const int id = rbd_output_is_id(meth->output);
        for (int t = 0; t < 5; t++) *(id ? p[t] : pf[t]) = t ? buf + 2 * nv + (t - 1) * n3 : buf;
        void *ws = NULL;
        if (meth->init(m, NULL, &ws)) fail_msg("%s: %s init: %s", label, meth->name, rbd_last_error());
        rbd_state x = { q, v, a, tau };
        if (rbd_method_eval(meth, ws, m, &x, &d)) fail_msg("%s: %s: %s", label, meth->name, rbd_last_error());
        meth->fini(ws);
        const char *const *names = rbd_so_output_names(meth->output);
        for (int t = 0; t < 5; t++) {
            size_t n;
            const double *R = rbdref_so_result_get(&ref, names[t], &n);
            double nw, e = so_rms_rel_above(*(id ? p[t] : pf[t]), R, n, 1e-6, &nw);
            double e12 = so_rms_rel_above(*(id ? p[t] : pf[t]), R, n, 1e-12, &nw);
            if (getenv("RBD_SO_VERBOSE")) {
                const double *X = *(id ? p[t] : pf[t]);
                size_t w = 0;
                double mx = 0, worst = 0;
                for (size_t i = 0; i < n; i++) mx = isnan(R[i]) ? mx : fmax(mx, fabs(R[i]));
                for (size_t i = 0; i < n; i++)
                    if (fabs(R[i]) > 1e-12 * mx && fabs(X[i] - R[i]) / fabs(R[i]) > worst) { worst = fabs(X[i] - R[i]) / fabs(R[i]); w = i; }
                printf("%-28.28s %-9s %-13s rms_rel %.2e (floor 1e-12: %.2e) normwise %.2e  worst (%zu,%zu,%zu) %.6g vs "
                       "%.6g (max %.3g)\n", label, meth->name, names[t], e, e12, nw, w % nv, w / nv % nv, w / nv / nv,
                       X[w], R[w], mx);
            }
            if (!(e < bound_of(meth, 1, 1 / rcond) && nw < bound_of(meth, 0, 1 / rcond)) && !*bad)
                snprintf(bad, sizeof bad, "%s: %s %s rms_rel %.3g normwise %.3g (bounds %.0e, %.0e)", label, meth->name,
                         names[t], e, nw, bound_of(meth, 1, 1 / rcond), bound_of(meth, 0, 1 / rcond));
        }
    }
    free(buf);
    rbdref_so_result_free(&ref);
    free(q); free(v); free(a); free(tau);
    if (*bad) fail_msg("%s", bad);
}

