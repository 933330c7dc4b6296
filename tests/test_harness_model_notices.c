/*
 * Model options through the harness (modelspec.c, meta.c; README.md "Model
 * options"): a relative URDF path found in the source tree keeps its
 * options; what the inertia rule changed or let through is recorded in
 * meta.json under model_notices (a physical model adds nothing); the options
 * show in every label (spec_label).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "testutil.h"
#include "store/meta.h"
#include "plan/modelspec.h"

static void test_relative_path_keeps_options(void **s)
{
    (void)s;
    /* the working directory is the build tree: the source-tree fallback applies */
    rbd_model *m = NULL;
    if (model_from_spec("urdf:tests/catalog/inputs/wart_continuous.urdf,continuous=revolute", &m))
        fail_msg("%s", rbd_last_error());
    assert_int_equal(m->nq, 3);
    assert_string_equal(m->spec, "urdf:tests/catalog/inputs/wart_continuous.urdf,continuous=revolute");
    rbd_model_free(m);
    if (model_from_spec("urdf:tests/catalog/inputs/wart_continuous.urdf", &m)) fail_msg("%s", rbd_last_error());
    assert_int_equal(m->nq, 5);
    rbd_model_free(m);
}

static void test_notices_in_meta_json(void **s)
{
    (void)s;
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/rbd_notices_XXXXXX");
    assert_non_null(mkdtemp(dir));
    rbd_model *a = NULL, *b = NULL;
    if (model_from_spec("urdf:" RBD_SOURCE_DIR "/tests/catalog/inputs/wart_impossible_body.urdf,nonphysical", &a))
        fail_msg("%s", rbd_last_error());
    if (model_from_spec("urdf:" RBD_SOURCE_DIR "/tests/models/ur5.urdf", &b)) fail_msg("%s", rbd_last_error());
    assert_int_equal(a->nonphysical, 1);
    assert_int_equal(b->nnotice, 0);
    assert_int_equal(meta_write(dir, "test", NULL), 0);
    char path[128];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    json_t *j = json_load_file(path, 0, NULL);
    assert_non_null(j);
    json_t *n = json_object_get(j, "model_notices");
    assert_true(json_is_array(n));
    assert_int_equal(json_array_size(n), 1);          /* ur5 is physical: nothing */
    json_t *e = json_array_get(n, 0);
    assert_string_equal(json_string_value(json_object_get(e, "spec")), a->spec);
    assert_int_equal(json_integer_value(json_object_get(e, "nonphysical")), 1);
    const char *w = json_string_value(json_array_get(json_object_get(e, "notices"), 0));
    assert_non_null(w);
    assert_non_null(strstr(w, "body 1 ('torso')"));
    assert_non_null(strstr(w, "loaded as given (model option 'nonphysical')"));
    json_decref(j);
    rbd_model_free(a);
    rbd_model_free(b);
    unlink(path);
    rmdir(dir);
}

static void test_labels_carry_options(void **s)
{
    (void)s;
    char buf[128];
    spec_label("urdf:/x/atlas_grid.urdf,nonphysical", buf, sizeof buf);
    assert_string_equal(buf, "atlas_grid+nonphysical");
    spec_label("urdf:tests/models/hyq.urdf,freeflyer", buf, sizeof buf);
    assert_string_equal(buf, "hyq+ff");
    spec_label("urdf:a,b/robot.urdf,continuous=revolute,freeflyer", buf, sizeof buf);
    assert_string_equal(buf, "robot+ff+revolute");
    spec_label("urdf:robot.urdf,strict", buf, sizeof buf);
    assert_string_equal(buf, "robot+strict");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relative_path_keeps_options),
        cmocka_unit_test(test_notices_in_meta_json),
        cmocka_unit_test(test_labels_carry_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
