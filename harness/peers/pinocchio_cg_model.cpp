/*
 * pinocchio-cg: the model from rbdiff's URDF, its joints matched to ours,
 * and where its generated libraries are cached (pinocchio_cg.hpp).
 */
#include "pinocchio_cg.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <exception>
#include <fstream>
#include <sstream>

#include <pinocchio/parsers/urdf.hpp>

namespace rbd_cg {

const char *const lib_name[NFUNC] = { "rnea_derivatives", "aba_derivatives", "rnea", "aba", "minv", "crba" };

void say(char *err, size_t len, const std::string &s)
{
    if (err && len) std::snprintf(err, len, "%s", s.c_str());
}

bool read_file(const char *path, std::string &bytes, std::string &why)
{
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    if (f) s << f.rdbuf();
    if (!f || f.bad()) { why = std::string("cannot read ") + path; return false; }
    bytes = s.str();
    return true;
}

bool build_model(const char *urdf, Model &m, std::string &why)
{
    try {
        pinocchio::urdf::buildModel(std::string(urdf), m);
        return true;
    } catch (const std::exception &e) {
        why = std::string("Pinocchio's URDF parser: ") + e.what();
        return false;
    }
}

/* Pinocchio's joint of the kind of rbdiff's (pinocchio.cpp, same_kind). */
static bool same_kind(const pinocchio::JointModel &j, const rbd_peer_joint &u)
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

bool match_joints(const Model &m, int njoint, const rbd_peer_joint *joint, int nq, int nv, Order &o,
                  std::string &why)
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

void permute_in(const double *user, int n, const std::vector<int> &of, double *out)
{
    for (int k = 0; k < n; k++) out[of[k]] = user[k];
}

/* FNV-1a, 64 bits: a content key, not a defence against anyone. */
static void fnv(uint64_t &h, const std::string &s)
{
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;   /* a separator no text byte sequence forges */
}

std::string cg_key(const std::string &urdf_bytes)
{
    uint64_t h = 14695981039346656037ull;
    fnv(h, urdf_bytes);
    fnv(h, "pinocchio " PINOCCHIO_VERSION);
    fnv(h, "cppadcg " RBD_CG_CPPADCG);
    fnv(h, RBD_CG_CC_ID);
    fnv(h, RBD_CG_CC " " RBD_CG_FLAGS);
    fnv(h, "layout 1: <lib_name>.so, status.txt");
    char key[20];
    std::snprintf(key, sizeof key, "%016" PRIx64, h);
    return key;
}

std::string cache_root()
{
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&cache_root), &info) && info.dli_fname) {
        /* absolute: the generator changes its working directory */
        char *abs = realpath(info.dli_fname, nullptr);
        std::string self = abs ? abs : info.dli_fname;
        free(abs);
        size_t slash = self.rfind('/');
        return (slash == std::string::npos ? std::string(".") : self.substr(0, slash)) + "/cg";
    }
    return "cg";
}

std::string status_of(const std::string &dir, const char *lib)
{
    std::ifstream f(dir + "/status.txt");
    std::string line;
    const std::string want = std::string(lib) + " ";
    while (std::getline(f, line))
        if (line.compare(0, want.size(), want) == 0) return line.substr(want.size());
    return "no line for it in " + dir + "/status.txt";
}

} // namespace rbd_cg
