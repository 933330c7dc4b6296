/*
 * The conversions of mujoco_conv.h.  Outputs are first renumbered to the
 * user's dofs, then the free joint's rows and columns are changed in place:
 * at c = its user dof offset, linear c..c+2, rotation c+3..c+5.
 *
 * Derivative terms, to first order.  A tangent step dth turns R into
 * R (I + [dth]x), so on the free joint's linear rows and rotation columns
 *   qvel_lin = R v_b              moves by  V_q = -R [v_b]x
 *   qacc_lin = R acc              moves by  A_q = -R [acc]x,  acc = a_b + w x v_b
 *   qfrc_lin = R f_b              moves by  T_q = -R [f_b]x
 *   an output R^T x_lin           moves by  [R^T x_lin]x
 * and c(v) = [w x v_b; 0] has C_v = dc/dv = [[w]x, -[v_b]x] on the linear rows.
 *   ID:  dtau/dv   = P^T (Tv P + M P C_v)
 *        dtau/dq   = P^T (Tq P + Tv V_q + M A_q) + [f_b]x
 *   FD:  dqdd/dtau = P^T Qt P
 *        dqdd/dv   = P^T Qv P - C_v
 *        dqdd/dq   = P^T (Qq P + Qv V_q + Qt T_q) + [acc]x
 * X V_q, X A_q, X T_q are (X P)'s linear columns times -[v_b]x, -[acc]x, -[f_b]x.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "mujoco_conv.h"

/* R v and R^T v: mju_rotVecMat(T) (vec, mat) up to MuJoCo 3, removed in 4.0
 * for mju_mulMat(T)Vec3 (mat, vec), which 2.2 does not have. */
#if mjVERSION_HEADER >= 1000000
#define ROT(res, vec, mat) mju_mulMatVec3(res, mat, vec)
#define ROT_T(res, vec, mat) mju_mulMatTVec3(res, mat, vec)
#else
#define ROT(res, vec, mat) mju_rotVecMat(res, vec, mat)
#define ROT_T(res, vec, mat) mju_rotVecMatT(res, vec, mat)
#endif

int mjc_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* The free joint at a point, in body coordinates. */
typedef struct {
    mjtNum R[9];             /* body -> world, row-major */
    mjtNum v[3], w[3];       /* linear and angular velocity */
    mjtNum acc[3];           /* R^T qacc_lin = a_b + w x v_b */
    mjtNum f[3];             /* R^T qfrc_lin = f_b */
} free_frame;

static void rotation(const mjtNum *quat_wxyz, mjtNum R[9])
{
    mjtNum quat[4];
    mju_copy4(quat, quat_wxyz);
    mju_normalize4(quat);    /* as mj_kinematics does */
    mju_quat2Mat(R, quat);
}

static void frame_at(const mjc_joint *j, const mjc_point *pt, free_frame *fr)
{
    rotation(pt->qpos + j->mq + 3, fr->R);
    ROT_T(fr->v, pt->qvel + j->mv, fr->R);
    mju_copy3(fr->w, pt->qvel + j->mv + 3);
    ROT_T(fr->acc, pt->qacc + j->mv, fr->R);
    ROT_T(fr->f, pt->qfrc + j->mv, fr->R);
}

static void scatter_vec(const mjc_map *map, const double *x, mjtNum *y)
{
    for (int u = 0; u < map->nv; u++) y[map->dof[u]] = x[u];
}

static void gather_vec(const mjc_map *map, const mjtNum *x, double *y)
{
    for (int u = 0; u < map->nv; u++) y[u] = x[map->dof[u]];
}

static void gather_mat(const mjc_map *map, const mjtNum *X, double *Y)
{
    const int n = map->nv;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) Y[i + (size_t)n * j] = X[map->dof[i] + (size_t)n * map->dof[j]];
}

/* X[:, c..c+2] = X[:, c..c+2] R */
static void cols_R(mjtNum *X, int n, int c, const mjtNum R[9])
{
    mjtNum *x = X + (size_t)n * c;
    for (int i = 0; i < n; i++) {
        mjtNum row[3] = { x[i], x[i + n], x[i + 2 * n] }, t[3];
        ROT_T(t, row, R);
        x[i] = t[0], x[i + n] = t[1], x[i + 2 * n] = t[2];
    }
}

/* X[r..r+2, :] = R^T X[r..r+2, :] */
static void rows_RT(mjtNum *X, int n, int r, const mjtNum R[9])
{
    for (int j = 0; j < n; j++) {
        mjtNum *x = X + r + (size_t)n * j, t[3];
        ROT_T(t, x, R);
        mju_copy3(x, t);
    }
}

/* X[:, c..c+2] += s Y[:, y..y+2] [x]x; row i of Y [x]x is (row i of Y) x x. */
static void add_cols_cross(mjtNum *X, int n, int c, const mjtNum *Y, int y, const mjtNum x[3], mjtNum s)
{
    mjtNum *xc = X + (size_t)n * c;
    const mjtNum *yc = Y + (size_t)n * y;
    for (int i = 0; i < n; i++) {
        mjtNum row[3] = { yc[i], yc[i + n], yc[i + 2 * n] }, t[3];
        mju_cross(t, row, x);
        xc[i] += s * t[0], xc[i + n] += s * t[1], xc[i + 2 * n] += s * t[2];
    }
}

/* X[r..r+2, c..c+2] += s [x]x */
static void add_cross(mjtNum *X, int n, int r, int c, const mjtNum x[3], mjtNum s)
{
    mjtNum *b = X + r + (size_t)n * c;
    b[n] -= s * x[2], b[2 * n] += s * x[1];
    b[1] += s * x[2], b[1 + 2 * n] -= s * x[0];
    b[2] -= s * x[1], b[2 + n] += s * x[0];
}

void mjc_state_in(const mjc_map *map, const double *q, const double *v, const double *a, const double *tau,
                  mjtNum *qpos, mjtNum *qvel, mjtNum *qacc, mjtNum *qfrc)
{
    for (int k = 0; k < map->njoint; k++) {
        const mjc_joint *j = &map->joint[k];
        if (!j->free) {
            qpos[j->mq] = q[j->uq];
            continue;
        }
        mju_copy3(qpos + j->mq, q + j->uq);
        qpos[j->mq + 3] = q[j->uq + 6];
        mju_copy3(qpos + j->mq + 4, q + j->uq + 3);
    }
    if (v) scatter_vec(map, v, qvel);
    if (a) scatter_vec(map, a, qacc);
    if (tau) scatter_vec(map, tau, qfrc);
    const mjc_joint *j = map->free;
    if (!j) return;
    mjtNum R[9], acc[3] = { 0, 0, 0 };
    rotation(qpos + j->mq + 3, R);
    if (v) {
        ROT(qvel + j->mv, v + j->uv, R);
        mju_cross(acc, v + j->uv + 3, v + j->uv);
    }
    if (a) {
        mju_addTo3(acc, a + j->uv);
        ROT(qacc + j->mv, acc, R);
    }
    if (tau) ROT(qfrc + j->mv, tau + j->uv, R);
}

void mjc_tau_out(const mjc_map *map, const mjc_point *pt, double *tau)
{
    gather_vec(map, pt->qfrc, tau);
    if (!map->free) return;
    free_frame fr;
    frame_at(map->free, pt, &fr);
    mju_copy3(tau + map->free->uv, fr.f);
}

void mjc_qdd_out(const mjc_map *map, const mjc_point *pt, double *qdd)
{
    gather_vec(map, pt->qacc, qdd);
    if (!map->free) return;
    free_frame fr;
    mjtNum wv[3];
    frame_at(map->free, pt, &fr);
    mju_cross(wv, fr.w, fr.v);
    mju_sub3(qdd + map->free->uv, fr.acc, wv);
}

void mjc_M_out(const mjc_map *map, const mjc_point *pt, const mjtNum *M_mj, double *M)
{
    gather_mat(map, M_mj, M);
    if (!map->free) return;
    const int n = map->nv, c = map->free->uv;
    mjtNum R[9];
    rotation(pt->qpos + map->free->mq + 3, R);
    cols_R(M, n, c, R);
    rows_RT(M, n, c, R);
}

void mjc_id_out(const mjc_map *map, const mjc_point *pt, const mjtNum *Tq, const mjtNum *Tv, const mjtNum *M_mj,
                double *dtau_dq, double *dtau_dv, mjtNum *work)
{
    gather_mat(map, Tq, dtau_dq);
    gather_mat(map, Tv, dtau_dv);
    if (!map->free) return;
    const int n = map->nv, c = map->free->uv;
    mjtNum *MP = work;
    free_frame fr;
    frame_at(map->free, pt, &fr);
    gather_mat(map, M_mj, MP);
    cols_R(dtau_dq, n, c, fr.R);
    cols_R(dtau_dv, n, c, fr.R);
    cols_R(MP, n, c, fr.R);
    add_cols_cross(dtau_dq, n, c + 3, dtau_dv, c, fr.v, -1);   /* Tv V_q, before Tv changes */
    add_cols_cross(dtau_dq, n, c + 3, MP, c, fr.acc, -1);      /* M A_q */
    add_cols_cross(dtau_dv, n, c, MP, c, fr.w, 1);             /* M P C_v */
    add_cols_cross(dtau_dv, n, c + 3, MP, c, fr.v, -1);
    rows_RT(dtau_dq, n, c, fr.R);
    rows_RT(dtau_dv, n, c, fr.R);
    add_cross(dtau_dq, n, c, c + 3, fr.f, 1);
}

void mjc_fd_out(const mjc_map *map, const mjc_point *pt, const mjtNum *Qq, const mjtNum *Qv, const mjtNum *Qt,
                double *dqdd_dq, double *dqdd_dv, double *dqdd_dtau)
{
    gather_mat(map, Qq, dqdd_dq);
    gather_mat(map, Qv, dqdd_dv);
    gather_mat(map, Qt, dqdd_dtau);
    if (!map->free) return;
    const int n = map->nv, c = map->free->uv;
    free_frame fr;
    frame_at(map->free, pt, &fr);
    cols_R(dqdd_dq, n, c, fr.R);
    cols_R(dqdd_dv, n, c, fr.R);
    cols_R(dqdd_dtau, n, c, fr.R);
    add_cols_cross(dqdd_dq, n, c + 3, dqdd_dv, c, fr.v, -1);   /* Qv V_q */
    add_cols_cross(dqdd_dq, n, c + 3, dqdd_dtau, c, fr.f, -1); /* Qt T_q */
    rows_RT(dqdd_dq, n, c, fr.R);
    rows_RT(dqdd_dv, n, c, fr.R);
    rows_RT(dqdd_dtau, n, c, fr.R);
    add_cross(dqdd_dv, n, c, c, fr.w, -1);                     /* - C_v */
    add_cross(dqdd_dv, n, c, c + 3, fr.v, 1);
    add_cross(dqdd_dq, n, c, c + 3, fr.acc, 1);
}

/* ---------------------------------------------------------------- inertia */

/* Jacobi's method to convergence: I = V diag(d) V^T, V a rotation. */
static void principal_axes(const mjtNum I[9], mjtNum d[3], mjtNum V[9])
{
    mjtNum A[9], J[9], T[9];
    mju_copy(A, I, 9);
    mju_zero(V, 9);
    V[0] = V[4] = V[8] = 1;
    for (int sweep = 0; sweep < 10; sweep++)
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (A[3 * p + q] == 0) continue;
                mjtNum th = (A[4 * q] - A[4 * p]) / (2 * A[3 * p + q]);
                mjtNum t = (th >= 0 ? 1 : -1) / (mju_abs(th) + mju_sqrt(th * th + 1)), c = 1 / mju_sqrt(t * t + 1);
                mju_zero(J, 9);
                J[0] = J[4] = J[8] = 1;
                J[4 * p] = J[4 * q] = c;
                J[3 * p + q] = t * c;
                J[3 * q + p] = -t * c;
                mju_mulMatTMat(T, J, A, 3, 3, 3);
                mju_mulMatMat(A, T, J, 3, 3, 3);
                mju_mulMatMat(T, V, J, 3, 3, 3);
                mju_copy(V, T, 9);
            }
    d[0] = A[0], d[1] = A[4], d[2] = A[8];
}

/* Body b against rbdiff's (MuJoCo's inertia R diag R^T within its axes'
 * error); then the exact axes in place. */
static int exact_body(mjModel *m, int b, const rbd_peer_joint *l, char *err, size_t errlen)
{
    const double *I = l->Ic;
    const char *name = mj_id2name(m, mjOBJ_BODY, b);
    mjtNum R[9], RD[9], I_mj[9], d[3], V[9], dev = 0, com = 0;
    mju_quat2Mat(R, m->body_iquat + 4 * b);
    for (int i = 0; i < 9; i++) RD[i] = R[i] * m->body_inertia[3 * b + i % 3];
    mju_mulMatMatT(I_mj, RD, R, 3, 3, 3);
    for (int i = 0; i < 9; i++) dev = mju_max(dev, mju_abs(I_mj[i] - I[i]));
    for (int i = 0; i < 3; i++) com = mju_max(com, mju_abs(m->body_ipos[3 * b + i] - l->com[i]));
    if (mju_abs(m->body_mass[b] - l->mass) > 1e-12 * l->mass || com > 1e-12 * (1 + mju_norm3(l->com)))
        return mjc_fail(err, errlen, "body '%s': MuJoCo's mass %.17g and CoM differ from rbdiff's (%.17g)",
                        name ? name : "?", m->body_mass[b], l->mass);
    principal_axes(I, d, V);
    if (dev > 1e-5 * mju_max(mju_abs(d[0]), mju_max(mju_abs(d[1]), mju_abs(d[2]))))
        return mjc_fail(err, errlen, "body '%s': MuJoCo's inertia differs from rbdiff's by %.3g", name ? name : "?",
                        dev);
    mju_mat2Quat(m->body_iquat + 4 * b, V);
    mju_copy3(m->body_inertia + 3 * b, d);
    return 0;
}

int mjc_exact_inertia(mjModel *m, int njoint, const rbd_peer_joint *joint, char *err, size_t errlen)
{
    if (njoint != m->nbody - 1)
        return mjc_fail(err, errlen, "MuJoCo has %d moving bodies, rbdiff %d", m->nbody - 1, njoint);
    for (int k = 0; k < njoint; k++) {
        int j = mj_name2id(m, mjOBJ_JOINT, joint[k].name);
        if (j < 0) return mjc_fail(err, errlen, "MuJoCo's model has no joint '%s'", joint[k].name);
        if (exact_body(m, m->jnt_bodyid[j], &joint[k], err, errlen)) return -1;
    }
    return 0;
}

void mjc_fd_from_transition(const mjModel *m, const mjtNum *A, const mjtNum *B, mjtNum *Qq, mjtNum *Qv, mjtNum *Qt)
{
    const int nv = m->nv, nx = 2 * nv;
    const mjtNum h = m->opt.timestep;
    for (int i = 0; i < nv; i++) {
        const mjtNum *a = A + (size_t)nx * (nv + i), *b = B + (size_t)m->nu * (nv + i);
        for (int j = 0; j < nv; j++) {
            Qq[i + (size_t)nv * j] = a[j] / h;
            Qv[i + (size_t)nv * j] = (a[nv + j] - (i == j)) / h;
            Qt[i + (size_t)nv * j] = b[j] / h;   /* motor j drives dof j */
        }
    }
}
