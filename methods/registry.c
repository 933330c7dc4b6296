/* The method registry: every derivative method, in the order tables list them. */
#include <string.h>
#include "method.h"

/* Each method file exports one descriptor. */
extern const rbd_method rbd_method_id_fd, rbd_method_id_cs, rbd_method_rneacr, rbd_method_pin26,
    rbd_method_idsva_body, rbd_method_idsva, rbd_method_idsva_ref;
extern const rbd_method rbd_method_fd_fd, rbd_method_fd_cs, rbd_method_abacr, rbd_method_fdcr, rbd_method_pin26_fd,
    rbd_method_fdsva_dmm, rbd_method_fdsva_dmm_loop, rbd_method_fdsva_dmm_sparse, rbd_method_fdsva_aza, rbd_method_fdsva_factored, rbd_method_fdsva_1pass,
    rbd_method_fdsva;

const rbd_method *const rbd_methods[] = {
    &rbd_method_id_fd,
    &rbd_method_id_cs,
    &rbd_method_rneacr,
    &rbd_method_pin26,
    &rbd_method_idsva_body,
    &rbd_method_idsva,
    &rbd_method_idsva_ref,
    &rbd_method_fd_fd,
    &rbd_method_fd_cs,
    &rbd_method_abacr,
    &rbd_method_fdcr,
    &rbd_method_pin26_fd,
    &rbd_method_fdsva_dmm,
    &rbd_method_fdsva_dmm_loop,
    &rbd_method_fdsva_dmm_sparse,
    &rbd_method_fdsva_aza,
    &rbd_method_fdsva_factored,
    &rbd_method_fdsva_1pass,
    &rbd_method_fdsva,
    NULL
};

int rbd_method_count(void)
{
    int n = 0;
    while (rbd_methods[n]) n++;
    return n;
}

const rbd_method *rbd_method_find(const char *name)
{
    for (int k = 0; rbd_methods[k]; k++)
        if (!strcmp(rbd_methods[k]->name, name)) return rbd_methods[k];
    return NULL;
}

int rbd_method_supports(const rbd_method *meth, const rbd_model *m)
{
    for (int i = 0; i < m->nb; i++)
        if (!(meth->joints & (1u << m->joint[i].type)))
            return rbd_fail(RBD_ENOTSUP, "method '%s' does not support the %s joint '%s'", meth->name,
                            rbd_joint_type_name(m->joint[i].type), m->joint_name[i]);
    return RBD_OK;
}

const char *rbd_minv_name(rbd_minv_kind k)
{
    static const char *name[RBD_MINV_NKINDS] = { "analytic", "ltdl", "lapack" };
    return k >= 0 && k < RBD_MINV_NKINDS ? name[k] : "unknown";
}

void rbd_options_default(rbd_options *o)
{
    memset(o, 0, sizeof *o);
    o->minv = RBD_MINV_ANALYTIC;
    o->cs_step = 1e-20;
}
