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

/* Exact promotions of model constants to the complex-step scalar type. */
static inline void spz_xform_promote(const sp_xform *X, spz_xform *Z)
{
    for (int k = 0; k < 9; k++) Z->E[k] = X->E[k];
    for (int k = 0; k < 3; k++) Z->r[k] = X->r[k];
}

static inline void spz_inertia_promote(const sp_inertia *In, spz_inertia *Z)
{
    Z->m = In->m;
    for (int k = 0; k < 3; k++) Z->h[k] = In->h[k];
    for (int k = 0; k < 9; k++) Z->Ib[k] = In->Ib[k];
}

#endif
