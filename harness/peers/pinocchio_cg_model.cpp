/*
 * pinocchio-cg: the model from rbdiff's URDF (its joints are matched to ours
 * by pinocchio_joints.hpp, as pinocchio.cpp's are), and where its generated
 * libraries are cached (pinocchio_cg.hpp).
 */
#include "pinocchio_cg.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdio.h>

#include <pinocchio/parsers/urdf.hpp>

#include "rbd_cg_config.h"   /* pinocchio_cg.cmake: RBD_CG_CC, RBD_CG_FLAGS, RBD_CG_CPPADCG */

namespace rbd_cg {

const char *const lib_name[NFUNC] = { "rnea_derivatives", "aba_derivatives", "rnea", "aba", "minv", "crba" };
const char *const cg_function[NFUNC] = { "partial_rnea", "partial_aba", "rnea", "aba", "minv", "crba" };

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
    fnv(h, std::string("cppadcg ") + cg_cppadcg());
    fnv(h, cg_cc_id());
    fnv(h, cg_cc() + " " + cg_flags());
    fnv(h, "layout 2: <lib_name>.so (ForwardZero only), status.txt");
    char key[20];
    std::snprintf(key, sizeof key, "%016" PRIx64, h);
    return key;
}

std::string cg_cc()
{
    const char *e = std::getenv("RBD_CG_CC");
    return e && *e ? e : RBD_CG_CC;
}

std::string cg_flags()
{
    const char *e = std::getenv("RBD_CG_FLAGS");
    return e && *e ? e : RBD_CG_FLAGS;
}

std::string cg_cc_id()
{
    static std::string cc, id;
    if (cc == cg_cc()) return id;
    cc = cg_cc();
    id = cc + " (no --version)";
    std::string cmd = "'" + cc + "' --version 2>/dev/null";
    if (FILE *p = popen(cmd.c_str(), "r")) {
        char line[300];
        if (std::fgets(line, sizeof line, p)) {
            id = line;
            while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) id.pop_back();
        }
        pclose(p);
    }
    return id;
}

const char *cg_cppadcg()
{
    return RBD_CG_CPPADCG;
}

/* Outside the clone, beside the MPFR references (accuracy_run.c's
 * audit_default_cache): $RBD_CACHE_DIR/cg, else $XDG_CACHE_HOME/rbdiff/cg,
 * else ~/.cache/rbdiff/cg, so that a fresh clone's scripts/run finds the
 * code an earlier clone generated (the key holds everything the libraries
 * depend on); the module's folder, cg/, only without a home. */
std::string cache_root()
{
    const char *e;
    if ((e = std::getenv("RBD_CACHE_DIR")) && *e) return std::string(e) + "/cg";
    if ((e = std::getenv("XDG_CACHE_HOME")) && *e) return std::string(e) + "/rbdiff/cg";
    if ((e = std::getenv("HOME")) && *e) return std::string(e) + "/.cache/rbdiff/cg";
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
