/*
 * What the two files of the Pinocchio peer share (pinocchio.cpp: the peer
 * table, the model, binding, results, and the calls of rnea, aba,
 * computeMinverse and crba; pinocchio_derivs.cpp: the calls of the
 * derivatives).  The algorithms' instantiations are most of the module's
 * compile time; in two files, about half each, they compile on both cores
 * (harness/peers/README.md, "Cost").
 */
#ifndef RBD_PINOCCHIO_PEER_HPP
#define RBD_PINOCCHIO_PEER_HPP

#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>

#include "peer_api.h"
#include "pinocchio_joints.hpp"

namespace rbd_pin {

using pinocchio::Data;
using pinocchio::Model;
using Eigen::MatrixXd;
using Eigen::VectorXd;

enum Func { RNEA_DERIVS, ABA_DERIVS, RNEA, ABA, MINV, CRBA, RNEA_SO, NFUNC };

/* Model and Data hold fixed-size Eigen members: aligned new for AVX-512. */
struct PeerModel {
    EIGEN_MAKE_ALIGNED_OPERATOR_NEW
    Model model;
    Order order;
};

/* One bound function: a Data of its own, made once, as a Pinocchio user
 * keeps one. */
struct Ctx {
    EIGEN_MAKE_ALIGNED_OPERATOR_NEW
    const PeerModel *pm;
    Func f;
    Data data;
    MatrixXd q, v, a, tau;      /* pool states in Pinocchio's order, one column each */
    int last;
    Ctx(const PeerModel *p, Func fn) : pm(p), f(fn), data(p->model), last(-1) {}
};

/* The timed calls on pool column k, each with the inputs a user passes. */
void call_rnea_derivs(Ctx &c, int k);   /* pinocchio_derivs.cpp */
void call_aba_derivs(Ctx &c, int k);    /* pinocchio_derivs.cpp */
void call_rnea_so(Ctx &c, int k);       /* pinocchio_derivs.cpp */

} // namespace rbd_pin

#endif
