/*
 * What `rbdiff models` prints: the robot files shipped under tests/models of
 * the data root (datadir.h) as specs, and the anatomy of one model (bodies,
 * nq, nv, depth, total mass, every joint in the user's order with its type,
 * parent and q/v offsets, the bodies loaded as non-physical, the warnings).
 */
#ifndef RBD_MODEL_INFO_H
#define RBD_MODEL_INFO_H

#include <stdio.h>
#include "rbdiff/rbd.h"

/* "urdf:DIR/NAME.urdf" a line, sorted by name; nothing when the folder is
 * not there. */
void model_list_robots(FILE *f);
/* The anatomy of m, built from spec. */
void model_describe(FILE *f, const char *spec, const rbd_model *m);

#endif
