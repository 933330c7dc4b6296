/*
 * The reference cache, first and second order: a second call hits and
 * returns bit-identical values, a truncated or corrupted file is detected
 * and rebuilt, different inputs or options get different files (and a
 * first- and a second-order file of the same inputs are two files), and no
 * temporary file is left behind.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "testutil.h"
#include "rbdref.h"
#include "rbdref_so.h"

typedef struct { double q[16], v[16], a[16], tau[16]; } st8;

static void eval_cached(const char *dir, const rbd_model *m, const st8 *s, const rbdref_opts *o,
                        rbdref_result *r, int expect_hit)
{
    int hit = -1;
    if (rbdref_eval_cached(dir, m, s->q, s->v, s->a, s->tau, o, r, &hit)) fail_msg("%s", rbd_last_error());
    if (hit != expect_hit) fail_msg("cache %s, expected a %s", hit ? "hit" : "miss", expect_hit ? "hit" : "miss");
}

static void assert_same(const rbdref_result *x, const rbdref_result *y)
{
    size_t n = (size_t)x->nv;
    assert_int_equal(x->has_id, y->has_id);
    assert_int_equal(x->has_fd, y->has_fd);
    /* bit-identical: every array of the contiguous block */
    assert_memory_equal(x->tau, y->tau, sizeof(double) * (2 * n + 6 * n * n));
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) ? -1 : (long)sb.st_size;
}

static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static void test_cache(void **st)
{
    (void)st;
    char dir[] = RBD_BINARY_DIR "/test-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    rbd_model *m = tu_model("autotree:N=6,bf=2,skew=0.5,taper=0.9");
    st8 s;
    rbd_rng rng;
    rbd_rng_seed(&rng, 9);
    rbd_random_state(m, &rng, s.q, s.v, s.a, s.tau);
    rbdref_opts o;
    rbdref_opts_default(&o);
    rbdref_result direct, r1, r2;
    assert_int_equal(rbdref_result_init(&direct, m->nv), 0);
    assert_int_equal(rbdref_result_init(&r1, m->nv), 0);
    assert_int_equal(rbdref_result_init(&r2, m->nv), 0);
    assert_int_equal(rbdref_eval(m, s.q, s.v, s.a, s.tau, &o, &direct), 0);

    eval_cached(dir, m, &s, &o, &r1, 0);
    assert_same(&r1, &direct);
    eval_cached(dir, m, &s, &o, &r2, 1);
    assert_same(&r2, &direct);
    assert_int_equal(count_files(dir), 1);

    char path[4096];
    assert_int_equal(rbdref_cache_path(dir, m, s.q, s.v, s.a, s.tau, &o, path, sizeof path), 0);
    long size = file_size(path);
    assert_true(size > 100);

    /* truncated (as by a crash without the atomic rename): detected, rebuilt */
    const long cuts[] = { size / 2, size - 1, size - 10, 30 };
    for (int k = 0; k < 4; k++) {
        assert_int_equal(truncate(path, cuts[k]), 0);
        memset(r2.tau, 0, sizeof(double) * 8);
        eval_cached(dir, m, &s, &o, &r2, 0);
        assert_same(&r2, &direct);
        assert_int_equal(file_size(path), size);
        eval_cached(dir, m, &s, &o, &r2, 1);
    }

    /* one changed byte in the middle of the values: checksum mismatch */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, size / 2, SEEK_SET), 0);
    int ch = fgetc(f);
    assert_int_equal(fseek(f, size / 2, SEEK_SET), 0);
    fputc(ch == '1' ? '2' : '1', f);
    fclose(f);
    eval_cached(dir, m, &s, &o, &r2, 0);
    assert_same(&r2, &direct);
    eval_cached(dir, m, &s, &o, &r2, 1);

    /* other inputs, other precision, ID-only: other files */
    s.v[2] = nextafter(s.v[2], 2.0);
    eval_cached(dir, m, &s, &o, &r2, 0);
    assert_int_equal(count_files(dir), 2);
    o.prec = 320;
    eval_cached(dir, m, &s, &o, &r2, 0);
    assert_int_equal(rbdref_eval_cached(dir, m, s.q, s.v, s.a, NULL, &o, &r2, NULL), 0);
    assert_int_equal(r2.has_fd, 0);
    assert_null(rbdref_result_get(&r2, "qdd", NULL, NULL));
    eval_cached(dir, m, &s, &o, &r2, 1);            /* the full one is still there */
    assert_int_equal(r2.has_fd, 1);
    assert_int_equal(count_files(dir), 4);          /* no temporary files left */

    /* clean up */
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[4200];
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') { snprintf(p, sizeof p, "%s/%s", dir, e->d_name); unlink(p); }
    closedir(d);
    rmdir(dir);
    rbdref_result_free(&direct); rbdref_result_free(&r1); rbdref_result_free(&r2);
    rbd_model_free(m);
}

static void eval_so_cached(const char *dir, const rbd_model *m, const st8 *s, const double *tau,
                           const rbdref_opts *o, long d_log2, rbdref_so_result *r, int expect_hit)
{
    int hit = -1;
    if (rbdref_so_eval_cached(dir, m, s->q, s->v, s->a, tau, o, d_log2, r, &hit)) fail_msg("%s", rbd_last_error());
    if (hit != expect_hit) fail_msg("SO cache %s, expected a %s", hit ? "hit" : "miss", expect_hit ? "hit" : "miss");
}

static void assert_same_so(const rbdref_so_result *x, const rbdref_so_result *y)
{
    size_t n = (size_t)x->nv;
    assert_int_equal(x->has_id, y->has_id);
    assert_int_equal(x->has_fd, y->has_fd);
    /* bit-identical: tau, qdd and the eight tensors, one contiguous block */
    assert_memory_equal(x->tau, y->tau, sizeof(double) * (2 * n + 8 * n * n * n));
}

static void so_path(const char *dir, const rbd_model *m, const st8 *s, const double *tau, const rbdref_opts *o,
                    long d_log2, char *buf)
{
    assert_int_equal(rbdref_so_cache_path(dir, m, s->q, s->v, s->a, tau, o, d_log2, buf, 4096), 0);
}

static void flip_byte(const char *path, long at)
{
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    int ch = fgetc(f);
    assert_int_equal(fseek(f, at, SEEK_SET), 0);
    fputc(ch == '1' ? '2' : '1', f);
    fclose(f);
}

/* The second-order cache: bit-identical to a fresh evaluation, corruption
 * and truncation detected and the file replaced, a file copied under
 * another state's name refused, every input that
 * changes the tensors a new key, and first- and second-order files apart. */
static void test_so_cache(void **st)
{
    (void)st;
    char dir[] = RBD_BINARY_DIR "/test-so-cache-XXXXXX";
    assert_non_null(mkdtemp(dir));
    rbd_model *m = tu_model("autotree:N=5,bf=2,skew=0.5,taper=0.9");
    st8 s;
    rbd_rng rng;
    rbd_rng_seed(&rng, 11);
    rbd_random_state(m, &rng, s.q, s.v, s.a, s.tau);
    rbdref_opts o;
    rbdref_opts_default(&o);
    rbdref_so_result direct, r;
    assert_int_equal(rbdref_so_result_init(&direct, m->nv), 0);
    assert_int_equal(rbdref_so_result_init(&r, m->nv), 0);
    assert_int_equal(rbdref_so_eval(m, s.q, s.v, s.a, s.tau, &o, 0, &direct), 0);

    eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 0);
    assert_same_so(&r, &direct);
    memset(r.tau, 0, sizeof(double) * 2 * (size_t)m->nv);
    eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 1);
    assert_same_so(&r, &direct);
    assert_int_equal(count_files(dir), 1);

    /* the first-order file of the same inputs is another file; both answer */
    char path[4096], p1[4096];
    so_path(dir, m, &s, s.tau, &o, 0, path);
    assert_int_equal(rbdref_cache_path(dir, m, s.q, s.v, s.a, s.tau, &o, p1, sizeof p1), 0);
    assert_string_not_equal(path, p1);
    assert_non_null(strstr(path, "/rbdref-so-"));
    rbdref_result r1;
    assert_int_equal(rbdref_result_init(&r1, m->nv), 0);
    eval_cached(dir, m, &s, &o, &r1, 0);
    eval_cached(dir, m, &s, &o, &r1, 1);
    eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 1);
    assert_int_equal(count_files(dir), 2);

    /* truncated, or one byte changed: a miss, recomputed, rewritten whole */
    long size = file_size(path);
    assert_true(size > 1000);
    const long cuts[] = { size / 2, size - 1, size - 10, 30 };
    for (int k = 0; k < 4; k++) {
        assert_int_equal(truncate(path, cuts[k]), 0);
        eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 0);
        assert_same_so(&r, &direct);
        assert_int_equal(file_size(path), size);
        eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 1);
    }
    flip_byte(path, size / 2);
    eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 0);
    assert_same_so(&r, &direct);
    eval_so_cached(dir, m, &s, s.tau, &o, 0, &r, 1);

    /* every input that changes the tensors changes the key; the default
     * difference step and the same step given share one */
    st8 s2 = s;
    s2.v[2] = nextafter(s2.v[2], 2.0);
    char other[4096];
    so_path(dir, m, &s2, s2.tau, &o, 0, other);
    assert_string_not_equal(path, other);
    /* a sound file under another state's name: its key line and inputs refuse it */
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, other);
    assert_int_equal(system(cmd), 0);
    eval_so_cached(dir, m, &s2, s2.tau, &o, 0, &r, 0);
    eval_so_cached(dir, m, &s2, s2.tau, &o, 0, &r, 1);
    assert_int_equal(count_files(dir), 3);
    so_path(dir, m, &s, NULL, &o, 0, other);             /* ID half only */
    assert_string_not_equal(path, other);
    so_path(dir, m, &s, s.tau, &o, -70, other);          /* another difference step */
    assert_string_not_equal(path, other);
    so_path(dir, m, &s, s.tau, &o, -(long)o.prec / 3, other);
    assert_string_equal(path, other);
    rbdref_opts o2 = o;
    o2.prec = 320;
    so_path(dir, m, &s, s.tau, &o2, 0, other);
    assert_string_not_equal(path, other);
    o2 = o;
    o2.h_log2 = -200;
    so_path(dir, m, &s, s.tau, &o2, 0, other);
    assert_string_not_equal(path, other);
    rbd_model *m2 = tu_model("autotree:N=5,bf=2,skew=0.5,taper=0.91");
    assert_int_equal(rbdref_so_cache_path(dir, m2, s.q, s.v, s.a, s.tau, &o, 0, other, sizeof other), 0);
    assert_string_not_equal(path, other);
    rbd_model_free(m2);

    /* the ID half alone is its own file and answers with has_fd = 0 */
    eval_so_cached(dir, m, &s, NULL, &o, 0, &r, 0);
    assert_int_equal(r.has_fd, 0);
    assert_null(rbdref_so_result_get(&r, "d2qdd_dq2", NULL));
    eval_so_cached(dir, m, &s, NULL, &o, 0, &r, 1);
    assert_int_equal(r.has_fd, 0);
    assert_memory_equal(r.d2tau_dq2, direct.d2tau_dq2, sizeof(double) * 4 * (size_t)(m->nv * m->nv * m->nv));
    assert_int_equal(count_files(dir), 4);              /* no temporary files left */

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
    rbdref_so_result_free(&direct); rbdref_so_result_free(&r);
    rbdref_result_free(&r1);
    rbd_model_free(m);
}

/* A cache directory whose parents do not exist yet is made, parents and all
 * (~/.cache/rbdiff on a fresh machine). */
static void test_cache_nested_dir(void **st)
{
    (void)st;
    char top[] = RBD_BINARY_DIR "/test-cache-nest-XXXXXX";
    assert_non_null(mkdtemp(top));
    char dir[600];
    snprintf(dir, sizeof dir, "%s/a/b/rbdiff", top);
    rbd_model *m = tu_model("autotree:N=3,bf=1,skew=0.5");
    st8 s;
    rbd_rng rng;
    rbd_rng_seed(&rng, 3);
    rbd_random_state(m, &rng, s.q, s.v, s.a, s.tau);
    rbdref_opts o;
    rbdref_opts_default(&o);
    rbdref_result r;
    assert_int_equal(rbdref_result_init(&r, m->nv), 0);
    eval_cached(dir, m, &s, &o, &r, 0);
    eval_cached(dir, m, &s, &o, &r, 1);
    rbdref_result_free(&r);
    rbd_model_free(m);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_cache_nested_dir),
        cmocka_unit_test(test_so_cache),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mpfr_free_cache();
    return rc;
}
