/*
 * rbdiff's model and conventions <-> MuJoCo's, for the MuJoCo peer (mujoco.c).
 *
 * Revolute and prismatic joints differ only in numbering: user dof u is
 * MuJoCo dof dof[u].  The free joint (the root; at most one) differs in
 * layout and frames:
 *
 *            rbdiff                         MuJoCo
 *   q        [p; x y z w]                   [p; w x y z]
 *   v        [v_b; w], both body frame      [R v_b; w]: linear in the world
 *   a        d/dt [v_b; w]                  d/dt qvel = [R (a_b + w x v_b); dw]
 *   tau      [f_b; n]                       [R f_b; n]
 *   tangent  q * exp(d), d = [dp_b; dth]    mj_integratePos: [R dp_b; dth]
 *
 * R = rotation body -> world.  With P = blockdiag(R, I) on the free dofs and
 * c(v) = [w x v_b; 0]: qvel = P v, qacc = P (a + c(v)), qfrc = P tau,
 * M = P^T M_mj P, and the first-order terms that R's dependence on q and
 * c's on v add to the derivatives are in mujoco_conv.c.
 */
#ifndef RBD_MUJOCO_CONV_H
#define RBD_MUJOCO_CONV_H

#include <stddef.h>
#include <mujoco/mujoco.h>
#include "peer_api.h"

/* Checks the mass, CoM and inertia of the body each of rbdiff's joints moves
 * against rbdiff's (peer_api.h) and puts exact principal axes of inertia in
 * their place.  MuJoCo keeps an inertia as principal axes (body_iquat,
 * body_inertia) that its compiler finds by a Jacobi iteration (as mju_eig3)
 * which stops once a rotation's cosine exceeds 1 - 1e-12: the axes are off
 * by up to ~1e-6 rad, which moves M by ~1e-8 relative on links with products
 * of inertia (panda, hyq).  0, or -1 with the reason in err. */
int mjc_exact_inertia(mjModel *m, int njoint, const rbd_peer_joint *joint, char *err, size_t errlen);

/* err = the formatted reason; returns -1. */
int mjc_fail(char *err, size_t errlen, const char *fmt, ...);

/* One joint: its offsets in the user q, v and in MuJoCo's qpos, qvel. */
typedef struct {
    int free;                /* free joint (7 q, 6 v); otherwise one scalar */
    int uq, uv, mq, mv;
} mjc_joint;

typedef struct {
    int nq, nv, njoint;
    mjc_joint *joint;        /* in the user order */
    int *dof;                /* user dof u is MuJoCo dof dof[u] */
    const mjc_joint *free;   /* the free joint, or NULL */
} mjc_map;

/* A MuJoCo state and the acceleration and force at it (MuJoCo's
 * coordinates): where the outputs being converted were evaluated. */
typedef struct {
    const mjtNum *qpos, *qvel, *qacc, *qfrc;
} mjc_point;

/* User state -> MuJoCo's; v, a or tau may be NULL (qvel, qacc, qfrc untouched). */
void mjc_state_in(const mjc_map *map, const double *q, const double *v, const double *a, const double *tau,
                  mjtNum *qpos, mjtNum *qvel, mjtNum *qacc, mjtNum *qfrc);

/* tau = P^T qfrc;  qdd = P^T qacc - c(v);  M = P^T M_mj P (M_mj dense). */
void mjc_tau_out(const mjc_map *map, const mjc_point *pt, double *tau);
void mjc_qdd_out(const mjc_map *map, const mjc_point *pt, double *qdd);
void mjc_M_out(const mjc_map *map, const mjc_point *pt, const mjtNum *M_mj, double *M);

/* Derivative matrices, nv x nv column-major in MuJoCo's numbering (column j
 * is the derivative along dof j) -> the user's.  ID: Tq, Tv of qfrc_inverse;
 * work is nv x nv.  FD: Qq, Qv, Qt of qacc by qpos, qvel, qfrc. */
void mjc_id_out(const mjc_map *map, const mjc_point *pt, const mjtNum *Tq, const mjtNum *Tv, const mjtNum *M_mj,
                double *dtau_dq, double *dtau_dv, mjtNum *work);
void mjc_fd_out(const mjc_map *map, const mjc_point *pt, const mjtNum *Qq, const mjtNum *Qv, const mjtNum *Qt,
                double *dqdd_dq, double *dqdd_dv, double *dqdd_dtau);

/* mjd_transitionFD's A (2nv x 2nv) and B (2nv x nu, a motor per dof),
 * row-major, of one Euler step v' = v + h qacc(q, v, ctrl) -> Qq, Qv, Qt of
 * qacc (nv x nv column-major, MuJoCo's numbering): the velocity rows / h. */
void mjc_fd_from_transition(const mjModel *m, const mjtNum *A, const mjtNum *B, mjtNum *Qq, mjtNum *Qv, mjtNum *Qt);

#endif
