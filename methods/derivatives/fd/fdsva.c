/*
 * FDSVA (Singh, Russell & Wensing 2022, sec. IV-C, Table II): IDSVA + M^-1
 * and one of the ways to form -M^-1 dID/du (fd_compose.h):
 *   fdsva-dmm         DMM by OpenBLAS dgemm
 *   fdsva-dmm-loop    DMM by a plain loop (no BLAS)
 *   fdsva-dmm-sparse  the plain loop skipping dID/du's structural zeros
 *   fdsva-aza         AZA, eq. (34), on blocks of columns: a solve with
 *                     ABA's factors instead of the explicit M^-1, whose
 *                     rounding M^-1 dID/du would amplify on ill-conditioned
 *                     chains (methods/README.md, "The FD compositions on
 *                     ill-conditioned chains")
 *   fdsva-forces      AZA on IDSVA's factors with each column's ancestor
 *                     rows kept as one spatial force (rbd_aza_solve_tvecs):
 *                     ancestor rows no longer rounded, IDSVA's
 *                     ground-frame factors still are; about fdsva-aza's
 *                     cost (fdcr.c's fdcr-forces, in body frames, is the
 *                     accurate one)
 *   fdsva-factored    M^-1 times the factors of dID/du that IDSVA's lines
 *                     17-20 multiply out (fd_factored.c), O(nv^2)
 *   fdsva             fdsva-factored where dID/du is dense or nearly (an
 *                     equivalent dense size of rbd_options.fdsva_crossover,
 *                     default RBD_FDSVA_CROSSOVER_DEFAULT, or more: chains of
 *                     30 dofs and up); below, the faster of fdsva-dmm-sparse
 *                     and fdsva-dmm, timed at init on this machine (or by
 *                     the size rule with rbd_options.fdsva_dmm_rule).
 *                     IDSVA's forward pass reuses ABA's cos, sin
 *                     (RBD_PASS_SHARED).  fdsva-dmm is the paper's
 *                     FDSVA-with-DMM, with passes of its own as pin26-fd:
 *                     the one to set against pin26-fd for the same DMM.
 *   fdsva-1pass       fdsva's choice, but qdd0 and M^-1 from IDSVA's own
 *                     ground-frame forward pass (fd_ground.c) instead of
 *                     ABA and M^-1's body-frame passes: one kinematic pass
 *                     per call, as Pinocchio 3's computeABADerivatives; the
 *                     price is accuracy where bodies are far from the
 *                     origin (inertias about it add up with cancellation).
 */
#include "derivatives/fd/fd_compose.h"
#include "derivatives/id/id_ground.h"

extern const rbd_method rbd_method_idsva, rbd_method_fdsva, rbd_method_fdsva_dmm, rbd_method_fdsva_dmm_loop,
    rbd_method_fdsva_dmm_sparse, rbd_method_fdsva_aza, rbd_method_fdsva_factored, rbd_method_fdsva_1pass,
    rbd_method_fdsva_forces;

#define FDSVA(var, str, comb, pass, sum)                                                            \
    static const rbd_fd_compose var##_c = { &rbd_method_##var, &rbd_method_idsva, comb,              \
                                            &rbd_idsva_backend, pass, NULL };                               \
    static int var##_init(const rbd_model *m, const rbd_options *o, void **ws)                      \
    {                                                                                               \
        return rbd_fdc_init(&var##_c, m, o, ws);                                                    \
    }                                                                                               \
    const rbd_method rbd_method_##var = { .name = str, .summary = sum, .output = RBD_FD_DERIVS,     \
                                          .joints = RBD_JOINTS_ALL, .init = var##_init,             \
                                          .eval = rbd_fdc_eval, .fini = rbd_fdc_fini };

FDSVA(fdsva, "fdsva", RBD_COMBINE_SWITCH, RBD_PASS_SHARED,
      "FDSVA: IDSVA + M^-1 + sparse DMM or dgemm DMM (the faster, timed at init) or the factored product; sec. IV-C")
FDSVA(fdsva_dmm, "fdsva-dmm", RBD_COMBINE_DMM_BLAS, RBD_PASS_SEPARATE,
      "IDSVA + M^-1 + DMM by OpenBLAS dgemm; eq. (5), Fig. 7")
FDSVA(fdsva_dmm_loop, "fdsva-dmm-loop", RBD_COMBINE_DMM_LOOP, RBD_PASS_SEPARATE,
      "IDSVA + M^-1 + DMM by a plain column loop (no BLAS); eq. (5)")
FDSVA(fdsva_dmm_sparse, "fdsva-dmm-sparse", RBD_COMBINE_DMM_SPARSE, RBD_PASS_SEPARATE,
      "IDSVA + M^-1 + DMM loop over dID/du's possibly non-zero rows (ancestors and subtree) only")
FDSVA(fdsva_aza, "fdsva-aza", RBD_COMBINE_AZA, RBD_PASS_SEPARATE,
      "IDSVA + M^-1 + AZA: ABA(q, 0, b, 0) on dID/du's columns, 8 at a time, ABA's IA reused; eq. (34), Fig. 7; "
      "no explicit M^-1 in the product")
FDSVA(fdsva_factored, "fdsva-factored", RBD_COMBINE_FACTORED, RBD_PASS_SEPARATE,
      "IDSVA + M^-1 times IDSVA's t-vectors (lines 17-20 factored): -M^-1 dID/du in O(nv^2), no DMM")
FDSVA(fdsva_forces, "fdsva-forces", RBD_COMBINE_AZA_FORCES, RBD_PASS_SHARED,
      "IDSVA + M^-1 + AZA on IDSVA's factors, each column's ancestor rows as one force into ABA's backward pass "
      "(never formed as torques): more accurate on ill-conditioned chains")
FDSVA(fdsva_1pass, "fdsva-1pass", RBD_COMBINE_SWITCH, RBD_PASS_GROUND,
      "fdsva with qdd0 and M^-1 from IDSVA's ground-frame forward pass (fd_ground.c): one kinematic pass, "
      "less accurate on long chains")
