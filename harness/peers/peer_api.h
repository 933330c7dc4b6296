/*
 * The narrow C interface between the harness and a peer library (Pinocchio,
 * MuJoCo) that is timed beside rbdiff's methods, in the same rounds.
 *
 * A peer is a shared module, rbdpeer-<name>.so, built apart from rbdiff
 * (harness/peers/CMakeLists.txt, scripts/peers) with the compiler and flags
 * that suit the library, and opened with dlopen: rbdiff never links against
 * a peer, so a missing or broken peer is a message, never a failed build.
 * The module exports one C function, rbd_peer_entry(), returning its table.
 *
 * Every vector and matrix that crosses this interface is in rbdiff's user
 * numbering and conventions (README, "Conventions"): joints in the order of
 * the rbd_peer_joint list; free-flyer q = [x y z qx qy qz qw], v = [linear;
 * angular] velocity of the root in its own frame, tau = [force; moment] in
 * that frame; q-derivatives in the tangent space, q (+) d = q * exp(d);
 * nv x nv matrices column-major, (i, j) at [i + nv*j].  A peer converts its
 * inputs to its own conventions once, in bind(), and its outputs back only
 * in result(), so the timed call() does exactly what the library's user
 * would do.
 */
#ifndef RBD_PEER_API_H
#define RBD_PEER_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 2 added default_step and set_step; rbdiff still opens modules of 1 (the
 * members after unbind are read only from a module of 2 or later).
 * 3 added RBD_PEER_ID_SO_DERIVS, whose result() fills mat0 with four
 * tensors (an older rbdiff would index past its tables with it). */
#define RBD_PEER_ABI 3

/* What a peer function computes, and so what result() returns. */
typedef enum {
    RBD_PEER_ID_DERIVS = 1,  /* tau; dtau_dq, dtau_dv at (q, v, a)                  */
    RBD_PEER_FD_DERIVS = 2,  /* qdd; dqdd_dq, dqdd_dv, dqdd_dtau at (q, v, tau)      */
    RBD_PEER_TAU = 3,        /* tau at (q, v, a)                                    */
    RBD_PEER_QDD = 4,        /* qdd at (q, v, tau)                                  */
    RBD_PEER_M = 5,          /* M(q) as mat[0]                                      */
    RBD_PEER_MINV = 6,       /* M(q)^-1 as mat[0]                                   */
    /* The derivatives alone, as generated code gives them (pinocchio-cg's
     * CodeGenRNEADerivatives and CodeGenABADerivatives have no tau or qdd
     * among their outputs): vec unused. */
    RBD_PEER_ID_PARTIALS = 7, /* dtau_dq, dtau_dv at (q, v, a)                      */
    RBD_PEER_FD_PARTIALS = 8, /* dqdd_dq, dqdd_dv, dqdd_dtau at (q, v, tau)         */
    RBD_PEER_ID_SO_DERIVS = 9 /* d2tau_dq2, d2tau_dv2, d2tau_dqdv, dM_dq at (q, v, a)
                                 in mat[0] (4 nv^3); timed only beside a second-order
                                 method of ours (bench_add_peer_targets)           */
} rbd_peer_out;

typedef struct {
    const char *name;        /* the library's own name: "computeABADerivatives"    */
    rbd_peer_out out;
    const char *ours;        /* the rbdiff method or base algorithm it is set against */
    const char *writes;      /* what one call computes and writes, in a few words   */
    double tol;              /* the check's relative tolerance: 1e-9, or larger for
                                finite differences (the peer says why in writes)   */
    /* Outputs that solve with M (qdd, M^-1, FD derivatives) lose digits as
     * M's condition number kappa grows: the check allows max(tol, tol_cond *
     * kappa), kappa the 1-norm estimate at the checked state (0: tol alone). */
    double tol_cond;
} rbd_peer_func;

/* One joint of rbdiff's model, in the user order; a peer finds its own joint
 * of the same name and refuses the model when the type or size differs.  The
 * inertial data of the body the joint moves come along, as the URDF export
 * writes them, so a peer can compare its loaded model with rbdiff's. */
typedef struct {
    const char *name;
    int type;                /* rbd_joint_type: 0 revolute, 1 prismatic, 2 spherical, 3 free-flyer, 4 continuous */
    int nq, nv;
    int idx_q, idx_v;        /* offsets into the user q and v                       */
    double mass, com[3];     /* the body's mass and centre of mass (body frame)     */
    double Ic[9];            /* its rotational inertia about the CoM, row-major     */
} rbd_peer_joint;

typedef struct {
    int abi;                 /* RBD_PEER_ABI                                        */
    const char *name;        /* "pinocchio", "mujoco": rows are "<name>.<func>"     */
    const char *version;     /* the library's version                               */
    const char *build;       /* compiler and flags this module was built with       */
    int nfunc;
    const rbd_peer_func *func;
    /* Loads a URDF file that rbdiff wrote from its model (a free-flyer root
     * is a "floating" joint from the link "world"; gravity (0, 0, -9.81)) and
     * matches its joints to joint[0..njoint) by name.  NULL on failure, with
     * the reason (file, joint, field) in err. */
    void *(*load)(const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv, char *err,
                  size_t errlen);
    void (*unload)(void *model);
    /* A context for timing func on a pool of states (rbdiff conventions:
     * q + k*nq, v + k*nv, a + k*nv, tau + k*nv for state k), converted here
     * once; NULL on failure with the reason in err. */
    void *(*bind)(void *model, int func, int pool, const double *q, const double *v, const double *a,
                  const double *tau, char *err, size_t errlen);
    /* The timed call: evaluates at state k.  0, or non-zero on failure. */
    int (*call)(void *ctx, int k);
    /* The outputs of the last call in rbdiff's conventions, for the check
     * (never timed): vec (nv) = tau or qdd (unused for M, Minv); mat[0..2]
     * (nv x nv each) = dtau_dq, dtau_dv | dqdd_dq, dqdd_dv, dqdd_dtau | M |
     * Minv, complete (a symmetric output of which the library writes one
     * triangle is mirrored here).  For RBD_PEER_ID_SO_DERIVS vec, mat1 and
     * mat2 are unused and mat0 (4 nv^3) gets the four tensors one after the
     * other, each in rbdiff's layout (method.h: (i, j, k) at
     * [i + nv*j + nv*nv*k] = d2 tau_i / dx_j dz_k, the user numbering in
     * all three indices).  0, or non-zero with the reason in err. */
    int (*result)(void *ctx, double *vec, double *mat0, double *mat1, double *mat2, char *err, size_t errlen);
    void (*unbind)(void *ctx);
    /* Interface 2.  A function that takes finite differences: the step it
     * takes by default (what the library's documentation and samples use), 0
     * for one that takes none; NULL: no function takes one. */
    double (*default_step)(int func);
    /* The step of ctx's later calls: 0, or non-zero when its function takes
     * none or step is not positive.  The accuracy audit sweeps it. */
    int (*set_step)(void *ctx, double step);
} rbd_peer_api;

/* The one symbol a peer module exports. */
const rbd_peer_api *rbd_peer_entry(void);

#ifdef __cplusplus
}
#endif

#endif
