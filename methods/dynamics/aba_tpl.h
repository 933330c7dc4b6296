/*
 * The articulated-body algorithm (RBDA Table 7.1; Featherstone & Orin 2000,
 * Table III), written once for any scalar T like rnea_tpl.h, so that the
 * complex-step method (fd-cs) differentiates the very source rbd_aba runs.
 *
 * Every operation on the computation path is analytic: the n_i x n_i block
 * D_i = S_i^T IA_i S_i is inverted by LDL^T without pivoting, and the only
 * comparisons look at real parts (the singularity check), never steering a
 * value.  Multi-DOF joints (n_i up to 6) use the model's columns m->S;
 * revolute joints about x, y or z (axis_id = a >= 0, S = e_a) take a fast
 * path: U_i is column a of IA_i, D_i its diagonal entry a.
 *
 * Required macros: T, SP(name), SPT(name) (see spatial_tpl.h); joint.h and
 * dynamics.h must be included first.  With RBD_ABA_TURNED (double only, after
 * turned.h) a joint about e_k gets Xup by plane rotations, and a flat axis
 * body (w->flat) carries its Ia to the parent as plane rotations too, by
 * the same congruence as minv_analytic.c's pass 2.
 */
#include <tgmath.h>
#include "model/hot.h"

/* Scratch of one evaluation, all of scalar T (see struct rbd_data for sizes). */
typedef struct {
    SPT(xform) *Xup;            /* [nb] parent -> body               */
    T (*v)[6], (*c)[6], (*pA)[6], (*a)[6];  /* [nb]                  */
    T (*IA)[36];                /* [nb] row-major 6x6                */
    T (*U)[6];                  /* [nv] IA_i S_i                     */
    T *Dinv;                    /* [36*nb] n_i x n_i, row-major      */
    T *u;                       /* [nv] tau_i - S_i^T pA_i           */
    T (*cs)[2];                 /* [nb] or NULL: cos, sin of q_i for joints about an axis */
    const signed char *flat;    /* [nb] or NULL: rbd_data.axis_flat (RBD_ABA_TURNED only) */
} SPT(aba_ws);

static inline double SP(re)(T x) { return creal(x); }

/* a when body i's joint is revolute or continuous about the axis e_a of its
 * frame, else -1 */
static inline int SP(aba_axis)(const rbd_model *m, int i)
{
    return rbd_joint_is_rot1(m->joint[i].type) ? m->joint[i].axis_id : -1;
}

/*
 * acc += X^T A X for a symmetric 6x6 A (row-major) given in the body frame,
 * X = [E 0; -E rx E] from the parent: with L = [1 0; -rx 1] and B_jk = E^T A_jk E,
 * X^T A X = L^T B L = [B11 - C12 rx + rx B12^T, C12; C12^T, B22], C12 = B12 + rx B22.
 * (Articulated inertias are not rigid-body inertias, so sp_inertia_to_parent
 * does not apply; RBDA eq. 7.23.)
 */
static inline void SP(sym6_to_parent)(const SPT(xform) *X, const T A[36], T acc[36])
{
    T A11[9], A12[9], A22[9], B11[9], B12[9], B22[9], C11[9], C12[9], t[3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            A11[3 * r + c] = A[6 * r + c];
            A12[3 * r + c] = A[6 * r + c + 3];
            A22[3 * r + c] = A[6 * (r + 3) + c + 3];
        }
    SP(mat3_congruence)(X->E, A11, B11);
    SP(mat3_congruence)(X->E, A12, B12);
    SP(mat3_congruence)(X->E, A22, B22);
    const T *r = X->r;
    for (int j = 0; j < 3; j++) {               /* column j of rx B22 = r x B22(:,j) */
        T col[3] = { B22[j], B22[3 + j], B22[6 + j] };
        SP(cross3)(r, col, t);
        for (int k = 0; k < 3; k++) C12[3 * k + j] = B12[3 * k + j] + t[k];
    }
    for (int k = 0; k < 3; k++) {               /* row k of C12 rx = C12(k,:) x r */
        SP(cross3)(C12 + 3 * k, r, t);
        for (int j = 0; j < 3; j++) C11[3 * k + j] = B11[3 * k + j] - t[j];
    }
    for (int j = 0; j < 3; j++) {               /* column j of rx B12^T = r x B12(j,:) */
        SP(cross3)(r, B12 + 3 * j, t);
        for (int k = 0; k < 3; k++) C11[3 * k + j] += t[k];
    }
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            acc[6 * a + b] += C11[3 * a + b];
            acc[6 * a + b + 3] += C12[3 * a + b];
            acc[6 * (a + 3) + b] += C12[3 * b + a];
            acc[6 * (a + 3) + b + 3] += B22[3 * a + b];
        }
}

/*
 * Dinv = D^-1 for a symmetric n x n D (row-major, n <= 6) by D = L diag(p) L^T
 * without pivoting, so the result is an analytic function of D.  Returns -1
 * when a pivot's real part is <= tol (the caller names the joint).
 */
static inline int SP(ldl_inv)(int n, const T *D, T *Dinv, double tol)
{
    if (n == 1) {
        if (!(SP(re)(D[0]) > tol)) return -1;
        Dinv[0] = 1 / D[0];
        return 0;
    }
    T L[36], p[6], Li[36];
    for (int j = 0; j < n; j++) {
        T s = D[n * j + j];
        for (int k = 0; k < j; k++) s -= L[n * j + k] * L[n * j + k] * p[k];
        if (!(SP(re)(s) > tol)) return -1;
        p[j] = s;
        for (int i = j + 1; i < n; i++) {
            T t = D[n * i + j];
            for (int k = 0; k < j; k++) t -= L[n * i + k] * L[n * j + k] * p[k];
            L[n * i + j] = t / s;
        }
    }
    for (int j = 0; j < n; j++) {               /* Li = L^-1, unit lower triangular */
        for (int i = 0; i < n; i++) Li[n * i + j] = i == j ? 1 : 0;
        for (int i = j + 1; i < n; i++) {
            T t = -L[n * i + j];
            for (int k = j + 1; k < i; k++) t -= L[n * i + k] * Li[n * k + j];
            Li[n * i + j] = t;
        }
    }
    for (int i = 0; i < n; i++)                 /* D^-1 = Li^T diag(1/p) Li */
        for (int j = i; j < n; j++) {
            T s = 0;
            for (int k = j; k < n; k++) s += Li[n * k + i] * Li[n * k + j] / p[k];
            Dinv[n * i + j] = Dinv[n * j + i] = s;
        }
    return 0;
}

/* Pivot tolerance of body i's joint block: RBD_PIVOT_RTOL times the largest
 * diagonal entry of IA_i (real parts; it only gates the error exit). */
static inline double SP(aba_pivot_tol)(const T IA[36])
{
    double s = 0;
    for (int k = 0; k < 6; k++) {
        double x = SP(re)(IA[7 * k]);
        if (x > s) s = x;
    }
    return RBD_PIVOT_RTOL * s;
}

/*
 * Table 7.1 lines for body i's joint block in pass 2: U_i = IA_i S_i,
 * D_i^-1, u_i = tau_i - S_i^T pA_i.  Returns -1 if D_i is singular.
 */
static inline int SP(aba_joint_block)(const rbd_model *m, int i, const T IA[36], const T pA[6], const T *tau,
                                      T (*U)[6], T *Dinv, T *u)
{
    const int v0 = m->idx_v[i], n = m->nv_of[i];
    double tol = SP(aba_pivot_tol)(IA);
    const int ax = SP(aba_axis)(m, i);
    if (ax >= 0) {
        for (int r = 0; r < 6; r++) U[v0][r] = IA[6 * r + ax];
        if (!(SP(re)(IA[7 * ax]) > tol)) return -1;
        Dinv[0] = 1 / IA[7 * ax];
        if (u) u[v0] = tau[v0] - pA[ax];
        return 0;
    }
    const double *S = m->S + 6 * v0;
    T D[36];
    if (rbd_joint_unit_row(&m->joint[i], 0) >= 0) {    /* every column e_a (joint.h): picks, exact */
        int a[6];
        for (int k = 0; k < n; k++) a[k] = rbd_joint_unit_row(&m->joint[i], k);
        for (int k = 0; k < n; k++)
            for (int r = 0; r < 6; r++) U[v0 + k][r] = IA[6 * r + a[k]];
        for (int x = 0; x < n; x++) {
            for (int b = 0; b < n; b++) D[n * x + b] = U[v0 + b][a[x]];
            if (u) u[v0 + x] = tau[v0 + x] - pA[a[x]];
        }
        return SP(ldl_inv)(n, D, Dinv, tol);
    }
    for (int k = 0; k < n; k++)
        for (int r = 0; r < 6; r++) {
            T s = 0;
            for (int c = 0; c < 6; c++) s += IA[6 * r + c] * S[6 * k + c];
            U[v0 + k][r] = s;
        }
    for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
            T s = 0;
            for (int r = 0; r < 6; r++) s += S[6 * a + r] * U[v0 + b][r];
            D[n * a + b] = s;
        }
        if (u) {
            T s = tau[v0 + a];
            for (int r = 0; r < 6; r++) s -= S[6 * a + r] * pA[r];
            u[v0 + a] = s;
        }
    }
    return SP(ldl_inv)(n, D, Dinv, tol);
}

/* Ia = IA - U D^-1 U^T for body i (RBDA eq. 7.42); UD = U D^-1 (6 x n_i). */
static inline void SP(aba_Ia)(const rbd_model *m, int i, const T IA[36], const T (*U)[6], const T *Dinv,
                              T UD[][6], T Ia[36])
{
    const int v0 = m->idx_v[i], n = m->nv_of[i];
    if (n == 1) {
        const T *u = U[v0];
        for (int r = 0; r < 6; r++) UD[0][r] = u[r] * Dinv[0];
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) Ia[6 * r + c] = IA[6 * r + c] - UD[0][r] * u[c];
        return;
    }
    for (int b = 0; b < n; b++)
        for (int r = 0; r < 6; r++) {
            T s = 0;
            for (int k = 0; k < n; k++) s += U[v0 + k][r] * Dinv[n * k + b];
            UD[b][r] = s;
        }
    for (int r = 0; r < 6; r++)
        for (int c = r; c < 6; c++) {
            T s = IA[6 * r + c];
            for (int k = 0; k < n; k++) s -= UD[k][r] * U[v0 + k][c];
            Ia[6 * r + c] = Ia[6 * c + r] = s;
        }
}

/* Xup_i = X_J(q_i) X_tree,i; cos, sin into w->cs for a joint about an axis. */
static inline void SP(aba_xup)(const rbd_model *m, const SPT(xform) *Xtree, const SPT(aba_ws) *w, int i, const T *qi)
{
    const int ax = SP(aba_axis)(m, i);
#ifdef RBD_ABA_TURNED
    if (ax >= 0) {
        T c, s;
        SP(joint_cos_sin)(&m->joint[i], qi, &c, &s);
        if (w->cs) { w->cs[i][0] = c; w->cs[i][1] = s; }
        if (w->flat && w->flat[i] >= 0) turned_xup(ax, (ax + 1) % 3, (ax + 2) % 3, c, s, Xtree[i].r, &w->Xup[i]);
        else turned_xup_rotated(ax, c, s, &Xtree[i], &w->Xup[i]);
        return;
    }
#endif
    SPT(xform) XJ;
    SP(jcalc_joint)(&m->joint[i], qi, &XJ);
    SP(xform_compose)(&XJ, &Xtree[i], &w->Xup[i]);
    if (ax >= 0 && w->cs) {
        const int b = ax == 2 ? 0 : ax + 1, e = b == 2 ? 0 : b + 1;
        w->cs[i][0] = XJ.E[3 * b + b]; w->cs[i][1] = XJ.E[3 * b + e];
    }
}

/* a_i += S_i qdd_i */
static inline void SP(aba_add_joint_acc)(const rbd_model *m, int i, const T *qdd, T a[6])
{
    const int v0 = m->idx_v[i];
    if (SP(aba_axis)(m, i) >= 0) {
        a[m->joint[i].axis_id] += qdd[v0];
    } else {
        const double *S = m->S + 6 * v0;
        for (int k = 0; k < m->nv_of[i]; k++)
            for (int r = 0; r < 6; r++) a[r] += S[6 * k + r] * qdd[v0 + k];
    }
}

/* IA_p += Xup_i^T Ia Xup_i (RBDA eq. 7.23). */
static inline void SP(aba_to_parent)(const SPT(aba_ws) *w, int i, const T Ia[36], T IAp[36])
{
    const SPT(xform) *X = &w->Xup[i];
#ifdef RBD_ABA_TURNED
    switch (w->flat ? w->flat[i] : -1) {        /* constant plane indices in each copy */
    case 0: turned_sym6_to_parent(0, 1, 2, X->E[4], X->E[5], X->r, Ia, IAp); return;
    case 1: turned_sym6_to_parent(1, 2, 0, X->E[8], X->E[6], X->r, Ia, IAp); return;
    case 2: turned_sym6_to_parent(2, 0, 1, X->E[0], X->E[1], X->r, Ia, IAp); return;
    default: break;
    }
#endif
    SP(sym6_to_parent)(X, Ia, IAp);
}

/*
 * Body i's articulated inertia and bias force towards its parent: pa = pA +
 * Ia c + U D^-1 u (RBDA eq. 7.43) into pa, IA_p += Xup^T Ia Xup (eq. 7.23),
 * Ia = IA - U D^-1 U^T (eq. 7.42).  With RBD_ABA_TURNED a joint about e_k
 * under a rotated Xtree never forms Ia: Ia c = IA c - y U^T c with y = U
 * D^-1, and the congruence skips Ia's zero row and column k (turned.h's
 * sym6_axis_to_parent, as minv_analytic.c's pass 2).
 */
static inline void SP(aba_carry)(const rbd_model *m, const SPT(aba_ws) *w, int i, const T *Dinv, T pa[6])
{
    const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
    const T *IA = w->IA[i], *pA = w->pA[i], *c = w->c[i];
#ifdef RBD_ABA_TURNED
    const int k = w->flat && w->flat[i] < 0 ? SP(aba_axis)(m, i) : -1;
    if (k >= 0) {
        const T *U = w->U[v0];
        T y[6], Uc = 0;
        for (int r = 0; r < 6; r++) { y[r] = U[r] * Dinv[0]; Uc += U[r] * c[r]; }
        const T g = w->u[v0] - Uc;
        for (int r = 0; r < 6; r++) {
            T s = pA[r];
            for (int q = 0; q < 6; q++) s += IA[6 * r + q] * c[q];
            pa[r] = s + y[r] * g;
        }
        const SPT(xform) *X = &w->Xup[i];
        switch (k) {                            /* constant plane indices in each copy */
        case 0: sym6_axis_to_parent(1, 2, X, IA, y, U, w->IA[p]); return;
        case 1: sym6_axis_to_parent(2, 0, X, IA, y, U, w->IA[p]); return;
        default: sym6_axis_to_parent(0, 1, X, IA, y, U, w->IA[p]); return;
        }
    }
#endif
    T UD[6][6], Ia[36];
    SP(aba_Ia)(m, i, IA, (const T (*)[6])w->U, Dinv, UD, Ia);
    for (int r = 0; r < 6; r++) {
        T s = pA[r];
        for (int q = 0; q < 6; q++) s += Ia[6 * r + q] * c[q];
        if (n == 1) s += UD[0][r] * w->u[v0];   /* one dof: no inner loop */
        else for (int q = 0; q < n; q++) s += UD[q][r] * w->u[v0 + q];
        pa[r] = s;
    }
    SP(aba_to_parent)(w, i, Ia, w->IA[p]);
}

/*
 * qdd = FD(q, qd, tau).  Returns -1, or the body whose joint block D_i is
 * singular (qdd is then untouched).  Model constants come as T (Xtree, Ib).
 */
RBD_HOT static inline int SP(aba)(const rbd_model *m, const SPT(xform) *Xtree, const SPT(inertia) *Ib,
                          const SPT(aba_ws) *w, const T *q, const T *qd, const T *tau, T *qdd)
{
    const int nb = m->nb;
    /* pass 1: velocities, velocity-product accelerations c_i, bias forces */
    for (int i = 0; i < nb; i++) {
        SP(aba_xup)(m, Xtree, w, i, q + m->idx_q[i]);
        const int v0 = m->idx_v[i], p = m->parent[i];
        T *v = w->v[i], *c = w->c[i], vp[6] = { 0 }, Iv[6];
        if (p >= 0) SP(xform_motion)(&w->Xup[i], w->v[p], vp);
        const int ax = SP(aba_axis)(m, i);
        if (ax >= 0) {
            const int b = ax == 2 ? 0 : ax + 1, e = b == 2 ? 0 : b + 1;
            T s = qd[v0];
            for (int r = 0; r < 6; r++) v[r] = vp[r];
            v[ax] += s;
            /* c_i = v_i x (e_ax qd_i) */
            c[b] = s * v[e]; c[e] = -s * v[b]; c[ax] = 0;
            c[3 + b] = s * v[3 + e]; c[3 + e] = -s * v[3 + b]; c[3 + ax] = 0;
        } else {
            T vJ[6] = { 0 };
            const double *S = m->S + 6 * v0;
            for (int k = 0; k < m->nv_of[i]; k++)
                for (int r = 0; r < 6; r++) vJ[r] += S[6 * k + r] * qd[v0 + k];
            for (int r = 0; r < 6; r++) v[r] = vp[r] + vJ[r];
            SP(crm)(v, vJ, c);                  /* c_J = 0 for every joint type here */
        }
        SP(inertia_to_mat6)(&Ib[i], w->IA[i]);
        SP(inertia_motion)(&Ib[i], v, Iv);
        SP(crf)(v, Iv, w->pA[i]);
    }
    /* pass 2: articulated inertias and bias forces, leaves to root */
    for (int i = nb - 1; i >= 0; i--) {
        const int p = m->parent[i];
        T *IA = w->IA[i], *pA = w->pA[i], *Dinv = w->Dinv + 36 * i;
        if (SP(aba_joint_block)(m, i, IA, pA, tau, w->U, Dinv, w->u)) return i;
        if (p < 0) continue;
        T pa[6], fp[6];
        SP(aba_carry)(m, w, i, Dinv, pa);
        SP(xform_T_force)(&w->Xup[i], pa, fp);
        for (int r = 0; r < 6; r++) w->pA[p][r] += fp[r];
    }
    /* pass 3: accelerations, root to leaves */
    for (int i = 0; i < nb; i++) {
        const int v0 = m->idx_v[i], n = m->nv_of[i], p = m->parent[i];
        const T *Dinv = w->Dinv + 36 * i;
        T ap[6], *a = w->a[i];
        if (p >= 0) {
            SP(xform_motion)(&w->Xup[i], w->a[p], ap);
        } else {
            T a0[6];
            for (int r = 0; r < 6; r++) a0[r] = m->a0[r];
            SP(xform_motion)(&w->Xup[i], a0, ap);
        }
        for (int r = 0; r < 6; r++) a[r] = ap[r] + w->c[i][r];
        /* qdd_i = D^-1 (u_i - U_i^T a'_i) */
        if (n == 1) {
            T s = w->u[v0];
            for (int r = 0; r < 6; r++) s -= w->U[v0][r] * a[r];
            qdd[v0] = Dinv[0] * s;
            SP(aba_add_joint_acc)(m, i, qdd, a);
            continue;
        }
        T y[6];
        for (int k = 0; k < n; k++) {
            T s = w->u[v0 + k];
            for (int r = 0; r < 6; r++) s -= w->U[v0 + k][r] * a[r];
            y[k] = s;
        }
        for (int k = 0; k < n; k++) {
            T s = 0;
            for (int l = 0; l < n; l++) s += Dinv[n * k + l] * y[l];
            qdd[v0 + k] = s;
        }
        SP(aba_add_joint_acc)(m, i, qdd, a);
    }
    return -1;
}

#undef T
#undef SP
#undef SPT
