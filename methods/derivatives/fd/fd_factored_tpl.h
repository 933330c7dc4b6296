/*
 * The two sweeps of the factored product (fd_factored.c) on rows
 * [r, r + L) of the nv x 6 sums, L = 4 (V = rbd_v4) or 1 (V = double): one
 * source for the 4-row blocks and the remainder rows.  Each row of a sum is
 * a column of M^-1 times a 6-vector, so the rows are independent and the
 * sweeps vectorise over them.
 *
 * Required macros: V (the lane type), FDF(name) (the instantiation's name),
 * FDF_LOAD(x, p), FDF_STORE(p, x), FDF_SPLAT(s).
 */

/*
 * Subtree sums (the backward sweep): with mi = M^-1(:, d) and t = dof d's
 * t-vectors, V4 (+)= mi t4^T and V1 (+)= mi t1^T (set: = instead, a leaf's
 * first dof); then column c of -M^-1 dID/dq and dID/dqd from the sums,
 *   xq = -(V4 Pd_c + V1 Pdd_c),   xv = -(V4 S_c + V1 SdPd_c)
 * (Alg. 1 lines 17-20 of the subtree rows).  The 6-vectors come as
 * separate pointers rather than in a struct: so gcc compiles the loop as
 * before this header existed (a struct was slower: methods/README.md,
 * "Issue 28").  A zero t adds nothing, a zero
 * column gives nothing (the multi-dof joints' two passes).
 */
static inline void FDF(subtree_sums)(int n, int r, int set, const double *mi, const double *t4,
                                     const double *t1, const double *Pd, const double *Pdd, const double *S,
                                     const double *SdPd, double *restrict Vs, double *restrict xq,
                                     double *restrict xv)
{
    V m, y, q = FDF_SPLAT(0), v = FDF_SPLAT(0), q1 = FDF_SPLAT(0), v1 = FDF_SPLAT(0);
    FDF_LOAD(m, mi + r);
    for (int k = 0; k < 6; k++) {
        double *p4 = Vs + (size_t)n * k + r, *p1 = Vs + (size_t)n * (6 + k) + r;
        if (set) y = m * t4[k];
        else { FDF_LOAD(y, p4); y += m * t4[k]; }
        FDF_STORE(p4, y);
        q += y * Pd[k]; v += y * S[k];
        if (set) y = m * t1[k];
        else { FDF_LOAD(y, p1); y += m * t1[k]; }
        FDF_STORE(p1, y);
        q1 += y * Pdd[k]; v1 += y * SdPd[k];
    }
    q = -(q + q1); v = -(v + v1);
    FDF_STORE(xq + r, q); FDF_STORE(xv + r, v);
}

/*
 * Path sums (the forward sweep): column c loses the ancestors' part,
 *   xq -= Wp t3_c,   xv -= Wp t2_c     (cols: 0 skips them),
 * and W = Wp + mi S_k^T (W may be Wp; Wp NULL: W = mi S_k^T; W NULL: a leaf
 * keeps no sum).  Alg. 1 lines 17-20 of the ancestor rows.
 */
static inline void FDF(path_sums)(int n, int r, int cols, const double *mi, const double *S, const double *t3,
                                  const double *t2, const double *Wp, double *W, double *restrict xq,
                                  double *restrict xv)
{
    V m = FDF_SPLAT(0), w, q = FDF_SPLAT(0), v = FDF_SPLAT(0);   /* m: only read with W, which gcc -O2 misses */
    if (W) FDF_LOAD(m, mi + r);
    for (int k = 0; k < 6; k++) {
        if (Wp) {
            FDF_LOAD(w, Wp + (size_t)n * k + r);
            if (cols) { q += w * t3[k]; v += w * t2[k]; }
            if (W) w += m * S[k];
        } else {
            w = m * S[k];
        }
        if (W) FDF_STORE(W + (size_t)n * k + r, w);
    }
    if (cols) {
        V x;
        FDF_LOAD(x, xq + r); x -= q; FDF_STORE(xq + r, x);
        FDF_LOAD(x, xv + r); x -= v; FDF_STORE(xv + r, x);
    }
}

#undef V
#undef FDF
#undef FDF_LOAD
#undef FDF_STORE
#undef FDF_SPLAT
