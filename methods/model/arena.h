/*
 * One allocation per workspace, as MuJoCo's mjData: the workspace struct
 * and every array it points to live in one block, which free() releases.
 * A workspace's init runs its carve function twice: the first run, on a
 * scratch copy of the struct, only adds up the sizes; rbd_arena_reserve
 * makes the block (the struct first, zeroed); the second run hands out the
 * same pieces as pointers into it.  One function lays out both runs, so
 * they cannot disagree.
 *
 *   static void carve(ws *w, rbd_arena *a, size_t n)
 *   {
 *       w->x = rbd_arena_take(a, n * sizeof *w->x);
 *       RBD_ARENA_TAKE(a, w->y, n);                          the same, shorter
 *   }
 *   ws sizing, *w;
 *   rbd_arena a = { 0 };
 *   carve(&sizing, &a, n);                                   sizes
 *   if (!(w = rbd_arena_reserve(&a, sizeof *w, "what"))) return RBD_ENOMEM;
 *   carve(w, &a, n);                                         pointers
 *   ...
 *   free(w);                                                 everything
 *
 * Every piece starts on a RBD_ARENA_ALIGN boundary (a cache line and an
 * AVX-512 vector; malloc gives 16), and the block is zeroed, as calloc.
 */
#ifndef RBD_ARENA_H
#define RBD_ARENA_H

#include <stddef.h>

enum { RBD_ARENA_ALIGN = 64 };

typedef struct {
    char *base;     /* NULL while sizing */
    size_t used;    /* bytes handed out (or counted) so far */
} rbd_arena;

/* n bytes, RBD_ARENA_ALIGN-aligned; NULL while sizing (and for n = 0). */
void *rbd_arena_take(rbd_arena *a, size_t n);
/* p = n elements of *p's type from a */
#define RBD_ARENA_TAKE(a, p, n) ((p) = rbd_arena_take((a), (size_t)(n) * sizeof *(p)))

/* One zeroed block for a head of `head` bytes (the workspace struct), then
 * the pieces counted so far; rewinds a to hand them out after the head and
 * returns the head.  NULL and RBD_ENOMEM naming `what` if it fails. */
void *rbd_arena_reserve(rbd_arena *a, size_t head, const char *what);

#endif
