/* The MuJoCo peer's model (mujoco_model.c), for mujoco.c. */
#ifndef RBD_MUJOCO_MODEL_H
#define RBD_MUJOCO_MODEL_H

#include <mujoco/mujoco.h>
#include "mujoco_conv.h"
#include "peer_api.h"

typedef struct {
    mjModel *m;              /* the URDF as MuJoCo reads it */
    mjModel *actuated;       /* the same with a motor per dof, made for transitionFD */
    void *motors;            /* its actuator arrays (MuJoCo 2) */
    char *urdf;              /* the file's text, parsed again for the motors (MuJoCo 4) */
    mjc_map map;
} mjp_model;

/* mod->m and mod->map from the URDF, checked against rbdiff's joints
 * (count, nq, nv, types), refused when it holds anything but rigid-body
 * dynamics, with exact principal axes of inertia and its joint limits off.
 * 0, or -1 with the reason in err; free mod either way. */
int mjp_model_open(mjp_model *mod, const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv,
                   char *err, size_t errlen);
/* Frees mod and everything it holds (NULL: nothing). */
void mjp_model_free(mjp_model *mod);
/* mod->actuated: mod->m with a unit-gear motor on every dof, in dof order,
 * so that ctrl = qfrc in MuJoCo's coordinates.  0, or -1 with the reason
 * in err. */
int mjp_with_motors(mjp_model *mod, char *err, size_t errlen);

#endif
