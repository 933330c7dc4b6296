/* rbd_minv: M^-1 by the chosen variant (minv_analytic.c, minv_ltdl.c, minv_lapack.c). */
#include "rbdiff/dynamics.h"

int rbd_minv(const rbd_model *m, rbd_data *d, rbd_minv_kind kind, const double *q, double *Minv)
{
    switch (kind) {
    case RBD_MINV_ANALYTIC: return rbd_minv_analytic(m, d, q, Minv);
    case RBD_MINV_LTDL: return rbd_minv_ltdl(m, d, q, Minv);
    case RBD_MINV_LAPACK: return rbd_minv_lapack(m, d, q, Minv);
    default: return rbd_fail(RBD_EINVAL, "rbd_minv: unknown variant %d", (int)kind);
    }
}

/* Minv's lower triangle is filled: copy it to the upper one, in tiles so that
 * both the strided reads and the writes stay in cache. */
void rbd_sym_from_lower(int n, double *A)
{
    enum { B = 32 };
    for (int c0 = 0; c0 < n; c0 += B)
        for (int r0 = 0; r0 <= c0; r0 += B)
            for (int c = c0; c < c0 + B && c < n; c++)
                for (int r = r0; r < r0 + B && r < c; r++) A[r + (size_t)n * c] = A[c + (size_t)n * r];
}

void rbd_sym_from_upper(int n, double *A)
{
    enum { B = 32 };
    for (int c0 = 0; c0 < n; c0 += B)
        for (int r0 = 0; r0 <= c0; r0 += B)
            for (int c = c0; c < c0 + B && c < n; c++)
                for (int r = r0; r < r0 + B && r < c; r++) A[c + (size_t)n * r] = A[r + (size_t)n * c];
}
