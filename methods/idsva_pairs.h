/* IDSVA Alg. 1 lines 17-20 at one body, one related (ancestor, descendant)
 * pair per 4-vector (idsva_pairs.c).  idsva.c uses it on every tree but a
 * long chain. */
#ifndef RBD_IDSVA_PAIRS_H
#define RBD_IDSVA_PAIRS_H

#include <stddef.h>

/* doubles in a dof's pair record: (t3_c, t2_c, t4_c, t4_c) for c = 0..5, then (t1_c, t1_c) */
enum { IDSVA_PAIR_REC = 36 };

/* The pair record of one dof from its t1..t4 (lines 13-16). */
static inline void idsva_pairs_record(double *restrict rec, const double t1[6], const double t2[6], const double t3[6],
                                      const double t4[6])
{
    for (int c = 0; c < 6; c++) {
        rec[4 * c] = t3[c];
        rec[4 * c + 1] = t2[c];
        rec[4 * c + 2] = t4[c];
        rec[4 * c + 3] = t4[c];
        rec[24 + 2 * c] = t1[c];
        rec[24 + 2 * c + 1] = t1[c];
    }
}

/* Lines 17-20 for the dofs [j0, j1) of one body whose subtree is the dofs
 * [j0, e), all records of which are written: row k over the proper subtree
 * [j1, e) and column k over the subtree [j0, e), for each k in [j0, j1).
 * rec: [n][IDSVA_PAIR_REC]; S, Pd, Pdd, SP: [n][6] per dof (S, Psi_dot,
 * Psi_ddot, S_dot + Psi_dot); dq, dv: n x n, column-major. */
void idsva_pairs_body(const double *restrict rec, int j0, int j1, int e, const double (*S)[6],
                      const double (*Pd)[6], const double (*Pdd)[6], const double (*SP)[6], size_t n,
                      double *restrict dq, double *restrict dv);

#endif
