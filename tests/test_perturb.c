/*
 * The perturbation methods (id-fd, fd-fd, id-cs, fd-cs; derivatives/perturb)
 * give, bit for bit, their definition written out here from the public
 * pieces: the step rule of perturb.h, RNEA or ABA at q (+) h e_j (tangent
 * space), v + h e_j, tau + h e_j, and the complex step through the same
 * templates instantiated for double complex.  Any change of what the driver
 * computes (step, order of the difference, the scaling, which columns)
 * moves a bit and fails here; the accuracy of the results is the business
 * of test_id_methods, test_fd_methods and the reference tests.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "model/joint.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/rnea_tpl.h"
#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/aba_tpl.h"

typedef struct {
    const rbd_model *m;
    rbd_data *d;
    int id;                             /* RNEA (u = a) or ABA (u = tau) */
    spz_xform *Xtree, *Xup;
    spz_inertia *Ib;
    double complex (*v)[6], (*a)[6], (*f)[6], (*c)[6], (*pA)[6], (*IA)[36], (*U)[6], *Dinv, *u;
} fn;

static void fn_new(fn *F, const rbd_model *m, int id)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    *F = (fn){ .m = m, .d = rbd_data_new(m), .id = id };
    F->Xtree = calloc(nb, sizeof *F->Xtree); F->Xup = calloc(nb, sizeof *F->Xup); F->Ib = calloc(nb, sizeof *F->Ib);
    F->v = calloc(nb, sizeof *F->v); F->a = calloc(nb, sizeof *F->a); F->f = calloc(nb, sizeof *F->f);
    F->c = calloc(nb, sizeof *F->c); F->pA = calloc(nb, sizeof *F->pA); F->IA = calloc(nb, sizeof *F->IA);
    F->U = calloc(nv, sizeof *F->U); F->Dinv = calloc(36 * nb, sizeof *F->Dinv); F->u = calloc(nv, sizeof *F->u);
    for (size_t i = 0; i < nb; i++) {
        spz_xform_promote(&m->Xtree[i], &F->Xtree[i]);
        spz_inertia_promote(&m->inertia[i], &F->Ib[i]);
    }
}

static void fn_free(fn *F)
{
    rbd_data_free(F->d);
    free(F->Xtree); free(F->Xup); free(F->Ib); free(F->v); free(F->a); free(F->f); free(F->c); free(F->pA);
    free(F->IA); free(F->U); free(F->Dinv); free(F->u);
}

static void f_real(fn *F, const double *q, const double *v, const double *u, double *y)
{
    if (F->id) assert_int_equal(rbd_rnea(F->m, F->d, q, v, u, y), 0);
    else assert_int_equal(rbd_aba(F->m, F->d, q, v, u, y), 0);
}

/* Column j of dy/d(q, v, u) (input 0, 1, 2) by the complex step. */
static void cs_column(fn *F, const double *q, const double *v, const double *u, int input, int j, double h,
                      double *col)
{
    const rbd_model *m = F->m;
    const int nv = m->nv;
    double complex *zq = calloc((size_t)m->nq, sizeof *zq), *zv = calloc((size_t)nv, sizeof *zv);
    double complex *zu = calloc((size_t)nv, sizeof *zu), *zy = calloc((size_t)nv, sizeof *zy);
    for (int k = 0; k < m->nq; k++) zq[k] = q[k];
    for (int k = 0; k < nv; k++) { zv[k] = v[k]; zu[k] = u[k]; }
    if (input == 0) {
        int i = 0;
        while (!(m->idx_v[i] <= j && j < m->idx_v[i] + m->nv_of[i])) i++;
        double complex qi[7], dz[6] = { 0 };
        for (int k = 0; k < m->nq_of[i]; k++) qi[k] = zq[m->idx_q[i] + k];
        dz[j - m->idx_v[i]] = 1;
        spz_integrate_joint(&m->joint[i], qi, dz, h * I, zq + m->idx_q[i]);
    } else if (input == 1) zv[j] = v[j] + h * I;
    else zu[j] = u[j] + h * I;
    if (F->id) spz_rnea(m, F->Xtree, F->Ib, F->Xup, F->v, F->a, F->f, zq, zv, zu, zy);
    else {
        const spz_aba_ws w = { F->Xup, F->v, F->c, F->pA, F->a, F->IA, F->U, F->Dinv, F->u, NULL, NULL };
        assert_int_equal(spz_aba(m, F->Xtree, F->Ib, &w, zq, zv, zu, zy), -1);
    }
    for (int k = 0; k < nv; k++) col[k] = cimag(zy[k]) / h;
    free(zq); free(zv); free(zu); free(zy);
}

/* Column j by finite differences, the step rule of perturb.h. */
static void fd_column(fn *F, const double *q, const double *v, const double *u, int input, int j, int forward,
                      const double *y, double *col)
{
    const rbd_model *m = F->m;
    const int nv = m->nv;
    int i = 0;
    while (!(m->idx_v[i] <= j && j < m->idx_v[i] + m->nv_of[i])) i++;
    const double x = input == 0 ? (m->nq_of[i] != m->nv_of[i] ? 0 : q[m->idx_q[i]]) : input == 1 ? v[j] : u[j];
    const double base = forward ? sqrt(DBL_EPSILON) : cbrt(DBL_EPSILON);
    volatile double t = x + base * fmax(1, fabs(x));
    const double h = t - x;
    double *qp = malloc(sizeof(double) * (size_t)m->nq), *vp = malloc(sizeof(double) * (size_t)nv);
    double *up = malloc(sizeof(double) * (size_t)nv), *dv = calloc((size_t)nv, sizeof(double));
    double *yp = malloc(sizeof(double) * (size_t)nv), *ym = malloc(sizeof(double) * (size_t)nv);
    dv[j] = 1;
    for (int s = 0; s < 2 - forward; s++) {
        const double hs = s ? -h : h;
        memcpy(vp, v, sizeof(double) * (size_t)nv);
        memcpy(up, u, sizeof(double) * (size_t)nv);
        if (input == 0) rbd_integrate(m, q, dv, hs, qp);
        else memcpy(qp, q, sizeof(double) * (size_t)m->nq);
        if (input == 1) vp[j] = v[j] + hs;
        if (input == 2) up[j] = u[j] + hs;
        f_real(F, qp, vp, up, s ? ym : yp);
    }
    if (forward) memcpy(ym, y, sizeof(double) * (size_t)nv);
    for (int k = 0; k < nv; k++) col[k] = (yp[k] - ym[k]) * (forward ? 1 / h : 1 / (2 * h));
    free(qp); free(vp); free(up); free(dv); free(yp); free(ym);
}

static void check(const rbd_model *m, const char *name, int forward)
{
    const rbd_method *meth = rbd_method_find(name);
    assert_non_null(meth);
    const int id = meth->output == RBD_ID_DERIVS, cs = strstr(name, "-cs") != NULL, nv = m->nv;
    const size_t n2 = (size_t)nv * nv;
    rbd_options o;
    rbd_options_default(&o);
    o.fd_forward = forward;
    void *ws;
    assert_int_equal(meth->init(m, &o, &ws), 0);
    double *q = malloc(sizeof(double) * (size_t)m->nq), *v = malloc(sizeof(double) * (size_t)nv);
    double *a = malloc(sizeof(double) * (size_t)nv), *tau = malloc(sizeof(double) * (size_t)nv);
    double *y = malloc(sizeof(double) * (size_t)nv), *col = malloc(sizeof(double) * (size_t)nv);
    double *D = malloc(sizeof(double) * 3 * n2);
    rbd_rng r;
    rbd_rng_seed(&r, 28);
    rbd_random_state(m, &r, q, v, a, tau);
    rbd_derivs out = { 0 };
    if (id) out = (rbd_derivs){ .tau = y, .dtau_dq = D, .dtau_dv = D + n2 };
    else out = (rbd_derivs){ .qdd = y, .dqdd_dq = D, .dqdd_dv = D + n2, .dqdd_dtau = D + 2 * n2 };
    const rbd_state x = { q, v, a, tau };
    assert_int_equal(meth->eval(ws, &x, &out), 0);
    fn F;
    fn_new(&F, m, id);
    const double *u = id ? a : tau;
    double *y0 = malloc(sizeof(double) * (size_t)nv);
    f_real(&F, q, v, u, y0);
    if (!cs) assert_memory_equal(y, y0, sizeof(double) * (size_t)nv);
    for (int input = 0; input < 3 - id; input++)
        for (int j = 0; j < nv; j++) {
            if (cs) cs_column(&F, q, v, u, input, j, o.cs_step, col);
            else fd_column(&F, q, v, u, input, j, forward, y0, col);
            if (memcmp(col, D + n2 * (size_t)input + (size_t)nv * j, sizeof(double) * (size_t)nv)) {
                print_error("%s%s: column %d of input %d differs from its definition\n", name,
                            forward ? " (forward)" : "", j, input);
                fail();
            }
        }
    free(y0); free(q); free(v); free(a); free(tau); free(y); free(col); free(D);
    fn_free(&F);
    meth->fini(ws);
}

static void test_perturbation_methods(void **s)
{
    (void)s;
    char wart[1400];    /* continuous joints, on a free-flyer */
    snprintf(wart, sizeof wart, "urdf:%s,freeflyer", tu_wart_robot("perturb_wart.urdf"));
    rbd_model *ms[3] = { tu_model("autotree:N=9,bf=2,skew=0.7,taper=0.9"), tu_multidof_tree(), tu_model(wart) };
    for (int k = 0; k < 3; k++) {
        check(ms[k], "id-fd", 0);
        check(ms[k], "id-fd", 1);
        check(ms[k], "fd-fd", 0);
        check(ms[k], "fd-fd", 1);
        check(ms[k], "id-cs", 0);
        check(ms[k], "fd-cs", 0);
        rbd_model_free(ms[k]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_perturbation_methods) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
