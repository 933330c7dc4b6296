/*
 * The Pinocchio peer's derivatives, called as a user calls them
 * (pinocchio.cpp says what is timed and checked): computeRNEADerivatives,
 * computeABADerivatives, and the second-order RNEA derivatives of Singh,
 * Russell & Wensing (IROS 2022), ComputeRNEASecondOrderDerivatives, the
 * overload a user calls with Data's tensors.  A file of their own: their
 * instantiations compile on one core while the rest of the module compiles
 * on the other (pinocchio_peer.hpp).
 */
#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea-second-order-derivatives.hpp>

#include "pinocchio_peer.hpp"

namespace rbd_pin {

void call_rnea_derivs(Ctx &c, int k)
{
    pinocchio::computeRNEADerivatives(c.pm->model, c.data, c.q.col(k), c.v.col(k), c.a.col(k));
}

void call_aba_derivs(Ctx &c, int k)
{
    pinocchio::computeABADerivatives(c.pm->model, c.data, c.q.col(k), c.v.col(k), c.tau.col(k));
}

void call_rnea_so(Ctx &c, int k)
{
    pinocchio::ComputeRNEASecondOrderDerivatives(c.pm->model, c.data, c.q.col(k), c.v.col(k), c.a.col(k));
}

} // namespace rbd_pin
