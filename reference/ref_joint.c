/*
 * Joint kinematics of the reference over MPC: X_J(q) and the tangent-space
 * complex-step perturbation q (+) i h e_k (README.md, "Conventions": q (+) d = q * exp(d),
 * right/local perturbation; free-flyer v = [linear; angular] in the body frame).
 */
#include "ref_ws.h"

/* R (body -> parent) of the quaternion [x y z w], made unit by dividing by
 * q.q (R is quadratic in q, so this is q / sqrt(q.q) without the sqrt). */
static void quat_R(ref_ws *w, mpc_srcptr q, mpc_ptr R)
{
    mpc_ptr n2 = w->s + 100, s = w->s + 101, t = w->s + 102;
    mpc_sqr(n2, q, RN);
    for (int k = 1; k < 4; k++) cx_mac(w, n2, q + k, q + k);
    mpc_ui_div(s, 2, n2, RN);
    /* R = 1 + s (qv qv^T - |qv|^2 1 + qw [qv]x)  (Rodrigues for a unit quaternion) */
    mpc_srcptr x = q, qw = q + 3;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            mpc_ptr e = R + 3 * a + b;
            mpc_mul(e, x + a, x + b, RN);
            if (a == b) {
                for (int k = 0; k < 3; k++) cx_msc(w, e, x + k, x + k);
            } else {
                int c = 3 - a - b;                     /* [qv]x_{ab} = -eps_{abc} x_c */
                int sign = ((b - a + 3) % 3 == 1) ? -1 : 1;
                mpc_mul(t, qw, x + c, RN);
                if (sign > 0) mpc_add(e, e, t, RN); else mpc_sub(e, e, t, RN);
            }
            mpc_mul(e, e, s, RN);
            if (a == b) mpc_add_ui(e, e, 1, RN);
        }
}

/* p = q (x) e, Hamilton product, quaternions [x y z w] */
static void quat_mul(ref_ws *w, mpc_srcptr q, mpc_srcptr e, mpc_ptr p)
{
    mpc_mul(p + 3, q + 3, e + 3, RN);
    for (int k = 0; k < 3; k++) cx_msc(w, p + 3, q + k, e + k);
    cross3(w, p, q, e);
    for (int k = 0; k < 3; k++) {
        cx_mac(w, p + k, q + 3, e + k);
        cx_mac(w, p + k, e + 3, q + k);
    }
}

int ref_jcalc_xup(ref_ws *w, int i)
{
    const rbd_model *m = w->m;
    const rbd_joint *j = &m->joint[i];
    mpc_srcptr q = w->q + m->idx_q[i];
    mpc_ptr XJ = w->s + 20, R = w->s + 32, cs = w->s + 44;
    vzero(XJ, 12);
    switch (j->type) {
    case RBD_JOINT_REVOLUTE:
    case RBD_JOINT_CONTINUOUS: {
        /* Rodrigues: R = c 1 + s [u]x + (1 - c) u u^T, E = R^T */
        mpc_ptr c = cs, sn = cs + 1, omc = cs + 2, u = cs + 3;
        if (j->type == RBD_JOINT_REVOLUTE) mpc_sin_cos(sn, c, q, RN, RN);
        else {
            /* q = (cos t, sin t) / sqrt(q.q), as joint_tpl.h */
            mpc_sqr(omc, q, RN);
            cx_mac(w, omc, q + 1, q + 1);
            mpc_sqrt(omc, omc, RN);
            mpc_div(c, q, omc, RN);
            mpc_div(sn, q + 1, omc, RN);
        }
        mpc_ui_sub(omc, 1, c, RN);
        for (int k = 0; k < 3; k++) mpc_set_d(u + k, j->axis[k], RN);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) {
                mpc_ptr e = R + 3 * a + b;
                mpc_mul(e, u + a, u + b, RN);
                mpc_mul(e, e, omc, RN);
                if (a == b) mpc_add(e, e, c, RN);
                else {
                    int k = 3 - a - b;
                    if ((b - a + 3) % 3 == 1) cx_msc(w, e, sn, u + k);   /* [u]x_{ab} = -eps_{abk} u_k */
                    else cx_mac(w, e, sn, u + k);
                }
            }
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) mpc_set(XJ + 3 * a + b, R + 3 * b + a, RN);
        break;
    }
    case RBD_JOINT_PRISMATIC:
        for (int k = 0; k < 3; k++) {
            mpc_set_ui(XJ + 4 * k, 1, RN);
            mpc_set_d(cs, j->axis[k], RN);
            mpc_mul(XJ + 9 + k, cs, q, RN);
        }
        break;
    case RBD_JOINT_SPHERICAL:
    case RBD_JOINT_FREEFLYER: {
        int o = j->type == RBD_JOINT_FREEFLYER ? 3 : 0;
        quat_R(w, q + o, R);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) mpc_set(XJ + 3 * a + b, R + 3 * b + a, RN);
        if (o) vset(XJ + 9, q, 3);
        break;
    }
    default:
        return rbd_fail(RBD_ENOTSUP, "reference: joint '%s' has unsupported type %d", m->joint_name[i], (int)j->type);
    }
    /* Xup = X_J Xtree: E = E_J E_T, r = r_T + E_T^T r_J */
    mpc_srcptr Xt = w->Xt + 12 * i;
    mpc_ptr X = w->Xup + 12 * i;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            mpc_ptr e = X + 3 * a + b;
            mpc_set_ui(e, 0, RN);
            for (int k = 0; k < 3; k++) cx_mac(w, e, XJ + 3 * a + k, Xt + 3 * k + b);
        }
    mat3_vec(w, X + 9, Xt, XJ + 9, 1);
    vadd(X + 9, Xt + 9, 3);
    return RBD_OK;
}

/* e = exp(t u) as a quaternion for a complex angle t about the real unit axis
 * e_k: [sin(t/2) e_k, cos(t/2)], analytic in t, no series needed. */
static void quat_exp_axis(ref_ws *w, mpc_srcptr t, int k, mpc_ptr e)
{
    mpc_ptr half = w->s + 50;
    mpc_div_2ui(half, t, 1, RN);
    vzero(e, 3);
    mpc_sin_cos(e + k, e + 3, half, RN, RN);
}

int ref_perturb_q(ref_ws *w, int i, int k, long h_log2)
{
    mpc_ptr t = w->s + 59;
    mpc_set_ui_ui(t, 0, 1, RN);
    mpc_mul_2si(t, t, h_log2, RN);                 /* t = i h, exact */
    return ref_perturb_q_by(w, i, k, t);
}

int ref_perturb_q_by(ref_ws *w, int i, int k, mpc_srcptr t)
{
    const rbd_model *m = w->m;
    const rbd_joint *j = &m->joint[i];
    int o = m->idx_q[i];
    mpc_ptr e = w->s + 61, R = w->s + 65;
    switch (j->type) {
    case RBD_JOINT_REVOLUTE:
    case RBD_JOINT_PRISMATIC:
        mpc_add(w->q + o, w->q0 + o, t, RN);
        break;
    case RBD_JOINT_CONTINUOUS:
        /* (c, s) rotated by the angle t: (c cos t - s sin t, s cos t + c sin t) */
        mpc_sin_cos(e + 1, e, t, RN, RN);
        mpc_mul(w->q + o, w->q0 + o, e, RN);
        cx_msc(w, w->q + o, w->q0 + o + 1, e + 1);
        mpc_mul(w->q + o + 1, w->q0 + o + 1, e, RN);
        cx_mac(w, w->q + o + 1, w->q0 + o, e + 1);
        break;
    case RBD_JOINT_SPHERICAL:
        quat_exp_axis(w, t, k, e);
        quat_mul(w, w->q0 + o, e, w->q + o);
        break;
    case RBD_JOINT_FREEFLYER:
        if (k < 3) {
            /* (p, R) exp([t e_k; 0]) = (p + R t e_k, R) */
            quat_R(w, w->q0 + o + 3, R);
            for (int a = 0; a < 3; a++) {
                mpc_set(w->q + o + a, w->q0 + o + a, RN);
                cx_mac(w, w->q + o + a, R + 3 * a + k, t);
            }
        } else {
            /* (p, R) exp([0; t e_k]) = (p, R exp(t e_k)) */
            quat_exp_axis(w, t, k - 3, e);
            quat_mul(w, w->q0 + o + 3, e, w->q + o + 3);
        }
        break;
    default:
        return rbd_fail(RBD_ENOTSUP, "reference: joint '%s' has unsupported type %d", m->joint_name[i], (int)j->type);
    }
    return RBD_OK;
}

void ref_unperturb_q(ref_ws *w, int i)
{
    int o = w->m->idx_q[i];
    vset(w->q + o, w->q0 + o, w->m->nq_of[i]);
}
