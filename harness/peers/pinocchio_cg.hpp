/*
 * What the files of the pinocchio-cg peer share.  Two binaries, built
 * apart (pinocchio_cg.cmake):
 *   the peer module rbdpeer-pinocchio-cg@VERSION.so, which times the cached
 *   libraries: pinocchio_cg.cpp (the peer table), pinocchio_cg_eval.cpp
 *   (the classes' evalFunction around the generated code, CppADCodeGen's
 *   loader only: seconds to compile) and pinocchio_cg_model.cpp (the model,
 *   its joints, the cache key);
 *   the generator pinocchio-cg-generator@VERSION.so, which writes them:
 *   pinocchio_cg_gen.cpp (Pinocchio's CodeGen classes, whose templates on
 *   CppAD<CG<double>> take minutes to compile) and pinocchio_cg_model.cpp
 *   again, built only when a model's code is missing (scripts/codegen).
 * Never one binary: the two compile Eigen's and Pinocchio's templates for
 * other scalars and needs, and are kept from sharing one set of COMDATs.
 */
#ifndef RBD_PINOCCHIO_CG_HPP
#define RBD_PINOCCHIO_CG_HPP

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <pinocchio/multibody/model.hpp>

#include "peer_api.h"
#include "pinocchio_joints.hpp"

namespace rbd_cg {

using pinocchio::Model;
using Eigen::MatrixXd;
using Eigen::VectorXd;
typedef Eigen::Ref<const VectorXd> Col;

enum Func { RNEA_DERIVS, ABA_DERIVS, RNEA, ABA, MINV, CRBA, NFUNC };
extern const rbd_peer_func funcs[NFUNC];
/* The library of each function in a model's cache folder: <lib_name>.so. */
extern const char *const lib_name[NFUNC];
/* The name the generated library stores each function under: the CodeGen
 * classes' default function names. */
extern const char *const cg_function[NFUNC];

/* Our joint order in Pinocchio's, as pinocchio.cpp matches it
 * (pinocchio_joints.hpp). */
using rbd_pin::Order;
using rbd_pin::match_joints;
using rbd_pin::permute_in;

void say(char *err, size_t len, const std::string &s);
bool read_file(const char *path, std::string &bytes, std::string &why);
bool build_model(const char *urdf, Model &m, std::string &why);

/* The C compiler and flags the generated code is compiled with: $RBD_CG_CC
 * and $RBD_CG_FLAGS (space-separated) when set, else pinocchio_cg.cmake's
 * (rbd_cg_config.h: Pinocchio's own, gcc -Ofast, unless configured
 * otherwise); the compiler's --version line, for the cache key, status.txt
 * and meta.json; CppADCodeGen's version.  In pinocchio_cg_model.cpp, so that
 * a change of the defaults recompiles that file only, not the minutes of
 * pinocchio_cg_gen.cpp. */
std::string cg_cc();
std::string cg_flags();
std::string cg_cc_id();
const char *cg_cppadcg();

/* The cache: <cache_root()>/<cg_key(urdf bytes)>/, holding <lib_name>.so per
 * function and status.txt (one line per function: "<lib_name> ok <record s>
 * <compile s>" or "<lib_name> failed <why>").  cache_root() is outside the
 * clone, beside the MPFR references (~/.cache/rbdiff/cg).  The key is a 64-bit FNV-1a hash of the
 * URDF's bytes, Pinocchio's version, the compiler's identity and flags and
 * the layout of the folder, so a change of any of them generates anew. */
std::string cg_key(const std::string &urdf_bytes);
std::string cache_root();
std::string status_of(const std::string &dir, const char *lib);

/* One function's generated library, called as its CodeGen class's
 * evalFunction calls it (pinocchio_cg_eval.cpp). */
struct Eval {
    virtual ~Eval() = default;
    /* Opens a generated library as CodeGenBase::loadLib does. */
    virtual void open(const std::string &so) = 0;
    /* The user's call, evalFunction with the inputs its class takes. */
    virtual void call(const Col &q, const Col &v, const Col &a, const Col &tau) = 0;
    /* The outputs in rbdiff's numbering (peer_api.h, result()). */
    virtual void result(const std::vector<int> &of, double *vec, double *m0, double *m1, double *m2) = 0;
};
std::unique_ptr<Eval> make_eval(Func f, int nq, int nv);

} // namespace rbd_cg

#endif
