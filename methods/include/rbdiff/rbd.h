/*
 * librbdiff: rigid-body dynamics and its first-order derivatives.
 *
 * Conventions (docs/conventions.md has the long form):
 *  - spatial vectors angular part first; Plucker transforms as in spatial.h;
 *  - bodies 0..nb-1 in depth-first order, parent[i] < i, -1 = fixed base;
 *  - dense nv x nv results are column-major: (i, j) at [i + nv*j];
 *  - gravity by the base-acceleration trick, a0 = -a_g;
 *  - derivatives with respect to q are tangent-space (q (+) d = q * exp(d)).
 *
 * Nothing in the library prints or exits: functions return 0 or a negative
 * RBD_E* code, and rbd_last_error() tells what went wrong in words.
 */
#ifndef RBD_H
#define RBD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "spatial.h"

/* ---------------------------------------------------------------- errors */

enum {
    RBD_OK = 0,
    RBD_EINVAL = -22,       /* bad argument or bad model data */
    RBD_ENOMEM = -12,       /* allocation failed or refused (too large) */
    RBD_EIO = -5,           /* file could not be read or written */
    RBD_ENOTSUP = -95,      /* method does not support this model */
    RBD_EPARSE = -1001,     /* malformed text input */
    RBD_ESINGULAR = -1002,  /* mass matrix singular or numerically so */
    RBD_ENONFINITE = -1003  /* NaN or inf in an input or a result */
};

const char *rbd_strerror(int code);
/* The message of the most recent failure in this thread ("" if none). */
const char *rbd_last_error(void);
/* Record a failure message and return code (for library code). */
int rbd_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void rbd_clear_error(void);
/* RBD_ENOMEM, naming what and the size in GiB, when bytes exceed this
 * machine's physical memory (a clear refusal before an allocation that
 * could only fail, or succeed lazily and be killed later); 0 otherwise. */
int rbd_check_memory(const char *what, double bytes);

/* ---------------------------------------------------------------- joints */

typedef enum {
    RBD_JOINT_REVOLUTE = 0,  /* nq = nv = 1, rotation about axis           */
    RBD_JOINT_PRISMATIC,     /* nq = nv = 1, translation along axis        */
    RBD_JOINT_SPHERICAL,     /* nq = 4 [qx qy qz qw], nv = 3 (local omega) */
    RBD_JOINT_FREEFLYER,     /* nq = 7 [x y z qx qy qz qw], nv = 6 [lin; ang] */
    RBD_JOINT_CONTINUOUS,    /* nq = 2 [cos t, sin t], nv = 1: unbounded revolute
                              * about axis (Pinocchio's JointModelRevoluteUnbounded) */
    RBD_JOINT_NTYPES
} rbd_joint_type;

typedef struct {
    rbd_joint_type type;
    /* 0, 1, 2 when the axis is exactly e_x, e_y, e_z (fast paths); -1 otherwise */
    int axis_id;
    double axis[3];          /* unit axis in the joint frame (revolute, prismatic, continuous) */
} rbd_joint;

/* 1 for the one-dof rotations, revolute and continuous: S = [axis; 0], and
 * axis_id's shortcuts apply to both (X_J from cos, sin either way). */
static inline int rbd_joint_is_rot1(rbd_joint_type t)
{
    return t == RBD_JOINT_REVOLUTE || t == RBD_JOINT_CONTINUOUS;
}

int rbd_joint_nq(rbd_joint_type t);
int rbd_joint_nv(rbd_joint_type t);
const char *rbd_joint_type_name(rbd_joint_type t);

/* ---------------------------------------------------------------- models */

/* Inertial data of one body as users give it: mass, CoM and rotational
 * inertia about the CoM, all in the body (joint) frame; Ic row-major 3x3. */
typedef struct {
    double mass;
    double com[3];
    double Ic[9];
} rbd_body_inertia;

typedef struct rbd_model {
    int nb, nq, nv;
    int *parent;            /* [nb] parent body, -1 for the base            */
    int *subtree_end;       /* [nb] bodies i .. subtree_end[i]-1 = subtree(i) */
    int *subtree_end_v;     /* [nb] dofs idx_v[i] .. subtree_end_v[i]-1 = the dofs of subtree(i):
                             * the first dof after the subtree, nv for the last */
    int *idx_q, *idx_v;     /* [nb] offsets into q and v                    */
    int *nq_of, *nv_of;     /* [nb] joint sizes                             */
    int *dof_body;          /* [nv] body that owns each dof                 */
    int *dof_parent;        /* [nv] expanded parent array (RBDA Table 6.4), -1 at root */
    /* [nv] start s of the run of dofs ending at k with dof_parent[x] == x - 1
     * for x in (s, k]: the ancestors of k are contiguous index ranges
     * [s, k], [s', dof_parent[s]], ... (vectorisable sweeps; ltdl.c) */
    int *dof_run0;
    rbd_joint *joint;       /* [nb] */
    double *S;              /* [6*nv] motion subspace columns in the body frame */
    sp_xform *Xtree;        /* [nb] parent frame -> joint frame             */
    sp_inertia *inertia;    /* [nb] spatial inertia, body frame             */
    rbd_body_inertia *inertial; /* [nb] as given (for export and checks)     */
    double a0[6];           /* -a_g: the base-acceleration trick            */
    char **joint_name;      /* [nb] */
    char **body_name;       /* [nb] */
    /* user numbering (autoTree: breadth-first; URDF: file order) */
    int *user_body;         /* [nb] internal body -> user body              */
    int *user_q;            /* [nq] internal q index -> user q index        */
    int *user_v;            /* [nv] internal v index -> user v index        */
    int depth_max;          /* longest root-to-leaf path, in bodies         */
    char *spec;             /* how the model was made (spec string)         */
    int nwarn;              /* validation warnings (non-strict mode)        */
    char **warn;
    int nonphysical;        /* bodies loaded by opts.nonphysical (not physical) */
    /* the warnings of the inertia rule (a clamp, a body not physical): what
     * the loader changed or accepted; also in warn.  The harness prints
     * them with every result and records them in meta.json. */
    int nnotice;
    char **notice;
} rbd_model;

/* Model options (README.md, "Conventions", "Model options"; in a spec:
 * urdf:PATH,strict,nonphysical,continuous=revolute). */
typedef struct {
    /* today's audit: every URDF link's inertia and every body's PSD to 1e-9
     * of its trace, the triangle inequality and <mimic> are errors */
    int strict;
    /* a body whose inertia is not physical (below the rounding tolerance of
     * the inertia rule) loads, with a warning, when M(q) stays positive
     * definite; counted in rbd_model.nonphysical */
    int nonphysical;
    int continuous_revolute;/* URDF continuous joints load as revolute (nq = 1) */
    double gravity[3];      /* default (0, 0, -9.81)                        */
} rbd_model_opts;

void rbd_model_opts_default(rbd_model_opts *o);

typedef struct rbd_builder rbd_builder;

rbd_builder *rbd_builder_new(void);
void rbd_builder_free(rbd_builder *b);
/* Add a body in user numbering; parent is an earlier user index or -1. */
int rbd_builder_add(rbd_builder *b, int parent, const rbd_joint *j, const sp_xform *Xtree,
                    const rbd_body_inertia *in, const char *joint_name, const char *body_name);
/* Validate, renumber depth-first, build.  The builder may be freed afterwards. */
int rbd_builder_finish(rbd_builder *b, const rbd_model_opts *o, const char *spec, rbd_model **out);

/* After a failed finish: the user index of the body whose data was refused,
 * or -1 (the failure was not one body's). */
int rbd_builder_failed_body(const rbd_builder *b);

void rbd_model_free(rbd_model *m);

/* 1 when the symmetric 3x3 A is positive semi-definite: principal minors of
 * order k >= -rtol * scale^k (scale: e.g. the sum of |diagonal|). */
int rbd_sym3_psd(const double A[9], double scale, double rtol);
/* Appends a copy of msg to m->warn (loaders record what they had to bend). */
int rbd_model_add_warning(rbd_model *m, const char *msg);
/* The same, also into m->notice. */
int rbd_model_add_notice(rbd_model *m, const char *msg);

/* spatial_v2 autoTree(N, bf, skew, taper) exactly as README.md ("Conventions") defines it. */
int rbd_autotree(int N, double bf, double skew, double taper, const rbd_model_opts *o,
                 rbd_model **out);
/* "autotree:N=100,bf=2,skew=0,taper=1" or "urdf:PATH[,OPTION]...", OPTION one of
 * freeflyer, strict, nonphysical, continuous=revolute (any order; each sets
 * the field of *o of that name, on top of o's own). */
int rbd_model_from_spec(const char *spec, const rbd_model_opts *o, rbd_model **out);
/* The length of PATH in the text after "urdf:", its trailing options
 * stripped and set in *freeflyer and *o (either may be NULL). */
size_t rbd_urdf_spec_split(const char *path_and_options, int *freeflyer, rbd_model_opts *o);
/* The canonical option suffix (",freeflyer,continuous=revolute,strict,nonphysical",
 * the ones set) into buf. */
void rbd_urdf_spec_suffix(int freeflyer, const rbd_model_opts *o, char *buf, size_t len);

/* Load a URDF file (urdf.c); freeflyer puts a free-flyer joint ("root_joint")
 * between the world and the root link, otherwise the root link is welded to
 * the world.  As urdfdom/Pinocchio: joints numbered depth-first from the root,
 * siblings by joint name; fixed joints merged (inertia lumped into the moving
 * body above); revolute, continuous (RBD_JOINT_CONTINUOUS, nq = 2; revolute
 * with o->continuous_revolute), prismatic, floating (-> free-flyer).  Each
 * body's composite inertia is judged by the inertia rule (README.md); with
 * o->strict each link's alone, as well.  A <mimic> joint loads as an
 * independent joint with a warning in m->warn, and is RBD_ENOTSUP when
 * o->strict.  Errors name file:line and the element. */
int rbd_urdf_load(const char *path, int freeflyer, const rbd_model_opts *o, rbd_model **out);
/* Writes m as URDF, bodies in the user numbering (urdf_write.c): revolute
 * (nq = 1, unbounded limits), continuous (nq = 2, as Pinocchio reads it),
 * prismatic, free-flyer -> floating; spherical is RBD_ENOTSUP. */
int rbd_urdf_write(const rbd_model *m, FILE *f);

/* Joint transform X_J(q) of body i (joint frame -> body frame). */
void rbd_jcalc(const rbd_model *m, int i, const double *q, sp_xform *XJ);

/* ---------------------------------------------------------------- states */

typedef struct {
    const double *q;        /* nq */
    const double *v;        /* nv */
    const double *a;        /* nv, ID methods */
    const double *tau;      /* nv, FD methods */
} rbd_state;

/* Deterministic generator (xoshiro256**), for reproducible random states. */
typedef struct { uint64_t s[4]; } rbd_rng;
void rbd_rng_seed(rbd_rng *r, uint64_t seed);
double rbd_rng_uniform(rbd_rng *r);     /* [-1, 1) */
/* A random configuration (unit quaternions for spherical and free-flyer
 * joints, (cos t, sin t) for continuous ones with t drawn as a revolute
 * joint's q, uniform in [-1, 1] otherwise) and, if non-NULL, v, a, tau
 * uniform in [-1, 1]. */
void rbd_random_state(const rbd_model *m, rbd_rng *r, double *q, double *v, double *a,
                      double *tau);
/* The neutral configuration: 0 for revolute and prismatic, (1, 0) for
 * continuous, identity quaternions (Pinocchio's neutral). */
void rbd_neutral(const rbd_model *m, double *q);
/* q_out = q (+) h*dv (tangent-space integration; revolute/prismatic: q + h dv;
 * continuous: (cos, sin) rotated by h dv). */
void rbd_integrate(const rbd_model *m, const double *q, const double *dv, double h,
                   double *q_out);

/* Permute between user and internal numbering (out must not alias in). */
void rbd_q_from_user(const rbd_model *m, const double *user, double *internal);
void rbd_q_to_user(const rbd_model *m, const double *internal, double *user);
void rbd_v_from_user(const rbd_model *m, const double *user, double *internal);
void rbd_v_to_user(const rbd_model *m, const double *internal, double *user);
/* nv x nv column-major, rows and columns both in v numbering. */
void rbd_mat_to_user(const rbd_model *m, const double *internal, double *user);

/* ---------------------------------------------------------------- base dynamics */

typedef struct rbd_data rbd_data;   /* per-model scratch, see dynamics.h */

typedef enum {
    RBD_MINV_ANALYTIC = 0,  /* Carpentier's ABA-like O(N^2) inverse             */
    RBD_MINV_LTDL,          /* CRBA + sparse LTDL (RBDA Tables 6.3-6.5)         */
    RBD_MINV_LAPACK,        /* CRBA + LAPACKE dpotrf/dpotri                     */
    RBD_MINV_NKINDS
} rbd_minv_kind;

const char *rbd_minv_name(rbd_minv_kind k);

#endif
