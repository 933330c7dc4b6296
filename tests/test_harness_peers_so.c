/*
 * Pinocchio's ComputeRNEASecondOrderDerivatives against the 256-bit
 * second-order reference (reference/ref_so.c), every Pinocchio version
 * built: the four tensors at the first state of seed 1's pool, in the user
 * numbering, as the peer's result() returns them (peer_api.h).  The
 * accuracy audit times no peer, so this test is where the peer's own error
 * is measured: per tensor max|X - R| / max|R| and the term-wise RMS
 * relative error over the entries above 1e-6 of the largest (the metric of
 * tests/test_so_methods.c), both under 1e-9; and entry by entry against
 * idsva-so at the same state: |X - O| <= 1e-9 |O| on every entry above
 * 1e-6 of the tensor's largest (below it the two roundings differ by more
 * than 1e-9 relative whatever either does); printed for the record.
 * Models: autoTree chain and bf = 2, 5 trees (skewed, tapered), ur5, hyq
 * and atlas with a free-flyer root.  Skipped when no Pinocchio is built.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "peers/peer.h"
#include "rbdref_so.h"

#define MODELS RBD_SOURCE_DIR "/tests/models/"

static const char *const specs[] = {
    "autotree:N=7,bf=1,skew=0.6,taper=0.9",
    "autotree:N=12,bf=2,skew=1.1,taper=0.95",
    "autotree:N=11,bf=5,skew=0.7,taper=0.92",
    "urdf:" MODELS "ur5.urdf",
    "urdf:" MODELS "hyq.urdf,freeflyer",
    "urdf:" MODELS "atlas.urdf,nonphysical,freeflyer",
};

/* max|X - R| / max|R|, and the RMS of (X - R) / R over |R| > 1e-6 max|R| */
static double rel_err(const double *X, const double *R, size_t n, double *rms)
{
    double mx = 0, d = 0, s = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++) {
        d = fmax(d, isnan(X[k]) ? INFINITY : fabs(X[k] - R[k]));
        if (fabs(R[k]) > 1e-6 * mx) { s += (X[k] - R[k]) * (X[k] - R[k]) / (R[k] * R[k]); cnt++; }
    }
    *rms = cnt ? sqrt(s / cnt) : 0;
    return mx > 0 ? d / mx : d;
}

/* max |X - O| / |O| over the entries |O| > 1e-6 max|O| */
static double entrywise(const double *X, const double *O, size_t n)
{
    double mx = 0, w = 0;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(O[k]));
    for (size_t k = 0; k < n; k++)
        if (fabs(O[k]) > 1e-6 * mx) w = fmax(w, isnan(X[k]) ? INFINITY : fabs(X[k] - O[k]) / fabs(O[k]));
    return w;
}

/* idsva-so at (q, v, a), the four tensors in the user numbering */
static void ours_user(const rbd_model *m, const double *q, const double *v, const double *a, double *O)
{
    const size_t nv = (size_t)m->nv, n3 = nv * nv * nv;
    const rbd_method *meth = rbd_method_find("idsva-so");
    double *T = malloc(sizeof *T * (4 * n3 + nv));
    assert_non_null(T);
    rbd_derivs d = { .tau = T + 4 * n3, .d2tau_dq2 = T, .d2tau_dv2 = T + n3, .d2tau_dqdv = T + 2 * n3, .dM_dq = T + 3 * n3 };
    rbd_state x = { q, v, a, NULL };
    void *ws;
    if (meth->init(m, NULL, &ws) || meth->eval(ws, &x, &d)) fail_msg("idsva-so: %s", rbd_last_error());
    meth->fini(ws);
    for (int b = 0; b < RBD_SO_NTENSORS; b++) rbd_tensor_to_user(m, T + (size_t)b * n3, O + (size_t)b * n3);
    free(T);
}

/* One model: the peer's four tensors X and idsva-so's O at the first state
 * of seed 1's pool (the state the peer was given), both in the user
 * numbering. */
typedef struct {
    rbd_model *m;
    peer_model pm;
    size_t n3;
    double *buf, *q, *v, *a, *X, *O;
} so_case;

static void so_case_open(so_case *c, const rbd_peer *p, int f, const char *spec)
{
    c->m = tu_model(spec);
    const size_t nv = (size_t)c->m->nv, n3 = nv * nv * nv;
    c->n3 = n3;
    if (peer_model_load(p, c->m, &c->pm)) fail_msg("%s on %s: %s", p->name, spec, rbd_last_error());
    c->buf = calloc((size_t)c->m->nq + 3 * nv + 8 * n3, sizeof *c->buf);
    assert_non_null(c->buf);
    c->q = c->buf;
    c->v = c->q + c->m->nq;
    c->a = c->v + nv;
    double *tau = c->a + nv;
    c->X = tau + nv;
    c->O = c->X + 4 * n3;
    double *mat[3] = { c->X, NULL, NULL };
    if (peer_eval_func(&c->pm, f, 1, NULL, mat, NULL, NULL, NULL, NULL)) fail_msg("%s: %s", spec, rbd_last_error());
    timeable_states(c->m, 1, 1, c->q, c->v, c->a, tau);     /* internal numbering */
    ours_user(c->m, c->q, c->v, c->a, c->O);
}

static void so_case_close(so_case *c)
{
    free(c->buf);
    peer_model_free(&c->pm);
    rbd_model_free(c->m);
}

static void check_model(const rbd_peer *p, int f, const char *spec)
{
    so_case c;
    so_case_open(&c, p, f, spec);
    const size_t n3 = c.n3;
    double *U = malloc(sizeof *U * 4 * n3);
    assert_non_null(U);
    rbdref_so_result ref;
    assert_int_equal(rbdref_so_result_init(&ref, c.m->nv), 0);
    if (rbdref_so_eval(c.m, c.q, c.v, c.a, NULL, NULL, 0, &ref)) fail_msg("%s: reference: %s", spec, rbd_last_error());
    const char *const *names = rbd_so_output_names(RBD_ID_SO_DERIVS);
    for (int b = 0; b < RBD_SO_NTENSORS; b++) {
        size_t n;
        const double *R = rbdref_so_result_get(&ref, names[b + 1], &n);
        assert_true(R && n == n3);
        rbd_tensor_to_user(c.m, R, U + (size_t)b * n3);
        double rms, e = rel_err(c.X + (size_t)b * n3, U + (size_t)b * n3, n3, &rms);
        double ew = entrywise(c.X + (size_t)b * n3, c.O + (size_t)b * n3, n3);
        print_message("%-44s %-40.40s %-10s max %.2e rms %.2e entry-wise vs idsva-so %.2e\n", p->row[f],
                      strrchr(spec, '/') ? strrchr(spec, '/') + 1 : spec, names[b + 1], e, rms, ew);
        if (!(e < 1e-9 && rms < 1e-9)) fail_msg("%s on %s: %s max %.3g rms %.3g > 1e-9", p->row[f], spec, names[b + 1], e, rms);
        if (!(ew <= 1e-9)) fail_msg("%s on %s: %s entry-wise %.3g from idsva-so > 1e-9", p->row[f], spec, names[b + 1], ew);
    }
    rbdref_so_result_free(&ref);
    free(U);
    so_case_close(&c);
}

/* The N = 100 trees (skewed, tapered), where the reference would take
 * hours: entry by entry against idsva-so only. */
static const char *const large[] = {
    "autotree:N=100,bf=1,skew=0.6,taper=0.99",
    "autotree:N=100,bf=2,skew=0.9,taper=0.99",
    "autotree:N=100,bf=5,skew=0.7,taper=0.99",
};

static void check_entrywise(const rbd_peer *p, int f, const char *spec)
{
    so_case c;
    so_case_open(&c, p, f, spec);
    const char *const *names = rbd_so_output_names(RBD_ID_SO_DERIVS);
    for (int b = 0; b < RBD_SO_NTENSORS; b++) {
        double ew = entrywise(c.X + (size_t)b * c.n3, c.O + (size_t)b * c.n3, c.n3);
        print_message("%-44s %-40.40s %-10s entry-wise vs idsva-so %.2e\n", p->row[f], spec, names[b + 1], ew);
        if (!(ew <= 1e-9)) fail_msg("%s on %s: %s entry-wise %.3g from idsva-so > 1e-9", p->row[f], spec, names[b + 1], ew);
    }
    so_case_close(&c);
}

static void test_pinocchio_so_against_reference(void **state)
{
    (void)state;
    char ver[8][32], name[64];
    int nver = peer_versions("pinocchio", ver, 8), tested = 0;
    for (int k = 0; k < nver; k++) {
        rbd_peer p;
        snprintf(name, sizeof name, "pinocchio@%.31s", ver[k]);
        if (peer_open(name, &p)) fail_msg("peer %s is built but: %s", name, rbd_last_error());
        int f = peer_func_find(&p, "ComputeRNEASecondOrderDerivatives");
        if (f < 0) fail_msg("%s has no ComputeRNEASecondOrderDerivatives", name);
        for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) check_model(&p, f, specs[s]);
        for (size_t s = 0; s < sizeof large / sizeof *large; s++) check_entrywise(&p, f, large[s]);
        peer_close(&p);
        tested++;
    }
    if (!tested) {
        print_message("no Pinocchio peer in %s: skipped (scripts/peers builds them)\n", peer_dir());
        skip();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pinocchio_so_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
