/*
 * aba_tpl.h instantiated for double complex (what fd-cs will run): at a real
 * point it reproduces rbd_aba, and it is analytic, so the complex step
 * Im ABA(q + i h e_k) / h matches a central difference of the double ABA.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/aba_tpl.h"

typedef struct {
    spz_xform *Xtree, *Xup;
    spz_inertia *Ib;
    double complex (*v)[6], (*c)[6], (*pA)[6], (*a)[6], (*IA)[36], (*U)[6], *Dinv, *u;
} zws;

static zws zws_new(const rbd_model *m)
{
    zws z;
    size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    z.Xtree = calloc(nb, sizeof *z.Xtree); z.Xup = calloc(nb, sizeof *z.Xup); z.Ib = calloc(nb, sizeof *z.Ib);
    z.v = calloc(nb, sizeof *z.v); z.c = calloc(nb, sizeof *z.c); z.pA = calloc(nb, sizeof *z.pA);
    z.a = calloc(nb, sizeof *z.a); z.IA = calloc(nb, sizeof *z.IA); z.U = calloc(nv, sizeof *z.U);
    z.Dinv = calloc(36 * nb, sizeof *z.Dinv); z.u = calloc(nv, sizeof *z.u);
    for (size_t i = 0; i < nb; i++) {       /* promote the model constants */
        for (int k = 0; k < 9; k++) { z.Xtree[i].E[k] = m->Xtree[i].E[k]; z.Ib[i].Ib[k] = m->inertia[i].Ib[k]; }
        for (int k = 0; k < 3; k++) { z.Xtree[i].r[k] = m->Xtree[i].r[k]; z.Ib[i].h[k] = m->inertia[i].h[k]; }
        z.Ib[i].m = m->inertia[i].m;
    }
    return z;
}

static void zws_free(zws *z)
{
    free(z->Xtree); free(z->Xup); free(z->Ib); free(z->v); free(z->c); free(z->pA); free(z->a); free(z->IA);
    free(z->U); free(z->Dinv); free(z->u);
}

static void check(const char *spec)
{
    rbd_model *m = tu_model(spec);
    rbd_data *d = rbd_data_new(m);
    zws z = zws_new(m);
    const spz_aba_ws w = { z.Xup, z.v, z.c, z.pA, z.a, z.IA, z.U, z.Dinv, z.u, NULL, NULL };
    int nq = m->nq, nv = m->nv;
    double *q = malloc(sizeof(double) * nq), *qd = malloc(sizeof(double) * nv), *tau = malloc(sizeof(double) * nv);
    double *qdd = malloc(sizeof(double) * nv), *qp = malloc(sizeof(double) * nq), *qm = malloc(sizeof(double) * nq);
    double *fp = malloc(sizeof(double) * nv), *fm = malloc(sizeof(double) * nv), *re = malloc(sizeof(double) * nv);
    double *cs = malloc(sizeof(double) * nv), *fd = malloc(sizeof(double) * nv);
    double complex *zq = malloc(sizeof *zq * nq), *zqd = malloc(sizeof *zqd * nv), *ztau = malloc(sizeof *ztau * nv);
    double complex *zqdd = malloc(sizeof *zqdd * nv);
    rbd_rng r;
    rbd_rng_seed(&r, 9);
    rbd_random_state(m, &r, q, qd, NULL, tau);
    assert_int_equal(rbd_aba(m, d, q, qd, tau, qdd), 0);
    for (int k = 0; k < nv; k++) { zqd[k] = qd[k]; ztau[k] = tau[k]; }
    /* the derivative along a tangent direction of joint 0 and of the last joint */
    int js[2] = { 0, m->nb - 1 };
    for (int s = 0; s < 2; s++) {
        int j = js[s];
        double dv_h = 1e-20, dv_fd = 1e-6;
        double *dv = calloc((size_t)nv, sizeof(double));
        dv[m->idx_v[j]] = 1;
        for (int k = 0; k < nq; k++) zq[k] = q[k];
        /* revolute/prismatic q (+) i h e = q + i h e (the test models here) */
        zq[m->idx_q[j]] += I * dv_h;
        assert_int_equal(spz_aba(m, z.Xtree, z.Ib, &w, zq, zqd, ztau, zqdd), -1);
        for (int k = 0; k < nv; k++) { re[k] = creal(zqdd[k]); cs[k] = cimag(zqdd[k]) / dv_h; }
        tu_assert_close("complex ABA, real part", re, qdd, (size_t)nv, 1, 1e-14);
        rbd_integrate(m, q, dv, dv_fd, qp);
        rbd_integrate(m, q, dv, -dv_fd, qm);
        assert_int_equal(rbd_aba(m, d, qp, qd, tau, fp), 0);
        assert_int_equal(rbd_aba(m, d, qm, qd, tau, fm), 0);
        for (int k = 0; k < nv; k++) fd[k] = (fp[k] - fm[k]) / (2 * dv_fd);
        tu_assert_close("complex-step d qdd / d q vs central difference", cs, fd, (size_t)nv, 1, 1e-7);
        free(dv);
    }
    free(q); free(qd); free(tau); free(qdd); free(qp); free(qm); free(fp); free(fm); free(re); free(cs); free(fd);
    free(zq); free(zqd); free(ztau); free(zqdd);
    zws_free(&z);
    rbd_data_free(d);
    rbd_model_free(m);
}

static void test_complex_aba(void **s)
{
    (void)s;
    check("autotree:N=12,bf=1,skew=0.9,taper=0.95");
    check("autotree:N=20,bf=2,skew=-0.5");
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_complex_aba) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
