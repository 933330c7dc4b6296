/*
 * Spatial vector algebra in double (sp_*) and in double complex (spz_*, for
 * the complex-step methods).  One source, spatial_tpl.h, two scalar types.
 */
#ifndef RBD_SPATIAL_H
#define RBD_SPATIAL_H

#include <complex.h>

#define T double
#define SP(name) sp_##name
#define SPT(name) sp_##name
#include "spatial_tpl.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "spatial_tpl.h"

#endif
