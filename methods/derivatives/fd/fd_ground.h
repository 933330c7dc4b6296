/* Forward dynamics and M^-1 in ground coordinates from the ID derivatives'
 * forward pass (fd_ground.c has the equations). */
#ifndef RBD_FD_GROUND_H
#define RBD_FD_GROUND_H

#include "rbdiff/dynamics.h"
#include "derivatives/id/id_ground.h"

/* g holds rbd_idg_forward(q, qd, 0).  Writes qdd = FD(q, qd, tau) and
 * M^-1 (nv x nv, both triangles), and leaves g as rbd_idg_forward(q, qd,
 * qdd) would, ready for an ID backward pass.  d is scratch (IA, pA, u, c,
 * the ground columns).  RBD_ESINGULAR names the joint when M is singular. */
int rbd_fdg_solve(const rbd_model *m, rbd_data *d, rbd_idg *g, const double *tau, double *qdd, double *Minv);

#endif
