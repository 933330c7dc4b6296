/* libFuzzer target: the sweep-config reader (key = value lines, lists and
 * ranges, method names, model specs). */
#define _GNU_SOURCE             /* fmemopen */
#include <stdint.h>
#include <stdio.h>
#include "plan/sweepconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > (1u << 16)) return 0;
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    sweep_config c;
    sweep_config_init(&c);
    if (!sweep_config_read_stream(&c, f, "fuzz.conf")) {
        for (int k = 0; k < c.nN; k++)
            if (c.N[k] < 1) __builtin_trap();      /* N >= 1 is promised */
        for (int k = 0; k < c.nbf; k++)
            if (!(c.bf[k] >= 1)) __builtin_trap();
    }
    sweep_config_free(&c);
    fclose(f);
    return 0;
}
