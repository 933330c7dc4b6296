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

/* Xup = X_J X_tree = (rot_k(q)^T E_tree, r_tree) for a joint about e_k under
 * an Xtree with rotation: rot_k^T mixes only rows u and w of E_tree (12
 * multiplications where X_J's 3x3 product takes 27; X_J has no translation) */
static inline void turned_xup_tree(int k, int u, int w, double c, double s, const sp_xform *Xt, sp_xform *X)
{
    const double *Et = Xt->E;
    for (int j = 0; j < 3; j++) {
        X->E[3 * k + j] = Et[3 * k + j];
        X->E[3 * u + j] = c * Et[3 * u + j] + s * Et[3 * w + j];
        X->E[3 * w + j] = c * Et[3 * w + j] - s * Et[3 * u + j];
    }
    for (int e = 0; e < 3; e++) X->r[e] = Xt->r[e];
}

/* Xup from cos, sin of a joint about e_k under a rotated Xtree
 * (turned_xup_tree), a copy per axis so that the indices are constants */
static inline void turned_xup_rotated(int k, double c, double s, const sp_xform *Xt, sp_xform *X)
{
    switch (k) {
    case 0: turned_xup_tree(0, 1, 2, c, s, Xt, X); break;
    case 1: turned_xup_tree(1, 2, 0, c, s, Xt, X); break;
    default: turned_xup_tree(2, 0, 1, c, s, Xt, X);
    }
}

/*
 * The translation half of X^T A X (RBDA eq. 7.23) once the rotation is
 * done, shared by turned_sym6_to_parent and sym6_axis_to_parent below:
 * with B = R^T A R, R = diag(E, E), and L = [1 0; -rx 1] (X = R L),
 * acc += L^T B L = [B11 - C12 rx + rx B12^T, C12; C12^T, B22],
 * C12 = B12 + rx B22; the symmetric C11 and B22 formed once per pair and
 * added to both triangles of acc.  Reads B11 on and above its diagonal
 * only, B12 and B22 whole.
 * Always inlined, so that sharing it leaves the compiled code of CRBA, ABA
 * and M^-1 as it was.  The blocks come as one struct behind a restrict
 * pointer, not as three 3x3 array parameters: so GCC unrolls the (a, b)
 * loop (its % 3 folded) and keeps B in registers across the stores to acc,
 * as it did with the blocks local to each caller.
 */
typedef struct { double B11[3][3], B12[3][3], B22[3][3]; } sym6_blocks;

static inline __attribute__((always_inline)) void sym6_translate_to_parent(const double r[3],
                                                                          const sym6_blocks *restrict B,
                                                                          double *restrict acc)
{
    double C12[3][3];
    for (int j = 0; j < 3; j++) {                       /* C12(:, j) = B12(:, j) + r x B22(:, j) */
        C12[0][j] = B->B12[0][j] + (r[1] * B->B22[2][j] - r[2] * B->B22[1][j]);
        C12[1][j] = B->B12[1][j] + (r[2] * B->B22[0][j] - r[0] * B->B22[2][j]);
        C12[2][j] = B->B12[2][j] + (r[0] * B->B22[1][j] - r[1] * B->B22[0][j]);
    }
    for (int a = 0; a < 3; a++)                         /* C11 = B11 - C12 rx + rx B12^T, a <= b */
        for (int b = a; b < 3; b++) {
            const int b1 = (b + 1) % 3, b2 = (b + 2) % 3, a1 = (a + 1) % 3, a2 = (a + 2) % 3;
            const double x = B->B11[a][b] - (C12[a][b1] * r[b2] - C12[a][b2] * r[b1]) +
                             (r[a1] * B->B12[b][a2] - r[a2] * B->B12[b][a1]);
            acc[6 * a + b] += x;
            if (b != a) acc[6 * b + a] += x;
            acc[6 * (a + 3) + b + 3] += B->B22[a][b];
            if (b != a) acc[6 * (b + 3) + a + 3] += B->B22[a][b];
        }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            acc[6 * a + b + 3] += C12[a][b];
            acc[6 * (b + 3) + a] += C12[a][b];
        }
}

/*
 * acc += X^T A X for a symmetric 6x6 A (row-major, body frame; one entry
 * of each symmetric pair is read) and X = [E 0; -E rx E] as above (RBDA eq. 7.23,
 * aba_tpl.h's sym6_to_parent).  First B = R^T A R with R = diag(E, E): in
 * each symmetric diagonal block only (k, k) stays, (k, u), (k, w) turn once
 * and the (u, w) 2x2 block turns by rows then columns; the off-diagonal
 * block turns rows u, w then columns u, w (52 multiplications where the
 * full 6x6 rotation takes 96 and three 3x3 congruences 162).  Then the
 * translation, sym6_translate_to_parent.
 */
static inline void turned_sym3(int k, int u, int w, double c, double s, const double *A, double B[3][3])
{
    const double tuu = TURN_U(c, s, A[6 * u + u], A[6 * u + w]), tuw = TURN_U(c, s, A[6 * u + w], A[6 * w + w]);
    const double twu = TURN_W(c, s, A[6 * u + u], A[6 * u + w]), tww = TURN_W(c, s, A[6 * u + w], A[6 * w + w]);
    B[k][k] = A[6 * k + k];
    B[k][u] = B[u][k] = TURN_U(c, s, A[6 * k + u], A[6 * k + w]);
    B[k][w] = B[w][k] = TURN_W(c, s, A[6 * k + u], A[6 * k + w]);
    B[u][u] = TURN_U(c, s, tuu, tuw);
    B[u][w] = B[w][u] = TURN_W(c, s, tuu, tuw);
    B[w][w] = TURN_W(c, s, twu, tww);
}

static inline void turned_sym6_to_parent(int k, int u, int w, double c, double s, const double r[3],
                                         const double A[36], double acc[36])
{
    double T12[3][3];
    sym6_blocks B;
    turned_sym3(k, u, w, c, s, A, B.B11);
    turned_sym3(k, u, w, c, s, A + 21, B.B22);
    for (int j = 0; j < 3; j++) {                       /* rows of A12: E^T A12 */
        T12[k][j] = A[6 * k + 3 + j];
        T12[u][j] = TURN_U(c, s, A[6 * u + 3 + j], A[6 * w + 3 + j]);
        T12[w][j] = TURN_W(c, s, A[6 * u + 3 + j], A[6 * w + 3 + j]);
    }
    for (int i = 0; i < 3; i++) {                       /* then its columns: (E^T A12) E */
        B.B12[i][k] = T12[i][k];
        B.B12[i][u] = TURN_U(c, s, T12[i][u], T12[i][w]);
        B.B12[i][w] = TURN_W(c, s, T12[i][u], T12[i][w]);
    }
    sym6_translate_to_parent(r, &B, acc);
}

/*
 * acc += X^T Ia X for any X = (E, r) when body i's joint turns about e_k,
 * with Ia = IA - y U^T, y = U D^-1 (RBDA eq. 7.42, one dof: U = IA e_k,
 * D = U_k) formed entry by entry where it is read.  Ia S = 0, so row and
 * column k of Ia are zero (to rounding) and are not read: E^T A11 E over
 * rows and columns u, w of A11 (24 multiplications where the 3x3 congruence
 * takes 54), E^T A12 E over its rows u, w (36 for 54), E^T A22 E formed for
 * i <= j (45 for 54), and 19 entries of Ia for 36; then the translation,
 * sym6_translate_to_parent.
 */
#define IA_(a, b) (IA[6 * (a) + (b)] - y[a] * U[b])
static inline void sym6_axis_to_parent(int u, int w, const sp_xform *X, const double IA[36], const double y[6],
                                       const double U[6], double acc[36])
{
    const double *E = X->E, *r = X->r;
    double t[3][3];
    sym6_blocks B;
    const double auu = IA_(u, u), auw = IA_(u, w), aww = IA_(w, w);
    for (int j = 0; j < 3; j++) {                       /* t = A11 E, rows u, w, over u, w */
        t[0][j] = auu * E[3 * u + j] + auw * E[3 * w + j];
        t[1][j] = auw * E[3 * u + j] + aww * E[3 * w + j];
    }
    for (int i = 0; i < 3; i++)
        for (int j = i; j < 3; j++) B.B11[i][j] = E[3 * u + i] * t[0][j] + E[3 * w + i] * t[1][j];
    const double au[3] = { IA_(u, 3), IA_(u, 4), IA_(u, 5) }, aw[3] = { IA_(w, 3), IA_(w, 4), IA_(w, 5) };
    for (int j = 0; j < 3; j++) {                       /* t = A12 E, rows u, w */
        t[0][j] = au[0] * E[j] + au[1] * E[3 + j] + au[2] * E[6 + j];
        t[1][j] = aw[0] * E[j] + aw[1] * E[3 + j] + aw[2] * E[6 + j];
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) B.B12[i][j] = E[3 * u + i] * t[0][j] + E[3 * w + i] * t[1][j];
    double a22[3][3];                                   /* A22, symmetric: upper formed */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) a22[a][b] = b < a ? a22[b][a] : IA_(a + 3, b + 3);
    for (int a = 0; a < 3; a++)                         /* t = A22 E */
        for (int j = 0; j < 3; j++) t[a][j] = a22[a][0] * E[j] + a22[a][1] * E[3 + j] + a22[a][2] * E[6 + j];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)                     /* B22 symmetric: j < i read from (j, i) */
            B.B22[i][j] = j < i ? B.B22[j][i] : E[i] * t[0][j] + E[3 + i] * t[1][j] + E[6 + i] * t[2][j];
    sym6_translate_to_parent(r, &B, acc);
}

#undef IA_

#endif
