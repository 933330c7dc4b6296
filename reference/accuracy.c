/* The accuracy metrics (reference/README.md) of X against the reference R (accuracy.h). */
#include <math.h>
#include "accuracy.h"
#include "rbdiff/rbd.h"

int rbd_accuracy_eval(const double *X, const double *R, size_t n, rbd_accuracy *acc)
{
    if (!X || !R || !acc) return rbd_fail(RBD_EINVAL, "rbd_accuracy_eval: null argument");
    *acc = (rbd_accuracy){ 0 };
    double mx = 0;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(R[k])) return rbd_fail(RBD_EINVAL, "accuracy: reference entry %zu is not finite", k);
        mx = fmax(mx, fabs(R[k]));
    }
    acc->max_ref = mx;
    /* sums scaled by mx so that squares neither overflow nor underflow */
    double s_rel = 0, s_err = 0, s_ref = 0, sc = mx > 0 ? mx : 1;
    int bad = 0;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(X[k])) { acc->n_nonfinite++; bad = 1; continue; }
        double e = fabs(X[k] - R[k]);
        acc->max_abs = fmax(acc->max_abs, e);
        s_err += (e / sc) * (e / sc);
        s_ref += (R[k] / sc) * (R[k] / sc);
        if (R[k] == 0) {
            acc->n_zero++;
            acc->max_zero = fmax(acc->max_zero, fabs(X[k]));
        }
        if (fabs(R[k]) > 1e-12 * mx) {
            double r = e / fabs(R[k]);
            s_rel += r * r;
            acc->n_rel++;
        }
    }
    if (bad) {
        /* a non-finite X entry: every metric it would enter is inf */
        acc->max_abs = acc->normwise = acc->rms_rel = INFINITY;
        for (size_t k = 0; k < n; k++)
            if (!isfinite(X[k]) && R[k] == 0) { acc->n_zero++; acc->max_zero = INFINITY; }
        for (size_t k = 0; k < n; k++)
            if (!isfinite(X[k]) && fabs(R[k]) > 1e-12 * mx) acc->n_rel++;
        return RBD_OK;
    }
    acc->rms_rel = acc->n_rel ? sqrt(s_rel / (double)acc->n_rel) : 0;
    acc->normwise = s_ref > 0 ? sqrt(s_err / s_ref) : (s_err > 0 ? INFINITY : 0);
    return RBD_OK;
}
