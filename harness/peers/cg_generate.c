/*
 * rbdpeer-cg-generate --cached MODULE URDF LABEL
 * rbdpeer-cg-generate GENERATOR URDF LABEL
 * pinocchio-cg's set-up work for one model (harness/peers/README.md), run
 * by scripts/codegen; a process of its own, since CppADCodeGen compiles in
 * the working directory.  --cached asks the peer module (rbd_cg_cached,
 * pinocchio_cg.cpp) whether the model's code is in the cache: exit 0 (and a
 * line saying where) or 3; scripts/codegen builds the generator only when
 * some model's is not.  Otherwise it has the generator
 * (pinocchio-cg-generator@VERSION.so, rbd_cg_generate) generate and compile
 * it: exit 0 generated or cached, 1 a function failed, 2 bad input.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const int cached = argc == 5 && !strcmp(argv[1], "--cached");
    if (argc != 4 && !cached) {
        fprintf(stderr, "usage: %s [--cached MODULE | GENERATOR] URDF LABEL\n", argv[0]);
        return 2;
    }
    char **arg = argv + 1 + cached;
    const char *entry = cached ? "rbd_cg_cached" : "rbd_cg_generate";
    void *dl = dlopen(arg[0], RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "%s: %s does not load: %s\n", argv[0], arg[0], dlerror());
        return 2;
    }
    int (*run)(const char *, const char *);
    *(void **)&run = dlsym(dl, entry);
    if (!run) {
        fprintf(stderr, "%s: %s has no %s\n", argv[0], arg[0], entry);
        return 2;
    }
    return run(arg[1], arg[2]);
}
