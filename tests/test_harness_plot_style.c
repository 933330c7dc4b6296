/* Every registered method and base algorithm has its own fixed colour in
 * the figures (plot_style.c): none falls back to the hashed spare colours,
 * a derivative method sits in an ID or FD family, and no family uses a
 * colour twice (a new method must be given one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "rbdiff/method.h"
#include "plot/plot_style.h"

static const char *const spare[] = { "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd" };

static void check_fixed(const char *name)
{
    const char *c = plot_method_color(name);
    for (size_t k = 0; k < sizeof spare / sizeof spare[0]; k++)
        if (!strcmp(c, spare[k])) fail_msg("'%s' has no colour of its own in plot_style.c", name);
}

static void test_every_method_styled(void **state)
{
    (void)state;
    const char *seen[64][2];
    int n = 0;
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *m = rbd_methods[k];
        check_fixed(m->name);
        int fam = plot_method_family(m->name);
        if (m->output == RBD_ID_DERIVS) assert_int_equal(fam, 0);
        else if (fam != 1 && fam != 2) fail_msg("FD method '%s' is in family %d", m->name, fam);
        seen[n][0] = m->name;
        seen[n][1] = plot_method_color(m->name);
        for (int j = 0; j < n; j++)
            if (plot_method_family(seen[j][0]) == fam && !strcmp(seen[j][1], seen[n][1]))
                fail_msg("'%s' and '%s' share %s in the family '%s'", seen[j][0], m->name, seen[n][1],
                         plot_family_name(fam));
        n++;
    }
    for (int k = 0; rbd_base_algos[k].name; k++) {
        check_fixed(rbd_base_algos[k].name);
        assert_int_equal(plot_method_family(rbd_base_algos[k].name), 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_every_method_styled) };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
