/*
 * Consistency of the base dynamics: ABA inverts RNEA, CRBA columns are RNEA
 * with unit accelerations and no gravity, M is symmetric positive definite,
 * the three M^-1 agree and invert M, LTDL solves M x = b, and the ground-
 * frame RNEA equals the body-frame one.  AutoTrees of several shapes and a
 * hand-built model with every joint type (multi-DOF paths).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"

static const char *const specs[] = {
    "autotree:N=1",
    "autotree:N=7,bf=1,skew=0.7,taper=0.9",
    "autotree:N=30,bf=2,skew=1.0471975511965976,taper=0.95",
    "autotree:N=40,bf=5,skew=-0.4,taper=0.97",
    "autotree:N=23,bf=1.5,skew=0.3",
    "autotree:N=100,bf=1",
    "autotree:N=100,bf=1,skew=1.0471975511965976,taper=0.98",
    "autotree:N=100,bf=2,skew=1.0471975511965976,taper=0.95",
    "autotree:N=100,bf=5,skew=1.0471975511965976,taper=0.9",
    "mixed",
    NULL
};

/* Free-flyer root, then spherical, revolute (x and a general axis), prismatic
 * joints, with off-diagonal rotational inertias and rotated placements. */
static rbd_model *mixed_model(const rbd_model_opts *o)
{
    static const struct { int parent; rbd_joint_type t; double ax[3]; } J[] = {
        { -1, RBD_JOINT_FREEFLYER, { 0, 0, 0 } }, { 0, RBD_JOINT_SPHERICAL, { 0, 0, 0 } },
        { 1, RBD_JOINT_REVOLUTE, { 1, 0, 0 } }, { 2, RBD_JOINT_PRISMATIC, { 0.3, -0.5, 0.8 } },
        { 0, RBD_JOINT_REVOLUTE, { 0.2, 0.9, -0.4 } }, { 4, RBD_JOINT_REVOLUTE, { 0, 0, 1 } },
        { 0, RBD_JOINT_SPHERICAL, { 0, 0, 0 } }, { 6, RBD_JOINT_REVOLUTE, { 0, 1, 0 } },
    };
    rbd_builder *b = rbd_builder_new();
    rbd_rng r;
    rbd_rng_seed(&r, 77);
    for (int i = 0; i < (int)(sizeof J / sizeof J[0]); i++) {
        rbd_joint j = { .type = J[i].t, .axis = { J[i].ax[0], J[i].ax[1], J[i].ax[2] } };
        sp_xform X;
        double a = rbd_rng_uniform(&r) * 3, c = cos(a), s = sin(a);
        sp_xform_identity(&X);
        X.E[0] = c; X.E[1] = s; X.E[3] = -s; X.E[4] = c;       /* rotz(a) */
        for (int k = 0; k < 3; k++) X.r[k] = i ? 0.5 * rbd_rng_uniform(&r) : 0;
        rbd_body_inertia in = { .mass = 1 + 0.5 * rbd_rng_uniform(&r) };
        for (int k = 0; k < 3; k++) in.com[k] = 0.3 * rbd_rng_uniform(&r);
        double off = 0.01 * rbd_rng_uniform(&r);
        in.Ic[0] = 0.05; in.Ic[4] = 0.06; in.Ic[8] = 0.04;
        in.Ic[1] = in.Ic[3] = off; in.Ic[5] = in.Ic[7] = -off;
        assert_int_equal(rbd_builder_add(b, J[i].parent, &j, &X, &in, NULL, NULL), 0);
    }
    rbd_model *m = NULL;
    int rc = rbd_builder_finish(b, o, "mixed", &m);
    if (rc) fail_msg("mixed model: %s", rbd_last_error());
    rbd_builder_free(b);
    return m;
}

static rbd_model *model(const char *spec, double g)
{
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    o.gravity[2] = g;
    if (!strcmp(spec, "mixed")) return mixed_model(&o);
    rbd_model *m = NULL;
    int rc = rbd_model_from_spec(spec, &o, &m);
    if (rc) fail_msg("%s: %s", spec, rbd_last_error());
    return m;
}

typedef struct {
    rbd_model *m;
    rbd_data *d;
    double *q, *v, *a, *tau, *M, *X, *Y;
} fix;

static fix fix_new(const char *spec, double g, uint64_t seed)
{
    fix f;
    f.m = model(spec, g);
    f.d = rbd_data_new(f.m);
    assert_non_null(f.d);
    size_t nq = (size_t)f.m->nq, nv = (size_t)f.m->nv;
    f.q = malloc(nq * sizeof(double));
    f.v = malloc(nv * sizeof(double));
    f.a = malloc(nv * sizeof(double));
    f.tau = malloc(nv * sizeof(double));
    f.M = malloc(nv * nv * sizeof(double));
    f.X = malloc(nv * nv * sizeof(double));
    f.Y = malloc(nv * nv * sizeof(double));
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    rbd_random_state(f.m, &r, f.q, f.v, f.a, f.tau);
    return f;
}

static void fix_free(fix *f)
{
    free(f->q); free(f->v); free(f->a); free(f->tau); free(f->M); free(f->X); free(f->Y);
    rbd_data_free(f->d);
    rbd_model_free(f->m);
}

static double maxabs(const double *x, size_t n)
{
    double s = 0;
    for (size_t k = 0; k < n; k++) s = fmax(s, fabs(x[k]));
    return s;
}

/* RNEA(q, qd, ABA(q, qd, tau)) = tau */
static void test_aba_inverts_rnea(void **s)
{
    (void)s;
    for (int c = 0; specs[c]; c++) {
        fix f = fix_new(specs[c], -9.81, 100 + c);
        int n = f.m->nv;
        double *qdd = f.X, *tau2 = f.Y;
        assert_int_equal(rbd_aba(f.m, f.d, f.q, f.v, f.tau, qdd), 0);
        assert_int_equal(rbd_rnea(f.m, f.d, f.q, f.v, qdd, tau2), 0);
        /* scale: the torques RNEA sums to get tau (|M qdd| + |h|) */
        double sc = fmax(maxabs(f.tau, n), 1e-300);
        assert_int_equal(rbd_crba(f.m, f.d, f.q, f.M), 0);
        for (int i = 0; i < n; i++) {
            double t = 0;
            for (int j = 0; j < n; j++) t += fabs(f.M[i + (size_t)n * j] * qdd[j]);
            sc = fmax(sc, t);
        }
        for (int i = 0; i < n; i++)
            if (!(fabs(tau2[i] - f.tau[i]) <= 1e-12 * sc))
                fail_msg("%s: tau[%d] = %.17g after ABA, expected %.17g (scale %g)", specs[c], i, tau2[i],
                         f.tau[i], sc);
        fix_free(&f);
    }
}

/* Column j of M = RNEA(q, 0, e_j) without gravity; M symmetric positive
 * definite; every entry written (the output starts as NaN: CRBA writes its
 * structural zeros itself, with no clearing pass). */
static void test_crba(void **s)
{
    (void)s;
    for (int c = 0; specs[c]; c++) {
        fix f = fix_new(specs[c], 0, 200 + c);
        int n = f.m->nv;
        for (size_t k = 0; k < (size_t)n * n; k++) f.M[k] = NAN;
        assert_int_equal(rbd_crba(f.m, f.d, f.q, f.M), 0);
        double *e = f.a, *zero = f.v, *col = f.tau;
        memset(zero, 0, sizeof(double) * n);
        double mx = maxabs(f.M, (size_t)n * n);
        for (int j = 0; j < n; j++) {
            memset(e, 0, sizeof(double) * n);
            e[j] = 1;
            assert_int_equal(rbd_rnea(f.m, f.d, f.q, zero, e, col), 0);
            for (int i = 0; i < n; i++)
                if (!(fabs(col[i] - f.M[i + (size_t)n * j]) <= 1e-12 * mx))
                    fail_msg("%s: M(%d,%d) = %.17g, RNEA gives %.17g", specs[c], i, j, f.M[i + (size_t)n * j], col[i]);
        }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < j; i++) assert_true(f.M[i + (size_t)n * j] == f.M[j + (size_t)n * i]);
        memcpy(f.X, f.M, sizeof(double) * n * n);
        if (LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, f.X, n) != 0) fail_msg("%s: M is not positive definite", specs[c]);
        fix_free(&f);
    }
}

/* max |M X - I| relative to max |M| max |X| (the size of the terms summed) */
static double inverse_residual(int n, const double *M, const double *X)
{
    double e = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = i == j ? -1 : 0;
            for (int k = 0; k < n; k++) s += M[i + (size_t)n * k] * X[k + (size_t)n * j];
            e = fmax(e, fabs(s));
        }
    return e / (maxabs(M, (size_t)n * n) * maxabs(X, (size_t)n * n));
}

static void test_minv(void **s)
{
    (void)s;
    for (int c = 0; specs[c]; c++) {
        fix f = fix_new(specs[c], -9.81, 300 + c);
        int n = f.m->nv;
        double *Minv[RBD_MINV_NKINDS];
        assert_int_equal(rbd_crba(f.m, f.d, f.q, f.M), 0);
        for (int k = 0; k < RBD_MINV_NKINDS; k++) {
            Minv[k] = malloc(sizeof(double) * n * n);
            for (int t = 0; t < n * n; t++) Minv[k][t] = NAN;     /* every entry must be written */
            int rc = rbd_minv(f.m, f.d, (rbd_minv_kind)k, f.q, Minv[k]);
            if (rc) fail_msg("%s: minv %s: %s", specs[c], rbd_minv_name(k), rbd_last_error());
            double r = inverse_residual(n, f.M, Minv[k]);
            if (!(r <= 1e-12))
                fail_msg("%s: minv %s: max|M Minv - I| = %.3g relative", specs[c], rbd_minv_name(k), r);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < j; i++) assert_true(Minv[k][i + (size_t)n * j] == Minv[k][j + (size_t)n * i]);
        }
        /* The variants agree relative to the largest entry, to 1e-12 or, when M
         * is ill-conditioned (the planar skew = 0 chains: cond ~ 1e8 at N = 100),
         * to cond_1(M) eps, which bounds any backward-stable inverse's error. */
        double anorm = 0, rcond = 0;
        for (int j = 0; j < n; j++) {
            double t = 0;
            for (int i = 0; i < n; i++) t += fabs(f.M[i + (size_t)n * j]);
            anorm = fmax(anorm, t);
        }
        memcpy(f.X, f.M, sizeof(double) * n * n);
        assert_int_equal(LAPACKE_dpotrf(LAPACK_COL_MAJOR, 'L', n, f.X, n), 0);
        assert_int_equal(LAPACKE_dpocon(LAPACK_COL_MAJOR, 'L', n, f.X, n, anorm, &rcond), 0);
        double tol = fmax(1e-12, DBL_EPSILON / rcond);
        for (int k = 1; k < RBD_MINV_NKINDS; k++) {
            char what[160];
            snprintf(what, sizeof what, "%s: minv %s vs %s", specs[c], rbd_minv_name(k), rbd_minv_name(0));
            double mx = maxabs(Minv[0], (size_t)n * n);
            double *scaled = f.Y;
            for (int t = 0; t < n * n; t++) scaled[t] = Minv[k][t] / mx;
            for (int t = 0; t < n * n; t++) f.X[t] = Minv[0][t] / mx;
            tu_assert_close(what, scaled, f.X, (size_t)n, (size_t)n, tol);
        }
        for (int k = 0; k < RBD_MINV_NKINDS; k++) free(Minv[k]);
        fix_free(&f);
    }
}

/* x = M^-1 b by LTDL solves M x = b; the factors reproduce M = L^T D L. */
static void test_ltdl(void **s)
{
    (void)s;
    for (int c = 0; specs[c]; c++) {
        fix f = fix_new(specs[c], -9.81, 400 + c);
        int n = f.m->nv;
        assert_int_equal(rbd_crba(f.m, f.d, f.q, f.M), 0);
        memcpy(f.X, f.M, sizeof(double) * n * n);
        assert_int_equal(rbd_ltdl(f.m, f.X), 0);
        /* L^T D L, L_kj at X[j + n*k] (the strict upper triangle) */
        double mx = maxabs(f.M, (size_t)n * n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double t = 0;
                for (int k = (i > j ? i : j); k < n; k++) {
                    double lki = k == i ? 1 : f.X[i + (size_t)n * k], lkj = k == j ? 1 : f.X[j + (size_t)n * k];
                    t += lki * f.X[k + (size_t)n * k] * lkj;
                }
                if (!(fabs(t - f.M[i + (size_t)n * j]) <= 1e-12 * mx))
                    fail_msg("%s: (L^T D L)(%d,%d) = %.17g, M = %.17g", specs[c], i, j, t, f.M[i + (size_t)n * j]);
            }
        /* the sparsity: L_kj = 0 unless j is an ancestor of k in the dof tree */
        for (int k = 0; k < n; k++) {
            char anc[1024] = { 0 };
            if (n > 1024) break;
            for (int j = f.m->dof_parent[k]; j >= 0; j = f.m->dof_parent[j]) anc[j] = 1;
            for (int j = 0; j < k; j++)
                if (!anc[j]) assert_true(f.X[j + (size_t)n * k] == 0);
        }
        double *x = f.v, *b = f.tau;
        memcpy(x, b, sizeof(double) * n);
        rbd_ltdl_solve(f.m, f.X, x);
        double sc = maxabs(b, n);
        for (int i = 0; i < n; i++) {
            double t = -b[i], a = fabs(b[i]);
            for (int j = 0; j < n; j++) { t += f.M[i + (size_t)n * j] * x[j]; a += fabs(f.M[i + (size_t)n * j] * x[j]); }
            if (!(fabs(t) <= 1e-12 * fmax(a, sc))) fail_msg("%s: (M x - b)[%d] = %.3g", specs[c], i, t);
        }
        fix_free(&f);
    }
}

static void test_rnea_ground(void **s)
{
    (void)s;
    for (int c = 0; specs[c]; c++) {
        fix f = fix_new(specs[c], -9.81, 500 + c);
        int n = f.m->nv;
        assert_int_equal(rbd_rnea(f.m, f.d, f.q, f.v, f.a, f.X), 0);
        assert_int_equal(rbd_rnea_ground(f.m, f.d, f.q, f.v, f.a, f.Y), 0);
        char what[160];
        snprintf(what, sizeof what, "%s: ground-frame RNEA", specs[c]);
        double mx = maxabs(f.X, n);
        for (int i = 0; i < n; i++) { f.X[i] /= mx; f.Y[i] /= mx; }
        tu_assert_close(what, f.Y, f.X, (size_t)n, 1, 1e-12);
        fix_free(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_aba_inverts_rnea),
        cmocka_unit_test(test_crba),
        cmocka_unit_test(test_minv),
        cmocka_unit_test(test_ltdl),
        cmocka_unit_test(test_rnea_ground),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
