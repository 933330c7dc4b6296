/*
 * The Pinocchio peer (3.7 and 4.1): computeRNEADerivatives,
 * computeABADerivatives, rnea, aba, computeMinverse, crba and
 * ComputeRNEASecondOrderDerivatives timed beside rbdiff's methods
 * (peer_api.h).  The only C++ in the project: Pinocchio is a C++ template
 * library, so its side of the comparison is compiled here, with the
 * compiler and flags that suit it (CMakeLists.txt), behind the C table.
 *
 * The model is the URDF rbdiff wrote (revolute joints with nq = 1,
 * continuous ones with q = (cos, sin), a free-flyer root as a "floating"
 * joint); Pinocchio's joint conventions are rbdiff's (free-flyer
 * q = [x y z qx qy qz qw], v and tau in the base frame,
 * tangent-space q derivatives), so the only conversion is the order of the
 * joints, matched by name (pinocchio_joints.hpp, shared with pinocchio-cg).
 * The derivatives are called from a file of their own (pinocchio_derivs.cpp;
 * pinocchio_peer.hpp says why); the model, binding and results, none of
 * them timed, are pinocchio_setup.cpp's (compiled apart at -O1 for a
 * header-only Pinocchio, included at the end of this file for a prebuilt one).
 * Each bound function has a Data of its own, made
 * once, as a Pinocchio user keeps one: outputs Pinocchio writes only in part
 * (one triangle of M and M^-1, the related entries of dtau/dq) stay as the
 * previous call left them, and result() completes them for the check.
 */
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>

#include "pinocchio_peer.hpp"

namespace {

using namespace rbd_pin;

/* Conventions: aba and crba take Pinocchio's default, LOCAL, which a
 * paired run found the faster on most models (peers/README.md, "Pinocchio
 * 3").
 * Tolerances: 1e-9 (rounding differs, the algorithms do not); outputs
 * that solve with M also 1e-15 per unit of M's condition number (about 5
 * units of roundoff per unit: a backward-stable solve loses log10 kappa
 * digits). */
const rbd_peer_func funcs[NFUNC] = {
    { "computeRNEADerivatives", RBD_PEER_ID_DERIVS, "idsva",
      "tau, dtau/dq, dtau/dv (ancestor-related entries only), M upper triangle as dtau/da", 1e-9, 0 },
    { "computeABADerivatives", RBD_PEER_FD_DERIVS, "fdsva",
      "qdd, M^-1 (full), dtau/dq and dtau/dv inside, then dqdd/dq = -M^-1 dtau/dq, dqdd/dv (Eigen products)", 1e-9,
      1e-15 },
    { "rnea", RBD_PEER_TAU, "rnea", "tau", 1e-9, 0 },
    { "aba", RBD_PEER_QDD, "aba", "qdd (Convention::LOCAL, the default and the faster)", 1e-9, 1e-15 },
    { "computeMinverse", RBD_PEER_MINV, "minv", "M^-1, upper triangle", 1e-9, 1e-15 },
    { "crba", RBD_PEER_M, "crba", "M, upper triangle (Convention::LOCAL, the default and the faster)", 1e-9, 0 },
    /* Singh, Russell & Wensing's algorithm (IROS 2022), the overload a user
     * calls with Data's tensors: it zeroes the four nv^3 tensors, then fills
     * them; no tau. */
    { "ComputeRNEASecondOrderDerivatives", RBD_PEER_ID_SO_DERIVS, "idsva-so",
      "d2tau/dq2, d2tau/dv2, d2tau/dqdv, dM/dq: Data's four nv^3 Eigen Tensors, zeroed first, then filled; no tau", 1e-9,
      0 },
};

int call(void *p, int k)
{
    Ctx &c = *static_cast<Ctx *>(p);
    const Model &m = c.pm->model;
    Data &d = c.data;
    switch (c.f) {
    case RNEA_DERIVS: call_rnea_derivs(c, k); break;
    case ABA_DERIVS: call_aba_derivs(c, k); break;
    case RNEA: pinocchio::rnea(m, d, c.q.col(k), c.v.col(k), c.a.col(k)); break;
    case ABA: pinocchio::aba(m, d, c.q.col(k), c.v.col(k), c.tau.col(k)); break;
    case MINV: pinocchio::computeMinverse(m, d, c.q.col(k)); break;
    case CRBA: pinocchio::crba(m, d, c.q.col(k)); break;
    case RNEA_SO: call_rnea_so(c, k); break;
    default: return 1;
    }
    c.last = k;
    return 0;
}

#define RBD_STR2(x) #x
#define RBD_STR(x) RBD_STR2(x)

const rbd_peer_api api = {
    RBD_PEER_ABI,
    "pinocchio",
    PINOCCHIO_VERSION,
    RBD_PEER_BUILD "; Eigen " RBD_STR(EIGEN_WORLD_VERSION) "." RBD_STR(EIGEN_MAJOR_VERSION) "." RBD_STR(
        EIGEN_MINOR_VERSION) "; " RBD_PEER_SOURCE,
    NFUNC,
    funcs,
    load,
    unload,
    bind,
    call,
    result,
    unbind,
    nullptr,                 /* default_step: Pinocchio's derivatives are analytical, no step */
    nullptr,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const rbd_peer_api *rbd_peer_entry(void)
{
    return &api;
}

#ifdef RBD_PIN_SETUP_HERE
/* A prebuilt Pinocchio (pinocchio.cmake): the untimed side is compiled in
 * this file, with its flags, rather than parse Pinocchio's headers twice. */
#include "pinocchio_setup.cpp"
#endif
