/*
 * The emitted methods (methods/emit) against the methods they are traced
 * from: idsva-emit against idsva, fdsva-emit against fdsva, on small models
 * of every shape (chains and branched autoTrees, planar and skewed, the
 * double pendulum and UR5; a free-flyer, a tree of every joint type, a
 * chain of continuous joints), 3 random states each, normwise relative in the
 * max norm (as test_idsva_oracle.c): <= 1e-12 for idsva-emit (the same
 * algorithm, the model's constants folded: rounding only), <= 1e-10 for
 * fdsva-emit (M^-1 by LTDL, not by ABA's factors).  Every entry must be
 * written (outputs filled with NaN first).  Then the refusals: a model over
 * the nv limit (RBD_ENOTSUP, one line), no compiler or a
 * failing one (a clear error), and the cache: one whole library per model
 * and kind, no temporary file left behind.  The compiles go to a cache of
 * this build folder's own, emptied first, so each run compiles (seconds).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "rbdiff/method.h"

static char cache[4096];

static double normwise(const double *X, const double *R, size_t n)
{
    double e = 0, mx = 0;
    for (size_t k = 0; k < n; k++) {
        if (isnan(X[k]) || isnan(R[k])) return INFINITY;
        e = fmax(e, fabs(X[k] - R[k]));
        mx = fmax(mx, fabs(R[k]));
    }
    return mx > 0 ? e / mx : e;
}

static void eval(const rbd_method *meth, const rbd_model *m, const rbd_state *x, double *y[4])
{
    const size_t nv = (size_t)m->nv;
    for (size_t k = 0; k < nv; k++) y[0][k] = NAN;
    for (int o = 1; o < 4; o++)
        for (size_t k = 0; k < nv * nv; k++) y[o][k] = NAN;
    rbd_derivs d = { .tau = y[0], .dtau_dq = y[1], .dtau_dv = y[2] };
    if (meth->output == RBD_FD_DERIVS) d = (rbd_derivs){ .qdd = y[0], .dqdd_dq = y[1], .dqdd_dv = y[2], .dqdd_dtau = y[3] };
    void *ws = NULL;
    if (meth->init(m, NULL, &ws) || meth->eval(ws, x, &d))
        fail_msg("%s on %s: %s", meth->name, m->spec, rbd_last_error());
    meth->fini(ws);
}

/* emitted against ref on one model, 3 states */
static void check_model(const char *emitted, const char *ref, const rbd_model *m, double tol)
{
    const char *spec = m->spec;
    const rbd_method *e = rbd_method_find(emitted), *r = rbd_method_find(ref);
    assert_non_null(e);
    assert_non_null(r);
    const size_t nv = (size_t)m->nv, nout = e->output == RBD_FD_DERIVS ? 4 : 3;
    double *q = malloc(sizeof(double) * (size_t)m->nq), *v = malloc(sizeof(double) * nv),
           *u = malloc(sizeof(double) * nv), *buf = malloc(sizeof(double) * 2 * (nv + 3 * nv * nv));
    assert_non_null(buf);
    double *y[2][4];
    for (int s = 0; s < 2; s++) {
        double *b = buf + s * (nv + 3 * nv * nv);
        y[s][0] = b; y[s][1] = b + nv; y[s][2] = b + nv + nv * nv; y[s][3] = b + nv + 2 * nv * nv;
    }
    rbd_rng rng;
    rbd_rng_seed(&rng, 5);
    for (int s = 0; s < 3; s++) {
        rbd_random_state(m, &rng, q, v, u, NULL);
        const rbd_state x = { .q = q, .v = v, .a = u, .tau = u };
        eval(e, m, &x, y[0]);
        eval(r, m, &x, y[1]);
        for (size_t o = 0; o < nout; o++) {
            double err = normwise(y[0][o], y[1][o], o ? nv * nv : nv);
            if (!(err <= tol)) fail_msg("%s vs %s on %s, state %d, output %zu: %.3g > %.3g", emitted, ref, spec, s, o, err, tol);
        }
    }
    free(q); free(v); free(u); free(buf);
}

static void check_pair(const char *emitted, const char *ref, const char *spec, double tol)
{
    rbd_model *m = tu_model(spec);
    check_model(emitted, ref, m, tol);
    rbd_model_free(m);
}

/* A chain of continuous joints (q = (cos t, sin t)) about a coordinate and a skew axis. */
static rbd_model *continuous_chain(void)
{
    rbd_builder *b = rbd_builder_new();
    assert_non_null(b);
    for (int i = 0; i < 3; i++) {
        rbd_joint jt = { .type = RBD_JOINT_CONTINUOUS, .axis = { 0, 0, 1 } };
        if (i == 1) jt = (rbd_joint){ .type = RBD_JOINT_CONTINUOUS, .axis = { 0.48, 0.6, 0.64 } };
        sp_xform X;
        sp_xform_identity(&X);
        X.r[0] = 0.3; X.r[2] = 0.1 * i;
        rbd_body_inertia in = { .mass = 1.2 - 0.2 * i, .com = { 0.1, 0.02, -0.04 } };
        in.Ic[0] = 0.03; in.Ic[4] = 0.02; in.Ic[8] = 0.025; in.Ic[2] = in.Ic[6] = 0.003;
        char name[16];
        snprintf(name, sizeof name, "c%d", i);
        assert_int_equal(rbd_builder_add(b, i - 1, &jt, &X, &in, name, name), 0);
    }
    rbd_model *m = NULL;
    if (rbd_builder_finish(b, NULL, "continuous-chain", &m)) fail_msg("%s", rbd_last_error());
    rbd_builder_free(b);
    return m;
}

/* Every joint type: free-flyer, spherical, continuous (and revolute, prismatic). */
static void check_joints(const char *emitted, const char *ref, double tol)
{
    char spec[4200];
    snprintf(spec, sizeof spec, "urdf:%s/tests/models/double_pendulum.urdf,freeflyer", RBD_SOURCE_DIR);
    check_pair(emitted, ref, spec, tol);
    rbd_model *m = tu_multidof_tree();
    check_model(emitted, ref, m, tol);
    rbd_model_free(m);
    m = continuous_chain();
    check_model(emitted, ref, m, tol);
    rbd_model_free(m);
}

static const char *specs[] = {
    "autotree:N=1,bf=1", "autotree:N=4,bf=1,skew=1.0471975511965976,taper=0.9", "autotree:N=7,bf=2",
    "autotree:N=9,bf=5,skew=1.0471975511965976,taper=0.97", NULL
};

static void test_idsva_emit(void **s)
{
    (void)s;
    char spec[4200];
    for (int k = 0; specs[k]; k++) check_pair("idsva-emit", "idsva", specs[k], 1e-12);
    const char *robots[] = { "double_pendulum", "ur5" };
    for (int r = 0; r < 2; r++) {
        snprintf(spec, sizeof spec, "urdf:%s/tests/models/%s.urdf", RBD_SOURCE_DIR, robots[r]);
        check_pair("idsva-emit", "idsva", spec, 1e-12);
    }
    check_joints("idsva-emit", "idsva", 1e-12);
}

static void test_fdsva_emit(void **s)
{
    (void)s;
    char spec[4200];
    for (int k = 0; specs[k]; k++) check_pair("fdsva-emit", "fdsva", specs[k], 1e-10);
    const char *robots[] = { "double_pendulum", "ur5" };
    for (int r = 0; r < 2; r++) {
        snprintf(spec, sizeof spec, "urdf:%s/tests/models/%s.urdf", RBD_SOURCE_DIR, robots[r]);
        check_pair("fdsva-emit", "fdsva", spec, 1e-10);
    }
    check_joints("fdsva-emit", "fdsva", 1e-10);
}

/* init refuses with rc and a message containing what, leaving *ws NULL */
static void refuses(const char *method, const char *spec, int rc, const char *what)
{
    rbd_model *m = tu_model(spec);
    const rbd_method *e = rbd_method_find(method);
    void *ws = (void *)&ws;
    rbd_clear_error();
    int got = e->init(m, NULL, &ws);
    if (got != rc || !strstr(rbd_last_error(), what) || strchr(rbd_last_error(), '\n'))
        fail_msg("%s on %s: rc %d (%d expected), '%s' (with '%s' expected)", method, spec, got, rc, rbd_last_error(), what);
    assert_null(ws);
    rbd_model_free(m);
}

static void test_refusals(void **s)
{
    (void)s;
    refuses("idsva-emit", "autotree:N=21,bf=1", RBD_ENOTSUP, "limit of 20");
    refuses("fdsva-emit", "autotree:N=40,bf=2", RBD_ENOTSUP, "limit of 20");
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/nocc", cache);
    setenv("RBD_CACHE_DIR", dir, 1);        /* nothing cached there: each init compiles */
    setenv("RBD_EMIT_CC", "/nonexistent/rbdiff-cc", 1);
    refuses("idsva-emit", "autotree:N=2,bf=1", RBD_ENOTSUP, "no C compiler");
    setenv("RBD_EMIT_CC", "false", 1);
    refuses("fdsva-emit", "autotree:N=2,bf=1", RBD_EIO, "failed");
    unsetenv("RBD_EMIT_CC");
    setenv("RBD_CACHE_DIR", cache, 1);
}

/* Every library has its source beside it; nothing else is left. */
static void test_cache_files(void **s)
{
    (void)s;
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/emit", cache);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int nso = 0, nc = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const char *n = e->d_name, *dot = strchr(n, '.');
        if (n[0] == '.') continue;
        if (!dot || strchr(dot + 1, '.') || (strcmp(dot, ".so") && strcmp(dot, ".c"))) fail_msg("left in the cache: %s", n);
        nso += !strcmp(dot, ".so");
        nc += !strcmp(dot, ".c");
    }
    closedir(d);
    /* 9 models x 2 kinds, fewer only if two models emitted the same C */
    if (nso != nc || nso < 16 || nso > 18) fail_msg("%d libraries and %d sources in %s (18 expected)", nso, nc, dir);
}

int main(void)
{
    snprintf(cache, sizeof cache, "%s/tests/emit-cache", RBD_BINARY_DIR);
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    if (system(cmd)) return 1;
    setenv("RBD_CACHE_DIR", cache, 1);
    unsetenv("RBD_EMIT_CC");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_idsva_emit),
        cmocka_unit_test(test_fdsva_emit),
        cmocka_unit_test(test_cache_files),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
