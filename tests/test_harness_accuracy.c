/*
 * The accuracy audit (harness/accuracy/accuracy_run.c) on small autoTree models:
 * every registered method and base algorithm scores near rounding against
 * the MPFR reference, deliberately wrong methods (a perturbed entry, an
 * output left unfilled) are caught, rows already on disk are not redone,
 * and the reference comes from the cache the second time (the second-order
 * one too: an audit of idsva-so leaves one file a state that answers it).  cond(M) is
 * recorded per model and agrees with cond(M^-1) from the reference's M^-1;
 * the summary marks and lists a row that loses more than 100x against the
 * complex step.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include <sys/stat.h>
#include "accuracy/accuracy_run.h"
#include "store/results.h"
#include "accuracy/accuracy_summary.h"

typedef struct {
    accuracy_row rows[256];
    int n, refs, hits, have_all;
    cond_row cond;
    int nconds;
} collect;

static int have(void *p, const char *method, const char *output)
{
    (void)method; (void)output;
    return ((collect *)p)->have_all;
}

static int emit(void *p, const accuracy_row *r)
{
    collect *c = p;
    assert_true(c->n < 256);
    c->rows[c->n++] = *r;
    return 0;
}

static int have_cond(void *p)
{
    return ((collect *)p)->have_all;
}

static int emit_cond(void *p, const cond_row *r)
{
    collect *c = p;
    c->cond = *r;
    c->nconds++;
    return 0;
}

static void on_ref(void *p, int state, int states, int hit)
{
    collect *c = p;
    (void)state; (void)states;
    if (hit >= 0) { c->refs++; c->hits += hit; }
}

static const accuracy_row *find(const collect *c, const char *method, const char *output)
{
    for (int k = 0; k < c->n; k++)
        if (!strcmp(c->rows[k].method, method) && !strcmp(c->rows[k].output, output)) return &c->rows[k];
    return NULL;
}

static char cache_dir[256];

static int setup(void **s)
{
    (void)s;
    snprintf(cache_dir, sizeof cache_dir, "%s/test_harness_accuracy.cache.XXXXXX", RBD_BINARY_DIR);
    return mkdtemp(cache_dir) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void audit(const char *spec, const bench_target *tg, int ntg, collect *c)
{
    rbd_model *m = tu_model(spec);
    audit_opts o = { .states = 2, .seed = 7, .cache = cache_dir };
    rbdref_opts_default(&o.ref);
    audit_sink sink = { .have = have, .emit = emit, .ctx = c, .have_cond = have_cond, .emit_cond = emit_cond,
                        .on_ref = on_ref };
    int failed = 0;
    int rc = audit_model(m, spec, 1, tg, ntg, &o, &sink, NULL, &failed);
    if (rc) fail_msg("audit of %s: %s", spec, rbd_last_error());
    assert_int_equal(failed, 0);
    rbd_model_free(m);
}

static void all_targets(bench_target **tg, int *n)
{
    sweep_config c;
    sweep_config_init(&c);
    assert_int_equal(bench_targets(&c, tg, n), 0);
    sweep_config_free(&c);
}

/* Finite differences lose half the digits; everything else is near rounding. */
static double bound_of(const char *method)
{
    return !strcmp(method, "id-fd") || !strcmp(method, "fd-fd") ? 1e-5 : 1e-11;
}

static void test_every_method_small_trees(void **s)
{
    (void)s;
    bench_target *tg;
    int ntg;
    all_targets(&tg, &ntg);
    static const char *const specs[] = { "autotree:N=3,bf=1,skew=1.0471975511965976,taper=0.99",
                                         "autotree:N=7,bf=1,skew=1.0471975511965976,taper=0.99",
                                         "autotree:N=7,bf=2,skew=1.0471975511965976,taper=0.95" };
    for (int k = 0; k < 3; k++) {
        collect c = { .n = 0 };
        audit(specs[k], tg, ntg, &c);
        assert_int_equal(c.refs, 2);
        int expect = 0;
        for (int i = 0; i < ntg; i++)
            for (const char *const *o = audit_outputs(&tg[i]); *o; o++) {
                const accuracy_row *r = find(&c, tg[i].name, *o);
                if (!r) fail_msg("%s: no row for %s %s", specs[k], tg[i].name, *o);
                expect++;
                assert_int_equal(r->states, 2);
                assert_int_equal(r->N, k ? 7 : 3);
                if (!(r->rms_rel < bound_of(r->method)) || !(r->normwise < 10 * bound_of(r->method)))
                    fail_msg("%s: %s %s rms_rel %.3g normwise %.3g", specs[k], r->method, r->output, r->rms_rel,
                             r->normwise);
            }
        assert_int_equal(c.n, expect);
        /* the paper's claim for the exact methods, and the complex-step check */
        for (int j = 0; j < 3; j++) {
            static const char *const out[] = { "tau", "dtau_dq", "dtau_dv" };
            assert_true(find(&c, "idsva", out[j])->rms_rel < 1e-12);
            assert_true(find(&c, "id-cs", out[j])->rms_rel < 1e-12);
        }
        /* bf = 2: bodies on different branches give structural zeros */
        if (k == 2) {
            const accuracy_row *r = find(&c, "idsva", "dtau_dq");
            assert_false(isnan(r->zero_max));
            assert_true(r->zero_max < 1e-12);
        }
    }
    free(tg);
}

/* Wrong methods: idsva with one entry of dtau_dq off by 1e-7 relative, and
 * idsva that never writes dtau_dv. */
static const rbd_method *idsva(void) { return rbd_method_find("idsva"); }
static int eval_perturbed(void *ws, const rbd_state *x, rbd_derivs *out)
{
    int rc = idsva()->eval(ws, x, out);
    out->dtau_dq[8] *= 1 + 1e-7;      /* (1, 1) of the 7-dof model (column 0 is 0: q_0 turns about g) */
    return rc;
}
static int eval_forgetful(void *ws, const rbd_state *x, rbd_derivs *out)
{
    static double scratch[49];      /* the 7-dof model's dtau_dv goes here, not to the audit */
    rbd_derivs d = *out;
    d.dtau_dv = scratch;
    return idsva()->eval(ws, x, &d);
}
static int init_idsva(const rbd_model *m, const rbd_options *o, void **ws) { return idsva()->init(m, o, ws); }
static void fini_idsva(void *ws) { idsva()->fini(ws); }

static void test_wrong_methods_caught(void **s)
{
    (void)s;
    const rbd_method bad1 = { "bad-perturbed", "idsva, one entry perturbed", RBD_ID_DERIVS, RBD_JOINTS_ALL,
                              init_idsva, eval_perturbed, fini_idsva };
    const rbd_method bad2 = { "bad-forgetful", "idsva, dtau_dv unwritten", RBD_ID_DERIVS, RBD_JOINTS_ALL,
                              init_idsva, eval_forgetful, fini_idsva };
    bench_target tg[2] = { { .name = "bad-perturbed", .method = &bad1, .kind = "ID" },
                           { .name = "bad-forgetful", .method = &bad2, .kind = "ID" } };
    collect c = { .n = 0 };
    audit("autotree:N=7,bf=1,skew=1.0471975511965976,taper=0.99", tg, 2, &c);
    assert_int_equal(c.n, 6);
    const accuracy_row *r = find(&c, "bad-perturbed", "dtau_dq");
    /* one of 49 entries off by 1e-7: RMS ~ 1e-7 / 7 */
    assert_true(r->rms_rel > 5e-9 && r->rms_rel < 1e-6);
    assert_true(find(&c, "bad-perturbed", "dtau_dv")->rms_rel < 1e-12);
    r = find(&c, "bad-forgetful", "dtau_dv");
    assert_false(isfinite(r->rms_rel) && r->rms_rel < 1);
    assert_true(find(&c, "bad-forgetful", "dtau_dq")->rms_rel < 1e-12);
    /* a non-finite metric is written as a finite CSV number */
    char buf[11][64];
    const char *f[11];
    csv_row_encode(accuracy_cols, ACCURACY_NCOLS, r, buf, f);
    assert_true(isfinite(strtod(f[7], NULL)) && strtod(f[7], NULL) > 1e300);
}

/* Rows on disk: nothing computed.  Second audit of a model: cache hits. */
static void test_resume_and_cache(void **s)
{
    (void)s;
    const bench_target tg[1] = { { .name = "idsva", .method = idsva(), .kind = "ID" } };
    const char *spec = "autotree:N=5,bf=1,skew=0.5,taper=0.9";
    collect c = { .have_all = 1 };
    audit(spec, tg, 1, &c);
    assert_int_equal(c.n, 0);
    assert_int_equal(c.refs, 0);
    assert_int_equal(c.nconds, 0);
    collect c1 = { .n = 0 }, c2 = { .n = 0 };
    audit(spec, tg, 1, &c1);
    audit(spec, tg, 1, &c2);
    assert_int_equal(c1.refs, 2);
    assert_int_equal(c1.hits, 0);
    assert_int_equal(c2.hits, 2);
    for (int k = 0; k < c1.n; k++) assert_memory_equal(&c1.rows[k], &c2.rows[k], sizeof c1.rows[k]);
}

/* The second-order reference through the cache: the audit of a
 * second-order method stores one file a state, keyed as
 * rbdref_so_eval_cached keys it (a direct call then hits), and a second
 * audit, reading them, writes the same rows. */
static void test_so_reference_cached(void **s)
{
    (void)s;
    const bench_target tg[1] = { { .name = "idsva-so", .method = rbd_method_find("idsva-so"), .kind = "ID2" } };
    assert_non_null(tg[0].method);
    const char *spec = "autotree:N=4,bf=2,skew=0.5,taper=0.9";
    collect c1 = { .n = 0 }, c2 = { .n = 0 };
    audit(spec, tg, 1, &c1);
    assert_true(c1.n >= 4);
    rbd_model *m = tu_model(spec);
    rbd_rng r;
    rbd_rng_seed(&r, 7);
    double q[4], v[4], a[4], tau[4];
    for (int k = 0; k < 2; k++) {
        rbd_random_state(m, &r, q, v, a, tau);
        rbdref_so_result ref;
        int hit = 0;
        assert_int_equal(rbdref_so_result_init(&ref, 4), 0);
        assert_int_equal(rbdref_so_eval_cached(cache_dir, m, q, v, a, tau, NULL, 0, &ref, &hit), 0);
        assert_int_equal(hit, 1);
        rbdref_so_result_free(&ref);
    }
    rbd_model_free(m);
    audit(spec, tg, 1, &c2);
    assert_int_equal(c2.n, c1.n);
    for (int k = 0; k < c1.n; k++) assert_memory_equal(&c1.rows[k], &c2.rows[k], sizeof c1.rows[k]);
}

/* cond(M) by dsyev: exact on a diagonal matrix, infinite when M is not
 * positive definite; on a model, the audit's row agrees with cond(M^-1) of
 * the reference's M^-1 (columns of ABA, not of RNEA: an independent path). */
static void test_conditioning(void **s)
{
    (void)s;
    const double D[9] = { 4, 0, 0, 0, 1, 0, 0, 0, 400 };
    assert_true(fabs(audit_cond_spd(D, 3) - 400) < 1e-12);
    const double N2[4] = { 1, 2, 2, 1 };    /* eigenvalues 3, -1 */
    assert_true(isinf(audit_cond_spd(N2, 2)));
    const bench_target tg[1] = { { .name = "idsva", .method = idsva(), .kind = "ID" } };
    const char *spec = "autotree:N=12,bf=1,skew=1.0471975511965976,taper=0.99";
    collect c = { .n = 0 };
    audit(spec, tg, 1, &c);
    assert_int_equal(c.nconds, 1);
    assert_int_equal(c.cond.nv, 12);
    assert_int_equal(c.cond.states, 2);
    assert_true(c.cond.cond_M >= c.cond.cond_M_min && c.cond.cond_M_min > 1);
    rbd_model *m = tu_model(spec);
    rbd_rng r;
    rbd_rng_seed(&r, 7);
    double q[12], v[12], a[12], tau[12], worst = 0;
    for (int k = 0; k < 2; k++) {
        rbd_random_state(m, &r, q, v, a, tau);
        rbdref_result ref;
        assert_int_equal(rbdref_result_init(&ref, 12), 0);
        assert_int_equal(rbdref_eval_cached(cache_dir, m, q, v, a, tau, NULL, &ref, NULL), 0);
        worst = fmax(worst, audit_cond_spd(ref.Minv, 12));
        rbdref_result_free(&ref);
    }
    if (!(fabs(worst / c.cond.cond_M - 1) < 1e-6))
        fail_msg("cond(M) %.6g, cond(M^-1) %.6g", c.cond.cond_M, worst);
    rbd_model_free(m);
}

/* The expectation and the flag: u cond(M) for outputs that solve with M
 * only; the complex-step counterpart of each output; and the summary of an
 * accuracy.csv + conditioning.csv marks the row 200x worse than fd-cs (not
 * the one 50x worse) and lists it. */
static void test_flags(void **s)
{
    (void)s;
    assert_true(fabs(accuracy_expected("dqdd_dq", 1e8) - 0x1p-53 * 1e8) < 1e-30);
    assert_true(isnan(accuracy_expected("dtau_dq", 1e8)));
    assert_true(isnan(accuracy_expected("Minv", NAN)) || accuracy_expected("Minv", NAN) != accuracy_expected("Minv", NAN));
    const char *cm, *co;
    assert_true(accuracy_cs_counterpart("fdsva", "dqdd_dv", &cm, &co) && !strcmp(cm, "fd-cs") && !strcmp(co, "dqdd_dv"));
    assert_true(accuracy_cs_counterpart("minv", "Minv", &cm, &co) && !strcmp(cm, "fd-cs") && !strcmp(co, "dqdd_dtau"));
    assert_true(accuracy_cs_counterpart("rnea", "tau", &cm, &co) && !strcmp(cm, "id-cs"));
    assert_false(accuracy_cs_counterpart("crba", "M", &cm, &co));
    assert_false(accuracy_cs_counterpart("fd-cs", "qdd", &cm, &co));
    assert_true(accuracy_cs_ratio(1e-12, 0) == 1e-12 / 0x1p-53);
    char dir[300], path[400];
    snprintf(dir, sizeof dir, "%s/flags", cache_dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    const char *sp = "\"autotree:N=4,bf=1,skew=0.5,taper=0.9\"";
    snprintf(path, sizeof path, "%s/accuracy.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "method,output,model,bf,N,nv,states,rms_rel,max_abs,normwise,zero_max\n"
               "fd-cs,dqdd_dq,%s,1,4,4,1,1e-13,1e-13,1e-14,\n"
               "slow-one,dqdd_dq,%s,1,4,4,1,2e-11,1e-13,1e-14,\n"
               "near-one,dqdd_dq,%s,1,4,4,1,5e-12,1e-13,1e-14,\n", sp, sp, sp);
    fclose(f);
    snprintf(path, sizeof path, "%s/conditioning.csv", dir);
    assert_non_null(f = fopen(path, "w"));
    fprintf(f, "model,bf,N,nv,states,cond_M,cond_M_min\n%s,1,4,4,1,1000,900\n", sp);
    fclose(f);
    csvlog t, k;
    int p1 = 0, p2 = 0;
    assert_int_equal(accuracy_read(dir, &t, &p1), 0);
    assert_int_equal(conditioning_read(dir, &k, &p2), 0);
    assert_true(p1 && p2);
    char *out = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&out, &len);
    accuracy_summary(mf, &t, &k);
    fclose(mf);
    if (!strstr(out, "| slow-one | dqdd_dq | 2.0e-11 ! |") || strstr(out, "| near-one | dqdd_dq | 5.0e-12 ! |") ||
        !strstr(out, "| cond(M) | max over states | 1.0e+03 |") || !strstr(out, "| slow-one | dqdd_dq | autoTree bf=1 skew=0.5 taper=0.9 N=4 |"))
        { fputs(out, stderr); fail_msg("summary above"); }
    free(out);
    csvlog_close(&t);
    csvlog_close(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_method_small_trees),
        cmocka_unit_test(test_wrong_methods_caught),
        cmocka_unit_test(test_resume_and_cache),
        cmocka_unit_test(test_so_reference_cached),
        cmocka_unit_test(test_conditioning),
        cmocka_unit_test(test_flags),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
