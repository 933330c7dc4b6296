/*
 * Spatial vector algebra, written once for any scalar type T.
 *
 * spatial.h includes this file twice: with T = double and prefix sp_, and with
 * T = double complex and prefix spz_ (complex step).  Everything here is
 * analytic in its arguments (no abs, no comparisons on values), as complex step
 * requires (README.md, "Conventions").
 *
 * Conventions (Featherstone, RBDA ch. 2):
 *  - motion vector m = [w; v], force vector f = [n; f], angular part first;
 *  - a Plucker transform X = (E, r) from frame A to frame B: E rotates A
 *    coordinates into B coordinates (row-major 3x3), r is B's origin in A
 *    coordinates.  As a 6x6 matrix X = [E 0; -E rx E];
 *  - a spatial inertia is kept compactly as mass m, first moment h = m c and
 *    rotational inertia Ib about the frame origin (symmetric, full 3x3):
 *    I = [Ib hx; hx^T m1] (RBDA eq. 2.63 with Ib = Ic - m cx cx).
 *
 * Required macros: T (scalar), SP(name) (function prefix), SPT(name) (type
 * prefix).  They are undefined again at the end.
 */

typedef struct { T E[9]; T r[3]; } SPT(xform);
typedef struct { T m; T h[3]; T Ib[9]; } SPT(inertia);

/* ---- 3-vectors and 3x3 matrices (row-major) ---- */

static inline void SP(cross3)(const T a[3], const T b[3], T out[3])
{
    T x = a[1] * b[2] - a[2] * b[1];
    T y = a[2] * b[0] - a[0] * b[2];
    T z = a[0] * b[1] - a[1] * b[0];
    out[0] = x; out[1] = y; out[2] = z;
}

static inline T SP(dot3)(const T a[3], const T b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void SP(mat3_vec)(const T A[9], const T x[3], T out[3])
{
    T y0 = A[0] * x[0] + A[1] * x[1] + A[2] * x[2];
    T y1 = A[3] * x[0] + A[4] * x[1] + A[5] * x[2];
    T y2 = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
    out[0] = y0; out[1] = y1; out[2] = y2;
}

static inline void SP(mat3T_vec)(const T A[9], const T x[3], T out[3])
{
    T y0 = A[0] * x[0] + A[3] * x[1] + A[6] * x[2];
    T y1 = A[1] * x[0] + A[4] * x[1] + A[7] * x[2];
    T y2 = A[2] * x[0] + A[5] * x[1] + A[8] * x[2];
    out[0] = y0; out[1] = y1; out[2] = y2;
}

/* C = A * B */
static inline void SP(mat3_mul)(const T A[9], const T B[9], T C[9])
{
    T t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
    for (int k = 0; k < 9; k++) C[k] = t[k];
}

/* C = A^T * B * A  (rotate a symmetric tensor B given in B-coords into A-coords when A = E) */
static inline void SP(mat3_congruence)(const T A[9], const T B[9], T C[9])
{
    T BA[9], t[9];
    SP(mat3_mul)(B, A, BA);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            t[3 * i + j] = A[i] * BA[j] + A[3 + i] * BA[3 + j] + A[6 + i] * BA[6 + j];
    for (int k = 0; k < 9; k++) C[k] = t[k];
}

/* ---- cross operators: eqs. (6), (7) and (43) of the IDSVA paper ---- */

/* out = m1 x m2 (motion cross motion), eq. (6) */
static inline void SP(crm)(const T m1[6], const T m2[6], T out[6])
{
    T w[3], v[3], t[3];
    SP(cross3)(m1, m2, w);
    SP(cross3)(m1, m2 + 3, v);
    SP(cross3)(m1 + 3, m2, t);
    out[0] = w[0]; out[1] = w[1]; out[2] = w[2];
    out[3] = v[0] + t[0]; out[4] = v[1] + t[1]; out[5] = v[2] + t[2];
}

/* out = m x* f (motion cross force), eq. (7) */
static inline void SP(crf)(const T m[6], const T f[6], T out[6])
{
    T n[3], t[3], g[3];
    SP(cross3)(m, f, n);
    SP(cross3)(m + 3, f + 3, t);
    SP(cross3)(m, f + 3, g);
    out[0] = n[0] + t[0]; out[1] = n[1] + t[1]; out[2] = n[2] + t[2];
    out[3] = g[0]; out[4] = g[1]; out[5] = g[2];
}

/* out = (f xbar*) m = m x* f, eq. (43) */
static inline void SP(crbar)(const T f[6], const T m[6], T out[6])
{
    SP(crf)(m, f, out);
}

/* ---- Plucker transforms ---- */

static inline void SP(xform_identity)(SPT(xform) *X)
{
    for (int k = 0; k < 9; k++) X->E[k] = 0;
    X->E[0] = X->E[4] = X->E[8] = 1;
    X->r[0] = X->r[1] = X->r[2] = 0;
}

/* out = X m : [E w; E (v - r x w)] */
static inline void SP(xform_motion)(const SPT(xform) *X, const T m[6], T out[6])
{
    T t[3], u[3];
    SP(cross3)(X->r, m, t);
    u[0] = m[3] - t[0]; u[1] = m[4] - t[1]; u[2] = m[5] - t[2];
    SP(mat3_vec)(X->E, m, out);
    SP(mat3_vec)(X->E, u, out + 3);
}

/* out = X^-1 m : [E^T w; E^T v + r x E^T w] */
static inline void SP(xform_inv_motion)(const SPT(xform) *X, const T m[6], T out[6])
{
    T w[3], v[3], t[3];
    SP(mat3T_vec)(X->E, m, w);
    SP(mat3T_vec)(X->E, m + 3, v);
    SP(cross3)(X->r, w, t);
    out[0] = w[0]; out[1] = w[1]; out[2] = w[2];
    out[3] = v[0] + t[0]; out[4] = v[1] + t[1]; out[5] = v[2] + t[2];
}

/* out = X* f = X^-T f : [E (n - r x f); E f] */
static inline void SP(xform_force)(const SPT(xform) *X, const T f[6], T out[6])
{
    T t[3], u[3];
    SP(cross3)(X->r, f + 3, t);
    u[0] = f[0] - t[0]; u[1] = f[1] - t[1]; u[2] = f[2] - t[2];
    SP(mat3_vec)(X->E, f + 3, out + 3);
    SP(mat3_vec)(X->E, u, out);
}

/* out = X^T f (force from B back to A) : [E^T n + r x E^T f; E^T f] */
static inline void SP(xform_T_force)(const SPT(xform) *X, const T f[6], T out[6])
{
    T n[3], g[3], t[3];
    SP(mat3T_vec)(X->E, f, n);
    SP(mat3T_vec)(X->E, f + 3, g);
    SP(cross3)(X->r, g, t);
    out[0] = n[0] + t[0]; out[1] = n[1] + t[1]; out[2] = n[2] + t[2];
    out[3] = g[0]; out[4] = g[1]; out[5] = g[2];
}

/* X_AC = X_BC * X_AB : E = E2 E1, r = r1 + E1^T r2 */
static inline void SP(xform_compose)(const SPT(xform) *X_BC, const SPT(xform) *X_AB, SPT(xform) *X_AC)
{
    T E[9], t[3];
    SP(mat3_mul)(X_BC->E, X_AB->E, E);
    SP(mat3T_vec)(X_AB->E, X_BC->r, t);
    for (int k = 0; k < 9; k++) X_AC->E[k] = E[k];
    for (int k = 0; k < 3; k++) X_AC->r[k] = X_AB->r[k] + t[k];
}

/* X^-1 = (E^T, -E r) */
static inline void SP(xform_inverse)(const SPT(xform) *X, SPT(xform) *Xi)
{
    T r[3], E[9];
    SP(mat3_vec)(X->E, X->r, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) E[3 * i + j] = X->E[3 * j + i];
    for (int k = 0; k < 9; k++) Xi->E[k] = E[k];
    for (int k = 0; k < 3; k++) Xi->r[k] = -r[k];
}

/* Dense 6x6 of a Plucker transform (row-major), for tests and exports. */
static inline void SP(xform_to_mat6)(const SPT(xform) *X, T M[36])
{
    for (int k = 0; k < 36; k++) M[k] = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            M[6 * i + j] = X->E[3 * i + j];
            M[6 * (i + 3) + j + 3] = X->E[3 * i + j];
        }
    /* -E rx */
    const T *r = X->r;
    T rx[9] = { 0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0 };
    T Erx[9];
    SP(mat3_mul)(X->E, rx, Erx);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[6 * (i + 3) + j] = -Erx[3 * i + j];
}

/* ---- spatial inertias ---- */

/* From mass, centre of mass c and rotational inertia Ic about the CoM (RBDA eq. 2.63). */
static inline void SP(inertia_from_mcI)(T m, const T c[3], const T Ic[9], SPT(inertia) *In)
{
    In->m = m;
    for (int k = 0; k < 3; k++) In->h[k] = m * c[k];
    /* Ib = Ic - m cx cx = Ic + m (|c|^2 1 - c c^T) */
    T cc = SP(dot3)(c, c);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            In->Ib[3 * i + j] = Ic[3 * i + j] + m * ((i == j ? cc : 0) - c[i] * c[j]);
}

static inline void SP(inertia_zero)(SPT(inertia) *In)
{
    In->m = 0;
    for (int k = 0; k < 3; k++) In->h[k] = 0;
    for (int k = 0; k < 9; k++) In->Ib[k] = 0;
}

static inline void SP(inertia_add)(SPT(inertia) *acc, const SPT(inertia) *In)
{
    acc->m += In->m;
    for (int k = 0; k < 3; k++) acc->h[k] += In->h[k];
    for (int k = 0; k < 9; k++) acc->Ib[k] += In->Ib[k];
}

/* out = I m : [Ib w + h x v; m v - h x w] */
static inline void SP(inertia_motion)(const SPT(inertia) *In, const T m[6], T out[6])
{
    T a[3], b[3], c[3];
    SP(mat3_vec)(In->Ib, m, a);
    SP(cross3)(In->h, m + 3, b);
    SP(cross3)(In->h, m, c);
    out[0] = a[0] + b[0]; out[1] = a[1] + b[1]; out[2] = a[2] + b[2];
    out[3] = In->m * m[3] - c[0]; out[4] = In->m * m[4] - c[1]; out[5] = In->m * m[5] - c[2];
}

/*
 * I_A = X^T I_B X: an inertia given in frame B expressed in frame A, where X
 * is the transform from A to B.  With y = E^T h_B:
 *   h_A = y + m r,  Ib_A = E^T Ib_B E - rx yx - (y + m r)x rx.
 */
static inline void SP(inertia_to_parent)(const SPT(xform) *X, const SPT(inertia) *IB, SPT(inertia) *IA)
{
    T y[3], hA[3], R[9];
    const T *r = X->r;
    SP(mat3T_vec)(X->E, IB->h, y);
    for (int k = 0; k < 3; k++) hA[k] = y[k] + IB->m * r[k];
    SP(mat3_congruence)(X->E, IB->Ib, R);
    /* ax bx = b a^T - (a.b) 1 */
    T ry = SP(dot3)(r, y), hr = SP(dot3)(hA, r);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            R[3 * i + j] -= (y[i] * r[j] - (i == j ? ry : 0)) + (r[i] * hA[j] - (i == j ? hr : 0));
    IA->m = IB->m;
    for (int k = 0; k < 3; k++) IA->h[k] = hA[k];
    for (int k = 0; k < 9; k++) IA->Ib[k] = R[k];
}

/* Dense 6x6 of a spatial inertia (row-major). */
static inline void SP(inertia_to_mat6)(const SPT(inertia) *In, T M[36])
{
    const T *h = In->h;
    T hx[9] = { 0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0 };
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            M[6 * i + j] = In->Ib[3 * i + j];
            M[6 * i + j + 3] = hx[3 * i + j];
            M[6 * (i + 3) + j] = -hx[3 * i + j];
            M[6 * (i + 3) + j + 3] = i == j ? In->m : 0;    /* every entry once: no clearing pass (a memset call) */
        }
}

#undef T
#undef SP
#undef SPT
