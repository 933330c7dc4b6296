/*
 * The articulated-body algorithm over MPC (RBDA Table 7.1; spatial_v2 FDab.m),
 * in two parts so that complex-step columns in qd and tau reuse the articulated
 * inertias of the base point, which depend on q alone:
 *   ref_aba_inertia: IA_i, U_i = IA_i S_i, D_i^-1 = (S_i^T U_i)^-1 and
 *                    Ia_i = IA_i - U_i D_i^-1 U_i^T   (pass 2, inertia half);
 *   ref_aba_bias:    passes 1-3 for the velocity-dependent and force terms.
 * Multi-DOF joints use n_i x n_i blocks, inverted by Gauss-Jordan without
 * pivoting (D_i is symmetric positive definite, so no pivot search -- a
 * comparison on values -- is needed; an exactly zero pivot is refused).
 */
#include "ref_ws.h"

/* Dinv = D^-1 for n x n row-major D stored in s[88..] as [D | 1]; uses s[52..53]. */
static int invert_block(ref_ws *w, int i, int n, mpc_ptr Dinv)
{
    mpc_ptr A = w->s + 88, inv = w->s + 52, f = w->s + 53;
    int ld = 2 * n;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) mpc_set_ui(A + ld * r + n + c, r == c, RN);
    for (int k = 0; k < n; k++) {
        mpc_ptr piv = A + ld * k + k;
        if (mpfr_zero_p(mpc_realref(piv)) && mpfr_zero_p(mpc_imagref(piv)))
            return rbd_fail(RBD_ESINGULAR, "reference: joint '%s': zero articulated inertia pivot (S^T IA S singular)",
                            w->m->joint_name[i]);
        mpc_ui_div(inv, 1, piv, RN);
        for (int c = 0; c < ld; c++) mpc_mul(A + ld * k + c, A + ld * k + c, inv, RN);
        for (int r = 0; r < n; r++) {
            if (r == k) continue;
            mpc_set(f, A + ld * r + k, RN);
            for (int c = 0; c < ld; c++) cx_msc(w, A + ld * r + c, f, A + ld * k + c);
        }
    }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) mpc_set(Dinv + n * r + c, A + ld * r + n + c, RN);
    return RBD_OK;
}

/* IA_p += X^T Ia X = X^T (X^T Ia)^T (Ia symmetric); uses s[0..51] */
static void add_to_parent(ref_ws *w, mpc_ptr IAp, mpc_srcptr X, mpc_srcptr Ia)
{
    mpc_ptr col = w->s + 3, res = w->s + 9, B = w->s + 16;
    for (int c = 0; c < 6; c++) {                 /* B = X^T Ia, by columns */
        for (int r = 0; r < 6; r++) mpc_set(col + r, Ia + 6 * r + c, RN);
        xf_T_force(w, res, X, col);
        for (int r = 0; r < 6; r++) mpc_set(B + 6 * r + c, res + r, RN);
    }
    for (int c = 0; c < 6; c++) {                 /* column c of X^T B^T is X^T (row c of B) */
        xf_T_force(w, res, X, B + 6 * c);
        for (int r = 0; r < 6; r++) mpc_add(IAp + 6 * r + c, IAp + 6 * r + c, res + r, RN);
    }
}

int ref_aba_inertia(ref_ws *w)
{
    const rbd_model *m = w->m;
    vset(w->IA, w->In, 36 * w->nb);
    for (int i = w->nb - 1; i >= 0; i--) {
        int n = m->nv_of[i], o = m->idx_v[i], p = m->parent[i];
        mpc_ptr IA = w->IA + 36 * i, U = w->U + 6 * o, UD = w->UD + 6 * o, Dinv = w->Dinv + 36 * i;
        mpc_ptr D = w->s + 88;
        for (int d = 0; d < n; d++) mat6_vec(w, U + 6 * d, IA, w->S + 6 * (o + d));
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                mpc_ptr e = D + 2 * n * a + b;
                mpc_set_ui(e, 0, RN);
                for (int r = 0; r < 6; r++) cx_mac(w, e, w->S + 6 * (o + a) + r, U + 6 * b + r);
            }
        int rc = invert_block(w, i, n, Dinv);
        if (rc) return rc;
        for (int d = 0; d < n; d++)
            for (int r = 0; r < 6; r++) {
                mpc_ptr e = UD + 6 * d + r;
                mpc_set_ui(e, 0, RN);
                for (int b = 0; b < n; b++) cx_mac(w, e, U + 6 * b + r, Dinv + n * b + d);
            }
        if (p >= 0) {
            for (int r = 0; r < 6; r++)
                for (int c = 0; c < 6; c++)
                    for (int d = 0; d < n; d++) cx_msc(w, IA + 6 * r + c, UD + 6 * d + r, U + 6 * d + c);
            add_to_parent(w, w->IA + 36 * p, w->Xup + 12 * i, IA);
        }
    }
    return RBD_OK;
}

void ref_aba_bias(ref_ws *w)
{
    const rbd_model *m = w->m;
    mpc_ptr vJ = w->s + 3, Iv = w->s + 9, t6 = w->s + 15, un = w->s + 21;
    for (int i = 0; i < w->nb; i++) {             /* pass 1 */
        int p = m->parent[i];
        mpc_ptr v = w->v + 6 * i;
        s_mul(w, i, vJ, w->qd + m->idx_v[i]);
        if (p >= 0) {
            xf_motion(w, v, w->Xup + 12 * i, w->v + 6 * p);
            vadd(v, vJ, 6);
        } else {
            vset(v, vJ, 6);
        }
        crm(w, w->c + 6 * i, v, vJ);
        mat6_vec(w, Iv, w->In + 36 * i, v);
        crf(w, w->pA + 6 * i, v, Iv);
    }
    for (int i = w->nb - 1; i >= 0; i--) {        /* pass 2, bias half */
        int n = m->nv_of[i], o = m->idx_v[i], p = m->parent[i];
        sT_mul(w, i, un, w->pA + 6 * i);
        for (int d = 0; d < n; d++) mpc_sub(w->u + o + d, w->tau + o + d, un + d, RN);
        if (p >= 0) {
            /* pa = pA + Ia c + U D^-1 u */
            mpc_ptr pa = w->s + 30;
            mat6_vec(w, pa, w->IA + 36 * i, w->c + 6 * i);
            vadd(pa, w->pA + 6 * i, 6);
            for (int d = 0; d < n; d++)
                for (int r = 0; r < 6; r++) cx_mac(w, pa + r, w->UD + 6 * (o + d) + r, w->u + o + d);
            xf_T_force(w, t6, w->Xup + 12 * i, pa);
            vadd(w->pA + 6 * p, t6, 6);
        }
    }
    for (int i = 0; i < w->nb; i++) {             /* pass 3 */
        int n = m->nv_of[i], o = m->idx_v[i], p = m->parent[i];
        mpc_ptr a = w->a + 6 * i, Dinv = w->Dinv + 36 * i;
        xf_motion(w, a, w->Xup + 12 * i, p >= 0 ? w->a + 6 * p : w->a0);
        vadd(a, w->c + 6 * i, 6);
        /* qdd = D^-1 (u - U^T a) */
        for (int d = 0; d < n; d++) {
            mpc_set(un + d, w->u + o + d, RN);
            for (int r = 0; r < 6; r++) cx_msc(w, un + d, w->U + 6 * (o + d) + r, a + r);
        }
        for (int d = 0; d < n; d++) {
            mpc_ptr q = w->qdd_out + o + d;
            mpc_set_ui(q, 0, RN);
            for (int b = 0; b < n; b++) cx_mac(w, q, Dinv + n * d + b, un + b);
        }
        s_mul(w, i, t6, w->qdd_out + o);
        vadd(a, t6, 6);
    }
}
