/* URDF loading: arrives with the multi-DOF/URDF work (issue 7). */
#include "rbd.h"

int rbd_urdf_load(const char *path, int freeflyer, const rbd_model_opts *o, rbd_model **out)
{
    (void)freeflyer; (void)o;
    if (out) *out = NULL;
    return rbd_fail(RBD_ENOTSUP, "%s: URDF loading is not available in this build", path);
}
