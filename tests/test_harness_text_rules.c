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
#include "store/meta.h"

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

/* ---- one table of lists (model/text.h's list rule): each shape, its
 * items A and B and separator S filled in per reader, must be accepted or
 * refused by every reader of a list alike. */
static const struct { const char *shape; int ok; } shapes[] = {
    { "A", 1 }, { "ASB", 1 }, { "ASBS", 0 }, { "SA", 0 }, { "ASSB", 0 }, { "ASA", 0 }, { "ASB\x01", 0 },
    { "AL", 0 }, { "ASB\x7f", 0 },
};

typedef struct { const char *name, *prefix, *a, *b, *sep; int (*read)(const char *text); } list_reader;

static int via_config_key(const char *key, const char *v)
{
    sweep_config c;
    sweep_config_init(&c);
    int rc = sweep_config_set(&c, key, v, "t.conf:1");
    sweep_config_free(&c);
    return rc == RBD_OK;
}

static int list_N(const char *t) { return via_config_key("N", t); }
static int list_bf(const char *t) { return via_config_key("bf", t); }
static int list_methods(const char *t) { return via_config_key("methods", t); }
static int list_peers(const char *t) { return via_config_key("peers", t); }
static int list_robots(const char *t) { return via_config_key("robots", t); }

static int list_autotree(const char *t)
{
    double N, bf, skew, taper;
    return rbd_spec_parse_autotree(t, &N, &bf, &skew, &taper) == RBD_OK;
}

static int list_urdf_options(const char *t)
{
    rbd_model *m = NULL;
    int rc = rbd_model_from_spec(t, NULL, &m);
    rbd_model_free(m);
    return rc == RBD_OK;
}

/* shape -> text: A, B, S as the reader's, L a 5000-byte tail (longer than
 * any item, a path's included) */
static void fill(const list_reader *r, const char *shape, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "%s", r->prefix);
    for (const char *p = shape; *p && used < len; p++) {
        const char *part = *p == 'A' ? r->a : *p == 'B' ? r->b : *p == 'S' ? r->sep : NULL;
        if (*p == 'L') {
            for (int k = 0; k < 5000 && used + 1 < len; k++) out[used++] = 'x';
            out[used] = 0;
        } else if (part) {
            used += (size_t)snprintf(out + used, len - used, "%s", part);
        } else {
            out[used++] = *p;
            out[used] = 0;
        }
    }
}

static void test_one_list_rule(void **s)
{
    (void)s;
    static const list_reader readers[] = {
        { "config N", "", "1", "2", ",", list_N },
        { "config bf", "", "1", "2.5", ",", list_bf },
        { "methods", "", "rnea", "idsva", ",", list_methods },
        { "peers", "", "pinocchio", "mujoco", ",", list_peers },
        { "robots", "", "ur3", "iiwa", ",", list_robots },
        { "robot options", "ur3:", "freeflyer", "strict", ":", list_robots },
        { "autotree spec", "autotree:", "N=2", "bf=2", ",", list_autotree },
        { "urdf options", "urdf:" RBD_SOURCE_DIR "/tests/models/ur3.urdf,", "freeflyer", "strict", ",",
          list_urdf_options },
    };
    int tried = 0, disagree = 0;
    static char text[8192];
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++)
        for (size_t r = 0; r < sizeof readers / sizeof *readers; r++) {
            fill(&readers[r], shapes[k].shape, text, sizeof text);
            int ok = readers[r].read(text);
            tried++;
            if (ok != shapes[k].ok) {
                disagree++;
                print_error("list '%.80s' via %s: %s (the table: %s)\n", text, readers[r].name,
                            ok ? "accepted" : "refused", shapes[k].ok ? "accepted" : "refused");
            }
        }
    print_message("%d list shapes x %d readers = %d reads, %d disagree with the table\n",
                  (int)(sizeof shapes / sizeof *shapes), (int)(sizeof readers / sizeof *readers), tried, disagree);
    assert_int_equal(disagree, 0);
}

/* ---- paths: UTF-8 or refused where rbdiff records them (a model spec, a
 * robots path), escaped where it only reports them (the command line in
 * meta.json, merge's inputs, the cache) */
static const struct { const char *text; size_t bad; } utf8[] = {
    { "", 0 }, { "ur5.urdf", 0 }, { "\xc3\xa9", 0 }, { "\xe2\x82\xac", 0 }, { "\xf0\x9f\x98\x80", 0 },
    { "lat\xe9", 4 }, { "a\xc3", 2 }, { "a\x80", 2 }, { "\xc0\xaf", 1 }, { "\xe0\x80\xaf", 1 },
    { "\xed\xa0\x80", 1 }, { "\xf4\x90\x80\x80", 1 }, { "\xf0\x80\x80\x80", 1 }, { "\xff", 1 },
};

static void test_utf8_paths(void **s)
{
    (void)s;
    for (size_t k = 0; k < sizeof utf8 / sizeof *utf8; k++)
        assert_int_equal(rbd_text_utf8_bad(utf8[k].text, strlen(utf8[k].text)), utf8[k].bad);
    rbd_model *m = NULL;
    assert_int_equal(rbd_model_from_spec("urdf:/tmp/lat\xe9/ur5.urdf", NULL, &m), RBD_EPARSE);
    assert_non_null(strstr(rbd_last_error(), "the byte 0xe9 at byte 14 is not UTF-8"));
    assert_false(via_config_key("robots", "ur3, /tmp/lat\xe9/ur5.urdf"));
    assert_non_null(strstr(rbd_last_error(), "item 2 holds the byte 0xe9 (its byte 9), not UTF-8"));
    char *argv[] = { "rbdiff", "--out", "lat\xe9", "a b", "x'y", "\xc3\xa9", "t\tab" };
    char *cl = meta_cmdline(7, argv);
    assert_string_equal(cl, "rbdiff --out $'lat\\xe9' 'a b' 'x'\\''y' '\xc3\xa9' $'t\\x09ab'");
    json_t *j = json_string(cl);       /* jansson takes UTF-8 only: NULL before */
    assert_non_null(j);
    json_decref(j);
    free(cl);
    j = meta_json_text("shard\xe9");
    assert_string_equal(json_string_value(j), "$'shard\\xe9'");
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_one_table), cmocka_unit_test(test_one_list_rule),
                                        cmocka_unit_test(test_utf8_paths) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
