/*
 * rbdpeer-cg-generate MODULE URDF LABEL: generates and compiles Pinocchio's
 * code for one model into the pinocchio-cg peer's cache (the module's
 * rbd_cg_generate, pinocchio_cg_gen.cpp).  Set-up work, run by
 * scripts/peers --codegen; a process of its own, since CppADCodeGen compiles
 * in the working directory.  Exit 0 generated or cached, 1 a function
 * failed, 2 bad input.
 */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MODULE URDF LABEL\n", argv[0]);
        return 2;
    }
    void *dl = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "%s: %s does not load: %s\n", argv[0], argv[1], dlerror());
        return 2;
    }
    int (*gen)(const char *, const char *);
    *(void **)&gen = dlsym(dl, "rbd_cg_generate");
    if (!gen) {
        fprintf(stderr, "%s: %s has no rbd_cg_generate\n", argv[0], argv[1]);
        return 2;
    }
    return gen(argv[2], argv[3]);
}
