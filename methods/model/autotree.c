/*
 * Featherstone's spatial_v2 autoTree(N, bf, skew, taper), as README.md ("Conventions") defines
 * it: bodies numbered breadth-first (1-based) with parent(i) =
 * floor((i - 2 + ceil(bf)) / bf), every joint revolute about local z, and
 * Xtree = rotx(skew) * xlt([len(parent) 0 0]) for bodies not on the base.
 */
#include <math.h>
#include <stdio.h>
#include "rbdiff/rbd.h"

/* Largest N accepted: ~ 2.7 kB of model and data per body, and every dense
 * derivative is 8 N^2 bytes, so beyond this nothing useful fits in memory. */
#define RBD_AUTOTREE_NMAX 100000

int rbd_autotree(int N, double bf, double skew, double taper, const rbd_model_opts *o, rbd_model **out)
{
    if (!out) return rbd_fail(RBD_EINVAL, "rbd_autotree: null output");
    *out = NULL;
    if (N < 1) return rbd_fail(RBD_EINVAL, "autotree: N=%d: must be >= 1", N);
    if (N > RBD_AUTOTREE_NMAX)
        return rbd_fail(RBD_ENOMEM, "autotree: N=%d is too large: one dense N x N derivative alone needs %.1f GiB "
                        "(limit N <= %d)", N, 8.0 * N * (double)N / 1073741824.0, RBD_AUTOTREE_NMAX);
    if (!isfinite(bf) || bf < 1) return rbd_fail(RBD_EINVAL, "autotree: bf=%g: must be a finite number >= 1", bf);
    if (!isfinite(skew)) return rbd_fail(RBD_EINVAL, "autotree: skew=%g: must be finite", skew);
    if (!isfinite(taper) || taper <= 0) return rbd_fail(RBD_EINVAL, "autotree: taper=%g: must be > 0", taper);

    rbd_builder *b = rbd_builder_new();
    if (!b) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    double cb = ceil(bf);
    for (int i = 1; i <= N && !rc; i++) {
        int parent = (int)floor((i - 2 + cb) / bf);          /* 1-based, 0 = base */
        rbd_joint j = { .type = RBD_JOINT_REVOLUTE, .axis = { 0, 0, 1 } };
        sp_xform X;
        sp_xform_identity(&X);
        if (parent > 0) {
            double c = cos(skew), s = sin(skew);
            X.E[4] = c; X.E[5] = s; X.E[7] = -s; X.E[8] = c;   /* rotx(skew) */
            X.r[0] = pow(taper, parent - 1);                  /* xlt([len(parent) 0 0]) */
        }
        double len = pow(taper, i - 1), mass = pow(taper, 3.0 * (i - 1));
        rbd_body_inertia in = { .mass = mass, .com = { len / 2, 0, 0 } };
        double k = mass * len * len;
        in.Ic[0] = k * 0.0025; in.Ic[4] = k * 1.015 / 12; in.Ic[8] = k * 1.015 / 12;
        char jn[32], bn[32];
        snprintf(jn, sizeof jn, "j%d", i);
        snprintf(bn, sizeof bn, "b%d", i);
        rc = rbd_builder_add(b, parent - 1, &j, &X, &in, jn, bn);
    }
    char spec[160];
    snprintf(spec, sizeof spec, "autotree:N=%d,bf=%.17g,skew=%.17g,taper=%.17g", N, bf, skew, taper);
    if (!rc) rc = rbd_builder_finish(b, o, spec, out);
    rbd_builder_free(b);
    return rc;
}
