/* Analytic flop counts (flops.h).  Dense spatial-algebra costs, 1 flop per
 * multiply or add:
 *   axpy of a 6-vector (y += S s)                       12
 *   spatial cross product (v x)u or (v x*)f             30  (three 3-D crosses of 9, three adds)
 *   6x6 matrix times 6-vector (I v, B S)                66
 *   dot of 6-vectors (S^T f)                            11
 *   Plucker transform of a 6-vector [E w; E(v - r x w)] 42  (two 3x3 mat-vecs 15, a cross 9, 3 subs)
 *   composition X_i = X_J X_tree (rotation, offset)     63  (3x3 product 45, mat-vec 15, add 3)
 *   ground-frame inertia X^* I X^-1 from (m, h, Ibar)  174  (R Ibar R^T 90, R h 15, m p 3, parallel
 *                                                            axis terms 54, adds 12)
 *   congruence X^T Ia X of a 6x6 with a Plucker X      504  (six columns transformed twice)
 *   6x6 add                                             36
 * Lines cited are those of the source papers' algorithms. */
#include <math.h>
#include <string.h>
#include "measure/flops.h"

void flops_tree_of(const rbd_model *m, flops_tree *t)
{
    memset(t, 0, sizeof *t);
    t->N = m->nb;
    t->nv = m->nv;
    t->revolute_only = 1;
    long depth_sum = 0;
    /* walking each parent chain is O(P); this runs once per measurement,
     * outside the timed loop */
    for (int i = 0; i < m->nb; i++) {
        int d = 0;
        for (int k = i; k >= 0; k = m->parent[k]) d++;
        depth_sum += d;
        if (m->parent[i] < 0) t->R++;
        if (m->joint[i].type != RBD_JOINT_REVOLUTE) t->revolute_only = 0;
    }
    t->P = depth_sum;
}

/* RNEA, body frame (RBDA Table 5.1), per body: X_i 63; v_i = X v_p + S qd
 * 42+12; a_i = X a_p + S qdd + (v_i x S) qd 42+12+30+12; f_i = I a +
 * v x* (I v) 66+66+30+6; f_p += X^T f_i 42+6; tau_i = S^T f_i 11: 440. */
double flops_rnea(const flops_tree *t)
{
    return 440.0 * (double)t->N;
}

/* IDSVA (Singh, Russell & Wensing 2022, Alg. 1), ground frame.
 * Per body, kinematics to the ground frame: X_0i 63, S_i 9 (a column of the
 * rotation crossed with the offset), I_i 174.  Forward lines 3-10: v_i 12,
 * a_i 24 (with S_dot qd), S_dot 30, Psi_dot 30, Psi_ddot 30+30+6, B_C
 * (v x*)I 180 (I(v x) is its transpose), I v 66, two 6x6 adds and a half
 * 108, f_C I a + v x* (I v) 66+30+6.  Backward lines 13-15: t1 66, t2
 * 66+6+6+66+6, t3 66+6+66+30+12, t4 66+6; lines 21-22: 36+36+6, not for
 * the R bodies whose parent is the base.
 * Pairs (i, k in nu(i)), lines 18-19: t4^T Psi_dot + t1^T Psi_ddot and
 * t4^T S + t1^T (S_dot + Psi_dot): 2 x (2 dots + 1 add) = 46; pairs with
 * k != i (nu-bar(i), P - N of them), lines 16-17: two dots 22. */
double flops_idsva(const flops_tree *t)
{
    double N = (double)t->N, P = (double)t->P, R = (double)t->R;
    double kin = 63 + 9 + 174;
    double fwd = 12 + 24 + 30 + 30 + 66 + (180 + 66 + 108) + (66 + 30 + 6);
    double bwd = 66 + (66 + 6 + 6 + 66 + 6) + (66 + 6 + 66 + 30 + 12) + (66 + 6) + 78;
    return (kin + fwd + bwd) * N - 78 * R + 46 * P + 22 * (P - N);
}

/* RNEACR (the chain rule through the RNEA, the paper's baseline [5]): the
 * RNEA itself, then for every input j and every body k in nu(j) the forward
 * derivative chain: d/dq_j: dv_k 42, da_k 42+30+6, df_k = I da + dv x*(I v)
 * + v x*(I dv) 66+30+66+30+12, df_C to the parent 42+6, dtau_k 11 (383);
 * d/dqd_j: the same plus v x S in da 30+6 (419).  Bodies above j only
 * receive df_C and give dtau: 2 x (48 + 11) per (j, ancestor), P - N such
 * pairs. */
double flops_rneacr(const flops_tree *t)
{
    double N = (double)t->N, P = (double)t->P;
    return flops_rnea(t) + (383.0 + 419.0) * P + 2 * 59.0 * (P - N);
}

/* ABA (RBDA Table 7.1), per body: X_i 63, v_i 54, c_i 36, p_i = v x* I v
 * 96; backward U = IA S 66, u = tau - S^T p 12, Ia = IA - U U^T / D 73,
 * pa = p + Ia c + U u / D 85, IA_p += X^T Ia X 540, p_p += X^T pa 48;
 * forward a' = X a_p + c 48, qdd = (u - U^T a') / D 12, a = a' + S qdd 12. */
double flops_aba(const flops_tree *t)
{
    return 1145.0 * (double)t->N;
}

/* M^-1, Carpentier's analytical algorithm (ABA without velocities): per
 * body X_i 63, U 66, Ia 73, X^T Ia X 540 (742); backward per (i, k in nu(i))
 * Minv[i,k] from U^T F_i[:,k] 11, F_i += U Minv[i,k] 12, F_p += X^T F_i 48
 * (71); forward per (i, column k >= i) X P_p[:,k] 42, U^T . 11, subtract 1,
 * P_i += S Minv[i,k] 12 (66), sum_i (nv - i) = nv(nv+1)/2 columns. */
double flops_minv(const flops_tree *t)
{
    double N = (double)t->N, P = (double)t->P, n = (double)t->nv;
    return 742 * N + 71 * P + 66 * n * (n + 1) / 2;
}

/* CRBA (RBDA Table 6.2), body frame: per body X_i 63 and F = Ic_i S_i 66;
 * per non-root body Ic_p += X^T Ic_i X on (m, h, Ib) 174 + 13 (the add);
 * per pair (i, k in nu(i)) M_ik = S_i^T F_k 11, and F_k carried to i's
 * parent, X^T f 42, for every non-root i (P - N such carries). */
double flops_crba(const flops_tree *t)
{
    double N = (double)t->N, P = (double)t->P, R = (double)t->R;
    return (63 + 66) * N + 187 * (N - R) + 11 * P + 42 * (P - N);
}

/* FDSVA (paper Sec. IV, Table II): qdd by the ABA, IDSVA at (q, qd, qdd),
 * M^-1, then eq. (5) dqdd/du = -M^-1 dID/du for the 2 nv columns u = q, qd:
 * DMM: one n x n times n x 2n product, 4 n^3 (same flops with BLAS or a
 * plain loop); AZA (eq. 34): per column and body, u_i = b_i - S^T p_i 12,
 * pa = p + U u / D 13, p_p += X^T pa 48, a = X a_p 42, qdd_i 12, a += S qdd
 * 12 (139), reusing M^-1's articulated inertias. */
static double fdsva_common(const flops_tree *t)
{
    return flops_aba(t) + flops_idsva(t) + flops_minv(t);
}

double flops_fdsva_dmm(const flops_tree *t)
{
    double n = (double)t->nv;
    return fdsva_common(t) + 4 * n * n * n;
}

double flops_fdsva_aza(const flops_tree *t)
{
    return fdsva_common(t) + 139 * (double)t->N * 2 * (double)t->nv;
}

/* A matrix product C = A B of n x n matrices: n^2 dot products of n
 * multiplies and n adds. */
double flops_dgemm(const flops_tree *t)
{
    double n = (double)t->nv;
    return 2 * n * n * n;
}
