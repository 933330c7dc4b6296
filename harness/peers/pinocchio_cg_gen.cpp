/*
 * pinocchio-cg: Pinocchio's CodeGen classes, used as their users use them
 * (pinocchio_cg.hpp), and rbd_cg_generate, which generates and compiles a
 * model's libraries into the cache.  The only file of the peer that
 * includes pinocchio/codegen: its templates on CppAD<CG<double>> are what
 * takes the module minutes to compile.
 */
#include <pinocchio/codegen/cppadcg-algo.hpp>   /* first: it sets up Pinocchio for CppAD's scalars */

#include "pinocchio_cg.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace rbd_cg {
namespace {

/* The classes' default function names, which the library stores the model under. */
const char *const cg_function[NFUNC] = { "partial_rnea", "partial_aba", "rnea", "aba", "minv", "crba" };

/* out[i + nv*j] = X(of[i], of[j]): user numbering, column-major. */
template<typename M> void permute_out(const M &X, const std::vector<int> &of, double *out)
{
    const int n = (int)of.size();
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) out[i + (size_t)n * j] = X(of[i], of[j]);
}

/* A triangle the class writes (i <= j), mirrored. */
template<typename M> void upper_out(const M &X, const std::vector<int> &of, double *out)
{
    const int n = (int)of.size();
    MatrixXd S = X.leftCols(n).template triangularView<Eigen::Upper>();
    S.triangularView<Eigen::StrictlyLower>() = S.transpose();
    permute_out(S, of, out);
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/* Eval over one CodeGen class CG computing F: the class's protected
 * outputs (the derivatives classes keep theirs protected) are read here. */
template<class CG, Func F> struct EvalT final : Eval, CG {
    /* Only the code that is timed, the forward sweep evalFunction calls:
     * CodeGenRNEA and CodeGenABA also generate their Jacobian by default
     * (the other classes turn it off), which evalFunction never runs and
     * which was most of a cold generation (UR3: 66 of 88 s, the ABA
     * Jacobian's gcc); CppADCodeGen writes ForwardZero the same way
     * either way. */
    EvalT(const Model &m, const std::string &lib) : CG(m, cg_function[F], lib) { this->build_jacobian = false; }

    void open(const std::string &so) override
    {
        this->dynamicLib_ptr.reset(new CppAD::cg::LinuxDynamicLib<double>(so));
        this->generatedFun_ptr = this->dynamicLib_ptr->model(this->function_name.c_str());
        if (!this->generatedFun_ptr) throw std::runtime_error("no model " + this->function_name + " in it");
    }

    void generate(double &record_s, double &compile_s) override
    {
        auto t0 = std::chrono::steady_clock::now();
        this->initLib();
        record_s = seconds_since(t0);
        t0 = std::chrono::steady_clock::now();
        compile();
        compile_s = seconds_since(t0);
    }

    /* CodeGenBase::compileLib(cc, flags), which puts its one string in the
     * place of GccCompiler's -O2: here the flags are split at spaces, so
     * that "-Ofast -march=native" is two arguments, not one. */
    void compile()
    {
        CppAD::cg::GccCompiler<double> compiler(cg_cc());
        std::vector<std::string> flags = compiler.getCompileFlags(), mine;
        std::istringstream words(cg_flags());
        for (std::string w; words >> w;) mine.push_back(w);
        flags.erase(flags.begin());
        flags.insert(flags.begin(), mine.begin(), mine.end());
        compiler.setCompileFlags(flags);
        this->dynamicLibManager_ptr->createDynamicLibrary(compiler, false);
    }

    std::string lib_file() const override
    {
        return this->library_name + CppAD::cg::system::SystemInfo<>::DYNAMIC_LIB_EXTENSION;
    }

    void call(const Col &q, const Col &v, const Col &a, const Col &tau) override
    {
        if constexpr (F == RNEA_DERIVS || F == RNEA) this->evalFunction(q, v, a);
        else if constexpr (F == ABA_DERIVS || F == ABA) this->evalFunction(q, v, tau);
        else this->evalFunction(q);
    }

    void result(const std::vector<int> &of, double *vec, double *m0, double *m1, double *m2) override
    {
        if constexpr (F == RNEA_DERIVS) {
            permute_out(this->dtau_dq, of, m0);
            permute_out(this->dtau_dv, of, m1);
        } else if constexpr (F == ABA_DERIVS) {
            permute_out(this->dddq_dq, of, m0);
            permute_out(this->dddq_dv, of, m1);
            permute_out(this->dddq_dtau, of, m2);
        } else if constexpr (F == RNEA || F == ABA) {
            for (size_t i = 0; i < of.size(); i++) vec[i] = this->y[of[i]];
        } else if constexpr (F == MINV) {
            upper_out(this->Minv, of, m0);
        } else {
            upper_out(this->M, of, m0);
        }
    }
};

/* rm -r of the scratch folders CppADCodeGen's compiler leaves in the
 * working directory. */
void remove_tree(const std::string &dir)
{
    std::string cmd = "rm -rf '" + dir + "'";
    if (std::system(cmd.c_str())) std::fprintf(stderr, "pinocchio-cg: could not remove %s\n", dir.c_str());
}

} // namespace

std::unique_ptr<Eval> make_eval(Func f, const Model &m, const std::string &lib)
{
    switch (f) {
    case RNEA_DERIVS: return std::make_unique<EvalT<pinocchio::CodeGenRNEADerivatives<double>, RNEA_DERIVS>>(m, lib);
    case ABA_DERIVS: return std::make_unique<EvalT<pinocchio::CodeGenABADerivatives<double>, ABA_DERIVS>>(m, lib);
    case RNEA: return std::make_unique<EvalT<pinocchio::CodeGenRNEA<double>, RNEA>>(m, lib);
    case ABA: return std::make_unique<EvalT<pinocchio::CodeGenABA<double>, ABA>>(m, lib);
    case MINV: return std::make_unique<EvalT<pinocchio::CodeGenMinv<double>, MINV>>(m, lib);
    case CRBA: return std::make_unique<EvalT<pinocchio::CodeGenCRBA<double>, CRBA>>(m, lib);
    default: return nullptr;
    }
}

} // namespace rbd_cg

using namespace rbd_cg;

/* Generates and compiles the six libraries of the model in `urdf` into
 * <cache_root()>/<key>/, built in a scratch folder beside it and renamed
 * into place when done, so a reader never sees half a cache; a function
 * whose generation fails is a "failed" line in status.txt and the others go
 * on.  Prints one line per function and one for the model.  Changes the
 * working directory (CppADCodeGen compiles in it): for the generator process
 * (cg_generate.c) only.  0: generated or already cached; 1: a function
 * failed; 2: the URDF is unreadable or Pinocchio refuses it. */
extern "C" __attribute__((visibility("default"))) int rbd_cg_generate(const char *urdf, const char *label)
{
    std::string bytes, why;
    Model model;
    if (!read_file(urdf, bytes, why) || !build_model(urdf, model, why)) {
        std::fprintf(stderr, "pinocchio-cg: %s: %s\n", urdf, why.c_str());
        return 2;
    }
    const std::string root = cache_root(), dir = root + "/" + cg_key(bytes);
    struct stat st;
    if (!stat((dir + "/status.txt").c_str(), &st)) {
        std::printf("pinocchio-cg: %s (nv %d): cached in %s\n", label, model.nv, dir.c_str());
        return 0;
    }
    const std::string tmp = dir + ".tmp" + std::to_string(getpid());
    for (size_t at = root.find('/', 1); at != std::string::npos; at = root.find('/', at + 1))
        mkdir(root.substr(0, at).c_str(), 0777);   /* mkdir -p: ~/.cache may not be there yet */
    mkdir(root.c_str(), 0777);
    if (mkdir(tmp.c_str(), 0777) || chdir(tmp.c_str())) {
        std::fprintf(stderr, "pinocchio-cg: cannot create %s\n", tmp.c_str());
        return 1;
    }
    std::string status;
    double total = 0;
    int failed = 0;
    for (int f = 0; f < NFUNC; f++) {
        double rec = 0, comp = 0;
        char line[600];
        try {
            std::unique_ptr<Eval> e = make_eval(Func(f), model, tmp + "/" + lib_name[f]);
            e->generate(rec, comp);
            const std::string so = tmp + "/" + lib_name[f] + ".so";
            if (std::rename(e->lib_file().c_str(), so.c_str())) throw std::runtime_error("no " + e->lib_file());
            std::snprintf(line, sizeof line, "%s ok %.2f %.2f", lib_name[f], rec, comp);
        } catch (const std::exception &ex) {
            std::snprintf(line, sizeof line, "%s failed %s", lib_name[f], ex.what());
            failed++;
        }
        total += rec + comp;
        status += std::string(line) + "\n";
        std::printf("pinocchio-cg: %s (nv %d): %s\n", label, model.nv, line);
        std::fflush(stdout);
    }
    remove_tree(tmp + "/cppadcg_tmp");
    remove_tree(tmp + "/cppadcg_sources");
    std::ofstream(tmp + "/status.txt") << status << "compiler " << cg_cc_id() << " " << cg_cc() << " " << cg_flags() << "\n"
                                       << "pinocchio " PINOCCHIO_VERSION "\nmodel " << label << " nq " << model.nq
                                       << " nv " << model.nv << "\ntotal " << total << " s\n";
    if (chdir("/") || std::rename(tmp.c_str(), dir.c_str())) {
        std::fprintf(stderr, "pinocchio-cg: cannot move %s to %s\n", tmp.c_str(), dir.c_str());
        remove_tree(tmp);
        return 1;
    }
    std::printf("pinocchio-cg: %s (nv %d): %d of %d generated in %.1f s, cached in %s\n", label, model.nv,
                NFUNC - failed, NFUNC, total, dir.c_str());
    return failed ? 1 : 0;
}
