/*
 * so_stages: where fdsva-so (methods/derivatives/so/fdsva_so.c) loses
 * accuracy, factor by factor, against the 256-bit reference
 * (methods/README.md, "fdsva-so on ill-conditioned chains").
 *
 *   so_stages [SPEC [SEED]]
 *
 * fdsva-so composes, per slab, qdd_xy = -M^-1 [ID_xy + A_j qdd_y + A_k qdd_x]
 * from four factors: the ID tensors (IDSVA-SO at a = qdd, dM/dq = A), the
 * first-order qdd_q, qdd_v (fdsva) and M^-1 (fdsva's analytic inverse).
 * At one random state (rbd_random_state from SEED; default the chain of
 * tests/test_so_large.c: autoTree N = 100, bf = 1, skew = 0.6, taper =
 * 0.99, seed 70) each factor is taken either computed in double by the
 * library or exact (the reference's, rounded to double once), the same
 * composition (double, dgemm, as fdsva-so does it) is formed, and the four
 * FD tensors are scored against the reference's on six slabs (the q and v
 * slabs of the first, a middle and the last dof, as test_so_large does) with
 * so_score's metrics: term-wise RMS relative error above 1e-6 of the
 * tensor's largest, and normwise.  Further lines replace the explicit
 * M^-1 by a Cholesky solve with the CRBA's M (LAPACK dpotrf/dpotrs) or by
 * AZA (aza.c), form the products in long double (whether the floor is the
 * products or the factors: the factors), take dM/dq exact on the slabs the
 * reference has, and try the first-order routes of fdsva_so.c.  The first
 * lines score the methods as shipped: fdsva-so (which takes fd2-cs, no
 * composition, on paths of 20 dofs or more) and fdsva-so-aza.
 */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "plan/modelspec.h"
#include "rbdref.h"
#include "rbdref_so.h"
#include "derivatives/fd/fd_compose.h"

static int n;
static size_t nn, n3;

static double *dup_of(const double *x, size_t len)
{
    double *p = malloc(sizeof *p * len);
    if (!p) { fputs("so_stages: out of memory\n", stderr); exit(1); }
    memcpy(p, x, sizeof *p * len);
    return p;
}

/* C(:, j, k) += A_j X(:, k) (trans_jk = 0) or A_k X(:, j) (1): fdsva_so.c's add_dM */
static void add_dM(const double *dM, const double *X, double *C, int trans_jk)
{
    for (int j = 0; j < n; j++)
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, dM + nn * (size_t)j, n, X, n, 1.0,
                    trans_jk ? C + nn * (size_t)j : C + (size_t)n * j, trans_jk ? n : (int)nn);
}

/* The four FD tensors from the factors: with Minv (explicit inverse) or,
 * when L is given (Cholesky factor of M), by solving. */
static void compose(const double *const T[4], const double *Fq, const double *Fv, const double *Minv,
                    const double *L, double *O[4])
{
    double *B[4];
    for (int t = 0; t < 3; t++) B[t] = dup_of(T[t], n3);
    if (!(B[3] = calloc(n3, sizeof *B[3]))) { fputs("so_stages: out of memory\n", stderr); exit(1); }
    add_dM(T[3], Fq, B[0], 0);
    add_dM(T[3], Fq, B[0], 1);
    add_dM(T[3], Fv, B[2], 0);
    add_dM(T[3], Minv, B[3], 0);
    for (int t = 0; t < 4; t++) {
        if (!L) {
            cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, (int)nn, n, -1.0, Minv, n, B[t], n, 0.0, O[t], n);
        } else {
            for (size_t k = 0; k < n3; k++) O[t][k] = -B[t][k];
            LAPACKE_dpotrs(LAPACK_COL_MAJOR, 'L', n, (int)nn, L, n, O[t], n);
        }
        free(B[t]);
    }
}

/* The same composition with every sum and product in long double (the
 * factors as given): whether the floor is the products or the factors. */
static void compose_ld(const double *const T[4], const double *Fq, const double *Fv, const double *Minv, double *O[4])
{
    long double *B = malloc(sizeof *B * n3), *col = malloc(sizeof *col * (size_t)n);
    if (!B || !col) { fputs("so_stages: out of memory\n", stderr); exit(1); }
    const double *A = T[3];
    for (int t = 0; t < 4; t++) {
        for (size_t k = 0; k < n3; k++) B[k] = t == 3 ? 0 : T[t][k];
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++) {
                long double *b = B + nn * (size_t)k + (size_t)n * j;   /* slab (:, j, k) */
                const double *Aj = A + nn * (size_t)j, *Ak = A + nn * (size_t)k;
                const double *xk = t == 1 ? NULL : (t == 3 ? Minv : t == 0 ? Fq : Fv) + (size_t)n * k;
                if (xk)
                    for (int l = 0; l < n; l++)
                        for (int r = 0; r < n; r++) b[r] += (long double)Aj[r + (size_t)n * l] * xk[l];
                if (t == 0)
                    for (int l = 0; l < n; l++)
                        for (int r = 0; r < n; r++) b[r] += (long double)Ak[r + (size_t)n * l] * Fq[l + (size_t)n * j];
            }
        for (size_t s = 0; s < nn; s++) {
            for (int r = 0; r < n; r++) col[r] = 0;
            for (int l = 0; l < n; l++) {
                long double bl = B[(size_t)n * s + l];
                for (int r = 0; r < n; r++) col[r] += (long double)Minv[r + (size_t)n * l] * bl;
            }
            for (int r = 0; r < n; r++) O[t][(size_t)n * s + r] = (double)-col[r];
        }
    }
    free(B);
    free(col);
}

/* The same composition with -M^-1 applied by AZA (ABA(q, 0, -b, 0) per
 * column, aza.c) instead of the explicit M^-1's dgemm; d holds an ABA at q. */
static void compose_aza(const rbd_model *m, const rbd_data *d, const double *const T[4], const double *Fq,
                        const double *Fv, const double *Minv, double *O[4])
{
    rbd_aza *z = rbd_aza_new(m);
    double *B = malloc(sizeof *B * n3);
    if (!z || !B) { fputs("so_stages: out of memory\n", stderr); exit(1); }
    for (int t = 0; t < 4; t++) {
        if (t == 3) memset(B, 0, sizeof *B * n3);
        else memcpy(B, T[t], sizeof *B * n3);
        if (t == 0) { add_dM(T[3], Fq, B, 0); add_dM(T[3], Fq, B, 1); }
        if (t == 2) add_dM(T[3], Fv, B, 0);
        if (t == 3) add_dM(T[3], Minv, B, 0);
        for (int k = 0; k < n; k++) rbd_aza_solve(m, d, z, B + nn * (size_t)k, O[t] + nn * (size_t)k);
    }
    rbd_aza_free(z);
    free(B);
}

static const char *const names[4] = { "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv", "d2qdd_dqdtau" };

static void score_line(const char *what, double *const O[4], const rbdref_so_result *ref)
{
    printf("| %s |", what);
    for (int t = 0; t < 4; t++) {
        size_t len;
        const double *R = rbdref_so_result_get(ref, names[t], &len);
        double mx = 0, s = 0, d2 = 0, r2 = 0;
        size_t cnt = 0;
        for (size_t k = 0; k < len; k++) mx = isnan(R[k]) ? mx : fmax(mx, fabs(R[k]));
        for (size_t k = 0; k < len; k++) {
            if (isnan(R[k])) continue;
            d2 += (O[t][k] - R[k]) * (O[t][k] - R[k]);
            r2 += R[k] * R[k];
            if (fabs(R[k]) > 1e-6 * mx) { s += ((O[t][k] - R[k]) / R[k]) * ((O[t][k] - R[k]) / R[k]); cnt++; }
        }
        printf(" %.1e / %.1e |", cnt ? sqrt(s / (double)cnt) : 0, sqrt(d2 / r2));
    }
    putchar('\n');
    fflush(stdout);
}

static void fail(const char *what)
{
    fprintf(stderr, "so_stages: %s: %s\n", what, rbd_last_error());
    exit(1);
}

/* The first-order routes (fdsva_so.c): d2qdd_dv2(:, :, k) = dqdd_dv at
 * (q, e_k, tau); d2qdd_dqdtau(:, s, k) = dqdd_dq(:, s) at (q, 0, e_k)
 * without gravity; and, tried and not taken, d2qdd_dqdv by the central
 * difference along e_k of dqdd_dq (exact, dqdd_dq being quadratic in v) and
 * d2qdd_dq2 with its A_k qdd_q(:, j) term as a first-order slab. */
static void first_order_lines(const rbd_model *m, const double *q, const double *v, const double *tau,
                              double *const T[4], double *O[4], const rbdref_so_result *ref_)
{
    const rbd_method *fa = rbd_method_find("fdsva-forces");
    const rbdref_so_result *const ref = ref_;
    void *ws;
    double *tw = malloc(sizeof *tw * nn), *Fq = malloc(sizeof *Fq * nn), *Fv = malloc(sizeof *Fv * nn),
           *qdd = malloc(sizeof *qdd * nn);
    rbd_state xf = { q, v, NULL, tau };
    if (!tw || !Fq || !Fv || !qdd) { fputs("so_stages: out of memory\n", stderr); exit(1); }
    /* first-order routes: d2qdd_dv2(:, :, k) = dqdd_dv(q, e_k, tau) (linear
     * in v); d2qdd_dqdtau(:, s, k) = dqdd_dq(q, 0, e_k)(:, s) without gravity */
    if (fa->init(m, NULL, &ws)) fail("fdsva-forces");
    double *ek = calloc((size_t)n, sizeof *ek), *Mi = malloc(sizeof *Mi * nn);
    for (int t = 0; t < 4; t++) for (size_t k = 0; k < n3; k++) O[t][k] = NAN;
    for (int k = 0; k < n; k++) {
        ek[k] = 1;
        rbd_state xe = { q, ek, NULL, tau };
        rbd_derivs de = { .qdd = tw, .dqdd_dq = Fq, .dqdd_dv = O[1] + nn * (size_t)k, .dqdd_dtau = Mi };
        if (fa->eval(ws, &xe, &de)) fail("fdsva-forces at v = e_k");
        ek[k] = 0;
    }
    fa->fini(ws);
    rbd_model g0 = *m;
    for (int c = 0; c < 6; c++) g0.a0[c] = 0;
    double *zero = calloc((size_t)n, sizeof *zero);
    if (fa->init(&g0, NULL, &ws)) fail("fdsva-forces without gravity");
    for (int k = 0; k < n; k++) {
        ek[k] = 1;
        rbd_state xe = { q, zero, NULL, ek };
        rbd_derivs de = { .qdd = tw, .dqdd_dq = Fq, .dqdd_dv = Fv, .dqdd_dtau = Mi };
        if (fa->eval(ws, &xe, &de)) fail("fdsva-forces at tau = e_k");
        for (int s2 = 0; s2 < n; s2++)
            for (int i = 0; i < n; i++) O[3][i + (size_t)n * s2 + nn * (size_t)k] = Fq[i + (size_t)n * s2];
        ek[k] = 0;
    }
    fa->fini(ws);
    score_line("first-order routes (dv2, dqdtau only)", O, ref);
    /* d2qdd_dqdv(:, :, k): dqdd_dq is quadratic in v, so its central difference along e_k is exact */
    double *vp = malloc(sizeof *vp * (size_t)n), *Fm = malloc(sizeof *Fm * nn);
    for (int pass = 0; pass < 3; pass++) {
        const rbd_model *mm = pass == 2 ? &g0 : m;
        double t = pass == 0 ? 1 : 0;
        if (pass) for (int i = 0; i < n; i++) t = fmax(t, fabs(v[i]));
        if (fa->init(mm, NULL, &ws)) fail("fdsva-forces");
        for (int k = 0; k < n; k++) {
            rbd_state xe = { q, vp, NULL, pass == 2 ? zero : tau };
            rbd_derivs de = { .qdd = tw, .dqdd_dq = Fq, .dqdd_dv = Fv, .dqdd_dtau = Mi };
            memcpy(vp, v, sizeof *vp * (size_t)n); vp[k] += t;
            if (fa->eval(ws, &xe, &de)) fail("fdsva-forces +");
            de.dqdd_dq = Fm;
            memcpy(vp, v, sizeof *vp * (size_t)n); vp[k] -= t;
            if (fa->eval(ws, &xe, &de)) fail("fdsva-forces -");
            for (size_t i = 0; i < nn; i++) O[2][i + nn * (size_t)k] = (Fq[i] - Fm[i]) / (2 * t);
        }
        fa->fini(ws);
        char lab[80];
        snprintf(lab, sizeof lab, "dqdv by exact central difference, t = %.2g%s", t, pass == 2 ? ", g = tau = 0" : "");
        score_line(lab, O, ref);
    }
    free(vp); free(Fm);
    /* d2qdd_dq2(:, j, k) = dqdd_dq(q, 0, -ID_q(:, j); g = 0)(:, k) - M^-1 [ID_qq(:, j, k) + A_j qdd_q(:, k)] */
    {
        const rbd_method *id = rbd_method_find("idsva");
        double *Gq = malloc(sizeof *Gq * nn), *Gv = malloc(sizeof *Gv * nn), *tj = malloc(sizeof *tj * (size_t)n),
               *B = malloc(sizeof *B * n3), *FqF = malloc(sizeof *FqF * nn), *Mi2 = malloc(sizeof *Mi2 * nn);
        void *iws;
        if (fa->init(m, NULL, &ws)) fail("fdsva-forces");
        rbd_derivs d0 = { .qdd = qdd, .dqdd_dq = FqF, .dqdd_dv = Fv, .dqdd_dtau = Mi2 };
        if (fa->eval(ws, &xf, &d0)) fail("fdsva-forces");
        fa->fini(ws);
        rbd_state xi = { q, v, qdd, NULL };
        rbd_derivs di = { .tau = tj, .dtau_dq = Gq, .dtau_dv = Gv };
        if (id->init(m, NULL, &iws) || id->eval(iws, &xi, &di)) fail("idsva");
        id->fini(iws);
        memcpy(B, T[0], sizeof *B * n3);
        add_dM(T[3], FqF, B, 0);
        rbd_data *db = rbd_data_new(m);
        rbd_aza *z = rbd_aza_new(m);
        if (!db || !z || rbd_aba(m, db, q, v, tau, tw)) fail("ABA");
        for (int k = 0; k < n; k++) rbd_aza_solve(m, db, z, B + nn * (size_t)k, O[0] + nn * (size_t)k);
        if (fa->init(&g0, NULL, &ws)) fail("fdsva-forces g0");
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) tj[i] = -Gq[i + (size_t)n * j];
            rbd_state xe = { q, zero, NULL, tj };
            rbd_derivs de = { .qdd = tw, .dqdd_dq = Fq, .dqdd_dv = Fv, .dqdd_dtau = Mi };
            if (fa->eval(ws, &xe, &de)) fail("fdsva-forces at tau = -ID_q(:, j)");
            for (int k = 0; k < n; k++)
                for (int i = 0; i < n; i++) O[0][i + (size_t)n * j + nn * (size_t)k] += Fq[i + (size_t)n * k];
        }
        fa->fini(ws);
        score_line("dq2: A_k qdd_q(:, j) as a first-order slab", O, ref);
        /* d2qdd_dqdv(:, :, k) = dqdd_dq(q, 0, -dID/dv(:, k); g = 0) - M^-1 ID_qv(:, :, k) */
        for (int k = 0; k < n; k++) rbd_aza_solve(m, db, z, T[2] + nn * (size_t)k, O[2] + nn * (size_t)k);
        if (fa->init(&g0, NULL, &ws)) fail("fdsva-forces g0");
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < n; i++) tj[i] = -Gv[i + (size_t)n * k];
            rbd_state xe = { q, zero, NULL, tj };
            rbd_derivs de = { .qdd = tw, .dqdd_dq = Fq, .dqdd_dv = Fv, .dqdd_dtau = Mi };
            if (fa->eval(ws, &xe, &de)) fail("fdsva-forces at tau = -ID_v(:, k)");
            for (size_t i = 0; i < nn; i++) O[2][i + nn * (size_t)k] += Fq[i];
        }
        fa->fini(ws);
        score_line("dqdv: A_j qdd_v(:, k) as a first-order slab", O, ref);
        rbd_aza_free(z); rbd_data_free(db);
        free(Gq); free(Gv); free(tj); free(B); free(FqF); free(Mi2);
    }
    free(ek); free(Mi); free(zero);
    free(tw); free(Fq); free(Fv); free(qdd);
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "autotree:N=100,bf=1,skew=0.6,taper=0.99";
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 70;
    rbd_model *m;
    if (model_from_spec(spec, &m)) fail(spec);
    n = m->nv;
    nn = (size_t)n * n;
    n3 = nn * n;
    double *q = malloc(sizeof *q * (size_t)m->nq), *v = malloc(sizeof *v * nn), *a = malloc(sizeof *a * nn),
           *tau = malloc(sizeof *tau * nn);
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    rbd_random_state(m, &r, q, v, a, tau);
    /* computed: fdsva's first order, then IDSVA-SO at a = qdd as fdsva-so takes them */
    double *qdd = malloc(sizeof *qdd * nn), *Fq = malloc(sizeof *Fq * nn), *Fv = malloc(sizeof *Fv * nn),
           *Minv = malloc(sizeof *Minv * nn), *tw = malloc(sizeof *tw * nn), *T[4], *O[4], *X[4];
    for (int t = 0; t < 4; t++) {
        T[t] = malloc(sizeof *T[t] * n3);
        O[t] = malloc(sizeof *O[t] * n3);
        X[t] = malloc(sizeof *X[t] * n3);
    }
    const rbd_method *fd = rbd_method_find("fdsva"), *so = rbd_method_find("idsva-so"),
                     *fso = rbd_method_find("fdsva-so");
    void *ws;
    rbd_state xf = { q, v, NULL, tau };
    rbd_derivs df = { .qdd = qdd, .dqdd_dq = Fq, .dqdd_dv = Fv, .dqdd_dtau = Minv };
    if (fd->init(m, NULL, &ws) || fd->eval(ws, &xf, &df)) fail("fdsva");
    fd->fini(ws);
    rbd_state xa = { q, v, qdd, NULL };
    rbd_derivs ds = { .tau = tw, .d2tau_dq2 = T[0], .d2tau_dv2 = T[1], .d2tau_dqdv = T[2], .dM_dq = T[3] };
    if (so->init(m, NULL, &ws) || so->eval(ws, &xa, &ds)) fail("idsva-so");
    so->fini(ws);
    rbd_derivs dx = { .qdd = tw, .d2qdd_dq2 = X[0], .d2qdd_dv2 = X[1], .d2qdd_dqdv = X[2], .d2qdd_dqdtau = X[3] };
    if (fso->init(m, NULL, &ws) || fso->eval(ws, &xf, &dx)) fail("fdsva-so");
    fso->fini(ws);
    /* exact: the first order at (q, v, tau), then the second order at a = the exact qdd */
    rbdref_result r1;
    if (rbdref_result_init(&r1, n) || rbdref_eval(m, q, v, NULL, tau, NULL, &r1)) fail("reference");
    int rr, cc;
    const double *eqdd = rbdref_result_get(&r1, "qdd", &rr, &cc), *eFq = rbdref_result_get(&r1, "dqdd_dq", &rr, &cc),
                 *eFv = rbdref_result_get(&r1, "dqdd_dv", &rr, &cc), *eMinv = rbdref_result_get(&r1, "Minv", &rr, &cc);
    int slabs[6] = { 0, n / 2, n - 1, n, n + n / 2, 2 * n - 1 };
    rbdref_so_result ref;
    if (rbdref_so_result_init(&ref, n) || rbdref_so_eval_slabs(m, q, v, eqdd, tau, NULL, 0, slabs, 6, &ref))
        fail("second-order reference");
    const double *eT[4] = { ref.d2tau_dq2, ref.d2tau_dv2, ref.d2tau_dqdv, ref.dM_dq };
    /* the exact ID tensors are known on the six slabs only: where NAN, the
     * composition's slab is NAN too, except that A_j qdd_y needs every A_j;
     * so the exact-T lines take the computed dM/dq and the exact ID_xy */
    double *eTc[4];
    for (int t = 0; t < 4; t++) {
        eTc[t] = dup_of(t == 3 ? T[3] : eT[t], n3);
        for (size_t k = 0; k < n3; k++)
            if (isnan(eTc[t][k])) eTc[t][k] = T[t][k];
    }
    double rcond = 1;
    rbd_mass_rcond(m, q, &rcond);
    printf("%s, seed %llu, cond(M) ~ %.2g: term-wise RMS relative (above 1e-6 max) / normwise, six slabs\n\n", spec,
           (unsigned long long)seed, 1 / rcond);
    printf("| factors | d2qdd_dq2 | d2qdd_dv2 | d2qdd_dqdv | d2qdd_dqdtau |\n|---|---|---|---|---|\n");
    score_line("fdsva-so as shipped (fd2-cs on paths of 20 dofs or more)", X, &ref);
    const rbd_method *aza = rbd_method_find("fdsva-so-aza");   /* the composition with AZA, whatever the rule */
    if (aza->init(m, NULL, &ws) || aza->eval(ws, &xf, &dx)) fail("fdsva-so-aza");
    aza->fini(ws);
    score_line("fdsva-so-aza", X, &ref);
    const double *cT[4] = { T[0], T[1], T[2], T[3] }, *xT[4] = { eTc[0], eTc[1], eTc[2], eTc[3] };
    compose(cT, Fq, Fv, Minv, NULL, O);
    score_line("all computed (this tool's composition)", O, &ref);
    compose(xT, eFq, eFv, eMinv, NULL, O);
    score_line("all exact but dM/dq (rounded once)", O, &ref);
    compose(cT, eFq, eFv, eMinv, NULL, O);
    score_line("computed ID tensors, exact qdd_x and M^-1", O, &ref);
    compose(xT, Fq, Fv, eMinv, NULL, O);
    score_line("computed qdd_x (fdsva), exact ID_xy and M^-1", O, &ref);
    compose(xT, eFq, eFv, Minv, NULL, O);
    score_line("computed M^-1 (analytic), exact ID_xy and qdd_x", O, &ref);
    compose(cT, Fq, Fv, eMinv, NULL, O);
    score_line("computed but exact M^-1", O, &ref);
    /* M^-1 replaced by a Cholesky solve with the CRBA's M */
    rbd_data *d = rbd_data_new(m);
    double *L = malloc(sizeof *L * nn);
    if (!d || rbd_crba(m, d, q, L) || LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, L, n)) fail("CRBA and Cholesky");
    compose(cT, Fq, Fv, Minv, L, O);
    score_line("computed, Cholesky solves for M^-1", O, &ref);
    const rbd_method *fa = rbd_method_find("fdsva-forces");
    if (fa && !fa->init(m, NULL, &ws)) {
        rbd_derivs dfa = { .qdd = tw, .dqdd_dq = Fq, .dqdd_dv = Fv, .dqdd_dtau = Minv };
        if (fa->eval(ws, &xf, &dfa)) fail("fdsva-forces");
        fa->fini(ws);
        compose(cT, Fq, Fv, Minv, L, O);
        score_line("fdsva-forces' qdd_x, Cholesky solves", O, &ref);
        compose(cT, Fq, Fv, eMinv, NULL, O);
        score_line("fdsva-forces' qdd_x, exact M^-1", O, &ref);
    }
    rbd_data *da = rbd_data_new(m);
    if (!da || rbd_aba(m, da, q, v, tau, tw)) fail("ABA");
    compose_aza(m, da, cT, Fq, Fv, Minv, O);
    score_line("computed (last qdd_x), AZA for M^-1", O, &ref);
    compose_aza(m, da, xT, eFq, eFv, eMinv, O);
    score_line("all exact but dM/dq, AZA for M^-1", O, &ref);
    rbd_data_free(da);
    compose_ld(xT, eFq, eFv, eMinv, O);
    score_line("all exact but dM/dq, long double products", O, &ref);
    compose_ld(cT, Fq, Fv, Minv, O);
    score_line("computed (last qdd_x), long double products", O, &ref);
    {
        double *eA = dup_of(T[3], n3);
        for (size_t k = 0; k < n3; k++) if (!isnan(eT[3][k])) eA[k] = eT[3][k];
        const double *xA[4] = { eTc[0], eTc[1], eTc[2], eA };
        compose_ld(xA, eFq, eFv, eMinv, O);
        score_line("all exact, dM/dq exact on the slabs, long double", O, &ref);
        compose(xA, eFq, eFv, eMinv, NULL, O);
        score_line("all exact, dM/dq exact on the slabs, double", O, &ref);
        double dm = 0, dd = 0;
        for (size_t k = 0; k < n3; k++)
            if (!isnan(eT[3][k])) { dm = fmax(dm, fabs(eT[3][k])); }
        double s2 = 0; size_t c2 = 0;
        for (size_t k = 0; k < n3; k++)
            if (!isnan(eT[3][k]) && fabs(eT[3][k]) > 1e-6 * dm) {
                double e = (T[3][k] - eT[3][k]) / eT[3][k]; s2 += e * e; c2++; dd = fmax(dd, fabs(e));
            }
        printf("dM/dq library vs exact on the slabs: rms rel %.1e, max rel %.1e\n", sqrt(s2 / (double)c2), dd);
        free(eA);
    }
    if (fa) first_order_lines(m, q, v, tau, T, O, &ref);
    rbd_data_free(d);
    free(L);
    for (int t = 0; t < 4; t++) { free(T[t]); free(O[t]); free(X[t]); free(eTc[t]); }
    rbdref_so_result_free(&ref);
    rbdref_result_free(&r1);
    free(qdd); free(Fq); free(Fv); free(Minv); free(tw);
    free(q); free(v); free(a); free(tau);
    rbd_model_free(m);
    return 0;
}
