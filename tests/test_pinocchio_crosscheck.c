/*
 * The conventions cross-check (issue 7): for every case in the shared folder's
 * reference/ (values Pinocchio computed) and every registered method, the
 * method's outputs equal the stored values to 1e-9 (finite differences 1e-6)
 * of max(1, max|R|); so do the base algorithms' tau (RNEA), M (CRBA), M^-1
 * (every variant) and qdd (ABA).  One table of cases x the registry, so a
 * method joins by being registered and a case by being listed here.
 *
 * Ordering conversion: the stored values are in the user numbering (autoTree
 * breadth-first, URDF depth-first with siblings by joint name = Pinocchio's),
 * so every output goes through rbd_v_to_user / rbd_mat_to_user.  The ID
 * values are at (q, v, a), the FD values at (q, v, tau) (reference/README.md).
 * The URDF cases load rbdiff's copies of the robots (tests/models/, the same
 * bytes as the shared models/); "warts" the robot tests/testutil.c writes.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "rbdiff/rbd_io.h"
#include "common/timeable.h"

#define MODELS RBD_SOURCE_DIR "/tests/models/"

static const struct { const char *name, *spec; } cases[] = {
    { "autotree_N6_bf1", "autotree:N=6,bf=1" },
    { "autotree_N8_bf1_skew0.6_taper0.9", "autotree:N=8,bf=1,skew=0.6,taper=0.9" },
    { "double_pendulum", "urdf:" MODELS "double_pendulum.urdf" },
    { "ur5", "urdf:" MODELS "ur5.urdf" },
    { "hyq_freeflyer", "urdf:" MODELS "hyq.urdf,freeflyer" },
    /* the robot with real-world URDF warts (issue 21), written by tu_wart_robot:
     * continuous joints with q = (cos, sin), a rounding-size inertia, a light
     * non-physical link on a fixed joint, a mimic joint */
    { "warts", "urdf:" RBD_BINARY_DIR "/tests/warts_crosscheck.urdf" },
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static double tol_of(const char *method)
{
    return !strcmp(method, "id-fd") || !strcmp(method, "fd-fd") ? 1e-6 : 1e-9;
}

typedef struct {
    rbd_model *m;
    rbd_state_file sf;
    rbd_block *b;
    int nb;
    double *q, *v, *a, *tau;        /* internal numbering */
    double *out, *user;             /* 2 nv + 5 nv^2 outputs; one nv^2 conversion buffer */
} case_data;

static void case_load(int k, case_data *c)
{
    char st[256], ex[256];
    snprintf(st, sizeof st, "reference/%s.state", cases[k].name);
    snprintf(ex, sizeof ex, "reference/%s.expected", cases[k].name);
    if (!strcmp(cases[k].name, "warts")) tu_wart_robot("warts_crosscheck.urdf");
    c->m = tu_model(cases[k].spec);
    if (rbd_state_file_read(tu_shared_path(0, st), c->m, &c->sf)) fail_msg("%s: %s", st, rbd_last_error());
    if (rbd_blocks_read(tu_shared_path(1, ex), &c->b, &c->nb)) fail_msg("%s: %s", ex, rbd_last_error());
    assert_non_null(c->sf.q); assert_non_null(c->sf.v); assert_non_null(c->sf.a); assert_non_null(c->sf.tau);
    size_t nv = (size_t)c->m->nv;
    c->q = malloc(sizeof(double) * (size_t)c->m->nq);
    c->v = malloc(sizeof(double) * nv);
    c->a = malloc(sizeof(double) * nv);
    c->tau = malloc(sizeof(double) * nv);
    c->out = malloc(sizeof(double) * (2 * nv + 5 * nv * nv));
    c->user = malloc(sizeof(double) * nv * nv);
    rbd_q_from_user(c->m, c->sf.q, c->q);
    rbd_v_from_user(c->m, c->sf.v, c->v);
    rbd_v_from_user(c->m, c->sf.a, c->a);
    rbd_v_from_user(c->m, c->sf.tau, c->tau);
}

static void case_free(case_data *c)
{
    free(c->q); free(c->v); free(c->a); free(c->tau); free(c->out); free(c->user);
    rbd_blocks_free(c->b, c->nb);
    rbd_state_file_free(&c->sf);
    rbd_model_free(c->m);
}

/* X (internal numbering, vector or nv x nv) against the stored block. */
static void check(const case_data *c, int k, const char *who, const char *block, const char *alt, const double *X,
                  double tol)
{
    const rbd_block *R = rbd_blocks_find(c->b, c->nb, block);
    if (!R && alt) R = rbd_blocks_find(c->b, c->nb, alt);
    if (!R) fail_msg("%s: no block '%s' in the expected file", cases[k].name, block);
    int nv = c->m->nv, mat = R->cols > 1;
    assert_int_equal(R->rows, nv);
    assert_int_equal(R->cols, mat ? nv : 1);
    if (mat) rbd_mat_to_user(c->m, X, c->user);
    else rbd_v_to_user(c->m, X, c->user);
    char what[256];
    snprintf(what, sizeof what, "%s: %s %s", cases[k].name, who, block);
    tu_assert_close(what, c->user, R->x, (size_t)nv, mat ? (size_t)nv : 1, tol);
}

static void test_methods(void **s)
{
    (void)s;
    for (int k = 0; k < NCASES; k++) {
        case_data c;
        case_load(k, &c);
        size_t nv = (size_t)c.m->nv, nn = nv * nv;
        int nid = 0, nfd = 0;
        for (int j = 0; rbd_methods[j]; j++) {
            const rbd_method *meth = rbd_methods[j];
            if (rbd_method_supports(meth, c.m)) { printf("  %s: %s\n", cases[k].name, rbd_last_error()); continue; }
            rbd_derivs d = { .tau = c.out, .qdd = c.out + nv, .dtau_dq = c.out + 2 * nv };
            d.dtau_dv = d.dtau_dq + nn;
            d.dqdd_dq = d.dtau_dv + nn;
            d.dqdd_dv = d.dqdd_dq + nn;
            d.dqdd_dtau = d.dqdd_dv + nn;
            rbd_state x = { c.q, c.v, meth->output == RBD_ID_DERIVS ? c.a : NULL,
                            meth->output == RBD_FD_DERIVS ? c.tau : NULL };
            void *ws = NULL;
            if (meth->init(c.m, NULL, &ws)) fail_msg("%s on %s: %s", meth->name, cases[k].name, rbd_last_error());
            int rc = meth->eval(ws, &x, &d);
            meth->fini(ws);
            if (rc) fail_msg("%s on %s: %s", meth->name, cases[k].name, rbd_last_error());
            double tol = tol_of(meth->name);
            if (meth->output == RBD_ID_DERIVS) {
                check(&c, k, meth->name, "tau", NULL, d.tau, 1e-9);
                check(&c, k, meth->name, "dtau_dq", NULL, d.dtau_dq, tol);
                check(&c, k, meth->name, "dtau_dv", NULL, d.dtau_dv, tol);
                nid++;
            } else {
                check(&c, k, meth->name, "qdd", NULL, d.qdd, 1e-9);
                check(&c, k, meth->name, "dqdd_dq", NULL, d.dqdd_dq, tol);
                check(&c, k, meth->name, "dqdd_dv", NULL, d.dqdd_dv, tol);
                check(&c, k, meth->name, "dqdd_dtau", "Minv", d.dqdd_dtau, 1e-9);
                nfd++;
            }
        }
        printf("%s: %d ID and %d FD methods agree with Pinocchio\n", cases[k].name, nid, nfd);
        /* every case meets the exact ID methods at least */
        assert_true(nid >= 4);
        case_free(&c);
    }
}

static void test_base_algorithms(void **s)
{
    (void)s;
    for (int k = 0; k < NCASES; k++) {
        case_data c;
        case_load(k, &c);
        rbd_data *d = rbd_data_new(c.m);
        assert_non_null(d);
        int n = 0;
        for (int j = 0; rbd_base_algos[j].name; j++, n++) {
            const rbd_base_algo *al = &rbd_base_algos[j];
            int rc = al->run(c.m, d, c.q, c.v, c.a, c.tau, c.out);
            if (rc) fail_msg("%s on %s: %s", al->name, cases[k].name, rbd_last_error());
            check(&c, k, al->name, al->out, NULL, c.out, 1e-9);
        }
        assert_true(n >= 7);        /* rnea, rnea-ground, crba, aba, three M^-1 */
        rbd_data_free(d);
        case_free(&c);
    }
}

/* A case added to the shared folder must be added to the table above. */
static void test_every_case_listed(void **s)
{
    (void)s;
    DIR *dir = opendir(tu_shared_path(0, "reference"));
    if (!dir) fail_msg("cannot open %s", tu_shared_path(0, "reference"));
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(dir))) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".state")) continue;
        int k = 0;
        while (k < NCASES && (strlen(cases[k].name) != len - 6 || strncmp(cases[k].name, e->d_name, len - 6))) k++;
        if (k == NCASES) fail_msg("reference case %s is not in the table of this test", e->d_name);
        seen++;
    }
    closedir(dir);
    assert_int_equal(seen, NCASES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_case_listed),
        cmocka_unit_test(test_methods),
        cmocka_unit_test(test_base_algorithms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
