/*
 * Sanity of the reference against the double library, which shares no code
 * with it: tau and M against rbd_rnea (1e-12), FD values against a dense
 * solve of M qdd = tau - h built from rbd_rnea, and every derivative against
 * central differences of those double functions (~1e-6), with q stepped in
 * the tangent space by rbd_integrate.  Models: a skewed, tapered autoTree,
 * and a multi-DOF tree with a free-flyer root, a spherical joint, revolute
 * joints about general axes and a prismatic joint.
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdref.h"

typedef struct {
    const rbd_model *m;
    rbd_data *d;
    double *zero, *e, *Mw, *rhs;
    lapack_int *piv;
} ctx;

/* M from RNEA columns (tau(q, 0, e_j) - tau(q, 0, 0)) */
static void mass_matrix(ctx *c, const double *q, double *M)
{
    int n = c->m->nv;
    double *g = c->rhs;
    assert_int_equal(rbd_rnea(c->m, c->d, q, c->zero, c->zero, g), 0);
    for (int j = 0; j < n; j++) {
        memset(c->e, 0, sizeof(double) * n);
        c->e[j] = 1;
        assert_int_equal(rbd_rnea(c->m, c->d, q, c->zero, c->e, M + n * j), 0);
        for (int i = 0; i < n; i++) M[i + n * j] -= g[i];
    }
}

/* qdd = M^-1 (tau - tau(q, v, 0)) */
static void fd_double(ctx *c, const double *q, const double *v, const double *tau, double *qdd)
{
    int n = c->m->nv;
    mass_matrix(c, q, c->Mw);
    assert_int_equal(rbd_rnea(c->m, c->d, q, v, c->zero, qdd), 0);
    for (int i = 0; i < n; i++) qdd[i] = tau[i] - qdd[i];
    assert_int_equal(LAPACKE_dgesv(LAPACK_COL_MAJOR, n, 1, c->Mw, n, c->piv, qdd, n), 0);
}

static void id_double(ctx *c, const double *q, const double *v, const double *a, double *tau)
{
    assert_int_equal(rbd_rnea(c->m, c->d, q, v, a, tau), 0);
}

/* Central differences of f = ID (which = 0) or FD (1) in q (tangent), v; out column-major */
static void central(ctx *c, int which, int wrt_v, const double *q, const double *v, const double *x, double *out)
{
    const rbd_model *m = c->m;
    int n = m->nv;
    const double h = 1e-6;
    double *qp = malloc(sizeof(double) * m->nq), *qm = malloc(sizeof(double) * m->nq);
    double *vp = malloc(sizeof(double) * n), *vm = malloc(sizeof(double) * n);
    double *fp = malloc(sizeof(double) * n), *fm = malloc(sizeof(double) * n);
    for (int j = 0; j < n; j++) {
        memcpy(qp, q, sizeof(double) * m->nq); memcpy(qm, q, sizeof(double) * m->nq);
        memcpy(vp, v, sizeof(double) * n); memcpy(vm, v, sizeof(double) * n);
        if (wrt_v) {
            vp[j] += h; vm[j] -= h;
        } else {
            memset(c->e, 0, sizeof(double) * n);
            c->e[j] = 1;
            rbd_integrate(m, q, c->e, h, qp);
            rbd_integrate(m, q, c->e, -h, qm);
        }
        if (which) { fd_double(c, qp, vp, x, fp); fd_double(c, qm, vm, x, fm); }
        else { id_double(c, qp, vp, x, fp); id_double(c, qm, vm, x, fm); }
        for (int i = 0; i < n; i++) out[i + n * j] = (fp[i] - fm[i]) / (2 * h);
    }
    free(qp); free(qm); free(vp); free(vm); free(fp); free(fm);
}

static void check_model(const rbd_model *m, uint64_t seed, const char *label)
{
    int n = m->nv;
    ctx c = { m, rbd_data_new(m), calloc((size_t)n, sizeof(double)), malloc(sizeof(double) * n),
              malloc(sizeof(double) * n * n), malloc(sizeof(double) * n), malloc(sizeof(lapack_int) * n) };
    assert_non_null(c.d);
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * n), *a = malloc(sizeof(double) * n);
    double *tau = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n), *Y = malloc(sizeof(double) * n * n);
    rbd_rng rng;
    rbd_rng_seed(&rng, seed);
    rbd_random_state(m, &rng, q, v, a, tau);
    rbdref_result r;
    assert_int_equal(rbdref_result_init(&r, n), 0);
    if (rbdref_eval(m, q, v, a, tau, NULL, &r)) fail_msg("%s: %s", label, rbd_last_error());
    char what[128];
#define CHECK(name, X, R, cols, tol) do { snprintf(what, sizeof what, "%s %s", label, name); \
        tu_assert_close(what, X, R, (size_t)n, cols, tol); } while (0)

    id_double(&c, q, v, a, y);
    CHECK("tau vs rbd_rnea", r.tau, y, 1, 1e-12);
    mass_matrix(&c, q, Y);
    CHECK("M vs rbd_rnea columns", r.M, Y, (size_t)n, 1e-12);
    assert_int_equal(LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, Y, n, c.piv), 0);
    assert_int_equal(LAPACKE_dgetri(LAPACK_COL_MAJOR, n, Y, n, c.piv), 0);
    CHECK("Minv vs LAPACK inverse", r.Minv, Y, (size_t)n, 1e-10);
    fd_double(&c, q, v, tau, y);
    CHECK("qdd vs dense solve", r.qdd, y, 1, 1e-10);
    central(&c, 0, 0, q, v, a, Y);
    CHECK("dtau_dq vs central differences", r.dtau_dq, Y, (size_t)n, 1e-6);
    central(&c, 0, 1, q, v, a, Y);
    CHECK("dtau_dv vs central differences", r.dtau_dv, Y, (size_t)n, 1e-6);
    central(&c, 1, 0, q, v, tau, Y);
    CHECK("dqdd_dq vs central differences", r.dqdd_dq, Y, (size_t)n, 1e-6);
    central(&c, 1, 1, q, v, tau, Y);
    CHECK("dqdd_dv vs central differences", r.dqdd_dv, Y, (size_t)n, 1e-6);
#undef CHECK
    rbdref_result_free(&r);
    free(q); free(v); free(a); free(tau); free(y); free(Y);
    free(c.zero); free(c.e); free(c.Mw); free(c.rhs); free(c.piv);
    rbd_data_free(c.d);
}

static void test_autotree(void **st)
{
    (void)st;
    rbd_model *m = tu_model("autotree:N=8,bf=2,skew=1.0471975511965976,taper=0.9");
    check_model(m, 3, "autotree N=8 bf=2");
    rbd_model_free(m);
}

/* rotation by angle t about unit axis u (row-major), as a placement E */
static void rot(const double u0[3], double t, double E[9])
{
    double n = sqrt(u0[0] * u0[0] + u0[1] * u0[1] + u0[2] * u0[2]), u[3] = { u0[0] / n, u0[1] / n, u0[2] / n };
    double c = cos(t), s = sin(t);
    double R[9] = { c + (1 - c) * u[0] * u[0], (1 - c) * u[0] * u[1] - s * u[2], (1 - c) * u[0] * u[2] + s * u[1],
                    (1 - c) * u[1] * u[0] + s * u[2], c + (1 - c) * u[1] * u[1], (1 - c) * u[1] * u[2] - s * u[0],
                    (1 - c) * u[2] * u[0] - s * u[1], (1 - c) * u[2] * u[1] + s * u[0], c + (1 - c) * u[2] * u[2] };
    memcpy(E, R, sizeof R);
}

static rbd_model *multidof_tree(void)
{
    rbd_builder *b = rbd_builder_new();
    struct { int parent; rbd_joint_type type; double axis[3]; double rax[3], ang, r[3]; double mass, com[3], d[3]; }
    bodies[] = {
        { -1, RBD_JOINT_FREEFLYER, { 0 }, { 1, 0, 0 }, 0.0, { 0, 0, 0 }, 3.0, { 0.1, -0.05, 0.02 }, { 0.3, 0.25, 0.2 } },
        { 0, RBD_JOINT_SPHERICAL, { 0 }, { 1, 2, 3 }, 0.7, { 0.2, 0.1, -0.3 }, 1.2, { 0.0, 0.15, 0.1 }, { 0.05, 0.04, 0.03 } },
        { 1, RBD_JOINT_REVOLUTE, { 0.3, -0.5, 0.8 }, { -1, 0.5, 0.2 }, -0.4, { 0.0, 0.3, 0.05 }, 0.8, { 0.2, 0.0, -0.1 }, { 0.02, 0.03, 0.04 } },
        { 0, RBD_JOINT_PRISMATIC, { 0, 1, 0 }, { 0, 0, 1 }, 0.3, { -0.2, 0.0, 0.1 }, 0.6, { 0.05, 0.05, 0.0 }, { 0.01, 0.02, 0.02 } },
        { 3, RBD_JOINT_REVOLUTE, { 0, 0, 1 }, { 0, 1, 0 }, 1.1, { 0.0, 0.0, 0.25 }, 0.5, { 0.1, 0.0, 0.0 }, { 0.005, 0.01, 0.012 } },
        { 1, RBD_JOINT_SPHERICAL, { 0 }, { 0, 1, 1 }, -0.9, { 0.1, -0.2, 0.0 }, 0.9, { -0.05, 0.0, 0.12 }, { 0.03, 0.02, 0.025 } },
    };
    for (size_t k = 0; k < sizeof bodies / sizeof *bodies; k++) {
        rbd_joint j = { bodies[k].type, -1, { bodies[k].axis[0], bodies[k].axis[1], bodies[k].axis[2] } };
        sp_xform X;
        rot(bodies[k].rax, bodies[k].ang, X.E);
        memcpy(X.r, bodies[k].r, sizeof X.r);
        rbd_body_inertia in = { bodies[k].mass, { bodies[k].com[0], bodies[k].com[1], bodies[k].com[2] }, { 0 } };
        /* a rotated diagonal inertia: R diag(d) R^T, with small products of inertia */
        double R[9];
        rot((double[3]){ 1, 1, 0 }, 0.3 * (double)(k + 1), R);
        for (int i = 0; i < 3; i++)
            for (int l = 0; l < 3; l++)
                for (int s = 0; s < 3; s++) in.Ic[3 * i + l] += R[3 * i + s] * bodies[k].d[s] * R[3 * l + s];
        for (int i = 0; i < 3; i++)
            for (int l = i + 1; l < 3; l++) in.Ic[3 * l + i] = in.Ic[3 * i + l];
        assert_int_equal(rbd_builder_add(b, bodies[k].parent, &j, &X, &in, NULL, NULL), 0);
    }
    rbd_model *m = NULL;
    if (rbd_builder_finish(b, NULL, "multidof", &m)) fail_msg("%s", rbd_last_error());
    rbd_builder_free(b);
    return m;
}

static void test_multidof(void **st)
{
    (void)st;
    rbd_model *m = multidof_tree();
    assert_int_equal(m->nv, 6 + 3 + 1 + 1 + 1 + 3);
    assert_int_equal(m->nq, 7 + 4 + 1 + 1 + 1 + 4);
    check_model(m, 21, "multidof");
    check_model(m, 22, "multidof");
    rbd_model_free(m);
}

/* The Lie-group perturbation at full precision: 256 vs 512 bits and two steps agree to 1e-60. */
static void test_multidof_precision(void **st)
{
    (void)st;
    rbd_model *m = multidof_tree();
    int n = m->nv;
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * n), *a = malloc(sizeof(double) * n);
    double *tau = malloc(sizeof(double) * n);
    rbd_rng rng;
    rbd_rng_seed(&rng, 31);
    rbd_random_state(m, &rng, q, v, a, tau);
    const int precs[3] = { 256, 512, 256 };
    const long steps[3] = { 0, 0, -150 };
    rbdref_mp r[3];
    for (int k = 0; k < 3; k++) {
        rbdref_opts o;
        rbdref_opts_default(&o);
        o.prec = precs[k];
        o.h_log2 = steps[k];
        assert_int_equal(rbdref_mp_init(&r[k], n, o.prec), 0);
        if (rbdref_eval_mp(m, q, v, a, tau, &o, &r[k])) fail_msg("%s", rbd_last_error());
    }
    const char *names[] = { "tau", "M", "dtau_dq", "dtau_dv", "qdd", "dqdd_dq", "dqdd_dv", "Minv" };
    mpfr_t d;
    mpfr_init2(d, 64);
    for (int k = 1; k < 3; k++)
        for (int o = 0; o < 8; o++) {
            int rows, cols;
            mpfr_ptr x = rbdref_mp_get(&r[0], names[o], &rows, &cols), y = rbdref_mp_get(&r[k], names[o], NULL, NULL);
            for (int e = 0; e < rows * cols; e++) {
                mpfr_sub(d, x + e, y + e, MPFR_RNDN);
                if (!(fabs(mpfr_get_d(d, MPFR_RNDN)) <= 1e-60 * fmax(1, fabs(mpfr_get_d(y + e, MPFR_RNDN)))))
                    fail_msg("multidof %s entry %d: %s differs by %g", names[o], e,
                             k == 1 ? "512 bits" : "step 2^-150", mpfr_get_d(d, MPFR_RNDN));
            }
        }
    mpfr_clear(d);
    for (int k = 0; k < 3; k++) rbdref_mp_clear(&r[k]);
    free(q); free(v); free(a); free(tau);
    rbd_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_autotree),
        cmocka_unit_test(test_multidof),
        cmocka_unit_test(test_multidof_precision),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mpfr_free_cache();
    return rc;
}
