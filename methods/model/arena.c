/* The workspace arena (arena.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/arena.h"
#include "rbdiff/rbd.h"

/* n rounded up to the alignment, SIZE_MAX when that overflows */
static size_t round_up(size_t n)
{
    const size_t r = (n + (RBD_ARENA_ALIGN - 1)) & ~(size_t)(RBD_ARENA_ALIGN - 1);
    return r < n ? SIZE_MAX : r;
}

static size_t add(size_t a, size_t b)
{
    return a > SIZE_MAX - b ? SIZE_MAX : a + b;
}

void *rbd_arena_take(rbd_arena *a, size_t n)
{
    if (n == 0) return NULL;
    const size_t at = a->used;
    a->used = add(at, round_up(n));     /* saturates: rbd_arena_reserve then refuses */
    return a->base ? a->base + at : NULL;
}

void *rbd_arena_reserve(rbd_arena *a, size_t head, const char *what)
{
    const size_t h = round_up(head), n = add(h, a->used);
    a->base = n == SIZE_MAX ? NULL : aligned_alloc(RBD_ARENA_ALIGN, n);
    if (!a->base) {
        a->used = 0;
        rbd_fail(RBD_ENOMEM, "out of memory for %s (%zu bytes)", what, n);
        return NULL;
    }
    memset(a->base, 0, n);
    a->used = h;
    return a->base;
}
