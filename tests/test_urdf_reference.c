/*
 * URDF models against Pinocchio (tests/pinocchio/reference): the joint order of the
 * state file's comment, RNEA's tau at (q, v, a), and M(q) assembled column by
 * column from RNEA (M e_j = tau(q, 0, e_j) - tau(q, 0, 0) with gravity off),
 * and dtau/dq, dtau/dv by complex step through the tangent-space integration
 * (q (+) i h e_j = q * exp(i h e_j)), all in the user numbering, to 1e-9.
 * hyq_freeflyer exercises the free-flyer conventions (q = [x y z qx qy qz qw],
 * v = [lin; ang] in the base frame, right perturbation q * exp(d)).
 */
#include <complex.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"
#include "rbdiff/rbd_io.h"

/* spz_rnea: the same RNEA source in double complex */
#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/rnea_tpl.h"

/* Complex-step columns of dtau/dq (tangent directions) and dtau/dv, internal
 * numbering; every column is exact to rounding (no subtraction). */
static void cs_derivs(const rbd_model *m, const double *q, const double *v, const double *a, double *dq, double *dv)
{
    const double h = 1e-20;
    int nb = m->nb, nq = m->nq, nv = m->nv;
    spz_xform *Xt = malloc(sizeof *Xt * nb), *Xup = malloc(sizeof *Xup * nb);
    spz_inertia *Ib = malloc(sizeof *Ib * nb);
    double complex (*vb)[6] = malloc(sizeof *vb * nb), (*ab)[6] = malloc(sizeof *ab * nb);
    double complex (*fb)[6] = malloc(sizeof *fb * nb);
    double complex *qc = malloc(sizeof *qc * nq), *qp = malloc(sizeof *qp * nq), *d = malloc(sizeof *d * nv);
    double complex *vc = malloc(sizeof *vc * nv), *ac = malloc(sizeof *ac * nv), *tc = malloc(sizeof *tc * nv);
    for (int k = 0; k < nb; k++) {
        for (int c = 0; c < 9; c++) { Xt[k].E[c] = m->Xtree[k].E[c]; Ib[k].Ib[c] = m->inertia[k].Ib[c]; }
        for (int c = 0; c < 3; c++) { Xt[k].r[c] = m->Xtree[k].r[c]; Ib[k].h[c] = m->inertia[k].h[c]; }
        Ib[k].m = m->inertia[k].m;
    }
    for (int k = 0; k < nq; k++) qc[k] = q[k];
    for (int k = 0; k < nv; k++) { vc[k] = v[k]; ac[k] = a[k]; }
    for (int j = 0; j < nv; j++) {
        for (int k = 0; k < nv; k++) d[k] = 0;
        d[j] = I * h;
        for (int k = 0; k < nb; k++)
            spz_integrate_joint(&m->joint[k], qc + m->idx_q[k], d + m->idx_v[k], 1, qp + m->idx_q[k]);
        spz_rnea(m, Xt, Ib, Xup, vb, ab, fb, qp, vc, ac, tc);
        for (int i = 0; i < nv; i++) dq[i + (size_t)nv * j] = cimag(tc[i]) / h;
        vc[j] += I * h;
        spz_rnea(m, Xt, Ib, Xup, vb, ab, fb, qc, vc, ac, tc);
        vc[j] = v[j];
        for (int i = 0; i < nv; i++) dv[i + (size_t)nv * j] = cimag(tc[i]) / h;
    }
    free(Xt); free(Xup); free(Ib); free(vb); free(ab); free(fb); free(qc); free(qp); free(d); free(vc); free(ac);
    free(tc);
}

static rbd_model *load(const char *file, int freeflyer, int gravity)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/models/%s", RBD_SOURCE_DIR, file);
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    if (!gravity) o.gravity[2] = 0;
    rbd_model *m = NULL;
    int rc = rbd_urdf_load(path, freeflyer, &o, &m);
    if (rc) fail_msg("%s: %s", path, rbd_last_error());
    return m;
}

/* The state file's comment lists the joints in velocity order: "name(type,...)". */
static void check_joint_order(const rbd_model *m, const char *state_path)
{
    FILE *f = fopen(state_path, "r");
    assert_non_null(f);
    char line[4096];
    const char *tag = "joints in velocity order:";
    char *p = NULL;
    while (fgets(line, sizeof line, f))
        if ((p = strstr(line, tag))) break;
    fclose(f);
    assert_non_null(p);
    p += strlen(tag);
    int *internal = malloc(sizeof(int) * (size_t)m->nb);
    for (int k = 0; k < m->nb; k++) internal[m->user_body[k]] = k;
    for (int u = 0; u < m->nb; u++) {
        while (*p == ' ') p++;
        char *paren = strchr(p, '(');
        assert_non_null(paren);
        *paren = 0;
        if (strcmp(p, m->joint_name[internal[u]]))
            fail_msg("joint %d: Pinocchio has '%s', rbdiff '%s'", u, p, m->joint_name[internal[u]]);
        p = strchr(paren + 1, ')');
        assert_non_null(p);
        p++;
    }
    while (*p == ' ' || *p == '\n') p++;
    assert_int_equal(*p, 0);        /* no joint left over */
    free(internal);
}

static void check_case(const char *name, const char *file, int freeflyer)
{
    char st[256], ex[256];
    snprintf(st, sizeof st, "reference/%s.state", name);
    snprintf(ex, sizeof ex, "reference/%s.expected", name);
    rbd_model *m = load(file, freeflyer, 1), *m0 = load(file, freeflyer, 0);
    check_joint_order(m, tu_shared_path(0, st));
    rbd_state_file sf;
    assert_int_equal(rbd_state_file_read(tu_shared_path(0, st), m, &sf), 0);
    rbd_block *b;
    int nbk;
    assert_int_equal(rbd_blocks_read(tu_shared_path(1, ex), &b, &nbk), 0);
    const rbd_block *tau_ref = rbd_blocks_find(b, nbk, "tau"), *M_ref = rbd_blocks_find(b, nbk, "M");
    assert_non_null(tau_ref);
    assert_non_null(M_ref);
    int nv = m->nv;
    assert_int_equal(tau_ref->rows, nv);
    assert_int_equal(M_ref->rows, nv);
    assert_int_equal(M_ref->cols, nv);

    rbd_data *d = rbd_data_new(m), *d0 = rbd_data_new(m0);
    double *q = malloc(sizeof(double) * m->nq), *v = malloc(sizeof(double) * nv);
    double *a = malloc(sizeof(double) * nv), *tau = malloc(sizeof(double) * nv);
    double *tau_user = malloc(sizeof(double) * nv), *zero = calloc((size_t)nv, sizeof(double));
    double *bias = malloc(sizeof(double) * nv), *M = malloc(sizeof(double) * nv * nv);
    double *M_user = malloc(sizeof(double) * nv * nv);
    rbd_q_from_user(m, sf.q, q);
    rbd_v_from_user(m, sf.v, v);
    rbd_v_from_user(m, sf.a, a);
    assert_int_equal(rbd_rnea(m, d, q, v, a, tau), 0);
    rbd_v_to_user(m, tau, tau_user);
    tu_assert_close(name, tau_user, tau_ref->x, (size_t)nv, 1, 1e-9);

    /* M column by column from RNEA, gravity off */
    assert_int_equal(rbd_rnea(m0, d0, q, zero, zero, bias), 0);
    for (int j = 0; j < nv; j++) {
        double *e = a;
        memset(e, 0, sizeof(double) * nv);
        e[j] = 1;
        assert_int_equal(rbd_rnea(m0, d0, q, zero, e, M + (size_t)nv * j), 0);
        for (int i = 0; i < nv; i++) M[i + (size_t)nv * j] -= bias[i];
    }
    rbd_mat_to_user(m0, M, M_user);
    char what[300];
    snprintf(what, sizeof what, "%s M", name);
    tu_assert_close(what, M_user, M_ref->x, (size_t)nv, (size_t)nv, 1e-9);

    /* dtau/dq in Pinocchio's tangent space and dtau/dv */
    const rbd_block *dq_ref = rbd_blocks_find(b, nbk, "dtau_dq"), *dv_ref = rbd_blocks_find(b, nbk, "dtau_dv");
    assert_non_null(dq_ref);
    assert_non_null(dv_ref);
    double *dq = malloc(sizeof(double) * nv * nv), *dv = malloc(sizeof(double) * nv * nv);
    rbd_v_from_user(m, sf.a, a);
    cs_derivs(m, q, v, a, dq, dv);
    rbd_mat_to_user(m, dq, M_user);
    snprintf(what, sizeof what, "%s dtau_dq", name);
    tu_assert_close(what, M_user, dq_ref->x, (size_t)nv, (size_t)nv, 1e-9);
    rbd_mat_to_user(m, dv, M_user);
    snprintf(what, sizeof what, "%s dtau_dv", name);
    tu_assert_close(what, M_user, dv_ref->x, (size_t)nv, (size_t)nv, 1e-9);
    free(dq); free(dv);

    free(q); free(v); free(a); free(tau); free(tau_user); free(zero); free(bias); free(M); free(M_user);
    rbd_data_free(d); rbd_data_free(d0);
    rbd_blocks_free(b, nbk);
    rbd_state_file_free(&sf);
    rbd_model_free(m); rbd_model_free(m0);
}

static void test_double_pendulum(void **s) { (void)s; check_case("double_pendulum", "double_pendulum.urdf", 0); }
static void test_ur5(void **s) { (void)s; check_case("ur5", "ur5.urdf", 0); }
static void test_hyq_freeflyer(void **s) { (void)s; check_case("hyq_freeflyer", "hyq.urdf", 1); }

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_double_pendulum),
        cmocka_unit_test(test_ur5),
        cmocka_unit_test(test_hyq_freeflyer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
