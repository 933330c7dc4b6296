/*
 * Pinocchio 2.6 FD derivatives as the IDSVA paper times them (Fig. 6): its
 * ID derivatives (pin26) + M^-1 + DMM, eq. (5) at qdd0 = ABA; the product
 * by OpenBLAS dgemm (fd_compose.c).
 */
#include "derivatives/fd/fd_compose.h"

extern const rbd_method rbd_method_pin26, rbd_method_pin26_fd;

static const rbd_fd_compose pin26_fd = { &rbd_method_pin26_fd, &rbd_method_pin26, RBD_COMBINE_DMM_BLAS, NULL,
                                         RBD_PASS_SEPARATE, NULL };

static int pin26_fd_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    return rbd_fdc_init(&pin26_fd, m, o, ws);
}

const rbd_method rbd_method_pin26_fd = {
    .name = "pin26-fd",
    .summary = "Pinocchio 2.6 FD derivatives: pin26 + M^-1 + DMM (OpenBLAS dgemm); Fig. 6",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = pin26_fd_init,
    .eval = rbd_fdc_eval,
    .fini = rbd_fdc_fini,
};
