/*
 * Spatial operations for a body whose joint turns about a coordinate axis
 * e_k of its own frame under an Xtree without rotation (rbd_data.axis_flat):
 * Xup = X_J X_tree = (E, r) with E = rot_k(q)^T (joint_tpl.h's jcalc_rot)
 * the identity but for the plane (u, w) = ((k + 1) mod 3, (k + 2) mod 3),
 * E_uu = E_ww = c, E_uw = s, E_wu = -s, and r = Xtree's r (X_J of a revolute
 * joint has no translation).  E^T x then turns only x_u and x_w, so a
 * congruence by E is two plane rotations instead of two 3x3 products.
 * Each function is meant to be inlined with constant (k, u, w): a switch
 * on k at the call site, as in crba.c.
 */
#ifndef RBD_DYNAMICS_TURNED_H
#define RBD_DYNAMICS_TURNED_H

/* (E^T x)_u and (E^T x)_w */
#define TURN_U(c, s, xu, xw) ((c) * (xu) - (s) * (xw))
#define TURN_W(c, s, xu, xw) ((s) * (xu) + (c) * (xw))

/* Xup = (rot_k(q)^T, r_tree) */
static inline void turned_xup(int k, int u, int w, double c, double s, const double r[3], sp_xform *X)
{
    for (int e = 0; e < 9; e++) X->E[e] = 0;
    X->E[4 * k] = 1;
    X->E[4 * u] = c; X->E[3 * u + w] = s; X->E[3 * w + u] = -s; X->E[4 * w] = c;
    for (int e = 0; e < 3; e++) X->r[e] = r[e];
}

/*
 * acc += X^T A X for a symmetric 6x6 A (row-major, body frame) and X = [E 0;
 * -E rx E] as above (RBDA eq. 7.23, aba_tpl.h's sym6_to_parent): first
 * B = R^T A R with R = diag(E, E), i.e. the rows, then the columns, of the
 * index pairs (u, w) and (u + 3, w + 3) turned (96 multiplications where
 * three 3x3 congruences take 162); then with L = [1 0; -rx 1],
 * X^T A X = L^T B L = [B11 - C12 rx + rx B12^T, C12; C12^T, B22],
 * C12 = B12 + rx B22.
 */
static inline void turned_sym6_to_parent(int k, int u, int w, double c, double s, const double r[3],
                                         const double A[36], double acc[36])
{
    double B[36], C12[9], C11[9];
    (void)k;
    for (int e = 0; e < 36; e++) B[e] = A[e];
    for (int o = 0; o < 6; o += 3)
        for (int j = 0; j < 6; j++) {                   /* rows: B <- R^T B */
            const double xu = B[6 * (o + u) + j], xw = B[6 * (o + w) + j];
            B[6 * (o + u) + j] = TURN_U(c, s, xu, xw);
            B[6 * (o + w) + j] = TURN_W(c, s, xu, xw);
        }
    for (int o = 0; o < 6; o += 3)
        for (int i = 0; i < 6; i++) {                   /* columns: B <- B R */
            const double xu = B[6 * i + o + u], xw = B[6 * i + o + w];
            B[6 * i + o + u] = TURN_U(c, s, xu, xw);
            B[6 * i + o + w] = TURN_W(c, s, xu, xw);
        }
#define B11(a, b) B[6 * (a) + (b)]
#define B12(a, b) B[6 * (a) + (b) + 3]
#define B22(a, b) B[6 * ((a) + 3) + (b) + 3]
    for (int j = 0; j < 3; j++) {                       /* C12(:, j) = B12(:, j) + r x B22(:, j) */
        C12[j] = B12(0, j) + (r[1] * B22(2, j) - r[2] * B22(1, j));
        C12[3 + j] = B12(1, j) + (r[2] * B22(0, j) - r[0] * B22(2, j));
        C12[6 + j] = B12(2, j) + (r[0] * B22(1, j) - r[1] * B22(0, j));
    }
    for (int a = 0; a < 3; a++) {                       /* C11(a, :) = B11(a, :) - C12(a, :) x r */
        const double *x = C12 + 3 * a;
        C11[3 * a] = B11(a, 0) - (x[1] * r[2] - x[2] * r[1]);
        C11[3 * a + 1] = B11(a, 1) - (x[2] * r[0] - x[0] * r[2]);
        C11[3 * a + 2] = B11(a, 2) - (x[0] * r[1] - x[1] * r[0]);
    }
    for (int j = 0; j < 3; j++) {                       /* C11(:, j) += r x B12(j, :) */
        C11[j] += r[1] * B12(j, 2) - r[2] * B12(j, 1);
        C11[3 + j] += r[2] * B12(j, 0) - r[0] * B12(j, 2);
        C11[6 + j] += r[0] * B12(j, 1) - r[1] * B12(j, 0);
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            acc[6 * a + b] += C11[3 * a + b];
            acc[6 * a + b + 3] += C12[3 * a + b];
            acc[6 * (a + 3) + b] += C12[3 * b + a];
            acc[6 * (a + 3) + b + 3] += B22(a, b);
        }
#undef B11
#undef B12
#undef B22
}

#endif
