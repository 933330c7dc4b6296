/* Every registered method and base algorithm has its own fixed colour in
 * the figures (plot_style.c): none falls back to the hashed spare colours,
 * a derivative method sits in an ID or FD family, and no two names share a
 * colour (a new method must be given one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>
#include "rbdiff/method.h"
#include "plot/plot_style.h"

static void check_fixed(const char *name)
{
    if (!plot_method_styled(name)) fail_msg("'%s' has no colour of its own in plot_style.c", name);
}

static void test_every_method_styled(void **state)
{
    (void)state;
    int n = 0;
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *m = rbd_methods[k];
        check_fixed(m->name);
        int fam = plot_method_family(m->name);
        if (m->output == RBD_ID_DERIVS) assert_int_equal(fam, 0);
        else if (fam != 1 && fam != 2) fail_msg("FD method '%s' is in family %d", m->name, fam);
        n++;
    }
    for (int k = 0; rbd_so_methods[k]; k++) {     /* second order: their own family, after the FD ones */
        check_fixed(rbd_so_methods[k]->name);
        assert_int_equal(plot_method_family(rbd_so_methods[k]->name), 3);
    }
    check_fixed("pinocchio.ComputeRNEASecondOrderDerivatives");
    for (int k = 0; rbd_base_algos[k].name; k++) {
        check_fixed(rbd_base_algos[k].name);
        assert_int_equal(plot_method_family(rbd_base_algos[k].name), 4);
    }
    assert_true(n > 0);
}

/* One colour per method within every figure: the small multiples put the
 * ID, FD, base and peer families into one figure (times_all) and the FD
 * families and aba into one (accuracy_qdd), so no two styled names may
 * share a colour at all (issue 29: pink was fdsva-dmm and fdcr-forces). */
static void test_colours_unique(void **state)
{
    (void)state;
    int n = 0;
    for (int k = 0; plot_style_name(k); k++, n++)
        for (int j = 0; j < k; j++)
            if (!strcasecmp(plot_method_color(plot_style_name(j)), plot_method_color(plot_style_name(k))))
                fail_msg("'%s' and '%s' share %s", plot_style_name(j), plot_style_name(k),
                         plot_method_color(plot_style_name(k)));
    assert_true(n >= 29 + 5 + 13);   /* ours, second order, the base algorithms, the peers' functions */
    /* an unstyled name still gets a colour no styled name has */
    const char *c = plot_method_color("a-method-not-registered");
    for (int k = 0; plot_style_name(k); k++) assert_true(strcasecmp(c, plot_method_color(plot_style_name(k))) != 0);
}

/* A peer's row with its version takes the bare name's style and family. */
static void test_peer_versions_share_style(void **state)
{
    (void)state;
    assert_true(plot_method_styled("pinocchio@4.1.0.computeABADerivatives"));
    assert_string_equal(plot_method_color("pinocchio@4.1.0.aba"), plot_method_color("pinocchio.aba"));
    assert_string_equal(plot_method_color("mujoco@2.2.2.fd_forward"), plot_method_color("mujoco.fd_forward"));
    assert_int_equal(plot_method_family("mujoco@4.0.0.inverseFD"), plot_method_family("mujoco.fd_forward"));
    assert_false(plot_method_styled("pinocchio@4.1.0.nosuch"));
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_every_method_styled), cmocka_unit_test(test_colours_unique),
                                        cmocka_unit_test(test_peer_versions_share_style) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
