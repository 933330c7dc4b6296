/*
 * The MuJoCo peer (libmujoco 2.2 or 4.0, its C API).  MuJoCo has no public
 * analytical derivatives of the smooth dynamics (4.0's mujoco.h: only
 * mjd_transitionFD, mjd_inverseFD and quaternion helpers): its users take
 * them by finite differences, and that is what is timed, beside its base
 * algorithms:
 *
 *   fd_forward    central differences of mj_forward in qpos, qvel, qfrc_applied
 *   fd_inverse    central differences of mj_inverse in qpos, qvel
 *   transitionFD  mjd_transitionFD: A and B of one Euler step, on the model
 *                 with a motor on every dof (B is by ctrl; mjp_with_motors)
 *   inverseFD     mjd_inverseFD (MuJoCo >= 2.3.1): MuJoCo's own differences of
 *                 mj_inverse, DfDq and DfDv
 *   rne, crb, forward   mj_rne, mj_crb + mj_fullM, mj_forward
 * inverseFD is offered where the MuJoCo it is built against has it
 * (HAS_INVERSE_FD).
 *
 * Central differences (eps 1e-6) re-run the pipeline only from the stage a
 * coordinate enters, as MuJoCo's derivative sample does: qfrc from
 * mjSTAGE_VEL, qvel from mjSTAGE_POS, qpos (moved along one dof by
 * mj_integratePos) from the start.  The outputs stay in MuJoCo's
 * coordinates; result() converts them.
 *
 * The model is the URDF as mj_loadXML reads it, with its joint limits off
 * (unlimit) and exact principal axes of inertia (mjc_exact_inertia: MuJoCo
 * 2.2's are off by up to ~1e-6 rad).  The free-flyer root is a free joint,
 * whose qpos has the quaternion w first and whose qvel has the linear
 * velocity in the world frame, where rbdiff has x y z w and the body frame:
 * mujoco_conv.h maps states and outputs between the two.  bind() converts the
 * states once; the timed call sets one and runs MuJoCo, nothing else.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>
#include <mujoco/mjxmacro.h>
#include "mujoco_conv.h"
#include "mujoco_model.h"
#include "peer_api.h"

#ifndef RBD_PEER_BUILD
#define RBD_PEER_BUILD "unknown"
#endif
#ifndef RBD_PEER_SOURCE
#define RBD_PEER_SOURCE "unknown"
#endif

/* MuJoCo 4.0 removed mjData.qM (the inertia lives in the CSR mjData.M) and
 * mj_fullM reads it from d; before, mj_fullM took the legacy qM. */
#if mjVERSION_HEADER >= 1000000
#define FULL_M(m, d, dst) mj_fullM(m, d, dst)
#else
#define FULL_M(m, d, dst) mj_fullM(m, dst, (d)->qM)
#endif

/* The step MuJoCo's derivative sample and documentation take; central
 * differences: error O(eps^2), rounding O(1e-16 / eps).  set_step changes it
 * per context (the accuracy audit's sweep over eps). */
#define EPS 1e-6

enum { FD_FORWARD, FD_INVERSE, RNE, CRB, FORWARD, TRANSITION_FD, INVERSE_FD, NFUNC };

/* mjd_inverseFD came with MuJoCo 2.3.1 (mjVERSION_HEADER 231). */
#define HAS_INVERSE_FD (mjVERSION_HEADER >= 231)

/* The functions this build offers, in the order of the table it hands out. */
static int offer[NFUNC], noffer;

/* Tolerances: central differences at eps 1e-6 are dominated by rounding,
 * ~kappa(M) 1e-16 / eps: tol_cond 1e-9 per unit of M's condition number for
 * those that solve with M (peer_api.h); inverse dynamics has no solve, but
 * its rounding is relative to tau, not to dtau/dq.  The errors seen that
 * set these: peers/README.md ("MuJoCo"). */
static const rbd_peer_func funcs[NFUNC] = {
    { "fd_forward", RBD_PEER_FD_DERIVS, "fdsva",
      "central differences (eps 1e-6) of qacc in qpos, qvel, qfrc_applied: mj_forward + 6 nv mj_forwardSkip", 1e-4,
      1e-9 },
    { "fd_inverse", RBD_PEER_ID_DERIVS, "idsva",
      "central differences (eps 1e-6) of qfrc_inverse in qpos, qvel: mj_inverse + 4 nv mj_inverseSkip", 1e-5, 0 },
    { "rne", RBD_PEER_TAU, "rnea", "mj_kinematics, mj_comPos, mj_comVel, mj_rne: tau from (q, v, a)", 1e-9, 0 },
    { "crb", RBD_PEER_M, "crba", "mj_kinematics, mj_comPos, mj_crb, mj_fullM: dense M", 1e-9, 0 },
    { "forward", RBD_PEER_QDD, "aba", "mj_forward: the whole pipeline (no contacts, limits or actuators), qacc", 1e-9,
      1e-15 },
    { "transitionFD", RBD_PEER_FD_DERIVS, "fdsva",
      "mjd_transitionFD (eps 1e-6, centered): discrete A, B of one Euler mj_step (h 0.002 s), with a motor per dof; "
      "checked as the velocity rows / h", 1e-4, 1e-9 },
    { "inverseFD", RBD_PEER_ID_DERIVS, "idsva",
      "mjd_inverseFD (eps 1e-6, one-sided differences, MuJoCo's own): DfDq, DfDv of qfrc_inverse; tolerance 1e-4 "
      "for its O(eps) error", 1e-4, 0 },
};

/* MuJoCo reports an error through mju_user_error, which must not return, and
 * prints warnings unless mju_user_warning is set: both land here.  An error
 * jumps to the trap armed around every run of MuJoCo's engine. */
static jmp_buf *mj_trap;
static char mj_msg[512];
static int mj_warned;

static void on_warning(const char *msg)
{
    snprintf(mj_msg, sizeof mj_msg, "%s", msg);
    mj_warned = 1;
}

static void on_error(const char *msg)
{
    on_warning(msg);
    if (mj_trap) longjmp(*mj_trap, 1);
}

/* ------------------------------------------------------------------ model */

static void *load(const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv, char *err,
                  size_t errlen)
{
    mju_user_error = on_error;
    mju_user_warning = on_warning;
    mjp_model *mod = calloc(1, sizeof *mod);
    if (!mod) mjc_fail(err, errlen, "out of memory");
    if (!mod || mjp_model_open(mod, urdf, njoint, joint, nq, nv, err, errlen)) {
        mjp_model_free(mod);
        return NULL;
    }
    return mod;
}

static void unload(void *model_) { mjp_model_free(model_); }

/* ---------------------------------------------------------------- context */

typedef struct context context;
typedef void (*run_fn)(context *c);

struct context {
    const mjp_model *mod;
    const mjModel *m;        /* mod->m, or mod->actuated for transitionFD */
    mjData *d;
    int func, pool, k;
    mjtNum eps;              /* the finite differences' step */
    mjtNum *qpos, *qvel, *qacc, *qfrc;   /* the pool in MuJoCo's conventions */
    mjtNum *out;             /* the call's outputs in MuJoCo's coordinates: a derivative's
                                column j is along dof j; transitionFD's A, B row-major */
    mjtNum *plus, *dir;      /* central differences: the + side, a unit step */
    mjtNum *work;            /* result()'s scratch */
};

static void set_state(context *c, int k)
{
    const int nq = c->m->nq, nv = c->m->nv;
    mjData *d = c->d;
    mju_copy(d->qpos, c->qpos + (size_t)nq * k, nq);
    mju_copy(d->qvel, c->qvel + (size_t)nv * k, nv);
    if (c->func == FD_INVERSE || c->func == INVERSE_FD || c->func == RNE) mju_copy(d->qacc, c->qacc + (size_t)nv * k, nv);
    if (c->func == FD_FORWARD || c->func == FORWARD) mju_copy(d->qfrc_applied, c->qfrc + (size_t)nv * k, nv);
    if (c->func == TRANSITION_FD) mju_copy(d->ctrl, c->qfrc + (size_t)nv * k, nv);
}

typedef void (*mj_skip_fn)(const mjModel *m, mjData *d, int skipstage, int skipsensor);

static void central(mjtNum *col, const mjtNum *plus, const mjtNum *minus, int n, mjtNum eps)
{
    for (int i = 0; i < n; i++) col[i] = (plus[i] - minus[i]) / (2 * eps);
}

/* col = d out / d x by x +- eps, eval re-running the pipeline after stage. */
static void diff_scalar(context *c, mjtNum *x, mj_skip_fn eval, int stage, const mjtNum *out, mjtNum *col)
{
    const mjtNum x0 = *x;
    *x = x0 + c->eps;
    eval(c->m, c->d, stage, 1);
    mju_copy(c->plus, out, c->m->nv);
    *x = x0 - c->eps;
    eval(c->m, c->d, stage, 1);
    *x = x0;
    central(col, c->plus, out, c->m->nv, c->eps);
}

/* col = d out / d qpos along dof j, qpos moved by mj_integratePos. */
static void diff_qpos(context *c, int j, mj_skip_fn eval, const mjtNum *out, mjtNum *col)
{
    const mjModel *m = c->m;
    mjData *d = c->d;
    const mjtNum *qpos0 = c->qpos + (size_t)m->nq * c->k;
    c->dir[j] = 1;
    mj_integratePos(m, d->qpos, c->dir, c->eps);
    eval(m, d, mjSTAGE_NONE, 1);
    mju_copy(c->plus, out, m->nv);
    mju_copy(d->qpos, qpos0, m->nq);
    mj_integratePos(m, d->qpos, c->dir, -c->eps);
    eval(m, d, mjSTAGE_NONE, 1);
    mju_copy(d->qpos, qpos0, m->nq);
    c->dir[j] = 0;
    central(col, c->plus, out, m->nv, c->eps);
}

/* The loops go from the last stage to the first, so each skip finds the
 * stages it skips computed at the nominal point. */
static void fd_forward(context *c)
{
    const int nv = c->m->nv;
    const size_t nn = (size_t)nv * nv;
    mjData *d = c->d;
    mjtNum *Qq = c->out, *Qv = Qq + nn, *Qt = Qv + nn;
    mj_forward(c->m, d);
    for (int j = 0; j < nv; j++)
        diff_scalar(c, d->qfrc_applied + j, mj_forwardSkip, mjSTAGE_VEL, d->qacc, Qt + (size_t)nv * j);
    for (int j = 0; j < nv; j++) diff_scalar(c, d->qvel + j, mj_forwardSkip, mjSTAGE_POS, d->qacc, Qv + (size_t)nv * j);
    for (int j = 0; j < nv; j++) diff_qpos(c, j, mj_forwardSkip, d->qacc, Qq + (size_t)nv * j);
}

static void fd_inverse(context *c)
{
    const int nv = c->m->nv;
    mjData *d = c->d;
    mjtNum *Tq = c->out, *Tv = Tq + (size_t)nv * nv;
    mj_inverse(c->m, d);
    for (int j = 0; j < nv; j++)
        diff_scalar(c, d->qvel + j, mj_inverseSkip, mjSTAGE_POS, d->qfrc_inverse, Tv + (size_t)nv * j);
    for (int j = 0; j < nv; j++) diff_qpos(c, j, mj_inverseSkip, d->qfrc_inverse, Tq + (size_t)nv * j);
}

/* A is 2nv x 2nv and B 2nv x nu, row-major (no activations). */
static void transition_fd(context *c)
{
    mjd_transitionFD(c->m, c->d, c->eps, 1, c->out, c->out + 4 * (size_t)c->m->nv * c->m->nv, NULL, NULL);
}

static void rne(context *c)
{
    mj_kinematics(c->m, c->d);
    mj_comPos(c->m, c->d);
    mj_comVel(c->m, c->d);
    mj_rne(c->m, c->d, 1, c->out);
}

static void crb(context *c)
{
    mj_kinematics(c->m, c->d);
    mj_comPos(c->m, c->d);
    mj_crb(c->m, c->d);
    FULL_M(c->m, c->d, c->out);
}

static void forward(context *c)
{
    mj_forward(c->m, c->d);
}

#if HAS_INVERSE_FD
static void inverse_fd(context *c)
{
    const size_t nv = (size_t)c->m->nv;
    mjd_inverseFD(c->m, c->d, c->eps, 0, c->out, c->out + nv * nv, NULL, NULL, NULL, NULL, NULL);
}
#else
static void inverse_fd(context *c)
{
    (void)c;
}
#endif

static const run_fn runs[NFUNC] = { fd_forward, fd_inverse, rne, crb, forward, transition_fd, inverse_fd };

/* fn(c) with MuJoCo's errors and warnings caught: 0, or -1 with mj_msg set. */
static int trapped(run_fn fn, context *c)
{
    jmp_buf trap;
    mj_warned = 0;
    if (setjmp(trap)) {
        mj_trap = NULL;
        return -1;
    }
    mj_trap = &trap;
    fn(c);
    mj_trap = NULL;
    return mj_warned ? -1 : 0;
}

static int call(void *ctx, int k)
{
    context *c = ctx;
    if (k < 0 || k >= c->pool) return -1;
    c->k = k;
    set_state(c, k);
    return trapped(runs[c->func], c);
}

static void unbind(void *ctx)
{
    context *c = ctx;
    if (!c) return;
    if (c->d) mj_deleteData(c->d);
    free(c->qpos);
    free(c);
}

/* What a call writes (tau for rne, else nv x nv matrices), and result()'s
 * scratch (nv x nv matrices), in mjtNums. */
static size_t out_size(int func, size_t nv)
{
    static const int nmat[NFUNC] = { 3, 2, 0, 1, 0, 6, 2 };
    return func == RNE ? nv : nmat[func] * nv * nv;
}

static size_t work_size(int func, size_t nv)
{
    static const int nmat[NFUNC] = { 0, 2, 0, 0, 0, 3, 2 };
    return nmat[func] * nv * nv;
}

static void *bind(void *model_, int func, int pool, const double *q, const double *v, const double *a,
                  const double *tau, char *err, size_t errlen)
{
    mjp_model *mod = model_;
    const int nq = mod->m->nq, nv = mod->m->nv;
    if (func >= 0 && func < noffer) func = offer[func];
    else func = -1;
    const int inv = func == FD_INVERSE || func == INVERSE_FD;
    const int need_a = inv || func == RNE, need_tau = !inv && func != RNE && func != CRB;
    if (func < 0 || pool < 1 || !q || (need_a && !a) || (need_tau && !tau)) {
        mjc_fail(err, errlen, "bind: bad function %d, pool %d, or a missing input", func, pool);
        return NULL;
    }
    if (func == TRANSITION_FD && !mod->actuated && mjp_with_motors(mod, err, errlen)) return NULL;
    const size_t pool_size = (size_t)pool * (nq + 3 * (size_t)nv);
    const size_t total = pool_size + out_size(func, nv) + work_size(func, nv) + 2 * (size_t)nv;
    context *c = calloc(1, sizeof *c);
    if (c)
        *c = (context){ .mod = mod, .m = func == TRANSITION_FD ? mod->actuated : mod->m, .func = func, .pool = pool,
                        .eps = EPS };
    if (!c || !(c->qpos = calloc(total, sizeof(mjtNum))) || !(c->d = mj_makeData(c->m))) {
        unbind(c);
        mjc_fail(err, errlen, "out of memory");
        return NULL;
    }
    c->qvel = c->qpos + (size_t)pool * nq;
    c->qacc = c->qvel + (size_t)pool * nv;
    c->qfrc = c->qacc + (size_t)pool * nv;
    c->out = c->qfrc + (size_t)pool * nv;
    c->work = c->out + out_size(func, nv);
    c->plus = c->work + work_size(func, nv);
    c->dir = c->plus + nv;
    for (int k = 0; k < pool; k++)
        mjc_state_in(&mod->map, q + (size_t)nq * k, v ? v + (size_t)nv * k : NULL, a ? a + (size_t)nv * k : NULL,
                     tau ? tau + (size_t)nv * k : NULL, c->qpos + (size_t)nq * k, c->qvel + (size_t)nv * k,
                     c->qacc + (size_t)nv * k, c->qfrc + (size_t)nv * k);
    if (call(c, 0)) {        /* a dry run, so that an error shows here and not in the timing */
        mjc_fail(err, errlen, "MuJoCo, %s: %s", funcs[func].name, mj_msg);
        unbind(c);
        return NULL;
    }
    return c;
}

/* ----------------------------------------------------------------- result */

/* The nominal outputs the finite differences leave stale, at state k. */
static void nominal(context *c)
{
    if (c->func == FD_INVERSE || c->func == INVERSE_FD) {
        mj_inverse(c->m, c->d);
        FULL_M(c->m, c->d, c->work);
    } else {
        mj_forward(c->m, c->d);
    }
}

static int result(void *ctx, double *vec, double *mat0, double *mat1, double *mat2, char *err, size_t errlen)
{
    context *c = ctx;
    const mjc_map *map = &c->mod->map;
    const size_t nv = (size_t)c->m->nv, nn = nv * nv, k = (size_t)c->k;
    mjc_point pt = { c->qpos + c->m->nq * k, c->qvel + nv * k, c->qacc + nv * k, c->qfrc + nv * k };
    if (c->func == FD_FORWARD || c->func == FD_INVERSE || c->func == TRANSITION_FD || c->func == INVERSE_FD) {
        set_state(c, c->k);
        if (trapped(nominal, c)) return mjc_fail(err, errlen, "MuJoCo, %s: %s", funcs[c->func].name, mj_msg);
    }
    if (c->func == FD_FORWARD || c->func == TRANSITION_FD || c->func == FORWARD) pt.qacc = c->d->qacc;
    if (c->func == FD_INVERSE || c->func == INVERSE_FD) pt.qfrc = c->d->qfrc_inverse;
    if (c->func == RNE) pt.qfrc = c->out;
    switch (c->func) {
    case FD_FORWARD:
        mjc_qdd_out(map, &pt, vec);
        mjc_fd_out(map, &pt, c->out, c->out + nn, c->out + 2 * nn, mat0, mat1, mat2);
        break;
    case TRANSITION_FD:
        mjc_fd_from_transition(c->m, c->out, c->out + 4 * nn, c->work, c->work + nn, c->work + 2 * nn);
        mjc_qdd_out(map, &pt, vec);
        mjc_fd_out(map, &pt, c->work, c->work + nn, c->work + 2 * nn, mat0, mat1, mat2);
        break;
    case FD_INVERSE:
    case INVERSE_FD:
        mjc_tau_out(map, &pt, vec);
        mjc_id_out(map, &pt, c->out, c->out + nn, c->work, mat0, mat1, c->work + nn);
        break;
    case RNE: mjc_tau_out(map, &pt, vec); break;
    case CRB: mjc_M_out(map, &pt, c->out, mat0); break;
    case FORWARD: mjc_qdd_out(map, &pt, vec); break;
    }
    return 0;
}

static int takes_step(int func)
{
    return func == FD_FORWARD || func == FD_INVERSE || func == TRANSITION_FD || func == INVERSE_FD;
}

static double default_step(int func)
{
    return func >= 0 && func < noffer && takes_step(offer[func]) ? EPS : 0;
}

static int set_step(void *ctx, double step)
{
    context *c = ctx;
    if (!takes_step(c->func) || !(step > 0)) return -1;
    c->eps = step;
    return 0;
}

__attribute__((visibility("default"))) const rbd_peer_api *rbd_peer_entry(void)
{
    static rbd_peer_func table[NFUNC];
    static rbd_peer_api api = { RBD_PEER_ABI, "mujoco", NULL, RBD_PEER_BUILD "; " RBD_PEER_SOURCE, 0, table,
                                load, unload, bind, call, result, unbind, default_step, set_step };
    if (!noffer)
        for (int f = 0; f < NFUNC; f++)
            if (f != INVERSE_FD || HAS_INVERSE_FD) {
                table[noffer] = funcs[f];
                offer[noffer++] = f;
            }
    api.nfunc = noffer;
    api.version = mj_versionString();
    return &api;
}
