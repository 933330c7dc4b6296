/*
 * Spatial algebra: properties P1-P7 of the IDSVA paper's Appendix B on random
 * vectors, the operators against their block definitions (eqs. 41-43), and
 * every transform / inertia routine against dense 6x6 products.
 */
#include <math.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "dynamics/aba_tpl.h"

#define NTRIAL 50
#define TOL 1e-13

static rbd_rng rng;

static void rand6(double x[6]) { for (int k = 0; k < 6; k++) x[k] = rbd_rng_uniform(&rng); }

/* dense 6x6 helpers, row-major */
static void mul6(const double A[36], const double B[36], double C[36])
{
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            double s = 0;
            for (int k = 0; k < 6; k++) s += A[6 * i + k] * B[6 * k + j];
            C[6 * i + j] = s;
        }
}
static void mul6v(const double A[36], const double x[6], double y[6])
{
    for (int i = 0; i < 6; i++) { double s = 0; for (int k = 0; k < 6; k++) s += A[6 * i + k] * x[k]; y[i] = s; }
}
static void tr6(const double A[36], double B[36])
{
    for (int i = 0; i < 6; i++) for (int j = 0; j < 6; j++) B[6 * j + i] = A[6 * i + j];
}
static void sub6(const double A[36], const double B[36], double C[36]) { for (int k = 0; k < 36; k++) C[k] = A[k] - B[k]; }

/* column-major view for tu_assert_close: compare row-major as flat arrays */
static void close(const char *what, const double *x, const double *y, int n) { tu_assert_close(what, x, y, (size_t)n, 1, TOL); }

/* operator matrices built by applying the library functions to unit vectors */
typedef void (*op_fn)(const double a[6], const double b[6], double out[6]);
static void op_mat(op_fn f, const double a[6], double A[36])
{
    for (int j = 0; j < 6; j++) {
        double e[6] = { 0 }, c[6];
        e[j] = 1;
        f(a, e, c);
        for (int i = 0; i < 6; i++) A[6 * i + j] = c[i];
    }
}
static void crm_(const double a[6], const double b[6], double o[6]) { sp_crm(a, b, o); }
static void crf_(const double a[6], const double b[6], double o[6]) { sp_crf(a, b, o); }
static void crbar_(const double a[6], const double b[6], double o[6]) { sp_crbar(a, b, o); }

static void skew(const double *a, double S[9])
{
    double s[9] = { 0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0 };
    memcpy(S, s, sizeof s);
}
/* 6x6 from 3x3 blocks [A B; C D] */
static void blocks(const double A[9], const double B[9], const double C[9], const double D[9], double M[36])
{
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            M[6 * i + j] = A ? A[3 * i + j] : 0;
            M[6 * i + j + 3] = B ? B[3 * i + j] : 0;
            M[6 * (i + 3) + j] = C ? C[3 * i + j] : 0;
            M[6 * (i + 3) + j + 3] = D ? D[3 * i + j] : 0;
        }
}

static void test_operator_definitions(void **s)
{
    (void)s;
    for (int t = 0; t < NTRIAL; t++) {
        double v[6], f[6], A[36], B[36], wx[9], vx[9], nx[9], fx[9], mfx[9], mnx[9];
        rand6(v); rand6(f);
        skew(v, wx); skew(v + 3, vx); skew(f, nx); skew(f + 3, fx);
        for (int k = 0; k < 9; k++) { mnx[k] = -nx[k]; mfx[k] = -fx[k]; }
        op_mat(crm_, v, A); blocks(wx, NULL, vx, wx, B); close("v x (eq. 41)", A, B, 36);
        op_mat(crf_, v, A); blocks(wx, vx, NULL, wx, B); close("v x* (eq. 42)", A, B, 36);
        op_mat(crbar_, f, A); blocks(mnx, mfx, mfx, NULL, B); close("f xbar* (eq. 43)", A, B, 36);
    }
}

static void test_P1_to_P7(void **s)
{
    (void)s;
    for (int t = 0; t < NTRIAL; t++) {
        double v[6], mv[6], f[6], u[6], v1[6], v2[6], w[6];
        double X[36], Y[36], Z[36], P[36], Q[36], L[36], R[36];
        rand6(v); rand6(mv); rand6(f); rand6(u); rand6(v1); rand6(v2);
        /* P1: (v x m)x = vx mx - mx vx */
        sp_crm(v, mv, w); op_mat(crm_, w, L);
        op_mat(crm_, v, X); op_mat(crm_, mv, Y); mul6(X, Y, P); mul6(Y, X, Q); sub6(P, Q, R);
        close("P1", L, R, 36);
        /* P2: (v x m)x* = vx* mx* - mx* vx* */
        op_mat(crf_, w, L);
        op_mat(crf_, v, X); op_mat(crf_, mv, Y); mul6(X, Y, P); mul6(Y, X, Q); sub6(P, Q, R);
        close("P2", L, R, 36);
        /* P3: (v x* f) xbar* = vx* fxbar* - fxbar* vx */
        sp_crf(v, f, w); op_mat(crbar_, w, L);
        op_mat(crf_, v, X); op_mat(crbar_, f, Y); op_mat(crm_, v, Z); mul6(X, Y, P); mul6(Y, Z, Q); sub6(P, Q, R);
        close("P3", L, R, 36);
        /* P4: (v1 x v2)^T f = -v2^T (v1 x* f);  P5: (v1 x* f)^T v2 = -f^T (v1 x v2) */
        double a[6], b[6], lhs = 0, rhs = 0;
        sp_crm(v1, v2, a); sp_crf(v1, f, b);
        for (int k = 0; k < 6; k++) { lhs += a[k] * f[k]; rhs -= v2[k] * b[k]; }
        close("P4", &lhs, &rhs, 1);
        lhs = rhs = 0;
        for (int k = 0; k < 6; k++) { lhs += b[k] * v2[k]; rhs -= f[k] * a[k]; }
        close("P5", &lhs, &rhs, 1);
        /* P6: (u x v)^T = -v^T (u x*);  P7: (u x* f)^T = -f^T (u x) */
        double row[6];
        sp_crm(u, v, a); op_mat(crf_, u, X);
        for (int j = 0; j < 6; j++) { row[j] = 0; for (int k = 0; k < 6; k++) row[j] -= v[k] * X[6 * k + j]; }
        close("P6", a, row, 6);
        sp_crf(u, f, a); op_mat(crm_, u, X);
        for (int j = 0; j < 6; j++) { row[j] = 0; for (int k = 0; k < 6; k++) row[j] -= f[k] * X[6 * k + j]; }
        close("P7", a, row, 6);
    }
}

static void rand_xform(sp_xform *X)
{
    double qv[4], n = 0;
    for (int k = 0; k < 4; k++) { qv[k] = rbd_rng_uniform(&rng); n += qv[k] * qv[k]; }
    for (int k = 0; k < 4; k++) qv[k] /= sqrt(n);
    sp_quat_to_R(qv, X->E);
    for (int k = 0; k < 3; k++) X->r[k] = 2 * rbd_rng_uniform(&rng);
}

/* A random rigid-body inertia; *mass, c, Ic return what it was made from. */
static void rand_inertia(sp_inertia *In, double *mass, double c[3], double Ic[9])
{
    double A[9];
    for (int k = 0; k < 3; k++) c[k] = rbd_rng_uniform(&rng);
    for (int k = 0; k < 9; k++) A[k] = rbd_rng_uniform(&rng);
    for (int i = 0; i < 3; i++)             /* Ic = A A^T + 0.1 1: symmetric positive definite */
        for (int j = 0; j < 3; j++) {
            Ic[3 * i + j] = i == j ? 0.1 : 0;
            for (int k = 0; k < 3; k++) Ic[3 * i + j] += A[3 * i + k] * A[3 * j + k];
        }
    *mass = 1.5 + rbd_rng_uniform(&rng);
    sp_inertia_from_mcI(*mass, c, Ic, In);
}

static void test_transforms(void **s)
{
    (void)s;
    for (int t = 0; t < NTRIAL; t++) {
        sp_xform X, Y, Z, Xi;
        double MX[36], MY[36], MZ[36], P[36], Mt[36], m[6], f[6], a[6], b[6];
        rand_xform(&X); rand_xform(&Y); rand6(m); rand6(f);
        sp_xform_to_mat6(&X, MX);
        /* the 6x6 form itself: [E 0; -E rx E] (eq. 38) */
        double Erx[9], rx[9], mErx[9];
        skew(X.r, rx); sp_mat3_mul(X.E, rx, Erx);
        for (int k = 0; k < 9; k++) mErx[k] = -Erx[k];
        blocks(X.E, NULL, mErx, X.E, P);
        close("xform_to_mat6", MX, P, 36);
        sp_xform_motion(&X, m, a); mul6v(MX, m, b); close("X m", a, b, 6);
        sp_xform_inv_motion(&X, m, a); mul6v(MX, a, b); close("X X^-1 m", b, m, 6);
        sp_xform_force(&X, f, a); tr6(MX, Mt); mul6v(Mt, a, b); close("X^T X* f", b, f, 6);
        sp_xform_T_force(&X, f, a); mul6v(Mt, f, b); close("X^T f", a, b, 6);
        sp_xform_compose(&Y, &X, &Z); sp_xform_to_mat6(&Y, MY); sp_xform_to_mat6(&Z, MZ);
        mul6(MY, MX, P); close("compose", MZ, P, 36);
        sp_xform_inverse(&X, &Xi); sp_xform_to_mat6(&Xi, MY); mul6(MY, MX, P);
        double Id[36] = { 0 };
        for (int k = 0; k < 6; k++) Id[7 * k] = 1;
        close("inverse", P, Id, 36);
        /* X (v x m) = (Xv) x (Xm),  X* (v x* f) = (Xv) x* (X* f) */
        double v[6], c[6], xv[6], xm[6], xf[6];
        rand6(v);
        sp_crm(v, m, c); sp_xform_motion(&X, c, a);
        sp_xform_motion(&X, v, xv); sp_xform_motion(&X, m, xm); sp_crm(xv, xm, b); close("X (v x m)", a, b, 6);
        sp_crf(v, f, c); sp_xform_force(&X, c, a);
        sp_xform_force(&X, f, xf); sp_crf(xv, xf, b); close("X* (v x* f)", a, b, 6);
    }
}

static void test_inertias(void **s)
{
    (void)s;
    for (int t = 0; t < NTRIAL; t++) {
        sp_inertia In, Ip;
        sp_xform X;
        double MI[36], MX[36], Mt[36], P[36], Q[36], m[6], a[6], b[6], mass, c[3], Ic[9];
        rand_inertia(&In, &mass, c, Ic); rand_xform(&X); rand6(m);
        sp_inertia_to_mat6(&In, MI);
        /* RBDA eq. 2.63: I = [Ic + m cx cx^T, m cx; m cx^T, m 1] */
        double cx[9], B11[9], B12[9], B21[9], B22[9] = { 0 };
        skew(c, cx);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                B11[3 * i + j] = Ic[3 * i + j];
                for (int k = 0; k < 3; k++) B11[3 * i + j] += mass * cx[3 * i + k] * cx[3 * j + k];
                B12[3 * i + j] = mass * cx[3 * i + j];
                B21[3 * i + j] = mass * cx[3 * j + i];
            }
        for (int k = 0; k < 3; k++) B22[4 * k] = mass;
        blocks(B11, B12, B21, B22, P);
        close("inertia_from_mcI / inertia_to_mat6 (eq. 2.63)", MI, P, 36);
        sp_inertia_motion(&In, m, a); mul6v(MI, m, b); close("I m", a, b, 6);
        sp_inertia_to_parent(&X, &In, &Ip);
        sp_xform_to_mat6(&X, MX); tr6(MX, Mt); mul6(Mt, MI, P); mul6(P, MX, Q);
        sp_inertia_to_mat6(&Ip, P); close("X^T I X", P, Q, 36);
        /* the articulated-inertia congruence of aba_tpl.h on a general symmetric 6x6 */
        double A[36], acc[36];
        for (int i = 0; i < 6; i++) for (int j = i; j < 6; j++) A[6 * i + j] = A[6 * j + i] = rbd_rng_uniform(&rng);
        for (int k = 0; k < 36; k++) acc[k] = MI[k];
        sp_sym6_to_parent(&X, A, acc);
        mul6(Mt, A, P); mul6(P, MX, Q);
        for (int k = 0; k < 36; k++) Q[k] += MI[k];
        close("sym6_to_parent", acc, Q, 36);
    }
}

/* ldl_inv of aba_tpl.h: D D^-1 = 1 for n = 1..6 */
static void test_ldl_inv(void **s)
{
    (void)s;
    for (int n = 1; n <= 6; n++) {
        double A[36], D[36], Di[36];
        for (int k = 0; k < n * n; k++) A[k] = rbd_rng_uniform(&rng);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                D[n * i + j] = i == j ? 0.5 : 0;
                for (int k = 0; k < n; k++) D[n * i + j] += A[n * i + k] * A[n * j + k];
            }
        assert_int_equal(sp_ldl_inv(n, D, Di, 1e-12), 0);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double t = 0;
                for (int k = 0; k < n; k++) t += D[n * i + k] * Di[n * k + j];
                assert_true(fabs(t - (i == j)) < 1e-12);
            }
        for (int k = 0; k < n * n; k++) D[k] = 0;     /* zero matrix: singular, reported */
        assert_int_equal(sp_ldl_inv(n, D, Di, 1e-12), -1);
    }
}

static int setup(void **s) { (void)s; rbd_rng_seed(&rng, 2022); return 0; }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operator_definitions),
        cmocka_unit_test(test_P1_to_P7),
        cmocka_unit_test(test_transforms),
        cmocka_unit_test(test_inertias),
        cmocka_unit_test(test_ldl_inv),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
