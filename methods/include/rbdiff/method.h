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
    RBD_FD_DERIVS = 2       /* qdd, dqdd_dq, dqdd_dv, dqdd_dtau at (q, v, tau)   */
} rbd_output;


typedef struct {
    rbd_minv_kind minv;     /* M^-1 variant of the FD methods (default analytic) */
    int fd_forward;         /* finite differences: forward instead of central   */
    double cs_step;         /* complex step h (default 1e-20)                    */
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
 * dtau_dv; FD methods fill qdd, dqdd_dq, dqdd_dv, dqdd_dtau (= M^-1). */
typedef struct {
    double *tau, *dtau_dq, *dtau_dv;
    double *qdd, *dqdd_dq, *dqdd_dv, *dqdd_dtau;
} rbd_derivs;

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

/* NULL-terminated list of every registered method. */
extern const rbd_method *const rbd_methods[];
int rbd_method_count(void);
/* The method of that name; NULL for an unknown name, with rbd_last_error()
 * naming the nearest registered names. */
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

const char *rbd_output_name(rbd_output o);   /* "ID" / "FD" */

#endif
