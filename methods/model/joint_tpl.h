/*
 * Joint kinematics for any scalar type T: the joint transform X_J(q) and the
 * tangent-space integration q (+) h*d.  Included by joint.h for double (sp_)
 * and double complex (spz_), like spatial_tpl.h.  Analytic throughout: the
 * only branch (series near a zero rotation angle) picks between two
 * evaluations of the same analytic function.
 *
 * Required macros: T, SP(name), SPT(name).
 */
#include <tgmath.h>

/* Rotation matrix R (body -> parent) of the quaternion q = [x y z w], normalised
 * by q / sqrt(q.q) (no conjugation: README.md, "Conventions"). */
static inline void SP(quat_to_R)(const T q[4], T R[9])
{
    T n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    T s = 2 / n2;
    T x = q[0], y = q[1], z = q[2], w = q[3];
    R[0] = 1 - s * (y * y + z * z); R[1] = s * (x * y - z * w);     R[2] = s * (x * z + y * w);
    R[3] = s * (x * y + z * w);     R[4] = 1 - s * (x * x + z * z); R[5] = s * (y * z - x * w);
    R[6] = s * (x * z - y * w);     R[7] = s * (y * z + x * w);     R[8] = 1 - s * (x * x + y * y);
}

/* E of a rotation by the angle whose cosine and sine are c, s about the unit
 * axis of j (E = R^T). */
static inline void SP(jcalc_rot)(const rbd_joint *j, T c, T s, SPT(xform) *XJ)
{
    if (j->axis_id >= 0) {
        /* E = rot_k(q)^T: rows/cols of the other two axes (Featherstone rx, ry, rz) */
        int a = (j->axis_id + 1) % 3, b = (j->axis_id + 2) % 3;
        XJ->E[3 * a + a] = c; XJ->E[3 * a + b] = s;
        XJ->E[3 * b + a] = -s; XJ->E[3 * b + b] = c;
    } else {
        /* Rodrigues: R = 1 + s ax + (1 - c) ax ax, E = R^T */
        const double *u = j->axis;
        T C = 1 - c;
        T R[9] = {
            c + C * u[0] * u[0],        C * u[0] * u[1] - s * u[2], C * u[0] * u[2] + s * u[1],
            C * u[1] * u[0] + s * u[2], c + C * u[1] * u[1],        C * u[1] * u[2] - s * u[0],
            C * u[2] * u[0] - s * u[1], C * u[2] * u[1] + s * u[0], c + C * u[2] * u[2] };
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) XJ->E[3 * a + b] = R[3 * b + a];
    }
}

/* cos t, sin t of a revolute (q = t) or continuous (q = (cos t, sin t) / |q|)
 * joint: what X_J is made of. */
static inline void SP(joint_cos_sin)(const rbd_joint *j, const T *q, T *c, T *s)
{
    if (j->type == RBD_JOINT_CONTINUOUS) {
        T n = sqrt(q[0] * q[0] + q[1] * q[1]);
        *c = q[0] / n; *s = q[1] / n;
    } else {
        *c = cos(q[0]); *s = sin(q[0]);
    }
}

/* X_J(q) for one joint: E = R^T, r = joint translation in the joint frame. */
static inline void SP(jcalc_joint)(const rbd_joint *j, const T *q, SPT(xform) *XJ)
{
    SP(xform_identity)(XJ);
    switch (j->type) {
    case RBD_JOINT_REVOLUTE:
    case RBD_JOINT_CONTINUOUS: {
        /* continuous: q = (cos t, sin t), made unit by q / sqrt(q.q) like the
         * quaternions (analytic: the complex-step perturbation keeps q.q = 1) */
        T c, s;
        SP(joint_cos_sin)(j, q, &c, &s);
        SP(jcalc_rot)(j, c, s, XJ);
        break;
    }
    case RBD_JOINT_PRISMATIC:
        for (int k = 0; k < 3; k++) XJ->r[k] = j->axis[k] * q[0];
        break;
    case RBD_JOINT_SPHERICAL:
    case RBD_JOINT_FREEFLYER: {
        const T *quat = j->type == RBD_JOINT_SPHERICAL ? q : q + 3;
        T R[9];
        SP(quat_to_R)(quat, R);
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) XJ->E[3 * a + b] = R[3 * b + a];
        if (j->type == RBD_JOINT_FREEFLYER)
            for (int k = 0; k < 3; k++) XJ->r[k] = q[k];
        break;
    }
    default:
        break;
    }
}

/* Coefficients of exp on so(3): a = sin(t)/t, b = (1 - cos t)/t^2,
 * c = (t - sin t)/t^3 with t^2 = th2, by series near zero. */
static inline void SP(so3_coeffs)(T th2, T *a, T *b, T *c)
{
    if (fabs(th2) < 1e-4) {
        *a = 1 - th2 / 6 * (1 - th2 / 20 * (1 - th2 / 42 * (1 - th2 / 72)));
        *b = (1 - th2 / 12 * (1 - th2 / 30 * (1 - th2 / 56 * (1 - th2 / 90)))) / 2;
        *c = (1 - th2 / 20 * (1 - th2 / 42 * (1 - th2 / 72 * (1 - th2 / 110)))) / 6;
    } else {
        T t = sqrt(th2);
        *a = sin(t) / t;
        T sh = sin(t / 2);
        *b = 2 * sh * sh / th2;             /* 1 - cos t would cancel for small t */
        *c = (t - sin(t)) / (th2 * t);
    }
}

/* quaternion p = q * exp(w) (right perturbation by a local rotation vector w) */
static inline void SP(quat_mul_exp)(const T q[4], const T w[3], T p[4])
{
    T th2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    T a, b, c;
    SP(so3_coeffs)(th2 / 4, &a, &b, &c);    /* half angle: sin(t/2)/(t/2) */
    T e[4] = { a * w[0] / 2, a * w[1] / 2, a * w[2] / 2, 0 };
    /* cos(t/2) = 1 - (t/2)^2 b */
    e[3] = 1 - th2 / 4 * b;
    T x = q[0], y = q[1], z = q[2], s = q[3];
    p[0] = s * e[0] + x * e[3] + y * e[2] - z * e[1];
    p[1] = s * e[1] - x * e[2] + y * e[3] + z * e[0];
    p[2] = s * e[2] + x * e[1] - y * e[0] + z * e[3];
    p[3] = s * e[3] - x * e[0] - y * e[1] - z * e[2];
}

/* q_out = q (+) h*d for one joint (q of size nq, d of size nv). */
static inline void SP(integrate_joint)(const rbd_joint *j, const T *q, const T *d, T h, T *q_out)
{
    switch (j->type) {
    case RBD_JOINT_REVOLUTE:
    case RBD_JOINT_PRISMATIC:
        q_out[0] = q[0] + h * d[0];
        break;
    case RBD_JOINT_CONTINUOUS: {
        /* (c, s) rotated by the angle h d: exact on the circle, q.q kept */
        T cw = cos(h * d[0]), sw = sin(h * d[0]), c = q[0], s = q[1];
        q_out[0] = c * cw - s * sw;
        q_out[1] = s * cw + c * sw;
        break;
    }
    case RBD_JOINT_SPHERICAL: {
        T w[3] = { h * d[0], h * d[1], h * d[2] };
        SP(quat_mul_exp)(q, w, q_out);
        break;
    }
    case RBD_JOINT_FREEFLYER: {
        /* SE(3): (p, R) * exp([v; w]) = (p + R V(w) v, R exp(w)), d = [v; w] local */
        T v[3] = { h * d[0], h * d[1], h * d[2] }, w[3] = { h * d[3], h * d[4], h * d[5] };
        T th2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
        T a, b, c, wxv[3], wxwxv[3], Vv[3], R[9], dp[3];
        SP(so3_coeffs)(th2, &a, &b, &c);
        SP(cross3)(w, v, wxv);
        SP(cross3)(w, wxv, wxwxv);
        for (int k = 0; k < 3; k++) Vv[k] = v[k] + b * wxv[k] + c * wxwxv[k];
        SP(quat_to_R)(q + 3, R);
        SP(mat3_vec)(R, Vv, dp);
        T p[3] = { q[0] + dp[0], q[1] + dp[1], q[2] + dp[2] };
        SP(quat_mul_exp)(q + 3, w, q_out + 3);
        for (int k = 0; k < 3; k++) q_out[k] = p[k];
        break;
    }
    default:
        break;
    }
}

#undef T
#undef SP
#undef SPT
