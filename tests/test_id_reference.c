/*
 * dtau_dq and dtau_dv of every registered ID method against the values
 * Pinocchio computed (../shared/reference), entry by entry in the user's
 * numbering.  The autoTree cases are required; the URDF cases (fixed-base
 * ur5, free-flyer hyq) are checked when the URDF loader builds them, which
 * also puts the free-flyer joint of every method that declares it against an
 * independent implementation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "method.h"
#include "rbd_io.h"

static double tol_of(const rbd_method *meth) { return strcmp(meth->name, "id-fd") ? 1e-9 : 1e-6; }

/* Returns the number of methods checked. */
static int check_case(const char *name, const char *spec)
{
    char st[256], ex[256];
    snprintf(st, sizeof st, "reference/%s.state", name);
    snprintf(ex, sizeof ex, "reference/%s.expected", name);
    rbd_model *m = tu_model(spec);
    rbd_state_file sf;
    if (rbd_state_file_read(tu_shared_path(0, st), m, &sf)) fail_msg("%s: %s", st, rbd_last_error());
    rbd_block *b;
    int nb;
    if (rbd_blocks_read(tu_shared_path(1, ex), &b, &nb)) fail_msg("%s: %s", ex, rbd_last_error());
    const rbd_block *Rq = rbd_blocks_find(b, nb, "dtau_dq"), *Rv = rbd_blocks_find(b, nb, "dtau_dv");
    const rbd_block *Rt = rbd_blocks_find(b, nb, "tau");
    assert_non_null(Rq); assert_non_null(Rv); assert_non_null(Rt);
    size_t nv = (size_t)m->nv;
    assert_int_equal(Rq->rows, m->nv);
    assert_int_equal(Rq->cols, m->nv);
    double *q = malloc(sizeof(double) * (size_t)m->nq), *v = malloc(sizeof(double) * nv);
    double *a = malloc(sizeof(double) * nv), *tau = malloc(sizeof(double) * nv), *tu = malloc(sizeof(double) * nv);
    double *dq = malloc(sizeof(double) * nv * nv), *dv = malloc(sizeof(double) * nv * nv);
    double *uq = malloc(sizeof(double) * nv * nv), *uv = malloc(sizeof(double) * nv * nv);
    rbd_q_from_user(m, sf.q, q);
    rbd_v_from_user(m, sf.v, v);
    rbd_v_from_user(m, sf.a, a);
    int checked = 0;
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *meth = rbd_methods[k];
        if (meth->output != RBD_ID_DERIVS || rbd_method_supports(meth, m)) continue;
        void *ws = NULL;
        if (meth->init(m, NULL, &ws)) fail_msg("%s on %s: %s", meth->name, name, rbd_last_error());
        rbd_state x = { .q = q, .v = v, .a = a };
        rbd_derivs d = { .tau = tau, .dtau_dq = dq, .dtau_dv = dv };
        if (meth->eval(ws, &x, &d)) fail_msg("%s on %s: %s", meth->name, name, rbd_last_error());
        meth->fini(ws);
        rbd_mat_to_user(m, dq, uq);
        rbd_mat_to_user(m, dv, uv);
        rbd_v_to_user(m, tau, tu);
        char what[128];
        snprintf(what, sizeof what, "%s %s dtau_dq", meth->name, name);
        tu_assert_close(what, uq, Rq->x, nv, nv, tol_of(meth));
        snprintf(what, sizeof what, "%s %s dtau_dv", meth->name, name);
        tu_assert_close(what, uv, Rv->x, nv, nv, tol_of(meth));
        snprintf(what, sizeof what, "%s %s tau", meth->name, name);
        tu_assert_close(what, tu, Rt->x, nv, 1, 1e-12);
        checked++;
    }
    free(q); free(v); free(a); free(tau); free(tu); free(dq); free(dv); free(uq); free(uv);
    rbd_blocks_free(b, nb);
    rbd_state_file_free(&sf);
    rbd_model_free(m);
    return checked;
}

static void test_autotree_N6(void **s)
{
    (void)s;
    assert_true(check_case("autotree_N6_bf1", "autotree:N=6,bf=1") >= 6);
}

static void test_autotree_N8_skew(void **s)
{
    (void)s;
    assert_true(check_case("autotree_N8_bf1_skew0.6_taper0.9", "autotree:N=8,bf=1,skew=0.6,taper=0.9") >= 6);
}

/* URDF cases: skipped (not failed) only when the model cannot be built. */
static void urdf_case(const char *name, const char *file, const char *suffix)
{
    char spec[1100];
    snprintf(spec, sizeof spec, "urdf:%s%s", tu_shared_path(2, file), suffix);
    rbd_model *m = NULL;
    if (rbd_model_from_spec(spec, NULL, &m)) {
        printf("skipping %s: %s\n", name, rbd_last_error());
        skip();
    }
    rbd_model_free(m);
    assert_true(check_case(name, spec) >= 1);
}

static void test_ur5(void **s) { (void)s; urdf_case("ur5", "models/ur5.urdf", ""); }
static void test_hyq_freeflyer(void **s) { (void)s; urdf_case("hyq_freeflyer", "models/hyq.urdf", ",freeflyer"); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_autotree_N6),
        cmocka_unit_test(test_autotree_N8_skew),
        cmocka_unit_test(test_ur5),
        cmocka_unit_test(test_hyq_freeflyer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
