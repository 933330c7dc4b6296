#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "testutil.h"

const char *tu_shared_dir(void)
{
    const char *env = getenv("RBD_SHARED_DIR");
    return env && *env ? env : RBD_SOURCE_DIR "/tests/pinocchio";
}

const char *tu_shared_path(int slot, const char *rel)
{
    static char buf[4][1024];
    snprintf(buf[slot & 3], sizeof buf[0], "%s/%s", tu_shared_dir(), rel);
    return buf[slot & 3];
}

rbd_model *tu_model(const char *spec)
{
    rbd_model *m = NULL;
    int rc = rbd_model_from_spec(spec, NULL, &m);
    if (rc) fail_msg("model %s: %s (%s)", spec, rbd_last_error(), rbd_strerror(rc));
    return m;
}

double tu_rms_rel(const double *X, const double *R, size_t n)
{
    double mx = 0, s = 0;
    size_t cnt = 0;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++)
        if (fabs(R[k]) > 1e-12 * mx) {
            double e = (X[k] - R[k]) / R[k];
            s += e * e;
            cnt++;
        }
    return cnt ? sqrt(s / cnt) : 0;
}

double tu_max_rel(const double *X, const double *R, size_t n)
{
    double mx = 1, e = 0;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++) e = fmax(e, fabs(X[k] - R[k]));
    return e / mx;
}

void tu_assert_close(const char *what, const double *X, const double *R, size_t rows, size_t cols, double tol)
{
    size_t n = rows * cols, worst = 0;
    double mx = 1, e = -1;
    for (size_t k = 0; k < n; k++) mx = fmax(mx, fabs(R[k]));
    for (size_t k = 0; k < n; k++) {
        double d = fabs(X[k] - R[k]);
        if (!(d <= e)) { e = d; worst = k; }   /* also catches NaN */
    }
    if (!(e <= tol * mx))
        fail_msg("%s: entry (%zu,%zu) = %.17g, expected %.17g (error %.3g > %.3g)", what, worst % rows,
                 worst / rows, X[worst], R[worst], e, tol * mx);
}
