/*
 * Issue 30, class 7: every public function that takes a name or a pointer
 * checks it, and a NULL fails with an error code and rbd_last_error set,
 * never a crash.  One table of calls; each runs in a child process, so a
 * crash is counted (and fails the test) instead of ending the run.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "testutil.h"
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "rbdiff/rbd_io.h"

static rbd_model *M;
static double q[16], out[256];

/* Each returns 1 when the call refused (an error code, or NULL from a
 * finder, with a message), 0 when it accepted the NULL. */
static int c_method_find(void) { return !rbd_method_find(NULL) && *rbd_last_error(); }
static int c_base_find(void) { return !rbd_base_algo_find(NULL) && *rbd_last_error(); }
static int c_supports_meth(void) { return rbd_method_supports(NULL, M) == RBD_EINVAL; }
static int c_supports_model(void) { return rbd_method_supports(rbd_method_find("idsva"), NULL) == RBD_EINVAL; }
static int c_init_check(void) { void *w; return rbd_method_init_check(NULL, M, &w) == RBD_EINVAL; }
static int c_check_outputs(void) { return rbd_method_check_outputs(NULL, M, NULL) == RBD_EINVAL; }
static int c_check_output(void) { return rbd_check_output(NULL, "who", "x", out, 1) == RBD_EINVAL; }
static int c_check_state(void) { return rbd_check_state(M, NULL, "who") == RBD_EINVAL; }
static int c_rcond_model(void) { double r; return rbd_mass_rcond(NULL, q, &r) == RBD_EINVAL; }
static int c_rcond_q(void) { double r; return rbd_mass_rcond(M, NULL, &r) == RBD_EINVAL; }
static int c_blocks_read(void) { rbd_block *b; int n; return rbd_blocks_read(NULL, &b, &n) == RBD_EINVAL; }
static int c_blocks_read_out(void) { return rbd_blocks_read("/dev/null", NULL, NULL) == RBD_EINVAL; }
static int c_blocks_find(void) { return !rbd_blocks_find(NULL, 3, "q") && *rbd_last_error(); }
static int c_block_write_f(void) { return rbd_block_write(NULL, "x", 1, 1, out) == RBD_EINVAL; }
static int c_block_write_name(void) { return rbd_block_write(stderr, NULL, 1, 1, out) == RBD_EINVAL; }
static int c_spec_split(void) { return rbd_urdf_spec_split(NULL, NULL, NULL) == 0; }
static int c_explain(void) { return rbd_explain_singular(NULL, q, RBD_ESINGULAR) == RBD_ESINGULAR; }
static int c_from_spec(void) { rbd_model *m; return rbd_model_from_spec(NULL, NULL, &m) == RBD_EINVAL; }
static int c_urdf_load(void) { rbd_model *m; return rbd_urdf_load(NULL, 0, NULL, &m) == RBD_EINVAL; }
static int c_state_read(void) { return rbd_state_file_read(NULL, M, NULL) == RBD_EINVAL; }
static int c_data_new(void) { return rbd_data_new(NULL) == NULL && *rbd_last_error(); }
static int c_rnea(void) { return rbd_rnea(M, NULL, q, q, q, out) == RBD_EINVAL; }
static int c_eval(void) { return rbd_method_eval(NULL, NULL, M, NULL, NULL) == RBD_EINVAL; }
static int c_rnea_ground(void) { return rbd_rnea_ground(M, NULL, q, q, q, out) == RBD_EINVAL; }
static int c_crba(void) { return rbd_crba(NULL, NULL, q, out) == RBD_EINVAL; }
static int c_crba_out(void)      /* frees d: a leak in the child fails the valgrind run */
{
    rbd_data *d = rbd_data_new(M);
    int r = rbd_crba(M, d, q, NULL) == RBD_EINVAL;
    rbd_data_free(d);
    return r;
}
static int c_aba(void) { return rbd_aba(M, NULL, q, q, q, out) == RBD_EINVAL; }
static int c_minv(void) { return rbd_minv(M, NULL, RBD_MINV_ANALYTIC, q, out) == RBD_EINVAL; }
static int c_ltdl(void) { return rbd_ltdl(NULL, out) == RBD_EINVAL; }
static int c_base_eval(void) { return rbd_base_eval(NULL, M, NULL, q, q, q, q, out) == RBD_EINVAL; }
static int c_so_size(void) { double b; return rbd_so_check_size(NULL, "who", &b) == RBD_EINVAL; }
static int c_builder_add(void) { return rbd_builder_add(NULL, -1, NULL, NULL, NULL, "j", "b") == RBD_EINVAL; }
static int c_builder_finish(void) { rbd_model *m; return rbd_builder_finish(NULL, NULL, "s", &m) == RBD_EINVAL; }
static int c_autotree_out(void) { return rbd_autotree(3, 1, 0, 1, NULL, NULL) == RBD_EINVAL; }
static int c_add_warning(void) { return rbd_model_add_warning(NULL, "w") == RBD_EINVAL; }
static int c_urdf_write_m(void) { return rbd_urdf_write(NULL, stderr) == RBD_EINVAL; }
static int c_urdf_write_f(void) { return rbd_urdf_write(M, NULL) == RBD_EINVAL; }
static int c_state_stream(void) { rbd_state_file s; return rbd_state_file_read_stream(NULL, "p", M, &s) == RBD_EINVAL; }
static int c_blocks_stream(void) { rbd_block *b; int n; return rbd_blocks_read_stream(NULL, "p", &b, &n) == RBD_EINVAL; }
static int c_frees(void) { rbd_model_free(NULL); rbd_data_free(NULL); rbd_state_file_free(NULL); rbd_builder_free(NULL);
                           return 1; }

static const struct { const char *name; int (*call)(void); } calls[] = {
    { "rbd_method_find(NULL)", c_method_find }, { "rbd_base_algo_find(NULL)", c_base_find },
    { "rbd_method_supports(NULL, m)", c_supports_meth }, { "rbd_method_supports(idsva, NULL)", c_supports_model },
    { "rbd_method_init_check(NULL, ...)", c_init_check }, { "rbd_method_check_outputs(NULL, ...)", c_check_outputs },
    { "rbd_check_output(NULL model)", c_check_output }, { "rbd_check_state(m, NULL)", c_check_state },
    { "rbd_mass_rcond(NULL, ...)", c_rcond_model }, { "rbd_mass_rcond(m, NULL)", c_rcond_q },
    { "rbd_blocks_read(NULL path)", c_blocks_read }, { "rbd_blocks_read(path, NULL, NULL)", c_blocks_read_out },
    { "rbd_blocks_find(NULL, 3, name)", c_blocks_find }, { "rbd_block_write(NULL file)", c_block_write_f },
    { "rbd_block_write(NULL name)", c_block_write_name }, { "rbd_urdf_spec_split(NULL)", c_spec_split },
    { "rbd_explain_singular(NULL)", c_explain }, { "rbd_model_from_spec(NULL)", c_from_spec },
    { "rbd_urdf_load(NULL)", c_urdf_load }, { "rbd_state_file_read(NULL)", c_state_read },
    { "rbd_data_new(NULL)", c_data_new }, { "rbd_rnea(m, NULL data)", c_rnea },
    { "rbd_method_eval(NULL, ...)", c_eval }, { "rbd_rnea_ground(m, NULL data)", c_rnea_ground },
    { "rbd_crba(NULL, ...)", c_crba }, { "rbd_crba(m, d, q, NULL)", c_crba_out }, { "rbd_aba(m, NULL data)", c_aba },
    { "rbd_minv(m, NULL data)", c_minv }, { "rbd_ltdl(NULL)", c_ltdl }, { "rbd_base_eval(NULL, ...)", c_base_eval },
    { "rbd_so_check_size(NULL)", c_so_size }, { "rbd_builder_add(NULL)", c_builder_add },
    { "rbd_builder_finish(NULL)", c_builder_finish }, { "rbd_autotree(..., NULL out)", c_autotree_out },
    { "rbd_model_add_warning(NULL)", c_add_warning }, { "rbd_urdf_write(NULL, f)", c_urdf_write_m },
    { "rbd_urdf_write(m, NULL)", c_urdf_write_f }, { "rbd_state_file_read_stream(NULL)", c_state_stream },
    { "rbd_blocks_read_stream(NULL)", c_blocks_stream }, { "the *_free(NULL) functions", c_frees },
};

static void test_nulls_refused(void **s)
{
    (void)s;
    assert_int_equal(rbd_model_from_spec("autotree:N=3", NULL, &M), RBD_OK);
    int refused = 0, accepted = 0, crashed = 0, n = (int)(sizeof calls / sizeof *calls);
    for (int k = 0; k < n; k++) {
        fflush(NULL);
        pid_t p = fork();
        assert_true(p >= 0);
        if (p == 0) {
            /* cmocka's handler would turn a crash into an exit status (read
             * as "accepted"): the child dies of the signal, and is counted */
            signal(SIGSEGV, SIG_DFL);
            signal(SIGBUS, SIG_DFL);
            signal(SIGFPE, SIG_DFL);
            signal(SIGILL, SIG_DFL);
            signal(SIGABRT, SIG_DFL);
            _exit(calls[k].call() ? 0 : 1);
        }
        int st;
        waitpid(p, &st, 0);
        if (!WIFEXITED(st)) { crashed++; print_error("%s: crashed (signal %d)\n", calls[k].name, WTERMSIG(st)); }
        else if (WEXITSTATUS(st)) { accepted++; print_error("%s: not refused\n", calls[k].name); }
        else refused++;
    }
    print_message("%d calls with a NULL: %d refused with a message, %d accepted, %d crashed\n", n, refused, accepted,
                  crashed);
    rbd_model_free(M);
    assert_int_equal(refused, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_nulls_refused) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
