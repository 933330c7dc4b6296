/* libFuzzer target: the URDF loader from memory (XML tables, tree resolution,
 * fixed-joint merging, model validation), with and without a free-flyer. */
#include <stddef.h>
#include <stdint.h>
#include "model/urdf_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > (1u << 20)) return 0;        /* parsing cost, not a finding */
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    /* the first byte picks free-flyer / strict so both paths are explored */
    int ff = size > 0 && (data[0] & 1), strict = size > 0 && (data[0] & 2);
    o.strict = strict;
    rbd_model *m = NULL;
    int rc = urdf_load_buffer((const char *)data, size, "fuzz.urdf", ff, &o, &m);
    if (!rc) {
        /* a model that loads is a valid tree: parents first, sizes consistent */
        int nv = 0;
        for (int i = 0; i < m->nb; i++) {
            if (m->parent[i] >= i) __builtin_trap();
            nv += m->nv_of[i];
        }
        if (nv != m->nv) __builtin_trap();
        rbd_model_free(m);
    } else if (m) {
        __builtin_trap();                   /* failure must not hand out a model */
    }
    return 0;
}
