/* Completing a symmetric matrix from the triangle an algorithm filled
 * (CRBA and the M^-1 variants fill the lower one). */
#include "rbdiff/dynamics.h"

/* Copy the lower triangle to the upper one, in tiles so that both the
 * strided reads and the writes stay in cache. */
void rbd_sym_from_lower(int n, double *A)
{
    enum { B = 32 };
    if (n <= B) {                       /* one tile: without the tile bounds in the inner loop */
        const size_t ld = (size_t)n;
        for (int c = 1; c < n; c++) {
            double *restrict col = A + ld * c;
            const double *restrict row = A + c;
            for (int r = 0; r < c; r++) col[r] = row[ld * r];
        }
        return;
    }
    for (int c0 = 0; c0 < n; c0 += B)
        for (int r0 = 0; r0 <= c0; r0 += B)
            for (int c = c0; c < c0 + B && c < n; c++)
                for (int r = r0; r < r0 + B && r < c; r++) A[r + (size_t)n * c] = A[c + (size_t)n * r];
}
