/* One method (or base algorithm) evaluated at one state read from a state
 * file, and its outputs written as blocks in the interchange format
 * (README.md, "Conventions"), in the user's numbering: `rbdiff eval`. */
#ifndef RBD_EVAL_STATE_H
#define RBD_EVAL_STATE_H

#include <stdio.h>
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"
#include "rbdiff/rbd_io.h"

/* The outputs as written: the kind, the derivatives' pointers into the
 * job's buffer, a user-numbered scratch, or a base algorithm's output. */
typedef struct {
    const rbd_model *m;
    rbd_output kind;
    rbd_derivs d;
    double *user;      /* nv*nv (nv^3 for a second-order kind) scratch in user numbering */
    const rbd_base_algo *base;
    double *base_out;  /* the base algorithm's output (internal numbering) */
} eval_out;

/* One evaluation: what is evaluated, on which model and state, and where
 * its outputs go (one buffer: internal q, v, a|tau, then the outputs). */
typedef struct {
    const rbd_method *method;       /* or base */
    const rbd_base_algo *base;
    const char *name, *need;        /* the method's name; "a", "tau" or the base's needs */
    int id, so;                     /* an ID kind; a second-order kind */
    const rbd_model *m;
    rbd_state_file sf;
    double *buf;
    rbd_state st;
    eval_out e;
} eval_job;

/* The state file read for m and checked against what the method needs
 * (q, v and a or tau; the method takes the model's joints; the outputs fit
 * in memory), the buffer laid out and the state put in internal numbering.
 * RBD_OK or the library's code; *bad_input tells a wrong input (the state
 * file missing or malformed, a field missing, joints the method does not
 * take) from a failure (memory).  eval_job_free after, whatever it returns. */
int eval_job_prepare(eval_job *j, const rbd_method *meth, const rbd_base_algo *base, const char *name,
                     const rbd_model *m, const char *state, int *bad_input);

/* The base algorithm or the method at the state; RBD_OK or the library's
 * code, *bad_input set when the state's own values are refused by the input
 * checks (RBD_EINVAL: a zero quaternion); a numerical fault at a
 * well-formed state is a failure. */
int eval_job_run(eval_job *j, const rbd_options *o, int *bad_input);

/* A warning on err, after prefix, when M(q) at the job's q is singular or
 * ill-conditioned (LAPACK dpocon): the result is still written. */
void eval_job_warn_conditioning(const eval_job *j, FILE *err, const char *prefix);

/* The outputs' blocks, '<name> <rows> <cols>' then rows at %.17g, on f
 * (p: the job's eval_out; atomic_write's callback).  RBD_OK or RBD_EIO. */
int eval_out_write(FILE *f, void *p);

void eval_job_free(eval_job *j);

/* `rbdiff eval` whole: the job prepared and run with o, the warning of
 * eval_job_warn_conditioning on stderr, then the outputs written to out
 * (whole, atomic_write) or, out NULL, to stdout.  RBD_OK or the library's
 * code (message set), *bad_input as eval_job_prepare and eval_job_run say
 * (0 for an output that cannot be written). */
int eval_run(const char *prefix, const rbd_method *meth, const rbd_base_algo *base, const char *name,
             const rbd_model *m, const char *state, const rbd_options *o, const char *out, int *bad_input);

#endif
