/* libFuzzer target: the model-spec parser; autoTree specs with a small N are
 * built as well (bf/skew/taper validation, the builder). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/spec_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *s = malloc(size + 1);
    if (!s) return 0;
    memcpy(s, data, size);
    s[size] = 0;
    double N, bf, skew, taper;
    if (!strncmp(s, "autotree:", 9)) {
        if (!rbd_spec_parse_autotree(s, &N, &bf, &skew, &taper) && N <= 64) {
            rbd_model *m = NULL;
            if (!rbd_model_from_spec(s, NULL, &m)) {
                if (m->nb != (int)N || m->nv != (int)N) __builtin_trap();
                rbd_model_free(m);
            }
        }
    } else if (!strncmp(s, "urdf:", 5)) {
        /* the model options split off the path, never past it (no file is opened) */
        int ff = 0;
        rbd_model_opts o;
        rbd_model_opts_default(&o);
        size_t len = rbd_urdf_spec_split(s + 5, &ff, &o);
        if (len > strlen(s + 5)) __builtin_trap();
        int any = ff || o.strict || o.nonphysical || o.continuous_revolute;
        if (any != (len < strlen(s + 5))) __builtin_trap();
    } else {
        /* not a file: every other spec is an error, never a model */
        rbd_model *m = NULL;
        if (!rbd_model_from_spec(s, NULL, &m)) __builtin_trap();
    }
    free(s);
    return 0;
}
