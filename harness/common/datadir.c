/* The data root (datadir.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/datadir.h"

#ifndef RBD_SOURCE_DIR
#define RBD_SOURCE_DIR "."
#endif

int installed_path(char *buf, size_t len, const char *rel)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    int k = snprintf(buf, len, "%s/../%s", exe, rel);
    return k < 0 || (size_t)k >= len || access(buf, F_OK) != 0 ? -1 : 0;
}

/* <directory of this executable>/../share/rbdiff when it holds the robots. */
static int installed_root(char *buf, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return -1;
    *slash = 0;
    char probe[PATH_MAX + 64], real[PATH_MAX];
    snprintf(probe, sizeof probe, "%s/../share/rbdiff", exe);
    if (!realpath(probe, real)) return -1;
    snprintf(probe, sizeof probe, "%s/tests/models", real);
    if (access(probe, F_OK) != 0 || strlen(real) >= len) return -1;
    snprintf(buf, len, "%s", real);
    return 0;
}

const char *data_root(void)
{
    static char root[PATH_MAX];
    static int done;
    if (!done) {
        const char *env = getenv("RBD_DATA_DIR");
        if (env && *env) snprintf(root, sizeof root, "%s", env);
        else if (installed_root(root, sizeof root) != 0) snprintf(root, sizeof root, "%s", RBD_SOURCE_DIR);
        done = 1;
    }
    return root;
}

int data_path(char *buf, size_t len, const char *rel)
{
    int n = snprintf(buf, len, "%s/%s", data_root(), rel);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}
