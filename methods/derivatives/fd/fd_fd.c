/*
 * fd-fd: finite differences of ABA, column by column, by the perturbation
 * driver (perturb.h: central or forward, its step rule, q in the tangent
 * space).  y = qdd = ABA(q, v, tau); the tau columns approximate M^-1.
 */
#include <stdlib.h>
#include "derivatives/perturb/perturb.h"
#include "rbdiff/dynamics.h"

typedef struct { rbd_data *d; } aba_ctx;

static int aba_setup(void *c, const rbd_model *m)
{
    return (((aba_ctx *)c)->d = rbd_data_new(m)) ? RBD_OK : RBD_ENOMEM;
}

static void aba_release(void *c)
{
    rbd_data_free(((aba_ctx *)c)->d);
}

static int aba_f(void *c, const rbd_model *m, const double *q, const double *v, const double *tau, double *qdd)
{
    return rbd_aba(m, ((aba_ctx *)c)->d, q, v, tau, qdd);
}

extern const rbd_method rbd_method_fd_fd;

static const rbd_perturb_fn aba_fd = {
    .method = &rbd_method_fd_fd, .scheme = RBD_PERTURB_FD, .du = 1, .ctx_size = sizeof(aba_ctx),
    .setup = aba_setup, .release = aba_release, .f = aba_f,
};

static int fd_fd_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    return rbd_perturb_init(&aba_fd, m, o, ws);
}

const rbd_method rbd_method_fd_fd = {
    .name = "fd-fd",
    .summary = "finite differences of ABA, central (cbrt(eps) step) or forward (sqrt(eps)), tangent-space q",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fd_fd_init,
    .eval = rbd_perturb_eval,
    .fini = rbd_perturb_fini,
};
