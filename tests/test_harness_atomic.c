/* Atomic replacement: the target appears whole or not at all, no temporary
 * file is left behind on success or failure; mkdir -p and the results-dir
 * writability check name the failing path. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "store/atomicio.h"
#include "store/results.h"

static char dir[64];

static int setup(void **s)
{
    (void)s;
    snprintf(dir, sizeof dir, "/tmp/rbd_atomic_XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int entries(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p) { if (fscanf(p, "%d", &n) != 1) n = -1; pclose(p); }
    return n;
}

static int write_hello(FILE *f, void *ctx)
{
    fprintf(f, "hello %s\n", (const char *)ctx);
    return 0;
}

static int write_half_then_fail(FILE *f, void *ctx)
{
    (void)ctx;
    fputs("half of a ", f);
    return rbd_fail(RBD_EIO, "simulated failure mid-write");
}

static void read_back(const char *p, const char *want)
{
    char buf[256] = "";
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    assert_string_equal(buf, want);
}

static void test_replace_and_failure(void **s)
{
    (void)s;
    char p[128];
    snprintf(p, sizeof p, "%s/tables.md", dir);
    assert_int_equal(atomic_write(p, write_hello, "one"), 0);
    read_back(p, "hello one\n");
    assert_int_equal(entries(), 1);
    assert_int_equal(atomic_write(p, write_hello, "two"), 0);
    read_back(p, "hello two\n");
    /* a failing writer leaves the old content and no temporary file */
    assert_int_equal(atomic_write(p, write_half_then_fail, NULL), RBD_EIO);
    read_back(p, "hello two\n");
    assert_int_equal(entries(), 1);
    /* JSON through jansson */
    char j[128];
    snprintf(j, sizeof j, "%s/meta.json", dir);
    json_t *o = json_pack("{s:s, s:i}", "compiler", "cc", "n", 3);
    assert_int_equal(atomic_write_json(j, o), 0);
    json_decref(o);
    json_t *back = json_load_file(j, 0, NULL);
    assert_non_null(back);
    assert_int_equal(json_integer_value(json_object_get(back, "n")), 3);
    json_decref(back);
    assert_int_equal(entries(), 2);
}

static void test_unwritable(void **s)
{
    (void)s;
    char file[128], sub[160], ro[128], p[160];
    snprintf(file, sizeof file, "%s/plain", dir);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(sub, sizeof sub, "%s/plain/results", dir);
    /* a place that cannot hold output is the input's (write_place_code): EINVAL */
    assert_int_equal(mkdir_p(sub), RBD_EINVAL);
    assert_non_null(strstr(rbd_last_error(), "plain': a file of that name exists"));
    assert_int_equal(results_prepare_dir(sub), RBD_EINVAL);
    assert_int_equal(access(sub, F_OK), -1);
    /* a temporary file cannot be made next to the target: nothing appears */
    snprintf(p, sizeof p, "%s/plain/x.json", dir);
    assert_int_equal(atomic_write(p, write_hello, "x"), RBD_EIO);
    assert_non_null(strstr(rbd_last_error(), "x.json: cannot create a temporary file"));
    if (geteuid() != 0) {   /* root writes anywhere */
        snprintf(ro, sizeof ro, "%s/ro", dir);
        assert_int_equal(mkdir_p(ro), 0);
        char cmd[160];
        snprintf(cmd, sizeof cmd, "chmod a-w '%s'", ro);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(results_prepare_dir(ro), RBD_EINVAL);
        assert_non_null(strstr(rbd_last_error(), "is not writable"));
    }
    /* a full disk or an I/O error is the run's */
    assert_int_equal(write_place_code(ENOSPC), RBD_EIO);
    assert_int_equal(write_place_code(EIO), RBD_EIO);
    assert_int_equal(write_place_code(EROFS), RBD_EINVAL);
    /* nested creation works and is idempotent */
    snprintf(sub, sizeof sub, "%s/a/b/c/", dir);
    assert_int_equal(results_prepare_dir(sub), 0);
    assert_int_equal(results_prepare_dir(sub), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replace_and_failure),
        cmocka_unit_test(test_unwritable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
