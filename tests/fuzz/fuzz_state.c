/* libFuzzer target: the state-file reader (and the output-block reader) on
 * a model with nq != nv (a free-flyer root and two revolute joints). */
#define _GNU_SOURCE             /* fmemopen */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rbdiff/rbd_io.h"
#include "model/urdf_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char robot[] =
    "<robot name='f'>"
    "<link name='a'><inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
    "<link name='b'><inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
    "<link name='c'><inertial><mass value='1'/><inertia ixx='1' ixy='0' ixz='0' iyy='1' iyz='0' izz='1'/></inertial></link>"
    "<joint name='j1' type='revolute'><parent link='a'/><child link='b'/><axis xyz='0 0 1'/></joint>"
    "<joint name='j2' type='revolute'><parent link='b'/><child link='c'/><axis xyz='0 1 0'/></joint>"
    "</robot>";

static rbd_model *model(void)
{
    static rbd_model *m;
    if (!m && urdf_load_buffer(robot, sizeof robot - 1, "f.urdf", 1, NULL, &m)) __builtin_trap();
    return m;     /* kept for the process (one model for every input) */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > (1u << 16)) return 0;
    const rbd_model *m = model();
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    rbd_state_file s;
    if (!rbd_state_file_read_stream(f, "fuzz.state", m, &s)) {
        if (!s.q) __builtin_trap();         /* success means q is there */
        rbd_state_file_free(&s);
    } else if (s.q || s.v || s.a || s.tau) {
        __builtin_trap();                   /* failure leaves nothing allocated */
    }
    fclose(f);
    /* the same bytes as output blocks */
    f = fmemopen((void *)data, size, "r");
    if (!f) return 0;
    rbd_block *b;
    int nb;
    if (!rbd_blocks_read_stream(f, "fuzz.out", &b, &nb)) rbd_blocks_free(b, nb);
    fclose(f);
    return 0;
}
