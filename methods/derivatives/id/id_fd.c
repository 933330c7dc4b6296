/*
 * id-fd: finite differences of RNEA, column by column, by the perturbation
 * driver (perturb.h: central or forward, its step rule, q in the tangent
 * space).  y = tau = RNEA(q, v, a); dtau/da = M is not an output.
 */
#include <stdlib.h>
#include "derivatives/perturb/perturb.h"
#include "rbdiff/dynamics.h"

typedef struct { rbd_data *d; } rnea_ctx;

static int rnea_setup(void *c, const rbd_model *m)
{
    return (((rnea_ctx *)c)->d = rbd_data_new(m)) ? RBD_OK : RBD_ENOMEM;
}

static void rnea_release(void *c)
{
    rbd_data_free(((rnea_ctx *)c)->d);
}

static int rnea_f(void *c, const rbd_model *m, const double *q, const double *v, const double *a, double *tau)
{
    return rbd_rnea(m, ((rnea_ctx *)c)->d, q, v, a, tau);
}

extern const rbd_method rbd_method_id_fd;

static const rbd_perturb_fn rnea_fd = {
    .method = &rbd_method_id_fd, .scheme = RBD_PERTURB_FD, .du = 0, .ctx_size = sizeof(rnea_ctx),
    .setup = rnea_setup, .release = rnea_release, .f = rnea_f,
};

static int id_fd_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    return rbd_perturb_init(&rnea_fd, m, o, ws);
}

const rbd_method rbd_method_id_fd = {
    .name = "id-fd",
    .summary = "finite differences of RNEA, central (cbrt(eps) step) or forward (sqrt(eps)), tangent-space q",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = id_fd_init,
    .eval = rbd_perturb_eval,
    .fini = rbd_perturb_fini,
};
