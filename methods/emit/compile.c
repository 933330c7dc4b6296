/*
 * The emitted C compiled and loaded (emit.h).  The cache is
 * $RBD_CACHE_DIR/emit, else $XDG_CACHE_HOME/rbdiff/emit, else
 * ~/.cache/rbdiff/emit (the MPFR reference cache's and pinocchio-cg's
 * root): outside the clone, so a user pays a model's compile once.  A
 * source is found by the FNV-1a hash of its text (the model's constants and
 * the emitter's version are in it), the compiler and the flags; it is a hit
 * only when the cached .c beside the .so is that text byte for byte.  A miss
 * writes NAME.PID.c, compiles it to NAME.PID.so and renames both into place
 * (rename(2) is atomic: a reader sees a whole library or none, and two
 * processes compiling the same model each rename a whole one).
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "emit/emit.h"
#include "emit/emit_config.h"

extern char **environ;

/* $RBD_EMIT_CC overrides the build's compiler (a machine that runs rbdiff
 * without the one it was built with). */
const char *rbd_emit_cc(void)
{
    const char *e = getenv("RBD_EMIT_CC");
    return e && *e ? e : RBD_EMIT_BUILD_CC;
}

const char *rbd_emit_flags(void)
{
    return RBD_EMIT_BUILD_FLAGS;
}

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) { h ^= (unsigned char)s[k]; h *= 1099511628211ull; }
    return h;
}

static int make_dirs(char *path)
{
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            int bad = mkdir(path, 0755) && errno != EEXIST;
            *p = '/';
            if (bad) return -1;
        }
    return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

static int cache_dir(const char *who, char *buf, size_t len)
{
    const char *e;
    if ((e = getenv("RBD_CACHE_DIR")) && *e) snprintf(buf, len, "%s/emit", e);
    else if ((e = getenv("XDG_CACHE_HOME")) && *e) snprintf(buf, len, "%s/rbdiff/emit", e);
    else if ((e = getenv("HOME")) && *e) snprintf(buf, len, "%s/.cache/rbdiff/emit", e);
    else return rbd_fail(RBD_EIO, "%s: no cache folder for the emitted code (set RBD_CACHE_DIR)", who);
    if (make_dirs(buf)) return rbd_fail(RBD_EIO, "%s: cannot make the cache folder %s: %s", who, buf, strerror(errno));
    return RBD_OK;
}

/* 1 when the file at path holds exactly src. */
static int same_text(const char *path, const char *src, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char *buf = malloc(len + 1);
    int same = buf && fread(buf, 1, len + 1, f) == len && !memcmp(buf, src, len);
    free(buf);
    fclose(f);
    return same;
}

static int write_text(const char *path, const char *src, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = fwrite(src, 1, len, f) == len;
    return (fclose(f) || !ok) ? -1 : 0;
}

/* The first line of the compiler's log, for the error message. */
static void first_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    buf[0] = 0;
    if (f) {
        if (!fgets(buf, (int)len, f)) buf[0] = 0;
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = 0;
}

/* cc FLAGS -fPIC -shared -o so c -lm, its output into log. */
static int run_cc(const char *who, const char *c, const char *so, const char *log)
{
    char flags[1024], *argv[64];
    int argc = 0;
    snprintf(flags, sizeof flags, "%s", rbd_emit_flags());
    argv[argc++] = (char *)rbd_emit_cc();
    for (char *t = strtok(flags, " "); t && argc < 54; t = strtok(NULL, " ")) argv[argc++] = t;
    char *tail[] = { "-fPIC", "-shared", "-o", (char *)so, (char *)c, "-lm", NULL };
    for (int k = 0; k < 7; k++) argv[argc++] = tail[k];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ), st = 0;
    posix_spawn_file_actions_destroy(&fa);
    if (e) return rbd_fail(RBD_ENOTSUP, "%s: no C compiler '%s' to compile the emitted code (%s; set RBD_EMIT_CC)",
                           who, argv[0], strerror(e));
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return RBD_OK;
    char line[512];
    first_line(log, line, sizeof line);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        return rbd_fail(RBD_ENOTSUP, "%s: no C compiler '%s' to compile the emitted code (set RBD_EMIT_CC)", who, argv[0]);
    return rbd_fail(RBD_EIO, "%s: '%s' failed on %s (exit %d): %s", who, argv[0], c,
                    WIFEXITED(st) ? WEXITSTATUS(st) : -1, line);
}

static int compile_into(const char *who, const char *base, const char *src, size_t len)
{
    char c[4200], so[4200], log[4200], fc[4200], fso[4200];
    snprintf(c, sizeof c, "%s.%ld.c", base, (long)getpid());
    snprintf(so, sizeof so, "%s.%ld.so", base, (long)getpid());
    snprintf(log, sizeof log, "%s.%ld.log", base, (long)getpid());
    snprintf(fc, sizeof fc, "%s.c", base);
    snprintf(fso, sizeof fso, "%s.so", base);
    if (write_text(c, src, len)) return rbd_fail(RBD_EIO, "%s: cannot write %s: %s", who, c, strerror(errno));
    int rc = run_cc(who, c, so, log);
    if (!rc && (rename(so, fso) || rename(c, fc)))
        rc = rbd_fail(RBD_EIO, "%s: cannot move %s into place: %s", who, so, strerror(errno));
    remove(c); remove(so); remove(log);
    return rc;
}

int rbd_emit_load(const char *who, const char *src, size_t len, rbd_emit_lib *lib)
{
    memset(lib, 0, sizeof *lib);
    char dir[3800], base[3900], fc[4000];
    int rc = cache_dir(who, dir, sizeof dir);
    if (rc) return rc;
    uint64_t h = fnv1a(1469598103934665603ull, src, len);
    h = fnv1a(h, rbd_emit_cc(), strlen(rbd_emit_cc()) + 1);
    h = fnv1a(h, rbd_emit_flags(), strlen(rbd_emit_flags()) + 1);
    snprintf(base, sizeof base, "%s/%016llx", dir, (unsigned long long)h);
    snprintf(fc, sizeof fc, "%s.c", base);
    snprintf(lib->path, sizeof lib->path, "%s.so", base);
    if (!same_text(fc, src, len) || access(lib->path, R_OK)) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if ((rc = compile_into(who, base, src, len))) return rc;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        lib->compile_s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    }
    if (!(lib->dl = dlopen(lib->path, RTLD_NOW | RTLD_LOCAL)))
        return rbd_fail(RBD_EIO, "%s: cannot load %s: %s", who, lib->path, dlerror());
    *(void **)&lib->fn = dlsym(lib->dl, "rbd_emitted");
    if (!lib->fn) {
        rbd_emit_unload(lib);
        return rbd_fail(RBD_EIO, "%s: %s has no rbd_emitted", who, lib->path);
    }
    return RBD_OK;
}

void rbd_emit_unload(rbd_emit_lib *lib)
{
    if (lib->dl) dlclose(lib->dl);
    lib->dl = NULL;
    lib->fn = NULL;
}
