/*
 * The model builder's state (model.c) and the checks of model_check.c:
 * what rbd_builder_finish validates before and after it renumbers the
 * bodies depth-first.
 */
#ifndef RBD_MODEL_BUILDER_H
#define RBD_MODEL_BUILDER_H

#include "rbdiff/rbd.h"

struct rbd_builder {
    int n, cap;
    int *parent;
    rbd_joint *joint;
    sp_xform *Xtree;
    rbd_body_inertia *in;
    char **jname, **bname;
    int bad;                /* user index of the body finish refused, -1 */
};

/* 1 if all n entries of x are finite */
int rbd_finite_all(const double *x, int n);
/* Every body's data in the user's numbering (joint axis, placement,
 * inertial data; the inertia rule or, strict, the old audit): sets b->bad
 * to the body refused; notices and warnings go to m. */
int rbd_builder_check_bodies(rbd_builder *b, const rbd_model_opts *o, rbd_model *m);
/* RBD_ESINGULAR when a joint moves no mass (its body and subtree massless). */
int rbd_model_check_moves_mass(const rbd_model *m);
/* RBD_ESINGULAR when a model with bodies loaded by 'nonphysical' has M(q)
 * not positive definite at the neutral or a random configuration. */
int rbd_model_check_mass_pd(const rbd_model *m);

#endif
