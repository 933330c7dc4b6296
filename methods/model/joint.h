/* Joint kinematics in double (sp_jcalc_joint, ...) and double complex (spz_...). */
#ifndef RBD_JOINT_H
#define RBD_JOINT_H

#include "rbdiff/rbd.h"

/* a when column l of the joint's S is the unit vector e_a of the spatial
 * basis [ang; lin] (model.c's S: a revolute or prismatic joint about a
 * coordinate axis, every column of a spherical or free-flyer joint), else
 * -1.  Then I S is column a of I and S^T f is f_a: picks where the general
 * products take 6 multiplications per entry, and exact (the other terms are
 * products with 0).  Pinocchio's ConstraintIdentity does the same. */
static inline int rbd_joint_unit_row(const rbd_joint *jt, int l)
{
    switch (jt->type) {
    case RBD_JOINT_REVOLUTE:
    case RBD_JOINT_CONTINUOUS: return jt->axis_id;
    case RBD_JOINT_PRISMATIC: return jt->axis_id >= 0 ? 3 + jt->axis_id : -1;
    case RBD_JOINT_SPHERICAL: return l;
    case RBD_JOINT_FREEFLYER: return l < 3 ? 3 + l : l - 3;   /* v = [lin; ang] */
    default: return -1;
    }
}

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "model/joint_tpl.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "model/joint_tpl.h"

#endif
