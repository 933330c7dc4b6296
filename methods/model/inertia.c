/* Eigen-decomposition of a symmetric 3x3 and the inertia rule (inertia.h). */
#include <math.h>
#include <string.h>
#include "model/inertia.h"

void rbd_sym3_eig(const double A_in[9], double lam[3], double V[9])
{
    double A[9];
    memcpy(A, A_in, sizeof A);
    for (int k = 0; k < 9; k++) V[k] = k % 4 == 0;
    static const int pq[3][2] = { { 0, 1 }, { 0, 2 }, { 1, 2 } };
    for (int sweep = 0; sweep < 64; sweep++) {
        double off = fabs(A[1]) + fabs(A[2]) + fabs(A[5]);
        if (off == 0) break;
        for (int r = 0; r < 3; r++) {
            int p = pq[r][0], q = pq[r][1];
            double apq = A[3 * p + q];
            if (apq == 0) continue;
            /* Jacobi rotation zeroing A_pq (Numerical Recipes, eq. 11.1.8-11.1.10) */
            double th = (A[3 * q + q] - A[3 * p + p]) / (2 * apq);
            double t = (th >= 0 ? 1 : -1) / (fabs(th) + sqrt(th * th + 1));
            double c = 1 / sqrt(t * t + 1), s = t * c;
            for (int k = 0; k < 3; k++) {
                double akp = A[3 * k + p], akq = A[3 * k + q];
                A[3 * k + p] = c * akp - s * akq; A[3 * k + q] = s * akp + c * akq;
            }
            for (int k = 0; k < 3; k++) {
                double apk = A[3 * p + k], aqk = A[3 * q + k];
                A[3 * p + k] = c * apk - s * aqk; A[3 * q + k] = s * apk + c * aqk;
            }
            A[3 * p + q] = A[3 * q + p] = 0;
            for (int k = 0; k < 3; k++) {
                double vkp = V[3 * k + p], vkq = V[3 * k + q];
                V[3 * k + p] = c * vkp - s * vkq; V[3 * k + q] = s * vkp + c * vkq;
            }
        }
    }
    int order[3] = { 0, 1, 2 };
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (A[4 * order[b]] < A[4 * order[a]]) { int t = order[a]; order[a] = order[b]; order[b] = t; }
    double W[9];
    for (int a = 0; a < 3; a++) {
        lam[a] = A[4 * order[a]];
        for (int k = 0; k < 3; k++) W[3 * k + a] = V[3 * k + order[a]];
    }
    memcpy(V, W, sizeof W);
}

int rbd_inertia_judge(double Ic[9], double scale, double lam[3], double *excess, double *tol, double *change)
{
    double V[9];
    rbd_sym3_eig(Ic, lam, V);
    *excess = lam[2] - lam[1] - lam[0];
    *tol = RBD_INERTIA_RTOL * scale;
    *change = 0;
    if (*excess <= 0) return RBD_INERTIA_PHYSICAL;
    if (*excess > *tol) return RBD_INERTIA_IMPOSSIBLE;
    /* Sigma's eigenvalues sigma_i = (lam_j + lam_k - lam_i) / 2, clamped at 0 */
    double sg[3], l[3];
    for (int i = 0; i < 3; i++) sg[i] = fmax((lam[(i + 1) % 3] + lam[(i + 2) % 3] - lam[i]) / 2, 0);
    for (int i = 0; i < 3; i++) l[i] = sg[(i + 1) % 3] + sg[(i + 2) % 3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double x = 0;
            for (int k = 0; k < 3; k++) x += V[3 * a + k] * l[k] * V[3 * b + k];
            *change = fmax(*change, fabs(x - Ic[3 * a + b]));
            Ic[3 * a + b] = x;
        }
    /* exact symmetry, as the input had */
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++) Ic[3 * b + a] = Ic[3 * a + b];
    return RBD_INERTIA_CLAMPED;
}
