/*
 * The second-order output kinds (method.h): their names in the interchange
 * format, the buffers of rbd_derivs they fill, and the size check that
 * refuses a model whose four nv^3 tensors would not fit before anything is
 * allocated (each tensor is nv^3 doubles: 800 MB at nv = 464).
 */
#include <stdio.h>
#include "rbdiff/method.h"

static const char *const id_names[1 + RBD_SO_NTENSORS] = { "tau", "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq" };
static const char *const fd_names[1 + RBD_SO_NTENSORS] = { "qdd", "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv",
                                                           "d2qdd_dqdtau" };

const char *const *rbd_so_output_names(rbd_output o)
{
    return o == RBD_ID_SO_DERIVS ? id_names : o == RBD_FD_SO_DERIVS ? fd_names : NULL;
}

void rbd_so_output_ptrs(rbd_output o, const rbd_derivs *d, double *ptr[1 + RBD_SO_NTENSORS])
{
    if (o == RBD_ID_SO_DERIVS) {
        ptr[0] = d->tau; ptr[1] = d->d2tau_dq2; ptr[2] = d->d2tau_dv2; ptr[3] = d->d2tau_dqdv; ptr[4] = d->dM_dq;
    } else {
        ptr[0] = d->qdd; ptr[1] = d->d2qdd_dq2; ptr[2] = d->d2qdd_dv2; ptr[3] = d->d2qdd_dqdv;
        ptr[4] = d->d2qdd_dqdtau;
    }
}

int rbd_so_check_size(const rbd_model *m, const char *who, double *bytes)
{
    if (!m) return rbd_fail(RBD_EINVAL, "%s: null model", who);
    double nv = m->nv, b = 8.0 * RBD_SO_NTENSORS * nv * nv * nv;
    if (bytes) *bytes = b;
    char what[160];
    snprintf(what, sizeof what, "%s: the four second-order tensors of nv = %d (4 nv^3 doubles)", who, m->nv);
    if (b > 9.0e18) return rbd_fail(RBD_ENOMEM, "%s need %.3g bytes, beyond any address space", what, b);
    return rbd_check_memory(what, b);
}

void rbd_tensor_to_user(const rbd_model *m, const double *internal, double *user)
{
    const size_t nv = (size_t)m->nv;
    for (size_t k = 0; k < nv; k++)
        for (size_t j = 0; j < nv; j++)
            for (size_t i = 0; i < nv; i++)
                user[(size_t)m->user_v[i] + nv * ((size_t)m->user_v[j] + nv * (size_t)m->user_v[k])] =
                    internal[i + nv * (j + nv * k)];
}
