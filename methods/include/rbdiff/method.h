/*
 * The method interface (README.md, "The methods").  Each derivative
 * method is one translation unit exporting one rbd_method; registry.c lists
 * them, and the harness, the accuracy audit and the generic tests iterate that
 * list, so a method joins all of them by being registered.
 *
 * Life cycle: init once per (model, options) -> workspace; eval any number of
 * times (never allocates, never prints); fini.  All vectors and matrices are
 * in the model's internal (depth-first) numbering; nv x nv outputs are
 * column-major.
 */
#ifndef RBD_METHOD_H
#define RBD_METHOD_H

#include "rbd.h"

typedef enum {
    RBD_ID_DERIVS = 1,      /* tau, dtau_dq, dtau_dv at (q, v, a)                */
    RBD_FD_DERIVS = 2,      /* qdd, dqdd_dq, dqdd_dv, dqdd_dtau at (q, v, tau)   */
    /* Second order (README.md, "Conventions"): nv x nv x nv tensors, slab k
     * the derivative along x_k of a first-order nv x nv matrix. */
    RBD_ID_SO_DERIVS = 3,   /* tau, d2tau_dq2, d2tau_dv2, d2tau_dqdv, dM_dq at (q, v, a)          */
    RBD_FD_SO_DERIVS = 4    /* qdd, d2qdd_dq2, d2qdd_dv2, d2qdd_dqdv, d2qdd_dqdtau at (q, v, tau) */
} rbd_output;

/* 1 for the kinds evaluated at (q, v, a) (ID, ID_SO), 0 for (q, v, tau). */
int rbd_output_is_id(rbd_output o);
/* 2 for the second-order kinds, 1 for the first-order ones. */
int rbd_output_order(rbd_output o);


/* The largest complex step the -cs methods take: beyond it the O(h^2)
 * truncation of Im f(x + ih)/h swamps the derivative. */
#define RBD_CS_STEP_MAX 1e-3

typedef struct {
    rbd_minv_kind minv;     /* M^-1 variant of the FD methods (default analytic) */
    int fd_forward;         /* finite differences: forward instead of central   */
    double cs_step;         /* complex step h, in (0, RBD_CS_STEP_MAX] (default 1e-20) */
    /* fdsva: DMM below this equivalent dense size of dID/du (nv on a chain),
     * the factored product at and above; 0 = built-in default */
    int fdsva_crossover;
    /* fdsva below the crossover: 0 (default) times the sparse loop and dgemm
     * at init on this model and keeps the faster; 1 takes the fixed size
     * rule of fd_compose.h (reproducible, tuned on one machine) */
    int fdsva_dmm_rule;
    /* The caller keeps the structural zeros of dtau_dq and dtau_dv at zero
     * between calls: the entries (r, c) where neither dof's body is an
     * ancestor of the other's (zeroed once, then the buffers only ever passed
     * to this workspace's eval).  A method may then leave them unwritten, as
     * Pinocchio leaves them in its Data.  0 (default): every entry written. */
    int zeros_preset;
} rbd_options;

void rbd_options_default(rbd_options *o);

/* Outputs; the caller owns every buffer.  ID methods fill tau, dtau_dq,
 * dtau_dv; FD methods fill qdd, dqdd_dq, dqdd_dv, dqdd_dtau (= M^-1).
 * Second-order ID methods fill tau and the four ID tensors, second-order FD
 * methods qdd and the four FD tensors, each nv^3 doubles: T(i, j, k) at
 * [i + nv*j + nv*nv*k] = d2 y_i / dx_j dz_k for the tensor d2y/dxdz, slab k
 * along the second variable z (q tangent-space as first order: a q slab k is
 * taken at q (+) e_k); dM_dq is d2tau/da dq:
 *   d2tau_dq2(i,j,k)  = d/dq_k (dtau/dq)(i,j)   d2tau_dv2(i,j,k) = d/dv_k (dtau/dv)(i,j)
 *   d2tau_dqdv(i,j,k) = d/dv_k (dtau/dq)(i,j)   dM_dq(i,j,k)     = d/dq_k M(i,j)
 * and likewise d2qdd_dq2, d2qdd_dv2, d2qdd_dqdv, and
 * d2qdd_dqdtau(i,j,k) = d/dtau_k (dqdd/dq)(i,j) = d/dq_j M^-1(i,k). */
typedef struct {
    double *tau, *dtau_dq, *dtau_dv;
    double *qdd, *dqdd_dq, *dqdd_dv, *dqdd_dtau;
    double *d2tau_dq2, *d2tau_dv2, *d2tau_dqdv, *dM_dq;
    double *d2qdd_dq2, *d2qdd_dv2, *d2qdd_dqdv, *d2qdd_dqdtau;
} rbd_derivs;

/* The tensor outputs of a second-order kind, in the order eval prints them. */
#define RBD_SO_NTENSORS 4
/* Names of the vector and the four tensors of kind o (NULL for a first-order kind). */
const char *const *rbd_so_output_names(rbd_output o);
/* The five pointers of out for kind o, in the order of rbd_so_output_names. */
void rbd_so_output_ptrs(rbd_output o, const rbd_derivs *out, double *ptr[1 + RBD_SO_NTENSORS]);
/* The bytes of the four nv^3 tensors of a second-order kind; RBD_ENOMEM
 * naming that size when it overflows or exceeds this machine's memory
 * (rbd_check_memory), so a caller refuses before it allocates. */
int rbd_so_check_size(const rbd_model *m, const char *who, double *bytes);
/* A tensor from the internal to the user's numbering in all three indices
 * (user must not alias internal). */
void rbd_tensor_to_user(const rbd_model *m, const double *internal, double *user);

typedef struct rbd_method {
    const char *name;       /* "idsva", "rneacr", "fdsva-aza", ...              */
    const char *summary;    /* one line, cites the paper / section              */
    rbd_output output;
    unsigned joints;        /* bit (1u << rbd_joint_type) per supported joint   */
    int (*init)(const rbd_model *m, const rbd_options *o, void **ws);
    int (*eval)(void *ws, const rbd_state *x, rbd_derivs *out);
    void (*fini)(void *ws);  /* free itself for a workspace carved from one arena */
} rbd_method;

#define RBD_JOINTS_1DOF ((1u << RBD_JOINT_REVOLUTE) | (1u << RBD_JOINT_PRISMATIC))
#define RBD_JOINTS_ALL ((1u << RBD_JOINT_NTYPES) - 1u)

/* NULL-terminated list of every registered first-order method. */
extern const rbd_method *const rbd_methods[];
int rbd_method_count(void);
/* NULL-terminated list of the second-order methods (outputs RBD_ID_SO_DERIVS,
 * RBD_FD_SO_DERIVS).  A list of their own: the first-order sweeps, the
 * timing tables and the tests that iterate rbd_methods stay as they are. */
extern const rbd_method *const rbd_so_methods[];
/* NULL-terminated list of the emitted methods (methods/emit: the algorithm
 * traced for the model, printed as C and compiled at init, nv <= 20).  A
 * list of their own: a compile per model would enter every generic test
 * and the default sweep; they run when named. */
extern const rbd_method *const rbd_emit_methods[];
/* The method of that name, from any of the three lists; NULL for an unknown name, with
 * rbd_last_error() naming the nearest registered names. */
const rbd_method *rbd_method_find(const char *name);
/* 0 if the method supports every joint of the model, else RBD_ENOTSUP with a
 * message naming the joint. */
int rbd_method_supports(const rbd_method *meth, const rbd_model *m);
/* The start of every init: RBD_EINVAL for a NULL m or out, *out = NULL,
 * then rbd_method_supports. */
int rbd_method_init_check(const rbd_method *meth, const rbd_model *m, void **out);

/* Base algorithms, timed and evaluated like methods (registry.c). */
typedef struct {
    const char *name;
    const char *summary;    /* one line, cites the book's table             */
    const char *needs;      /* state vector it reads besides q, v: "a", "tau" or "" */
    const char *out;        /* its output's block name: "tau", "qdd", "M", "Minv" */
    int out_matrix;         /* 1: nv x nv output (out has room for nv*nv), 0: nv vector */
    int (*run)(const rbd_model *m, void *d, const double *q, const double *v, const double *a,
               const double *tau, double *out);
} rbd_base_algo;

extern const rbd_base_algo rbd_base_algos[];   /* terminated by a NULL name */
const rbd_base_algo *rbd_base_algo_find(const char *name);

const char *rbd_output_name(rbd_output o);   /* "ID" / "FD" / "ID2" / "FD2" */

#endif
