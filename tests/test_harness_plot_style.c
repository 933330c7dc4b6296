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
#include "plot/plot_palette.h"
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
    for (int k = 0; rbd_so_methods[k]; k++) {   /* second order: beside the first-order ID and FD rows */
        check_fixed(rbd_so_methods[k]->name);
        int fam = plot_method_family(rbd_so_methods[k]->name);
        assert_int_equal(fam, rbd_so_methods[k]->output == RBD_ID_SO_DERIVS ? 0 : 2);
    }
    for (int k = 0; rbd_base_algos[k].name; k++) {
        check_fixed(rbd_base_algos[k].name);
        assert_int_equal(plot_method_family(rbd_base_algos[k].name), 3);
    }
    assert_true(n > 0);
}

/* One colour per method within every figure: the small multiples put the
 * ID, FD, base and peer families into one figure (times_all) and the FD
 * families and aba into one (accuracy_qdd), so no two styled names may
 * share a colour, or two that look alike, at all (issue 29: pink was
 * fdsva-dmm and fdcr-forces).  tests/cli/plot.sh checks the figures a set
 * draws. */
static void test_colours_unique(void **state)
{
    (void)state;
    int n = 0;
    for (int k = 0; plot_style_name(k); k++, n++)
        for (int j = 0; j < k; j++)
            if (plot_color_distance(plot_method_color(plot_style_name(j)), plot_method_color(plot_style_name(k))) <
                PLOT_MIN_DE)    /* the same colour to the eye: rneacr's and mj_forward's reds were 3.8 apart */
                fail_msg("'%s' (%s) and '%s' (%s) are %.1f apart in CIELAB, less than %g", plot_style_name(j),
                         plot_method_color(plot_style_name(j)), plot_style_name(k),
                         plot_method_color(plot_style_name(k)),
                         plot_color_distance(plot_method_color(plot_style_name(j)), plot_method_color(plot_style_name(k))),
                         PLOT_MIN_DE);
    assert_true(n >= 34 + 20);   /* ours (first and second order), the base algorithms, the peers' functions */
    assert_true(plot_color_distance("#d62728", "#cb181d") < PLOT_MIN_DE);   /* the measure itself */
    assert_true(plot_color_distance("#000000", "#ffffff") > 99);
    /* an unstyled name still gets a colour no styled name has */
    const char *c = plot_method_color("a-method-not-registered");
    for (int k = 0; plot_style_name(k); k++) assert_true(strcasecmp(c, plot_method_color(plot_style_name(k))) != 0);
}

/* A peer's row with its version takes the bare name's style and family in
 * the table; a set's palette shades its older versions (below). */
static void test_peer_versions_share_style(void **state)
{
    (void)state;
    assert_true(plot_method_styled("pinocchio@4.1.0.computeABADerivatives"));
    assert_string_equal(plot_method_color("pinocchio@4.1.0.aba"), plot_method_color("pinocchio.aba"));
    assert_string_equal(plot_method_color("mujoco@2.2.2.fd_forward"), plot_method_color("mujoco.fd_forward"));
    assert_int_equal(plot_method_family("mujoco@4.0.0.inverseFD"), plot_method_family("mujoco.fd_forward"));
    assert_false(plot_method_styled("pinocchio@4.1.0.nosuch"));
}

/* One results set's palette: a peer function's versions, pinocchio-cg and
 * names the table does not know each get a colour of their own, far from
 * every other; the newest version keeps the table's colour; a name keeps
 * its colour when asked again. */
static void test_palette_of_a_set(void **state)
{
    (void)state;
    static const char *const names[] = {
        "idsva", "rneacr", "pinocchio@3.7.0.computeRNEADerivatives", "pinocchio@4.1.0.computeRNEADerivatives",
        "mujoco@2.2.2.fd_forward", "mujoco@4.0.0.fd_forward", "mujoco@4.0.0.forward",
        "pinocchio-cg@4.1.0.computeRNEADerivatives", "mine-a", "mine-b", "mine-c", "mine-d", "mine-e", "mine-f",
        "mine-g", "mine-h", "idsva", "rneacr",
    };
    enum { N = sizeof names / sizeof names[0] };
    plot_palette p;
    assert_int_equal(plot_palette_build(&p, names, N), 0);
    assert_int_equal(p.n, N - 2);
    assert_string_equal(plot_palette_color(&p, "pinocchio@4.1.0.computeRNEADerivatives"),
                        plot_method_color("pinocchio.computeRNEADerivatives"));
    assert_string_equal(plot_palette_color(&p, "mujoco@4.0.0.fd_forward"), plot_method_color("mujoco.fd_forward"));
    assert_int_equal(plot_method_family("pinocchio-cg@4.1.0.crba"), plot_method_family("pinocchio.crba"));
    const char *late = plot_palette_color(&p, "mine-late");     /* a name met by one figure only */
    assert_string_equal(plot_palette_color(&p, "mine-late"), late);
    for (int i = 0; i < p.n; i++)
        for (int j = 0; j < i; j++)
            if (plot_color_distance(p.color[i], p.color[j]) < PLOT_MIN_DE)
                fail_msg("'%s' (%s) and '%s' (%s) are %.1f apart", p.name[i], p.color[i], p.name[j], p.color[j],
                         plot_color_distance(p.color[i], p.color[j]));
    plot_palette_free(&p);
    assert_string_equal(plot_palette_color(NULL, "idsva"), plot_method_color("idsva"));
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_every_method_styled), cmocka_unit_test(test_colours_unique),
                                        cmocka_unit_test(test_peer_versions_share_style),
                                        cmocka_unit_test(test_palette_of_a_set) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
