/*
 * pinocchio-cg's generator (pinocchio-cg-generator@VERSION.so, run by
 * rbdpeer-cg-generate): rbd_cg_generate, which has Pinocchio's CodeGen
 * classes record, write and compile a model's libraries into the cache, as
 * their users do (initLib, compileLib).  The only file that includes
 * pinocchio/codegen: its templates on CppAD<CG<double>> are minutes of
 * compiling, which is why it is a binary of its own, built only when some
 * model's code is missing (pinocchio_cg.hpp, scripts/codegen).
 */
#include <pinocchio/codegen/cppadcg-algo.hpp>   /* first: it sets up Pinocchio for CppAD's scalars */

#include "pinocchio_cg.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rbd_cg {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/* One CodeGen class of Pinocchio's on one model: record (initLib), then
 * write and compile (compileLib's work, with the flags split). */
struct Gen {
    virtual ~Gen() = default;
    /* Seconds of each; the library is then lib_file(). */
    virtual void generate(double &record_s, double &compile_s) = 0;
    virtual std::string lib_file() const = 0;
};

template<class CG, Func F> struct GenT final : Gen, CG {
    /* Only the code that is timed, the forward sweep evalFunction calls:
     * CodeGenRNEA and CodeGenABA also generate their Jacobian by default
     * (the other classes turn it off), which evalFunction never runs and
     * which was most of a cold generation (UR3: 66 of 88 s, the ABA
     * Jacobian's gcc); CppADCodeGen writes ForwardZero the same way
     * either way. */
    GenT(const Model &m, const std::string &lib) : CG(m, cg_function[F], lib) { this->build_jacobian = false; }

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
};

/* rm -r of the scratch folders CppADCodeGen's compiler leaves in the
 * working directory. */
void remove_tree(const std::string &dir)
{
    std::string cmd = "rm -rf '" + dir + "'";
    if (std::system(cmd.c_str())) std::fprintf(stderr, "pinocchio-cg: could not remove %s\n", dir.c_str());
}

std::unique_ptr<Gen> make_gen(Func f, const Model &m, const std::string &lib)
{
    switch (f) {
    case RNEA_DERIVS: return std::make_unique<GenT<pinocchio::CodeGenRNEADerivatives<double>, RNEA_DERIVS>>(m, lib);
    case ABA_DERIVS: return std::make_unique<GenT<pinocchio::CodeGenABADerivatives<double>, ABA_DERIVS>>(m, lib);
    case RNEA: return std::make_unique<GenT<pinocchio::CodeGenRNEA<double>, RNEA>>(m, lib);
    case ABA: return std::make_unique<GenT<pinocchio::CodeGenABA<double>, ABA>>(m, lib);
    case MINV: return std::make_unique<GenT<pinocchio::CodeGenMinv<double>, MINV>>(m, lib);
    case CRBA: return std::make_unique<GenT<pinocchio::CodeGenCRBA<double>, CRBA>>(m, lib);
    default: return nullptr;
    }
}

/* The last line `path` holds ("" when none): what a dead child said. */
std::string last_line(const std::string &path)
{
    std::ifstream f(path);
    std::string line, last;
    while (std::getline(f, line))
        if (!line.empty()) last = line;
    return last;
}

/* One function's libraries, generated in a child process, into tmp/<lib_name>.so;
 * its status line ("<lib_name> ok <record s> <compile s>" or "<lib_name>
 * failed <why>").  A child, because CppADCodeGen has crashed the whole
 * generator on a large model (Talos, nv 50: "double free or corruption" in
 * CodeGenABADerivatives, harness/peers/README.md), which lost the functions
 * generated before it; a child that
 * dies is that function's failed line, with its signal and the last line it
 * wrote to stderr, and the others are kept. */
std::string generate_one(int f, const Model &model, const std::string &tmp, double &seconds)
{
    const std::string err = tmp + "/" + lib_name[f] + ".err", out = tmp + "/" + lib_name[f] + ".line";
    char line[600];
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid == 0) {
        if (!std::freopen(err.c_str(), "w", stderr)) _exit(3);
        double rec = 0, comp = 0;
        try {
            std::unique_ptr<Gen> e = make_gen(Func(f), model, tmp + "/" + lib_name[f]);
            e->generate(rec, comp);
            const std::string so = tmp + "/" + lib_name[f] + ".so";
            if (std::rename(e->lib_file().c_str(), so.c_str())) throw std::runtime_error("no " + e->lib_file());
            std::snprintf(line, sizeof line, "%s ok %.2f %.2f", lib_name[f], rec, comp);
        } catch (const std::exception &ex) {
            std::snprintf(line, sizeof line, "%s failed %s", lib_name[f], ex.what());
        }
        std::ofstream(out) << line << "\n";
        std::fflush(stderr);
        _exit(0);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid) {
        std::snprintf(line, sizeof line, "%s failed could not run its generation (fork: %s)", lib_name[f],
                      std::strerror(errno));
        return line;
    }
    std::string said = last_line(out);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !said.empty()) {
        double rec = 0, comp = 0;
        if (std::sscanf(said.c_str(), "%*s ok %lf %lf", &rec, &comp) == 2) seconds = rec + comp;
        return said;
    }
    const std::string why = last_line(err);
    if (WIFSIGNALED(st))
        std::snprintf(line, sizeof line, "%s failed its generation died of %s (signal %d)%s%s", lib_name[f],
                      strsignal(WTERMSIG(st)), WTERMSIG(st), why.empty() ? "" : "; its stderr: ", why.c_str());
    else
        std::snprintf(line, sizeof line, "%s failed its generation exited with status %d%s%s", lib_name[f],
                      WIFEXITED(st) ? WEXITSTATUS(st) : -1, why.empty() ? "" : "; its stderr: ", why.c_str());
    return line;
}

} // namespace
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
    std::string status, failures;
    double total = 0;
    int failed = 0;
    for (int f = 0; f < NFUNC; f++) {
        double seconds = 0;
        const std::string line = generate_one(f, model, tmp, seconds);
        if (line.find(" ok ") == std::string::npos) {
            failed++;
            failures += std::string(failures.empty() ? " (" : "; ") + lib_name[f] + ":" +
                        line.substr(line.find(" failed") + 7);
        }
        total += seconds;
        status += line + "\n";
        std::printf("pinocchio-cg: %s (nv %d): %s\n", label, model.nv, line.c_str());
        std::fflush(stdout);
    }
    for (int f = 0; f < NFUNC; f++) {   /* the children's notes, read into the lines above */
        std::remove((tmp + "/" + lib_name[f] + ".err").c_str());
        std::remove((tmp + "/" + lib_name[f] + ".line").c_str());
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
    /* the model's one line (scripts/codegen's record): what failed and why in it */
    std::printf("pinocchio-cg: %s (nv %d): %d of %d generated in %.1f s%s%s, cached in %s\n", label, model.nv,
                NFUNC - failed, NFUNC, total, failures.c_str(), failures.empty() ? "" : ")", dir.c_str());
    return failed ? 1 : 0;
}
