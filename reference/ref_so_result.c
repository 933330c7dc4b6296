/* The second-order reference's result arrays (rbdref_so.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdref_so.h"

static const char *const so_names[10] = { "tau", "qdd", "d2tau_dq2", "d2tau_dv2", "d2tau_dqdv", "dM_dq",
                                          "d2qdd_dq2", "d2qdd_dv2", "d2qdd_dqdv", "d2qdd_dqdtau" };

int rbdref_so_result_init(rbdref_so_result *r, int nv)
{
    memset(r, 0, sizeof *r);
    if (nv < 1) return rbd_fail(RBD_EINVAL, "rbdref_so_result_init: nv = %d", nv);
    size_t n = (size_t)nv, n3 = n * n * n;
    char what[128];
    snprintf(what, sizeof what, "the second-order reference of nv = %d (8 nv^3 doubles)", nv);
    int rc = rbd_check_memory(what, 8.0 * (2.0 * nv + 8.0 * (double)n3));
    if (rc) return rc;
    double *p = calloc(2 * n + 8 * n3, sizeof *p);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory for %s", what);
    r->nv = nv;
    r->tau = p; r->qdd = p + n;
    double **t[8] = { &r->d2tau_dq2, &r->d2tau_dv2, &r->d2tau_dqdv, &r->dM_dq,
                      &r->d2qdd_dq2, &r->d2qdd_dv2, &r->d2qdd_dqdv, &r->d2qdd_dqdtau };
    for (int k = 0; k < 8; k++) *t[k] = p + 2 * n + (size_t)k * n3;
    return RBD_OK;
}

void rbdref_so_result_free(rbdref_so_result *r)
{
    if (r) free(r->tau);
    if (r) memset(r, 0, sizeof *r);
}

double *rbdref_so_result_get(const rbdref_so_result *r, const char *name, size_t *n)
{
    int k = 0;
    while (k < 10 && strcmp(name, so_names[k])) k++;
    if (k == 10) return NULL;
    int fd = k == 1 || k >= 6;
    if (fd ? !r->has_fd : !r->has_id) return NULL;
    double *all[10] = { r->tau, r->qdd, r->d2tau_dq2, r->d2tau_dv2, r->d2tau_dqdv, r->dM_dq,
                        r->d2qdd_dq2, r->d2qdd_dv2, r->d2qdd_dqdv, r->d2qdd_dqdtau };
    size_t nv = (size_t)r->nv;
    if (n) *n = k < 2 ? nv : nv * nv * nv;
    return all[k];
}
