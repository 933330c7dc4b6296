/*
 * The pinocchio-cg peer: Pinocchio's generated code (pinocchio/codegen,
 * CppADCodeGen) timed beside rbdiff's methods (peer_api.h), the CPU
 * baseline of published GPU comparisons ("Pinocchio with code generation").
 *
 * Per model and function, CodeGenRNEADerivatives, CodeGenABADerivatives,
 * CodeGenRNEA, CodeGenABA, CodeGenMinv and CodeGenCRBA record Pinocchio's
 * algorithm on CppAD<CG<double>> scalars (the tape of one evaluation, with
 * the model's constants folded in), write it out as C and compile it into a
 * shared library.  That is set-up work, done once per model by the
 * generator (pinocchio_cg_gen.cpp, a binary of its own, run by
 * scripts/codegen): this module only opens the cached libraries
 * (pinocchio_cg_eval.cpp) and tells scripts/codegen which models have
 * them (rbd_cg_cached).  load() finds them by the key
 * of the URDF it is given (cg_key: the file's bytes, Pinocchio's version, the
 * C compiler and its flags) and refuses a model with none, saying how to
 * generate it; the timed call is the user's call, the class's
 * evalFunction(q, v, a): copy the inputs into x, the generated ForwardZero,
 * copy y out into the class's matrices.
 *
 * Model, joints and numbering are as in pinocchio.cpp (the same URDF, the
 * same joint matching by name); pinocchio_cg.hpp holds what the two files
 * of this peer share.
 */
#include "pinocchio_cg.hpp"

#include <cstdio>
#include <fstream>
#include <sys/stat.h>

namespace rbd_cg {

/* Tolerances as pinocchio.cpp's: the generated code evaluates the same
 * algorithm in another order (CppAD's optimiser reassociates nothing, but
 * -Ofast lets the C compiler contract and reorder), so 1e-9 relative, plus
 * 1e-15 per unit of kappa(M) for what solves with M. */
const rbd_peer_func funcs[NFUNC] = {
    { "computeRNEADerivatives", RBD_PEER_ID_PARTIALS, "idsva",
      "CodeGenRNEADerivatives: dtau/dq, dtau/dv and dtau/da (= M) in full, no tau; y copied to three MatrixXd", 1e-9,
      0 },
    { "computeABADerivatives", RBD_PEER_FD_PARTIALS, "fdsva",
      "CodeGenABADerivatives: dqdd/dq, dqdd/dv and dqdd/dtau (= M^-1) in full, no qdd; y copied to three MatrixXd",
      1e-9, 1e-15 },
    { "rnea", RBD_PEER_TAU, "rnea", "CodeGenRNEA: tau", 1e-9, 0 },
    { "aba", RBD_PEER_QDD, "aba", "CodeGenABA: qdd", 1e-9, 1e-15 },
    { "computeMinverse", RBD_PEER_MINV, "minv", "CodeGenMinv: M^-1, upper triangle", 1e-9, 1e-15 },
    { "crba", RBD_PEER_M, "crba", "CodeGenCRBA: M, upper triangle (Convention::WORLD)", 1e-9, 0 },
};

} // namespace rbd_cg

namespace {

using namespace rbd_cg;

struct PeerModel {
    Model model;
    Order order;
    std::string dir;            /* the cache folder of this model's libraries */
};

struct Ctx {
    std::unique_ptr<Eval> eval;
    const PeerModel *pm;
    MatrixXd q, v, a, tau;      /* pool states in Pinocchio's order, one column each */
    int last = -1;
};

void *load(const char *urdf, int njoint, const rbd_peer_joint *joint, int nq, int nv, char *err, size_t errlen)
{
    std::unique_ptr<PeerModel> pm(new (std::nothrow) PeerModel);
    if (!pm) { say(err, errlen, "out of memory"); return nullptr; }
    std::string why;
    std::string bytes;
    if (!read_file(urdf, bytes, why) || !build_model(urdf, pm->model, why) ||
        !match_joints(pm->model, njoint, joint, nq, nv, pm->order, why)) {
        say(err, errlen, why);
        return nullptr;
    }
    const std::string key = cg_key(bytes);
    pm->dir = cache_root() + "/" + key;
    struct stat st;
    if (stat((pm->dir + "/status.txt").c_str(), &st)) {
        /* the same words for every model, so that a sweep says it once */
        say(err, errlen, "no generated code for this model under " + cache_root() +
            " (Pinocchio " PINOCCHIO_VERSION ", " + cg_cc() + " " + cg_flags() + "): scripts/codegen SPEC generates it "
            "(no SPEC: the default sweep's robots)");
        return nullptr;
    }
    return pm.release();
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
    const std::string so = pm->dir + "/" + lib_name[func] + ".so";
    struct stat st;
    if (stat(so.c_str(), &st)) {
        say(err, errlen, "no generated library " + so + ": " + status_of(pm->dir, lib_name[func]));
        return nullptr;
    }
    try {
        std::unique_ptr<Ctx> c(new Ctx);
        c->pm = pm;
        c->eval = make_eval(Func(func), pm->model.nq, pm->model.nv);
        c->eval->open(so);
        const int nq = pm->model.nq, nv = pm->model.nv;
        c->q.resize(nq, pool); c->v.resize(nv, pool); c->a.resize(nv, pool); c->tau.resize(nv, pool);
        for (int k = 0; k < pool; k++) {
            permute_in(q + (size_t)k * nq, nq, pm->order.q_of, c->q.col(k).data());
            permute_in(v + (size_t)k * nv, nv, pm->order.v_of, c->v.col(k).data());
            permute_in(a + (size_t)k * nv, nv, pm->order.v_of, c->a.col(k).data());
            permute_in(tau + (size_t)k * nv, nv, pm->order.v_of, c->tau.col(k).data());
        }
        return c.release();
    } catch (const std::exception &e) {
        say(err, errlen, std::string("bind: ") + so + ": " + e.what());
        return nullptr;
    }
}

int call(void *p, int k)
{
    Ctx &c = *static_cast<Ctx *>(p);
    c.eval->call(c.q.col(k), c.v.col(k), c.a.col(k), c.tau.col(k));
    c.last = k;
    return 0;
}

int result(void *p, double *vec, double *mat0, double *mat1, double *mat2, char *err, size_t errlen)
{
    Ctx &c = *static_cast<Ctx *>(p);
    if (c.last < 0) { say(err, errlen, "result before any call"); return 1; }
    c.eval->result(c.pm->order.v_of, vec, mat0, mat1, mat2);
    return 0;
}

void unbind(void *p)
{
    delete static_cast<Ctx *>(p);
}

rbd_peer_api api = {   /* build: filled in by rbd_peer_entry */
    RBD_PEER_ABI,
    "pinocchio-cg",
    PINOCCHIO_VERSION,
    nullptr,
    NFUNC,
    funcs,
    load,
    unload,
    bind,
    call,
    result,
    unbind,
};

} // namespace

/* The compiler and flags of the generated code are chosen when it is
 * generated ($RBD_CG_CC, $RBD_CG_FLAGS, else the configured ones), so the
 * build string that meta.json records is made here, not at compile time. */
extern "C" __attribute__((visibility("default"))) const rbd_peer_api *rbd_peer_entry(void)
{
    static std::string build;
    if (build.empty())
        build = RBD_PEER_BUILD "; generated code: " + cg_cc_id() + ", " + cg_cc() + " " + cg_flags() +
                " (CppADCodeGen " + cg_cppadcg() + ", cached per model under " + cache_root() + "); " RBD_PEER_SOURCE;
    api.build = build.c_str();
    return &api;
}

/* Whether the model in `urdf` has its generated code in the cache (the key
 * the module's load() looks for), for scripts/codegen, which builds and
 * runs the generator only for the models that have none.  0 and one line
 * ("pinocchio-cg: LABEL (nv N): cached in DIR"): cached; 3: not cached;
 * 2: the URDF is unreadable or Pinocchio refuses it (one line on stderr). */
extern "C" __attribute__((visibility("default"))) int rbd_cg_cached(const char *urdf, const char *label)
{
    std::string bytes, why;
    Model model;
    if (!read_file(urdf, bytes, why) || !build_model(urdf, model, why)) {
        std::fprintf(stderr, "pinocchio-cg: %s: %s\n", urdf, why.c_str());
        return 2;
    }
    const std::string dir = cache_root() + "/" + cg_key(bytes);
    struct stat st;
    if (stat((dir + "/status.txt").c_str(), &st)) return 3;
    std::printf("pinocchio-cg: %s (nv %d): cached in %s\n", label, model.nv, dir.c_str());
    return 0;
}
