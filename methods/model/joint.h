/* Joint kinematics in double (sp_jcalc_joint, ...) and double complex (spz_...). */
#ifndef RBD_JOINT_H
#define RBD_JOINT_H

#include "rbdiff/rbd.h"

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "model/joint_tpl.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "model/joint_tpl.h"

#endif
