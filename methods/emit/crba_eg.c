/*
 * The joint-space inertia M(q) traced on the expression graph: CRBA in body
 * coordinates (RBDA Table 6.2), as crba.c.  Body frames, not IDSVA's ground
 * frame: a composite inertia far from the ground origin carries large
 * offsets whose cancellation cost fdsva-emit's M^-1 two orders of magnitude
 * on the arms when M was taken from IDSVA's t1 (methods/README.md, "Issue
 * 32, fifth stop").
 *   I^C_i = I_i + sum over children c of Xup_c^T I^C_c Xup_c
 *   F = I^C_i S_j;  M(j', j) = S_j'^T F for each dof j' of i, then of each
 *   ancestor k after F = Xup_k^T F (walking up from i).
 */
#include <stdlib.h>
#include "emit/emit.h"
#include "emit/spatial_eg.h"

int eg_crba(eg_graph *g, const rbd_model *m, eg_id *M)
{
    const int nb = m->nb, nv = m->nv;
    eg_id (*X)[36] = malloc(sizeof *X * (size_t)nb), (*IC)[36] = malloc(sizeof *IC * (size_t)nb);
    if (!X || !IC) {
        free(X); free(IC);
        return rbd_fail(RBD_ENOMEM, "emit: out of memory tracing CRBA");
    }
    const eg_xform ground = { { g->one, g->zero, g->zero, g->zero, g->one, g->zero, g->zero, g->zero, g->one },
                              { g->zero, g->zero, g->zero } };
    for (int i = 0; i < nb; i++) {
        eg_xform XJ, Xt, Xup;
        eg_jcalc(g, m, i, &XJ);
        eg_xform_const(g, &m->Xtree[i], &Xt);
        eg_xform_compose(g, &XJ, &Xt, &Xup);
        eg_xform_to_mat6(g, &Xup, X[i]);
        eg_inertia_to(g, &ground, &m->inertia[i], IC[i]);     /* I_i in its own frame */
    }
    for (int k = 0; k < nv * nv; k++) M[k] = g->zero;
    for (int i = nb - 1; i >= 0; i--) {
        for (int j = m->idx_v[i]; j < m->idx_v[i] + m->nv_of[i]; j++) {
            eg_id S[6], F[6], T[6];
            for (int r = 0; r < 6; r++) S[r] = eg_const(g, m->S[6 * j + r]);
            eg_mv(g, IC[i], S, F);                                  /* F = I^C_i S_j */
            for (int k = i;; k = m->parent[k]) {
                for (int jj = m->idx_v[k]; jj < m->idx_v[k] + m->nv_of[k]; jj++) {
                    for (int r = 0; r < 6; r++) S[r] = eg_const(g, m->S[6 * jj + r]);
                    M[jj + nv * j] = M[j + nv * jj] = eg_dot(g, S, F, 6);
                }
                if (m->parent[k] < 0) break;
                eg_mtv(g, X[k], F, T);                              /* F = Xup_k^T F */
                for (int r = 0; r < 6; r++) F[r] = T[r];
            }
        }
        const int pa = m->parent[i];
        if (pa < 0) continue;
        eg_id IX[36];
        eg_mm(g, IC[i], X[i], IX);
        for (int r = 0; r < 6; r++)                                 /* I^C_pa += Xup^T I^C_i Xup, symmetric */
            for (int c = r; c < 6; c++) {
                eg_id s = IC[pa][6 * r + c];
                for (int k = 0; k < 6; k++) s = eg_add(g, s, eg_mul(g, X[i][6 * k + r], IX[6 * k + c]));
                IC[pa][6 * r + c] = IC[pa][6 * c + r] = s;
            }
    }
    free(X); free(IC);
    return RBD_OK;
}
