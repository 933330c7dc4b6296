/*
 * FDSVA's composition (Singh, Russell & Wensing 2022, eq. (5)) traced on the
 * expression graph for one model:
 *   qdd by ABA in body coordinates (aba_eg.c), as fdsva;
 *   M by CRBA in body coordinates (crba_eg.c), M = L^T D L by
 *   Featherstone's LTDL over the expanded parent array (RBDA Table 6.3),
 *   M^-1 = L^-1 D^-1 L^-T;
 *   dtau/dq, dtau/dv by IDSVA's trace at that qdd (its kinematics the same
 *   nodes as the first trace's, hash-consed);
 *   dqdd/dq = -M^-1 dtau/dq, dqdd/dv = -M^-1 dtau/dv, dqdd/dtau = M^-1.
 * The zeros of the tree's sparsity fold away as the graph is made, so the
 * dense loops below print only the products the model needs.
 */
#include <stdlib.h>
#include "emit/emit.h"

/* H (column-major, symmetric) -> L below the diagonal, D on it: RBDA Table 6.3. */
static void ltdl(eg_graph *g, const rbd_model *m, eg_id *H)
{
    const int n = m->nv, *lam = m->dof_parent;
    for (int k = n - 1; k >= 0; k--)
        for (int i = lam[k]; i >= 0; i = lam[i]) {
            eg_id a = eg_div(g, H[k + n * i], H[k + n * k]);
            for (int j = i; j >= 0; j = lam[j]) H[i + n * j] = eg_sub(g, H[i + n * j], eg_mul(g, a, H[k + n * j]));
            H[k + n * i] = a;
        }
}

/* M^-1 = Y D^-1 Y^T with Y = L^-1 (unit lower triangular, forward substitution). */
static void inverse(eg_graph *g, int n, const eg_id *H, eg_id *Y, eg_id *Mi)
{
    for (int k = 0; k < n; k++)
        for (int j = 0; j <= k; j++) {
            eg_id s = j == k ? g->one : g->zero;
            for (int i = j; i < k; i++) s = eg_sub(g, s, eg_mul(g, H[k + n * i], Y[i + n * j]));
            Y[k + n * j] = s;
        }
    for (int r = 0; r < n; r++)
        for (int c = r; c < n; c++) {
            eg_id s = g->zero;
            for (int k = 0; k <= r; k++)
                s = eg_add(g, s, eg_mul(g, eg_mul(g, Y[r + n * k], eg_div(g, g->one, H[k + n * k])), Y[c + n * k]));
            Mi[r + n * c] = Mi[c + n * r] = s;
        }
}

/* out = -A B (n x n, column-major) */
static void neg_product(eg_graph *g, int n, const eg_id *A, const eg_id *B, eg_id *out)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            eg_id s = g->zero;
            for (int k = 0; k < n; k++) s = eg_add(g, s, eg_mul(g, A[r + n * k], B[k + n * c]));
            out[r + n * c] = eg_neg(g, s);
        }
}

int eg_fdsva(eg_graph *g, const rbd_model *m, eg_id *out[4])
{
    const size_t n = (size_t)m->nv;
    eg_id *qd = malloc(sizeof(eg_id) * n);
    eg_id *tau = malloc(sizeof(eg_id) * n), *H = malloc(sizeof(eg_id) * n * n), *Y = malloc(sizeof(eg_id) * n * n);
    eg_id *dq = malloc(sizeof(eg_id) * n * n), *dv = malloc(sizeof(eg_id) * n * n);
    int rc = RBD_OK;
    if (!qd || !tau || !H || !Y || !dq || !dv) {
        rc = rbd_fail(RBD_ENOMEM, "emit: out of memory tracing FDSVA");
        goto done;
    }
    for (size_t k = 0; k < n; k++) qd[k] = eg_in(g, EG_IN_V, (int)k);
    if ((rc = eg_aba(g, m, out[0])) || (rc = eg_crba(g, m, H))) goto done;
    ltdl(g, m, H);
    eg_id *Mi = out[3];
    inverse(g, m->nv, H, Y, Mi);
    const eg_out_id at_qdd = { tau, dq, dv, NULL };
    if ((rc = eg_idsva(g, m, qd, out[0], &at_qdd))) goto done;
    neg_product(g, m->nv, Mi, dq, out[1]);
    neg_product(g, m->nv, Mi, dv, out[2]);
    if (g->failed) rc = rbd_fail(RBD_ENOMEM, "emit: out of memory for the expression graph");
done:
    free(qd); free(tau); free(H); free(Y); free(dq); free(dv);
    return rc;
}
