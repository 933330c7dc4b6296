/*
 * The Pinocchio peer's untimed side (pinocchio.cpp says what is timed):
 * the model from the URDF rbdiff wrote, each bound function's Data and
 * pool in Pinocchio's joint order, the outputs in rbdiff's numbering for
 * the check.  For a header-only Pinocchio (a source tree) it is compiled at
 * -O1 with the URDF parser's sources into a shared object of its own,
 * pinocchio-setup@VERSION.so, which the module links: none of it is timed,
 * and the parser's template instantiations were a quarter of pinocchio.cpp's
 * compile time (harness/peers/README.md, "Cost").  Its own shared object,
 * with Eigen's and Pinocchio's instantiations hidden, so that none made
 * here can stand in for the module's -O3 copy in the timed code, as one
 * could were the two linked into one object (what libstdc++ exports
 * resolves to the module's copy, first in its lookup scope).
 * For a prebuilt Pinocchio, pinocchio.cpp includes this file
 * (RBD_PIN_SETUP_HERE; pinocchio.cmake says why).
 */
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <pinocchio/parsers/urdf.hpp>

#include "pinocchio_peer.hpp"

namespace rbd_pin {

namespace {

void say(char *err, size_t len, const std::string &s)
{
    if (err && len) std::snprintf(err, len, "%s", s.c_str());
}

} // namespace

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

namespace {

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

} // namespace

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

} // namespace rbd_pin
