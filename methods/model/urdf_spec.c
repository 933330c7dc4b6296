/* The options of a urdf: model spec ("urdf:PATH,freeflyer,continuous=revolute,
 * strict,nonphysical"; README.md, "Model options"): read from the end of the
 * spec, and written back in one order so equal models have equal specs. */
#include <stdio.h>
#include <string.h>
#include "rbdiff/rbd.h"

static const char *const urdf_opt[] = { "freeflyer", "continuous=revolute", "strict", "nonphysical" };
#define N_URDF_OPT 4

static int *urdf_opt_field(int k, int *freeflyer, rbd_model_opts *o)
{
    switch (k) {
    case 0: return freeflyer;
    case 1: return &o->continuous_revolute;
    case 2: return &o->strict;
    default: return &o->nonphysical;
    }
}

size_t rbd_urdf_spec_split(const char *p, int *freeflyer, rbd_model_opts *o)
{
    int ff_dummy;
    rbd_model_opts o_dummy;
    if (!freeflyer) freeflyer = &ff_dummy;
    if (!o) o = &o_dummy;
    if (!p) return 0;      /* nothing to split */
    size_t len = strlen(p);
    for (;;) {
        int hit = -1;
        for (int k = 0; k < N_URDF_OPT && hit < 0; k++) {
            size_t n = strlen(urdf_opt[k]);
            if (len > n + 1 && p[len - n - 1] == ',' && !strncmp(p + len - n, urdf_opt[k], n)) hit = k;
        }
        if (hit < 0) return len;
        *urdf_opt_field(hit, freeflyer, o) = 1;
        len -= strlen(urdf_opt[hit]) + 1;
    }
}

void rbd_urdf_spec_suffix(int freeflyer, const rbd_model_opts *o, char *buf, size_t len)
{
    size_t used = 0;
    rbd_model_opts oc = *o;
    if (len) buf[0] = 0;
    for (int k = 0; k < N_URDF_OPT; k++)
        if (*urdf_opt_field(k, &freeflyer, &oc) && used < len)
            used += (size_t)snprintf(buf + used, len - used, ",%s", urdf_opt[k]);
}
