/*
 * What the files of the Pinocchio peer share (pinocchio.cpp: the peer
 * table and the calls of rnea, aba, computeMinverse and crba;
 * pinocchio_derivs.cpp: the calls of the derivatives; pinocchio_setup.cpp,
 * untimed, a shared object of its own: the model, binding, results).  The
 * algorithms' instantiations are most of the module's compile time; in two
 * files, about half each, they compile on both cores (harness/peers/README.md,
 * "Cost").
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

/* The untimed entries of the peer table (peer_api.h), pinocchio_setup.cpp:
 * exported from pinocchio-setup@VERSION.so for the module; hidden as the
 * rest where that file is compiled into the module (RBD_PIN_SETUP_HERE). */
#ifdef RBD_PIN_SETUP_HERE
#define RBD_PIN_SETUP
#else
#define RBD_PIN_SETUP __attribute__((visibility("default")))
#endif
RBD_PIN_SETUP void *load(const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv, char *err,
                         size_t errlen);
RBD_PIN_SETUP void unload(void *p);
RBD_PIN_SETUP void *bind(void *p, int func, int pool, const double *q, const double *v, const double *a,
                         const double *tau, char *err, size_t errlen);
RBD_PIN_SETUP int result(void *p, double *vec, double *mat0, double *mat1, double *mat2, char *err, size_t errlen);
RBD_PIN_SETUP void unbind(void *p);

} // namespace rbd_pin

#endif
