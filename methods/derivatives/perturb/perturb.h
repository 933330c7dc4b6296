/*
 * Derivatives by perturbation: one driver for finite differences and the
 * complex step, over any function
 *
 *     y = f(q, v, u)      (y of length ny; u = qdd for ID, tau for FD)
 *
 * It forms dy/dq (q moved in the tangent space, so Lie-group joints work),
 * dy/dv and, where the function's u-derivative is an output, dy/du, column
 * by column: column j of dy/dx comes from f at x moved along e_j.
 *
 * - Finite differences (RBD_PERTURB_FD): central (f(x + h e_j) -
 *   f(x - h e_j)) / 2h or forward (f(x + h e_j) - f(x)) / h; h as in
 *   Nocedal & Wright, Numerical Optimization, sec. 8.1: with rounding error
 *   eps |y| and truncation error ~ h f'' (forward) or h^2 f''' (central)
 *   the total error is smallest near h = sqrt(eps) s (forward), cbrt(eps) s
 *   (central), s = max(1, |x_j|) for a plain coordinate (revolute or
 *   prismatic q, every v and u) and s = 1 for a tangent coordinate of a
 *   Lie-group joint (the step is about the identity); h is then rounded so
 *   that x + h - x == h exactly.
 * - Complex step (RBD_PERTURB_CS; Squire & Trapp 1998): dy/dx_j =
 *   Im f(x + i h e_j) / h, exact to rounding for any h this small because
 *   no difference is taken; f is the real function's own source
 *   instantiated for T = double complex (rnea_tpl.h, aba_tpl.h).
 *
 * A descriptor names the function and its workspace; the four first-order
 * methods (id-fd, id-cs, fd-fd, fd-cs) are each a descriptor and three
 * lines, and rbd_perturb_columns serves any other output of the same shape.
 */
#ifndef RBD_PERTURB_H
#define RBD_PERTURB_H

#include <complex.h>
#include <stddef.h>
#include "model/arena.h"
#include "rbdiff/method.h"

typedef enum { RBD_PERTURB_FD, RBD_PERTURB_CS } rbd_perturb_scheme;

typedef struct {
    const rbd_method *method;   /* the method served: its name in messages, its joints */
    rbd_perturb_scheme scheme;
    int du;                     /* dy/du wanted too (ABA's M^-1; RNEA's dtau/dqdd = M is not an output) */
    /* length of y; NULL: nv */
    size_t (*ny)(const rbd_model *m);
    /* The function's workspace: ctx_size bytes carved from the driver's
     * arena, its arrays by carve (arena.h: run once to size, once to hand
     * out), then setup once at init and release at fini (each may be NULL). */
    size_t ctx_size;
    void (*carve)(void *ctx, rbd_arena *a, const rbd_model *m);
    int (*setup)(void *ctx, const rbd_model *m);
    void (*release)(void *ctx);
    /* y = f(q, v, u): f for FD, fz for CS; nonzero (an rbd_fail code) stops */
    int (*f)(void *ctx, const rbd_model *m, const double *q, const double *v, const double *u, double *y);
    int (*fz)(void *ctx, const rbd_model *m, const double complex *q, const double complex *v,
              const double complex *u, double complex *y);
} rbd_perturb_fn;

/* Workspace for fn on m; options: fd_forward (FD), cs_step (CS, in (0, 1e-3]). */
int rbd_perturb_init(const rbd_perturb_fn *fn, const rbd_model *m, const rbd_options *o, void **ws);
void rbd_perturb_fini(void *ws);

/* y = f(q, v, u) and its columns: dy_dq, dy_dv, dy_du each ny x nv,
 * column-major (dy_du ignored unless fn->du). */
int rbd_perturb_columns(void *ws, const double *q, const double *v, const double *u, double *y,
                        double *dy_dq, double *dy_dv, double *dy_du);

/* rbd_method.eval of a first-order method: ID (tau, dtau_dq, dtau_dv at
 * q, v, a) or FD (qdd, dqdd_dq, dqdd_dv, dqdd_dtau at q, v, tau), by
 * fn->method->output. */
int rbd_perturb_eval(void *ws, const rbd_state *x, rbd_derivs *out);

/* The model's constant data in double complex, for fz: Xtree, Ib [nb]. */
void rbd_perturb_promote(const rbd_model *m, spz_xform *Xtree, spz_inertia *Ib);

#endif
