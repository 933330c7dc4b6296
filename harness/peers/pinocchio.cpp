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
 * pinocchio_peer.hpp says why).
 * Each bound function has a Data of its own, made
 * once, as a Pinocchio user keeps one: outputs Pinocchio writes only in part
 * (one triangle of M and M^-1, the related entries of dtau/dq) stay as the
 * previous call left them, and result() completes them for the check.
 */
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/parsers/urdf.hpp>

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

void say(char *err, size_t len, const std::string &s)
{
    if (err && len) std::snprintf(err, len, "%s", s.c_str());
}

void *load(const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv, char *err, size_t errlen)
{
    PeerModel *pm = new (std::nothrow) PeerModel;
    if (!pm) { say(err, errlen, "out of memory"); return nullptr; }
    try {
        pinocchio::urdf::buildModel(std::string(urdf), pm->model);
    } catch (const std::exception &e) {
        say(err, errlen, std::string("Pinocchio's URDF parser: ") + e.what());
        delete pm;
        return nullptr;
    }
    std::string why;
    if (!match_joints(pm->model, njoint, joint, nq, nv, pm->order, why)) {
        say(err, errlen, why);
        delete pm;
        return nullptr;
    }
    return pm;
}

void unload(void *p)
{
    delete static_cast<PeerModel *>(p);
}

void *bind(void *p, int func, int pool, const double *q, const double *v, const double *a, const double *tau,
           char *err, size_t errlen)
{
    const PeerModel *pm = static_cast<const PeerModel *>(p);
    if (func < 0 || func >= NFUNC) { say(err, errlen, "no function " + std::to_string(func)); return nullptr; }
    try {
        Ctx *c = new Ctx(pm, Func(func));
        const int nq = pm->model.nq, nv = pm->model.nv;
        c->q.resize(nq, pool); c->v.resize(nv, pool); c->a.resize(nv, pool); c->tau.resize(nv, pool);
        for (int k = 0; k < pool; k++) {
            permute_in(q + (size_t)k * nq, nq, pm->order.q_of, c->q.col(k).data());
            permute_in(v + (size_t)k * nv, nv, pm->order.v_of, c->v.col(k).data());
            permute_in(a + (size_t)k * nv, nv, pm->order.v_of, c->a.col(k).data());
            permute_in(tau + (size_t)k * nv, nv, pm->order.v_of, c->tau.col(k).data());
        }
        return c;
    } catch (const std::exception &e) {
        say(err, errlen, std::string("bind: ") + e.what());
        return nullptr;
    }
}

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

/* out[i + nv*j] = X(v_of[i], v_of[j]): user numbering, column-major. */
template<typename M> void permute_out(const M &X, const std::vector<int> &of, double *out)
{
    const int n = (int)of.size();
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) out[i + (size_t)n * j] = X(of[i], of[j]);
}

/* out[i + nv*(j + nv*k)] = T(v_of[i], v_of[j], v_of[k]): Pinocchio's
 * tensors index (tau, first variable, second variable) as rbdiff's do
 * (peer_api.h); only the joint order is converted. */
template<typename T> void permute_tensor(const T &X, const std::vector<int> &of, double *out)
{
    const size_t n = of.size();
    for (size_t k = 0; k < n; k++)
        for (size_t j = 0; j < n; j++)
            for (size_t i = 0; i < n; i++) out[i + n * (j + n * k)] = X(of[i], of[j], of[k]);
}

int result(void *p, double *vec, double *mat0, double *mat1, double *mat2, char *err, size_t errlen)
{
    Ctx &c = *static_cast<Ctx *>(p);
    const std::vector<int> &of = c.pm->order.v_of;
    Data &d = c.data;
    if (c.last < 0) { say(err, errlen, "result before any call"); return 1; }
    auto vec_out = [&](const VectorXd &x) {
        for (size_t i = 0; i < of.size(); i++) vec[i] = x[of[i]];
    };
    switch (c.f) {
    case RNEA_DERIVS:
        vec_out(d.tau);
        permute_out(d.dtau_dq, of, mat0);
        permute_out(d.dtau_dv, of, mat1);
        break;
    case ABA_DERIVS:
        vec_out(d.ddq);
        permute_out(d.ddq_dq, of, mat0);
        permute_out(d.ddq_dv, of, mat1);
        permute_out(d.Minv, of, mat2);
        break;
    case RNEA: vec_out(d.tau); break;
    case ABA: vec_out(d.ddq); break;
    case MINV: {
        MatrixXd S = d.Minv.triangularView<Eigen::Upper>();
        S.triangularView<Eigen::StrictlyLower>() = S.transpose();
        permute_out(S, of, mat0);
        break;
    }
    case CRBA: {
        MatrixXd S = d.M.triangularView<Eigen::Upper>();
        S.triangularView<Eigen::StrictlyLower>() = S.transpose();
        permute_out(S, of, mat0);
        break;
    }
    case RNEA_SO: {
        const size_t n3 = of.size() * of.size() * of.size();
        permute_tensor(d.d2tau_dqdq, of, mat0);
        permute_tensor(d.d2tau_dvdv, of, mat0 + n3);
        permute_tensor(d.d2tau_dqdv, of, mat0 + 2 * n3);
        permute_tensor(d.d2tau_dadq, of, mat0 + 3 * n3);
        break;
    }
    default: return 1;
    }
    return 0;
}

void unbind(void *p)
{
    delete static_cast<Ctx *>(p);
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
