/*
 * The ground-coordinate forward pass shared by `idsva` and `pin26`: IDSVA
 * Algorithm 1 lines 1-11, which is also what Pinocchio 2.6's forward pass of
 * computeRNEADerivatives computes (oMi, J, dJ, dVdq, dAdq, dAdv, oYcrb,
 * doYcrb, of).  Sharing it keeps the two methods' comparison about their
 * backward passes only, which is where the paper says they differ.
 *
 * Every spatial quantity is in ground coordinates.  The body-level Coriolis
 * matrix B_k of eq. (28) is never formed: with P = (v x*) I,
 *   2 B = P + P^T + (I v) xbar*,   P + P^T = (v x*) I - I (v x) = dI/dt,
 * and dI/dt is again of spatial-inertia form (mass 0), so a composite
 *   2 B^C x = Idot^C x + x x* h^C,   2 B^C^T x = Idot^C x - x x* h^C
 * needs only Idot^C (compact, 12 numbers) and the composite momentum h^C.
 */
#ifndef RBD_ID_GROUND_H
#define RBD_ID_GROUND_H

#include "model/arena.h"
#include "rbdiff/rbd.h"

typedef struct rbd_idg {
    int nb, nv;
    int all_z;                      /* every joint a rotation about its own e_z */
    signed char *axis;              /* [nb] k of a joint about e_k (S = e_k), or -1 */
    unsigned char *tree_flat;       /* [nb] Xtree without rotation               */
    sp_xform *X0;                   /* [nb] ground -> body                        */
    double (*v)[6], (*a)[6];        /* [nb] ground-frame velocity, acceleration   */
    /* per dof: S, Psi_dot (eq. 31), Psi_ddot (eq. 31), S_dot + Psi_dot          */
    double (*S)[6], (*Pd)[6], (*Pdd)[6], (*SdPd)[6];
    sp_inertia *IC, *dIC;           /* [nb] I^C and dI^C/dt (mass 0)              */
    double (*hC)[6], (*fC)[6];      /* [nb] composite momentum and force          */
} rbd_idg;

/* t1..t4 of one dof, Alg. 1 lines 13-16 (rbd_idg_tvec) */
typedef struct rbd_idg_tv {
    double t1[6], t2[6], t3[6], t4[6];
} rbd_idg_tv;

/* An ID-derivative method on this forward pass (idsva, pin26) also exposes
 * its backward pass alone, so fd_ground.c can run one forward pass for the
 * forward dynamics, M^-1 and the ID derivatives together. */
typedef struct rbd_idg_backend_s {
    rbd_idg *(*idg)(void *ws);      /* the method's forward-pass workspace             */
    /* tau, dtau/dq, dtau/dqd from the forward pass left in idg(ws) */
    void (*backward)(void *ws, double *restrict tau, double *restrict dq, double *restrict dv);
    /* or NULL; lines 12-16 and 21-23 alone: tau and each dof's t1..t4, the
     * factors of dtau/dq and dtau/dqd (fd_factored.c) */
    void (*tvecs)(void *ws, double *restrict tau, rbd_idg_tv *restrict R);
} rbd_idg_backend;

extern const rbd_idg_backend rbd_idsva_backend, rbd_pin26_backend;

/* The arrays of w out of the method's workspace arena (arena.h), both runs;
 * after the second, rbd_idg_setup fills the per-model flags. */
void rbd_idg_carve(rbd_idg *w, rbd_arena *a, const rbd_model *m);
void rbd_idg_setup(rbd_idg *w, const rbd_model *m);

/* Alg. 1 lines 1-11: fills X0, v, a, the per-dof vectors and the single-body
 * values of IC, dIC, hC, fC (the backward pass accumulates them). */
void rbd_idg_forward(const rbd_model *m, rbd_idg *w, const double *q, const double *qd, const double *qdd);
/* The same with the cos, sin of the joints about an axis that an ABA at the
 * same q left (rbd_data.cs): no second sincos, bit for bit the same result. */
void rbd_idg_forward_cs(const rbd_model *m, rbd_idg *w, const double *q, const double (*cs)[2], const double *qd,
                        const double *qdd);

/* Alg. 1 lines 13-16 for dof j of body i (composites complete):
 * t1 = I^C S, t2 = 2B^C S + I^C (S_dot + Psi_dot),
 * t3 = 2B^C Psi_dot + I^C Psi_ddot + f^C xbar* S, t4 = 2 B^C^T S. */
static inline void rbd_idg_tvec(const rbd_idg *w, int i, int j, double t1[6], double t2[6], double t3[6],
                                double t4[6])
{
    const sp_inertia *IC = &w->IC[i], *dIC = &w->dIC[i];
    const double *S = w->S[j], *hC = w->hC[i], *fC = w->fC[i];
    double u[6], c[6], x[6], y[6];
    sp_inertia_motion(IC, S, t1);
    sp_inertia_motion(dIC, S, u);
    sp_crf(S, hC, c);                           /* (h^C xbar*) S */
    sp_inertia_motion(IC, w->SdPd[j], x);
    for (int r = 0; r < 6; r++) {
        t4[r] = u[r] - c[r];
        t2[r] = u[r] + c[r] + x[r];
    }
    sp_inertia_motion(dIC, w->Pd[j], u);
    sp_crf(w->Pd[j], hC, c);
    sp_inertia_motion(IC, w->Pdd[j], x);
    sp_crf(S, fC, y);                           /* third term of line 15 */
    for (int r = 0; r < 6; r++) t3[r] = u[r] + c[r] + x[r] + y[r];
}

/* Alg. 1 lines 21-23. */
static inline void rbd_idg_accumulate(rbd_idg *w, int i, int p)
{
    sp_inertia_add(&w->IC[p], &w->IC[i]);
    sp_inertia_add(&w->dIC[p], &w->dIC[i]);
    for (int r = 0; r < 6; r++) {
        w->hC[p][r] += w->hC[i][r];
        w->fC[p][r] += w->fC[i][r];
    }
}

/* dI/dt = (v x*) I - I (v x) for a compact inertia I and velocity v = [w; u]:
 * mass 0, hdot = w x h + m u, Ibdot = A + A^T - h u^T - u h^T + 2 (u.h) 1
 * with A = (w x) Ib. */
static inline void rbd_inertia_rate(const sp_inertia *In, const double v[6], sp_inertia *D)
{
    const double *w = v, *u = v + 3, *h = In->h, *Ib = In->Ib;
    double A[9], col[3], wc[3];
    for (int j = 0; j < 3; j++) {
        col[0] = Ib[j]; col[1] = Ib[3 + j]; col[2] = Ib[6 + j];
        sp_cross3(w, col, wc);
        A[j] = wc[0]; A[3 + j] = wc[1]; A[6 + j] = wc[2];
    }
    double uh = sp_dot3(u, h);
    sp_cross3(w, h, D->h);
    for (int k = 0; k < 3; k++) D->h[k] += In->m * u[k];
    for (int r = 0; r < 3; r++)             /* symmetric: the upper triangle, mirrored */
        for (int c = r; c < 3; c++)
            D->Ib[3 * r + c] = D->Ib[3 * c + r] =
                A[3 * r + c] + A[3 * c + r] - h[r] * u[c] - u[r] * h[c] + (r == c ? 2 * uh : 0);
    D->m = 0;
}

#endif
