/*
 * Pinocchio's joints matched to rbdiff's by name, kind and size, on the
 * model Pinocchio's URDF parser built from the URDF rbdiff wrote: what the
 * two Pinocchio peers share (the library's functions, pinocchio.cpp; its
 * generated code, pinocchio_cg*.cpp), so that both time the same model in
 * the same numbering.
 *
 * Pinocchio's joint conventions are rbdiff's (free-flyer q = [x y z qx qy qz
 * qw], v and tau in the base frame, tangent-space q derivatives, continuous
 * joints as Pinocchio's unbounded RUB joints with q = (cos, sin)), so the
 * only conversion is the order of the joints.  Inline, in this header, so
 * that it adds no translation unit of Pinocchio's heavy headers to either
 * module and no header beyond the model's to pinocchio_cg_gen.cpp; C++14,
 * as Pinocchio 3 is built.
 */
#ifndef RBD_PINOCCHIO_JOINTS_HPP
#define RBD_PINOCCHIO_JOINTS_HPP

#include <string>
#include <vector>

#include <pinocchio/multibody/model.hpp>

#include "peer_api.h"

namespace rbd_pin {

/* Our joint order in Pinocchio's: user q / v index -> Pinocchio's. */
struct Order {
    std::vector<int> q_of, v_of;
};

/* Whether Pinocchio's joint has the kind of rbdiff's joint of the same name
 * (peer_api.h, rbd_peer_joint.type: RX, RY, RZ, RevoluteUnaligned; PX ...
 * PrismaticUnaligned; the sizes are compared by the caller, which tells
 * revolute (nq 1) from continuous (nq 2)). */
inline bool same_kind(const pinocchio::JointModel &j, const rbd_peer_joint &u)
{
    const std::string s = j.shortname();
    switch (u.type) {
    case 0: return s.rfind("JointModelR", 0) == 0;
    case 4: return s.rfind("JointModelRUB", 0) == 0 || s == "JointModelRevoluteUnboundedUnaligned";
    case 1: return s.rfind("JointModelP", 0) == 0;
    case 2: return s == "JointModelSpherical";
    case 3: return s == "JointModelFreeFlyer";
    }
    return false;
}

/* Fills o for rbdiff's joints (peer_api.h, load()); false, saying which
 * joint and why in `why`, when a size, a name or a kind does not match. */
inline bool match_joints(const pinocchio::Model &m, int njoint, const rbd_peer_joint *joint, int nq, int nv,
                         Order &o, std::string &why)
{
    if (m.nq != nq || m.nv != nv || m.njoints - 1 != njoint) {
        why = "Pinocchio has nq = " + std::to_string(m.nq) + ", nv = " + std::to_string(m.nv) + ", " +
              std::to_string(m.njoints - 1) + " joints; rbdiff has " + std::to_string(nq) + ", " +
              std::to_string(nv) + ", " + std::to_string(njoint);
        return false;
    }
    o.v_of.assign(nv, -1);
    o.q_of.assign(nq, -1);
    for (int u = 0; u < njoint; u++) {
        const rbd_peer_joint &uj = joint[u];
        if (!m.existJointName(uj.name)) {
            why = std::string("joint '") + uj.name + "' is not in Pinocchio's model";
            return false;
        }
        const pinocchio::JointModel &j = m.joints[m.getJointId(uj.name)];
        if (!same_kind(j, uj) || j.nq() != uj.nq || j.nv() != uj.nv) {
            why = std::string("joint '") + uj.name + "' is " + j.shortname() + " (nq " + std::to_string(j.nq()) +
                  ", nv " + std::to_string(j.nv()) + ") in Pinocchio, rbdiff type " + std::to_string(uj.type) +
                  " (nq " + std::to_string(uj.nq) + ", nv " + std::to_string(uj.nv) + ")";
            return false;
        }
        for (int k = 0; k < uj.nq; k++) o.q_of[uj.idx_q + k] = j.idx_q() + k;
        for (int k = 0; k < uj.nv; k++) o.v_of[uj.idx_v + k] = j.idx_v() + k;
    }
    return true;
}

/* out[of[k]] = user[k]: one state from rbdiff's numbering into Pinocchio's. */
inline void permute_in(const double *user, int n, const std::vector<int> &of, double *out)
{
    for (int k = 0; k < n; k++) out[of[k]] = user[k];
}

} // namespace rbd_pin

#endif
