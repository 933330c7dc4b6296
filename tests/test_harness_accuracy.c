/*
 * The accuracy audit (harness/accuracy_run.c) on small autoTree models:
 * every registered method and base algorithm scores near rounding against
 * the MPFR reference, deliberately wrong methods (a perturbed entry, an
 * output left unfilled) are caught, rows already on disk are not redone,
 * and the reference comes from the cache the second time.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "accuracy_run.h"

typedef struct {
    accuracy_row rows[256];
    int n, refs, hits, have_all;
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
    audit_sink sink = { have, emit, c, on_ref };
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
    accuracy_row_to_fields(r, buf, f);
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
    collect c1 = { .n = 0 }, c2 = { .n = 0 };
    audit(spec, tg, 1, &c1);
    audit(spec, tg, 1, &c2);
    assert_int_equal(c1.refs, 2);
    assert_int_equal(c1.hits, 0);
    assert_int_equal(c2.hits, 2);
    for (int k = 0; k < c1.n; k++) assert_memory_equal(&c1.rows[k], &c2.rows[k], sizeof c1.rows[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_method_small_trees),
        cmocka_unit_test(test_wrong_methods_caught),
        cmocka_unit_test(test_resume_and_cache),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
