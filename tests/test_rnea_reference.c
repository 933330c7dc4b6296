/* RNEA against Pinocchio's tau for the autoTree cases in tests/pinocchio/reference. */
#include <stdlib.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/rbd_io.h"

static void check_case(const char *name, const char *spec)
{
    char st[256], ex[256];
    snprintf(st, sizeof st, "reference/%s.state", name);
    snprintf(ex, sizeof ex, "reference/%s.expected", name);
    rbd_model *m = tu_model(spec);
    rbd_state_file sf;
    assert_int_equal(rbd_state_file_read(tu_shared_path(0, st), m, &sf), 0);
    rbd_block *b;
    int nb;
    assert_int_equal(rbd_blocks_read(tu_shared_path(1, ex), &b, &nb), 0);
    const rbd_block *tau_ref = rbd_blocks_find(b, nb, "tau");
    assert_non_null(tau_ref);
    rbd_data *d = rbd_data_new(m);
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * m->nv);
    double *a = malloc(sizeof(double) * m->nv), *tau = malloc(sizeof(double) * m->nv);
    double *tau_user = malloc(sizeof(double) * m->nv);
    rbd_q_from_user(m, sf.q, q);
    rbd_v_from_user(m, sf.v, v);
    rbd_v_from_user(m, sf.a, a);
    assert_int_equal(rbd_rnea(m, d, q, v, a, tau), 0);
    rbd_v_to_user(m, tau, tau_user);
    tu_assert_close(name, tau_user, tau_ref->x, (size_t)m->nv, 1, 1e-12);
    free(q); free(v); free(a); free(tau); free(tau_user);
    rbd_data_free(d);
    rbd_blocks_free(b, nb);
    rbd_state_file_free(&sf);
    rbd_model_free(m);
}

static void test_autotree_N6(void **s) { (void)s; check_case("autotree_N6_bf1", "autotree:N=6,bf=1"); }
static void test_autotree_N8_skew(void **s)
{
    (void)s;
    check_case("autotree_N8_bf1_skew0.6_taper0.9", "autotree:N=8,bf=1,skew=0.6,taper=0.9");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_autotree_N6),
        cmocka_unit_test(test_autotree_N8_skew),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
