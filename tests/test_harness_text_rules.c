/*
 * One table of numbers as text (issue 30, "one strictness in every
 * reader"): each case goes through every reader of numbers, the rule
 * itself (model/text.h), a state file, an autoTree model spec, a URDF
 * attribute, a sweep config key and a sweep flag, and each must accept
 * exactly the cases the table accepts, with the same value.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "rbdiff/rbd_io.h"
#include "model/spec_internal.h"
#include "model/text.h"
#include "plan/sweepconf.h"

static const struct { const char *text; int ok; double value; } cases[] = {
    { "0.5", 1, 0.5 }, { "-2", 1, -2 }, { "+3", 1, 3 }, { "1e-3", 1, 1e-3 }, { "2.5E+2", 1, 250 },
    { ".25", 1, 0.25 }, { "7.", 1, 7 }, { "4.9406564584124654e-324", 1, 4.9406564584124654e-324 },
    { "0x10", 0, 0 }, { "1e999", 0, 0 }, { "inf", 0, 0 }, { "nan", 0, 0 }, { "-Infinity", 0, 0 },
    { "1,5", 0, 0 }, { "1.2.3", 0, 0 }, { "e5", 0, 0 }, { "1e", 0, 0 }, { "1e+", 0, 0 }, { ".", 0, 0 },
    { "-", 0, 0 }, { "1x", 0, 0 }, { "\xc2\xa0" "1", 0, 0 }, { "1\x01", 0, 0 }, { "pi", 0, 0 },
};
#define NCASES ((int)(sizeof cases / sizeof *cases))

static int via_rule(const char *t, double *x) { return rbd_text_number(t, strlen(t), x) == RBD_OK; }

static int via_state(const char *t, double *x)
{
    rbd_model *m = NULL;
    assert_int_equal(rbd_model_from_spec("autotree:N=1", NULL, &m), RBD_OK);
    char text[256];
    snprintf(text, sizeof text, "q %s\nv 0\na 0\n", t);
    FILE *f = fmemopen(text, strlen(text), "r");
    rbd_state_file s;
    int rc = rbd_state_file_read_stream(f, "t.state", m, &s);
    fclose(f);
    if (!rc) { *x = s.q[0]; rbd_state_file_free(&s); }
    rbd_model_free(m);
    return rc == RBD_OK;
}

static int via_spec(const char *t, double *x)
{
    char spec[256];
    double N, bf, skew, taper;
    snprintf(spec, sizeof spec, "autotree:N=1,skew=%s", t);
    int rc = rbd_spec_parse_autotree(spec, &N, &bf, &skew, &taper);
    if (!rc) *x = skew;
    return rc == RBD_OK && isfinite(skew);
}

static int via_urdf(const char *t, double *x)
{
    char path[] = "/tmp/rbd_text_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "<robot name=\"r\"><link name=\"b\"/><link name=\"a\"><inertial><mass value=\"1\"/>"
               "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\" izz=\"1\"/></inertial></link>"
               "<joint name=\"j\" type=\"revolute\"><parent link=\"b\"/><child link=\"a\"/>"
               "<origin xyz=\"%s 0 0\"/><axis xyz=\"0 0 1\"/></joint></robot>\n", t);
    fclose(f);
    rbd_model *m = NULL;
    int rc = rbd_urdf_load(path, 0, NULL, &m);
    unlink(path);
    if (!rc) *x = m->Xtree[0].r[0];
    rbd_model_free(m);
    return rc == RBD_OK;
}

static int via_config(const char *t, double *x)
{
    sweep_config c;
    sweep_config_init(&c);
    char text[256];
    snprintf(text, sizeof text, "skew = %s\n", t);
    FILE *f = fmemopen(text, strlen(text), "r");
    int rc = sweep_config_read_stream(&c, f, "t.conf");
    fclose(f);
    if (!rc) *x = c.skew;
    sweep_config_free(&c);
    return rc == RBD_OK;
}

static int via_flag(const char *t, double *x)
{
    sweep_config c;
    sweep_config_init(&c);
    int rc = sweep_config_set(&c, "skew", t, "--skew");
    if (!rc) *x = c.skew;
    sweep_config_free(&c);
    return rc == RBD_OK;
}

static void test_one_table(void **s)
{
    (void)s;
    static const struct { const char *name; int (*read)(const char *, double *); } readers[] = {
        { "rule", via_rule }, { "state file", via_state }, { "model spec", via_spec }, { "URDF", via_urdf },
        { "config", via_config }, { "flag", via_flag },
    };
    int tried = 0, disagree = 0;
    for (int k = 0; k < NCASES; k++)
        for (size_t r = 0; r < sizeof readers / sizeof *readers; r++) {
            double x = NAN;
            int ok = readers[r].read(cases[k].text, &x);
            tried++;
            if (ok != cases[k].ok || (ok && x != cases[k].value)) {
                disagree++;
                print_error("'%s' via %s: %s (the table: %s)\n", cases[k].text, readers[r].name,
                            ok ? "accepted" : "refused", cases[k].ok ? "accepted" : "refused");
            }
        }
    print_message("%d texts x %d readers = %d reads, %d disagree with the table\n", NCASES,
                  (int)(sizeof readers / sizeof *readers), tried, disagree);
    assert_int_equal(disagree, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_one_table) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
