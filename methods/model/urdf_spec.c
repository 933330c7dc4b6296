/* The options of a urdf: model spec ("urdf:PATH,freeflyer,continuous=revolute,
 * strict,nonphysical"; README.md, "Model options"): read from the end of the
 * spec, and written back in one order so equal models have equal specs. */
#include <stdio.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "model/spec_internal.h"
#include "model/text.h"

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

int rbd_urdf_spec_options_check(const char *spec, const char *opts)
{
    rbd_text_list l;
    rbd_text_list_begin(&l, opts, ",", 0, 1, 4096);
    const char *seen[N_URDF_OPT], *item;
    size_t k;
    int n = 0, rc;
    if (!*opts) return rbd_fail(RBD_EPARSE, "model spec '%s': model options: a ',' with no option after it", spec);
    while ((rc = rbd_text_list_next(&l, &item, &k)) == 1) {
        int hit = -1;
        for (int j = 0; j < N_URDF_OPT && hit < 0; j++)
            if (strlen(urdf_opt[j]) == k && !strncmp(item, urdf_opt[j], k)) hit = j;
        if (hit < 0)
            return rbd_fail(RBD_EPARSE, "model spec '%s': unknown model option '%.*s' (valid: freeflyer, "
                            "continuous=revolute, strict, nonphysical)", spec, (int)k, item);
        if (rbd_text_list_repeat(&l, item, k, seen, n)) { rc = RBD_EPARSE; break; }
        seen[n++] = urdf_opt[hit];
    }
    return rc ? rbd_fail(RBD_EPARSE, "model spec '%s': model options: %s", spec, l.why) : RBD_OK;
}
