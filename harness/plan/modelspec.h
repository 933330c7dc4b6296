/*
 * Model specs as the harness takes them: the library's spec strings
 * (README.md, "Conventions") plus two conveniences.
 *
 *  - A relative URDF path (urdf:tests/models/ur5.urdf) is looked up in the
 *    working directory first, then in the source tree (RBD_SOURCE_DIR), so a
 *    config under version control names robots portably and the spec that
 *    goes into timings.csv / accuracy.csv does not depend on the checkout.
 *  - Robot short names (the `robots` key): NAME[:OPTION[:OPTION]...] stands
 *    for urdf:tests/models/NAME.urdf[,OPTION]... (the model options:
 *    freeflyer, nonphysical, strict, continuous=revolute); a token holding
 *    '/' or ending in .urdf is a path (PATH:nonphysical likewise), a token
 *    starting with urdf: or autotree: a spec.  In a spec, urdf:NAME with no
 *    such file is the robot NAME as --robots reads it (urdf:panda,freeflyer).
 */
#ifndef RBD_MODELSPEC_H
#define RBD_MODELSPEC_H

#include <jansson.h>

#include <stddef.h>
#include "rbdiff/rbd.h"

/* rbd_model_from_spec after resolving a relative URDF path as above. */
int model_from_spec(const char *spec, rbd_model **m);
/* The spec a robots token stands for, into buf; RBD_EPARSE on a bad token. */
int robot_spec(const char *token, char *buf, size_t len);
/* bf of an autotree spec (default 1), NAN for other models. */
double spec_bf(const char *spec);
/* Short label: "ur5", "hyq+ff" (free-flyer), "N=10,bf=2" for autoTree. */
void spec_label(const char *spec, char *buf, size_t len);

/* The notices (rbd_model.notice: an inertia clamped, a body loaded as
 * nonphysical) of every model model_from_spec has loaded, once per spec, as
 * meta.json's "model_notices": [{"spec", "nonphysical", "notices"}]; NULL
 * when none had any. */
json_t *model_notices(void);

#endif
