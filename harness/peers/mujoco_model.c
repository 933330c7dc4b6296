/* The MuJoCo peer's model (mujoco_model.h): the URDF as MuJoCo reads it,
 * checked to hold rigid-body dynamics alone and rbdiff's joints, and its
 * copy with a motor on every dof for mjd_transitionFD. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>
#include <mujoco/mjxmacro.h>
#include "mujoco_model.h"

/* urdfdom demands <limit> on revolute joints, so rbdiff writes +-1e30: they
 * bound nothing, but MuJoCo would test each one at every step. */
static void unlimit(mjModel *m)
{
    for (int j = 0; j < m->njnt; j++) m->jnt_limited[j] = 0;
}

/* Only rigid-body dynamics may enter: no contacts, actuators or passive forces. */
static const char *not_rigid(const mjModel *m)
{
    if (m->ngeom) return "geoms (contacts)";
    if (m->nu) return "actuators";
    for (int j = 0; j < m->njnt; j++)
        if (m->jnt_stiffness[j]) return "joint stiffness";
    for (int i = 0; i < m->nv; i++)
        if (m->dof_armature[i] || m->dof_damping[i] || m->dof_frictionloss[i]) return "armature, damping or friction";
    return NULL;
}

static int joint_size(int type, int *nv)
{
    *nv = type == mjJNT_FREE ? 6 : type == mjJNT_BALL ? 3 : 1;
    return type == mjJNT_FREE ? 7 : type == mjJNT_BALL ? 4 : 1;
}

/* rbdiff's joints -> MuJoCo's of the same name, type and size. */
static int match_joints(const mjModel *m, int njoint, const rbd_peer_joint *joint, mjc_map *map, char *err,
                        size_t errlen)
{
    static const int mj_type[4] = { mjJNT_HINGE, mjJNT_SLIDE, mjJNT_BALL, mjJNT_FREE };   /* by rbd_joint_type */
    static const char *const mj_type_name[4] = { "free", "ball", "slide", "hinge" };     /* by mjtJoint */
    for (int k = 0; k < njoint; k++) {
        const rbd_peer_joint *u = &joint[k];
        int id = mj_name2id(m, mjOBJ_JOINT, u->name), nv;
        if (id < 0) return mjc_fail(err, errlen, "MuJoCo's model has no joint '%s'", u->name);
        int type = m->jnt_type[id], nq = joint_size(type, &nv);
        if (u->type < 0 || u->type > 3 || mj_type[u->type] != type || u->nq != nq || u->nv != nv)
            return mjc_fail(err, errlen, "joint '%s': rbdiff type %d (nq %d, nv %d), MuJoCo's %s (nq %d, nv %d)",
                            u->name, u->type, u->nq, u->nv, mj_type_name[type], nq, nv);
        if (type == mjJNT_BALL)
            return mjc_fail(err, errlen, "joint '%s': spherical joints are not converted", u->name);
        mjc_joint *j = &map->joint[k];
        *j = (mjc_joint){ type == mjJNT_FREE, u->idx_q, u->idx_v, m->jnt_qposadr[id], m->jnt_dofadr[id] };
        for (int i = 0; i < nv; i++) map->dof[u->idx_v + i] = j->mv + i;
        if (!j->free) continue;
        const mjtNum *pos = m->body_pos + 3 * m->jnt_bodyid[id], *quat = m->body_quat + 4 * m->jnt_bodyid[id];
        if (map->free || pos[0] || pos[1] || pos[2] || quat[0] != 1 || quat[1] || quat[2] || quat[3])
            return mjc_fail(err, errlen, "joint '%s': a second free joint, or one with an origin, which MuJoCo "
                            "ignores", u->name);
        map->free = j;
    }
    return 0;
}

/* The whole file, NUL-terminated (malloc'ed), or NULL: the harness's URDF
 * is a temporary file, gone by the time transitionFD asks for motors. */
static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *t = NULL;
    long n = -1;
    if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) && (t = malloc((size_t)n + 1))) {
        if (fread(t, 1, (size_t)n, f) == (size_t)n) t[n] = 0;
        else {
            free(t);
            t = NULL;
        }
    }
    if (f) fclose(f);
    return t;
}

void mjp_model_free(mjp_model *mod)
{
    if (!mod) return;
    if (mod->m) mj_deleteModel(mod->m);
    if (mod->actuated) mj_deleteModel(mod->actuated);
    free(mod->motors);
    free(mod->urdf);
    free(mod->map.joint);
    free(mod->map.dof);
    free(mod);
}

int mjp_model_open(mjp_model *mod, const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv,
                   char *err, size_t errlen)
{
    char mjerr[1000] = "";
    mjModel *m = mod->m = mj_loadXML(urdf, NULL, mjerr, sizeof mjerr);
    mj_freeLastXML();
    if (!m) return mjc_fail(err, errlen, "MuJoCo %s cannot load %s: %s", mj_versionString(), urdf, mjerr);
    if (!(mod->urdf = read_text(urdf))) return mjc_fail(err, errlen, "cannot read %s again", urdf);
    if (m->njnt != njoint || m->nq != nq || m->nv != nv)
        return mjc_fail(err, errlen, "%s: MuJoCo reads %d joints (nq %d, nv %d), rbdiff has %d (nq %d, nv %d)",
                        urdf, m->njnt, m->nq, m->nv, njoint, nq, nv);
    const char *why = not_rigid(m);
    if (why) return mjc_fail(err, errlen, "%s: MuJoCo's model has %s", urdf, why);
    if (mjc_exact_inertia(m, njoint, joint, err, errlen)) return -1;
    mod->map = (mjc_map){ nq, nv, njoint, calloc((size_t)njoint + 1, sizeof(mjc_joint)),
                          calloc((size_t)nv + 1, sizeof(int)), NULL };
    if (!mod->map.joint || !mod->map.dof) return mjc_fail(err, errlen, "out of memory");
    if (match_joints(m, njoint, joint, &mod->map, err, errlen)) return -1;
    unlimit(m);
    return 0;
}


/* mjd_transitionFD's B is by ctrl, and URDF has no actuators, so the
 * model gets a unit-gear motor on every dof, in dof order (six on a free
 * joint, gear e_k): then ctrl = qfrc in MuJoCo's coordinates.  MJCF would
 * say it plainly, but tinyxml2 refuses more than 100 nested elements, i.e.
 * a chain of ~100 bodies. */
#if mjVERSION_HEADER >= 1000000
/* MuJoCo 4's compiler derives more of the actuator arrays than a copy could
 * set by hand (sparse moments, force ranges; a hand-made copy's qacc was off
 * by 1.9 relative on a chain of 6), so the motors go into the URDF's mjSpec
 * and the compiler makes the model. */
int mjp_with_motors(mjp_model *mod, char *err, size_t errlen)
{
    const mjModel *m = mod->m;
    char mjerr[1000] = "";
    mjSpec *s = mj_parseXMLString(mod->urdf, NULL, mjerr, sizeof mjerr);
    if (!s) return mjc_fail(err, errlen, "MuJoCo %s cannot parse the URDF again: %s", mj_versionString(), mjerr);
    for (int i = 0; i < m->nv; i++) {
        int j = m->dof_jntid[i];
        mjsActuator *a = mjs_addActuator(s, NULL);
        if (!a) break;
        mjs_setString(a->target, mj_id2name(m, mjOBJ_JOINT, j));
        a->trntype = mjTRN_JOINT;
        memset(a->gear, 0, sizeof a->gear);
        a->gear[i - m->jnt_dofadr[j]] = 1;
        a->dyntype = mjDYN_NONE;
        a->gaintype = mjGAIN_FIXED;
        a->gainprm[0] = 1;
        a->biastype = mjBIAS_NONE;
        a->ctrllimited = a->forcelimited = a->actlimited = mjLIMITED_FALSE;
    }
    mjModel *act = mod->actuated = mj_compile(s, NULL);
    if (!act) mjc_fail(err, errlen, "MuJoCo %s: the URDF with a motor per dof: %s", mj_versionString(), mjs_getError(s));
    mj_deleteSpec(s);
    if (!act) return -1;
    if (act->nu != m->nv || act->nv != m->nv)
        return mjc_fail(err, errlen, "the URDF with a motor per dof: nu %d, nv %d, want %d", act->nu, act->nv, m->nv);
    unlimit(act);
    return 0;
}
#else
/* MuJoCo 2: a copy whose nu-sized arrays (mjxmacro.h) are laid end to end
 * in a block of ours, which the copy points into.  Returns the block's size. */
#undef MJ_M
#define MJ_M(n) a->n
static size_t motor_arrays(mjModel *a, char *block)
{
    size_t size = 0;
#define X(type, name, nr, nc)                                  \
    if (!strcmp(#nr, "nu")) {                                  \
        if (block) a->name = (type *)(block + size);           \
        size += (sizeof(type) * a->nu * (nc) + 7) / 8 * 8;     \
    }
    MJMODEL_POINTERS
#undef X
    return size;
}

int mjp_with_motors(mjp_model *mod, char *err, size_t errlen)
{
    const mjModel *m = mod->m;
    mjModel *a = mod->actuated = mj_copyModel(NULL, m);
    if (!a) return mjc_fail(err, errlen, "out of memory");
    a->nu = m->nv;
    if (!(mod->motors = calloc(motor_arrays(a, NULL), 1))) return mjc_fail(err, errlen, "out of memory");
    motor_arrays(a, mod->motors);
    for (int i = 0; i < m->nv; i++) {  /* dyntype, gaintype, biastype 0: none, fixed, none */
        int j = m->dof_jntid[i];
        a->actuator_trntype[i] = mjTRN_JOINT;
        a->actuator_trnid[2 * i] = j;
        a->actuator_trnid[2 * i + 1] = -1;
        a->actuator_gear[6 * i + i - m->jnt_dofadr[j]] = 1;
        a->actuator_gainprm[mjNGAIN * i] = 1;
    }
    return 0;
}
#endif
