/* CRBA, every M^-1 variant and ABA against Pinocchio's M, Minv and qdd for
 * the autoTree cases in ../shared/reference (user numbering, to 1e-10). */
#include <stdlib.h>
#include "testutil.h"
#include "dynamics.h"
#include "rbd_io.h"

static void check_case(const char *name, const char *spec)
{
    char st[256], ex[256], what[256];
    snprintf(st, sizeof st, "reference/%s.state", name);
    snprintf(ex, sizeof ex, "reference/%s.expected", name);
    rbd_model *m = tu_model(spec);
    rbd_state_file sf;
    assert_int_equal(rbd_state_file_read(tu_shared_path(0, st), m, &sf), 0);
    assert_non_null(sf.tau);
    rbd_block *b;
    int nb;
    assert_int_equal(rbd_blocks_read(tu_shared_path(1, ex), &b, &nb), 0);
    const rbd_block *M_ref = rbd_blocks_find(b, nb, "M"), *Minv_ref = rbd_blocks_find(b, nb, "Minv");
    const rbd_block *qdd_ref = rbd_blocks_find(b, nb, "qdd");
    assert_non_null(M_ref); assert_non_null(Minv_ref); assert_non_null(qdd_ref);
    size_t n = (size_t)m->nv;
    rbd_data *d = rbd_data_new(m);
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * n), *tau = malloc(sizeof(double) * n);
    double *x = malloc(sizeof(double) * n * n), *xu = malloc(sizeof(double) * n * n);
    rbd_q_from_user(m, sf.q, q);
    rbd_v_from_user(m, sf.v, v);
    rbd_v_from_user(m, sf.tau, tau);

    assert_int_equal(rbd_crba(m, d, q, x), 0);
    rbd_mat_to_user(m, x, xu);
    snprintf(what, sizeof what, "%s: M", name);
    tu_assert_close(what, xu, M_ref->x, n, n, 1e-10);
    for (int k = 0; k < RBD_MINV_NKINDS; k++) {
        assert_int_equal(rbd_minv(m, d, (rbd_minv_kind)k, q, x), 0);
        rbd_mat_to_user(m, x, xu);
        snprintf(what, sizeof what, "%s: Minv (%s)", name, rbd_minv_name(k));
        tu_assert_close(what, xu, Minv_ref->x, n, n, 1e-10);
    }
    assert_int_equal(rbd_aba(m, d, q, v, tau, x), 0);
    rbd_v_to_user(m, x, xu);
    snprintf(what, sizeof what, "%s: qdd (aba)", name);
    tu_assert_close(what, xu, qdd_ref->x, n, 1, 1e-10);

    free(q); free(v); free(tau); free(x); free(xu);
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
