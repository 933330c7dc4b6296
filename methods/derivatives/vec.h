/* The inner products of the derivative passes: rbd_dot6, and short vectors
 * of doubles for the ID backward passes (idsva_chain.c, idsva_pairs.h,
 * pin26.c) in the GNU C vector extension (gcc, clang); rbd_v4 is one AVX2
 * register or two SSE2 ones, so the code is the same with and without
 * -march=native. */
#ifndef RBD_VEC_H
#define RBD_VEC_H

#include <string.h>

typedef double rbd_v4 __attribute__((vector_size(4 * sizeof(double))));
typedef double rbd_v2 __attribute__((vector_size(2 * sizeof(double))));
/* one AVX-512 register, or two AVX2 or four SSE2 ones (dmm.c) */
typedef double rbd_v8 __attribute__((vector_size(8 * sizeof(double))));

/* a^T b of two 6-vectors (a spatial motion and force, or two columns),
 * summed left to right: the one order every ID and FD pass uses, so that
 * their outputs agree where they share a product. */
static inline double rbd_dot6(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

/* unaligned moves; by pointer, so no vector crosses a call boundary by
 * value (an ABI that depends on -mavx) */
static inline void rbd_load4(rbd_v4 *x, const double *p)
{
    memcpy(x, p, sizeof *x);
}

static inline void rbd_store4(double *p, const rbd_v4 *x)
{
    memcpy(p, x, sizeof *x);
}

static inline void rbd_load2(rbd_v2 *x, const double *p)
{
    memcpy(x, p, sizeof *x);
}

static inline void rbd_load8(rbd_v8 *x, const double *p)
{
    memcpy(x, p, sizeof *x);
}

static inline void rbd_store8(double *p, const rbd_v8 *x)
{
    memcpy(p, x, sizeof *x);
}

#endif
