/*
 * Featherstone's spatial algebra over the expression graph (graph.h): the
 * operations of spatial_tpl.h and idsva_ref.c with eg_id for double, so
 * that the traced algorithms read like their double versions.  Conventions
 * as spatial_tpl.h: motion [w; v], force [n; f], X = (E, r), dense 6x6
 * row-major.
 */
#ifndef RBD_EMIT_SPATIAL_EG_H
#define RBD_EMIT_SPATIAL_EG_H

#include "emit/graph.h"
#include "rbdiff/rbd.h"

typedef struct { eg_id E[9], r[3]; } eg_xform;

void eg_xform_const(eg_graph *g, const sp_xform *X, eg_xform *out);
/* X_J(q) of body i's joint, q read as the graph's inputs (every joint type) */
void eg_jcalc(eg_graph *g, const rbd_model *m, int i, eg_xform *XJ);
void eg_xform_compose(eg_graph *g, const eg_xform *X_BC, const eg_xform *X_AB, eg_xform *X_AC);
void eg_xform_inverse(eg_graph *g, const eg_xform *X, eg_xform *Xi);
void eg_xform_to_mat6(eg_graph *g, const eg_xform *X, eg_id M[36]);
/* X^T I X for the body inertia I and X from frame A to the body: I in A, symmetric (node (r,c) = node (c,r)) */
void eg_inertia_to(eg_graph *g, const eg_xform *X, const sp_inertia *In, eg_id M[36]);

void eg_crm(eg_graph *g, const eg_id m1[6], const eg_id m2[6], eg_id out[6]);   /* m1 x m2, eq. (6) */
void eg_crf(eg_graph *g, const eg_id m[6], const eg_id f[6], eg_id out[6]);     /* m x* f, eq. (7) */
void eg_crbar(eg_graph *g, const eg_id f[6], const eg_id m[6], eg_id out[6]);   /* (f xbar*) m, eq. (43) */

void eg_mv(eg_graph *g, const eg_id A[36], const eg_id x[6], eg_id y[6]);       /* y = A x */
void eg_mtv(eg_graph *g, const eg_id A[36], const eg_id x[6], eg_id y[6]);      /* y = A^T x */
void eg_mm(eg_graph *g, const eg_id A[36], const eg_id B[36], eg_id C[36]);     /* C = A B */
eg_id eg_dot(eg_graph *g, const eg_id *x, const eg_id *y, int n);
/* the 6x6 matrix of m -> op(x, m), column by column */
void eg_op_mat(eg_graph *g, void (*op)(eg_graph *, const eg_id *, const eg_id *, eg_id *), const eg_id x[6],
               eg_id M[36]);

#endif
