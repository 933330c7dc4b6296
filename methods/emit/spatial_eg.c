/*
 * spatial_eg.h: each function is its namesake of spatial_tpl.h (or of
 * idsva_ref.c's dense helpers) with the graph's operations for + - * .
 */
#include "emit/spatial_eg.h"

#define ADD(x, y) eg_add(g, x, y)
#define SUB(x, y) eg_sub(g, x, y)
#define MUL(x, y) eg_mul(g, x, y)

static void cross3(eg_graph *g, const eg_id a[3], const eg_id b[3], eg_id out[3])
{
    eg_id x = SUB(MUL(a[1], b[2]), MUL(a[2], b[1]));
    eg_id y = SUB(MUL(a[2], b[0]), MUL(a[0], b[2]));
    eg_id z = SUB(MUL(a[0], b[1]), MUL(a[1], b[0]));
    out[0] = x; out[1] = y; out[2] = z;
}

static eg_id dot3(eg_graph *g, const eg_id a[3], const eg_id b[3], int sa, int sb)
{
    return ADD(ADD(MUL(a[0], b[0]), MUL(a[sa], b[sb])), MUL(a[2 * sa], b[2 * sb]));
}

static void mat3_vec(eg_graph *g, const eg_id A[9], const eg_id x[3], eg_id out[3])
{
    eg_id y[3];
    for (int i = 0; i < 3; i++) y[i] = dot3(g, A + 3 * i, x, 1, 1);
    for (int i = 0; i < 3; i++) out[i] = y[i];
}

static void mat3T_vec(eg_graph *g, const eg_id A[9], const eg_id x[3], eg_id out[3])
{
    eg_id y[3];
    for (int i = 0; i < 3; i++) y[i] = dot3(g, A + i, x, 3, 1);
    for (int i = 0; i < 3; i++) out[i] = y[i];
}

void eg_xform_const(eg_graph *g, const sp_xform *X, eg_xform *out)
{
    for (int k = 0; k < 9; k++) out->E[k] = eg_const(g, X->E[k]);
    for (int k = 0; k < 3; k++) out->r[k] = eg_const(g, X->r[k]);
}

/* joint_tpl.h's quat_to_R, q = [x y z w] normalised by q / sqrt(q.q), stored as E = R^T */
static void quat_E(eg_graph *g, const eg_id q[4], eg_id E[9])
{
    eg_id n2 = ADD(ADD(MUL(q[0], q[0]), MUL(q[1], q[1])), ADD(MUL(q[2], q[2]), MUL(q[3], q[3])));
    eg_id s = eg_div(g, eg_const(g, 2), n2), x = q[0], y = q[1], z = q[2], w = q[3];
    eg_id R[9] = {
        SUB(g->one, MUL(s, ADD(MUL(y, y), MUL(z, z)))), MUL(s, SUB(MUL(x, y), MUL(z, w))), MUL(s, ADD(MUL(x, z), MUL(y, w))),
        MUL(s, ADD(MUL(x, y), MUL(z, w))), SUB(g->one, MUL(s, ADD(MUL(x, x), MUL(z, z)))), MUL(s, SUB(MUL(y, z), MUL(x, w))),
        MUL(s, SUB(MUL(x, z), MUL(y, w))), MUL(s, ADD(MUL(y, z), MUL(x, w))), SUB(g->one, MUL(s, ADD(MUL(x, x), MUL(y, y)))) };
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) E[3 * a + b] = R[3 * b + a];
}

/* joint_tpl.h's jcalc_joint, folded at the joint's axis */
void eg_jcalc(eg_graph *g, const rbd_model *m, int i, eg_xform *XJ)
{
    const rbd_joint *j = &m->joint[i];
    eg_id q[7];
    for (int k = 0; k < m->nq_of[i] && k < 7; k++) q[k] = eg_in(g, EG_IN_Q, m->idx_q[i] + k);
    for (int k = 0; k < 9; k++) XJ->E[k] = k % 4 ? g->zero : g->one;
    for (int k = 0; k < 3; k++) XJ->r[k] = g->zero;
    if (j->type == RBD_JOINT_PRISMATIC) {
        for (int k = 0; k < 3; k++) XJ->r[k] = MUL(eg_const(g, j->axis[k]), q[0]);
        return;
    }
    if (j->type == RBD_JOINT_SPHERICAL || j->type == RBD_JOINT_FREEFLYER) {
        quat_E(g, j->type == RBD_JOINT_SPHERICAL ? q : q + 3, XJ->E);
        if (j->type == RBD_JOINT_FREEFLYER)
            for (int k = 0; k < 3; k++) XJ->r[k] = q[k];
        return;
    }
    eg_id c, s;
    if (j->type == RBD_JOINT_CONTINUOUS) {      /* q = (cos t, sin t) / |q| */
        eg_id n = eg_sqrt(g, ADD(MUL(q[0], q[0]), MUL(q[1], q[1])));
        c = eg_div(g, q[0], n);
        s = eg_div(g, q[1], n);
    } else {
        c = eg_cos(g, q[0]);
        s = eg_sin(g, q[0]);
    }
    if (j->axis_id >= 0) {
        int a = (j->axis_id + 1) % 3, b = (j->axis_id + 2) % 3;
        XJ->E[3 * a + a] = c; XJ->E[3 * a + b] = s;
        XJ->E[3 * b + a] = eg_neg(g, s); XJ->E[3 * b + b] = c;
        return;
    }
    eg_id C = SUB(g->one, c), u[3];
    for (int k = 0; k < 3; k++) u[k] = eg_const(g, j->axis[k]);
    for (int a = 0; a < 3; a++)           /* Rodrigues: R = 1 + s ux + (1 - c) ux ux, E = R^T */
        for (int b = 0; b < 3; b++) {
            eg_id r = MUL(C, MUL(u[a], u[b]));
            if (a == b) r = ADD(c, r);
            else {
                int k = 3 - a - b;
                double sign = (b == (a + 1) % 3) ? -1 : 1;    /* R(a,b) gets -s u_k or +s u_k */
                r = ADD(r, MUL(eg_const(g, sign * j->axis[k]), s));
            }
            XJ->E[3 * b + a] = r;
        }
}

void eg_xform_compose(eg_graph *g, const eg_xform *X_BC, const eg_xform *X_AB, eg_xform *X_AC)
{
    eg_id E[9], t[3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) E[3 * i + j] = dot3(g, X_BC->E + 3 * i, X_AB->E + j, 1, 3);
    mat3T_vec(g, X_AB->E, X_BC->r, t);
    for (int k = 0; k < 9; k++) X_AC->E[k] = E[k];
    for (int k = 0; k < 3; k++) X_AC->r[k] = ADD(X_AB->r[k], t[k]);
}

void eg_xform_inverse(eg_graph *g, const eg_xform *X, eg_xform *Xi)
{
    eg_id r[3], E[9];
    mat3_vec(g, X->E, X->r, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) E[3 * i + j] = X->E[3 * j + i];
    for (int k = 0; k < 9; k++) Xi->E[k] = E[k];
    for (int k = 0; k < 3; k++) Xi->r[k] = eg_neg(g, r[k]);
}

void eg_xform_to_mat6(eg_graph *g, const eg_xform *X, eg_id M[36])
{
    for (int k = 0; k < 36; k++) M[k] = g->zero;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[6 * i + j] = M[6 * (i + 3) + j + 3] = X->E[3 * i + j];
    const eg_id *r = X->r;
    eg_id rx[9] = { g->zero, eg_neg(g, r[2]), r[1], r[2], g->zero, eg_neg(g, r[0]), eg_neg(g, r[1]), r[0], g->zero };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[6 * (i + 3) + j] = eg_neg(g, dot3(g, X->E + 3 * i, rx + j, 1, 3));   /* -E rx */
}

/* spatial_tpl.h's inertia_to_parent, then inertia_to_mat6: with y = E^T h,
 * h_A = y + m r, Ib_A = E^T Ib E - rx yx - (y + m r)x rx; the upper
 * triangle made and mirrored */
void eg_inertia_to(eg_graph *g, const eg_xform *X, const sp_inertia *In, eg_id M[36])
{
    eg_id h[3], Ib[9], y[3], hA[3], mass = eg_const(g, In->m), BE[9];
    for (int k = 0; k < 3; k++) h[k] = eg_const(g, In->h[k]);
    for (int k = 0; k < 9; k++) Ib[k] = eg_const(g, In->Ib[k]);
    const eg_id *r = X->r, *E = X->E;
    mat3T_vec(g, E, h, y);
    for (int k = 0; k < 3; k++) hA[k] = ADD(y[k], MUL(mass, r[k]));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) BE[3 * i + j] = dot3(g, Ib + 3 * i, E + j, 1, 3);
    eg_id ry = dot3(g, r, y, 1, 1), hr = dot3(g, hA, r, 1, 1);
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) {
            eg_id R = dot3(g, E + i, BE + j, 3, 3);
            eg_id c1 = MUL(y[i], r[j]), c2 = MUL(r[i], hA[j]);
            if (i == j) { c1 = SUB(c1, ry); c2 = SUB(c2, hr); }
            M[6 * i + j] = M[6 * j + i] = SUB(R, ADD(c1, c2));
        }
    eg_id hx[9] = { g->zero, eg_neg(g, hA[2]), hA[1], hA[2], g->zero, eg_neg(g, hA[0]), eg_neg(g, hA[1]), hA[0], g->zero };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            M[6 * i + j + 3] = M[6 * (j + 3) + i] = hx[3 * i + j];
            M[6 * (i + 3) + j + 3] = i == j ? mass : g->zero;
        }
}

void eg_crm(eg_graph *g, const eg_id m1[6], const eg_id m2[6], eg_id out[6])
{
    eg_id w[3], v[3], t[3];
    cross3(g, m1, m2, w);
    cross3(g, m1, m2 + 3, v);
    cross3(g, m1 + 3, m2, t);
    for (int k = 0; k < 3; k++) { out[k] = w[k]; out[k + 3] = ADD(v[k], t[k]); }
}

void eg_crf(eg_graph *g, const eg_id m[6], const eg_id f[6], eg_id out[6])
{
    eg_id n[3], t[3], u[3];
    cross3(g, m, f, n);
    cross3(g, m + 3, f + 3, t);
    cross3(g, m, f + 3, u);
    for (int k = 0; k < 3; k++) { out[k] = ADD(n[k], t[k]); out[k + 3] = u[k]; }
}

void eg_crbar(eg_graph *g, const eg_id f[6], const eg_id m[6], eg_id out[6])
{
    eg_crf(g, m, f, out);
}

eg_id eg_dot(eg_graph *g, const eg_id *x, const eg_id *y, int n)
{
    eg_id s = g->zero;
    for (int k = 0; k < n; k++) s = ADD(s, MUL(x[k], y[k]));
    return s;
}

void eg_mv(eg_graph *g, const eg_id A[36], const eg_id x[6], eg_id y[6])
{
    for (int r = 0; r < 6; r++) y[r] = eg_dot(g, A + 6 * r, x, 6);
}

void eg_mtv(eg_graph *g, const eg_id A[36], const eg_id x[6], eg_id y[6])
{
    for (int r = 0; r < 6; r++) {
        eg_id s = g->zero;
        for (int c = 0; c < 6; c++) s = ADD(s, MUL(A[6 * c + r], x[c]));
        y[r] = s;
    }
}

void eg_mm(eg_graph *g, const eg_id A[36], const eg_id B[36], eg_id C[36])
{
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 6; c++) {
            eg_id s = g->zero;
            for (int k = 0; k < 6; k++) s = ADD(s, MUL(A[6 * r + k], B[6 * k + c]));
            C[6 * r + c] = s;
        }
}

void eg_op_mat(eg_graph *g, void (*op)(eg_graph *, const eg_id *, const eg_id *, eg_id *), const eg_id x[6],
               eg_id M[36])
{
    for (int c = 0; c < 6; c++) {
        eg_id e[6], y[6];
        for (int r = 0; r < 6; r++) e[r] = r == c ? g->one : g->zero;
        op(g, x, e, y);
        for (int r = 0; r < 6; r++) M[6 * r + c] = y[r];
    }
}
