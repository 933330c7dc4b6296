/* The workspace arena (methods/arena.h): one block, aligned zeroed pieces,
 * the same layout in both runs, and sizes that cannot fit refused. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "testutil.h"
#include "model/arena.h"

typedef struct {
    double *x;
    unsigned char *flags;
    double (*blocks)[6];
    int *none;
} toy_ws;

static void carve(toy_ws *w, rbd_arena *a, size_t n)
{
    RBD_ARENA_TAKE(a, w->x, n);
    RBD_ARENA_TAKE(a, w->flags, n + 1);
    RBD_ARENA_TAKE(a, w->blocks, 2 * n);
    RBD_ARENA_TAKE(a, w->none, 0);
}

static void test_carve(void **s)
{
    (void)s;
    for (size_t n = 1; n < 40; n += 7) {
        rbd_arena a = { 0 };
        toy_ws sizing, *w;
        carve(&sizing, &a, n);
        assert_null(sizing.x);
        const size_t counted = a.used;
        assert_true(counted >= n * 8 + n + 1 + 2 * n * 48);
        assert_int_equal(counted % RBD_ARENA_ALIGN, 0);
        w = rbd_arena_reserve(&a, sizeof *w, "a toy workspace");
        assert_non_null(w);
        carve(w, &a, n);
        assert_int_equal(a.used, counted + RBD_ARENA_ALIGN);     /* the head, rounded, then the same pieces */
        assert_null(w->none);
        const char *lo = (const char *)w, *hi = lo + a.used;
        void *piece[3] = { w->x, w->flags, w->blocks };
        size_t len[3] = { n * sizeof *w->x, n + 1, 2 * n * sizeof *w->blocks };
        for (int k = 0; k < 3; k++) {
            assert_int_equal((uintptr_t)piece[k] % RBD_ARENA_ALIGN, 0);
            assert_true((const char *)piece[k] >= lo + sizeof *w && (const char *)piece[k] + len[k] <= hi);
            for (size_t b = 0; b < len[k]; b++) assert_int_equal(((unsigned char *)piece[k])[b], 0);
            if (k) assert_true((char *)piece[k] >= (char *)piece[k - 1] + len[k - 1]);   /* no overlap */
        }
        memset(w->blocks, 0xff, len[2]);    /* the whole piece is ours (ASan would see an overrun) */
        free(w);
    }
}

static void test_refuses_what_cannot_fit(void **s)
{
    (void)s;
    rbd_arena a = { 0 };
    assert_null(rbd_arena_take(&a, SIZE_MAX - 3));      /* rounding overflows: saturates */
    rbd_arena_take(&a, 100);
    assert_true(a.used == SIZE_MAX);
    rbd_clear_error();
    assert_null(rbd_arena_reserve(&a, 64, "an impossible workspace"));
    assert_non_null(strstr(rbd_last_error(), "an impossible workspace"));
    rbd_arena b = { 0 };
    rbd_arena_take(&b, SIZE_MAX / 2);
    rbd_arena_take(&b, SIZE_MAX / 2);                   /* the sum overflows */
    assert_null(rbd_arena_reserve(&b, 64, "another"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carve),
        cmocka_unit_test(test_refuses_what_cannot_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
