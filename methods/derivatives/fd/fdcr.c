/*
 * FDCR: RNEACR + M^-1 + DMM (Singh, Russell & Wensing 2022, Table II and
 * Fig. 2): the chain-rule ID derivatives turned into FD derivatives by
 * eq. (5), the dense product by OpenBLAS dgemm (fd_compose.c).
 * fdcr-forces: the same ID derivatives solved by AZA instead, each column's
 * ancestor rows left as RNEACR's body-frame force derivative on the parent
 * (rbd_aza_solve_forces): the most accurate composition on ill-conditioned
 * chains (methods/README.md, "The FD compositions on ill-conditioned
 * chains").
 */
#include "derivatives/fd/fd_compose.h"

extern const rbd_method rbd_method_rneacr, rbd_method_fdcr, rbd_method_fdcr_forces;

static const rbd_fd_compose fdcr = { &rbd_method_fdcr, &rbd_method_rneacr, RBD_COMBINE_DMM_BLAS, NULL,
                                     RBD_PASS_SEPARATE, NULL };
static const rbd_fd_compose fdcr_forces = { &rbd_method_fdcr_forces, &rbd_method_rneacr, RBD_COMBINE_AZA_FORCES, NULL,
                                            RBD_PASS_SEPARATE, rbd_rneacr_parent_dforces };

static int fdcr_init(const rbd_model *m, const rbd_options *o, void **ws) { return rbd_fdc_init(&fdcr, m, o, ws); }

const rbd_method rbd_method_fdcr = {
    .name = "fdcr",
    .summary = "RNEACR + M^-1 + DMM (OpenBLAS dgemm), eq. (5) at qdd0 = ABA; Table II",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fdcr_init,
    .eval = rbd_fdc_eval,
    .fini = rbd_fdc_fini,
};

static int fdcr_forces_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    return rbd_fdc_init(&fdcr_forces, m, o, ws);
}

const rbd_method rbd_method_fdcr_forces = {
    .name = "fdcr-forces",
    .summary = "RNEACR + M^-1 + AZA, each column's ancestor rows as RNEACR's body-frame force on the parent: "
               "accurate on ill-conditioned chains",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fdcr_forces_init,
    .eval = rbd_fdc_eval,
    .fini = rbd_fdc_fini,
};
