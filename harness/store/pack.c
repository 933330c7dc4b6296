/* rbdiff pack: packing and unpacking results directories (pack.h). */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/csvlog.h"
#include "store/gbench.h"
#include "store/lock.h"
#include "store/meta.h"
#include "store/pack.h"
#include "store/pack_readme.h"
#include "store/results.h"

#define GZ_SUFFIX ".gz"

static const volatile sig_atomic_t *walk_stop;   /* the caller's interrupt flag during a walk */

/* src -> dst through zlib (deflate when pack, inflate otherwise), written to
 * dst.tmp, synced to disk and renamed, so dst is either absent or whole
 * before the caller removes src. */
static int transcode(const char *src, const char *dst, int pack)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", dst);
    FILE *in = NULL, *out = NULL;
    gzFile z = NULL;
    int rc = RBD_OK;
    char buf[1 << 16];
    if (pack) {
        in = fopen(src, "rb");
        out = in ? fopen(tmp, "wb") : NULL;
        int fd = out ? dup(fileno(out)) : -1;    /* zlib closes its own; out is synced below */
        z = fd >= 0 ? gzdopen(fd, "wb9") : NULL;
        if (fd >= 0 && !z) close(fd);
    } else {
        z = gzopen(src, "rb");
        out = z ? fopen(tmp, "wb") : NULL;
    }
    if (!in && pack) {
        rc = rbd_fail(RBD_EIO, "%s: cannot open: %s", src, strerror(errno));
        goto done;
    }
    if (!z || !out) {
        rc = rbd_fail(RBD_EIO, "%s: cannot open: %s", !z && !pack ? src : tmp, strerror(errno));
        goto done;
    }
    for (;;) {
        int n;
        if (walk_stop && *walk_stop) { rc = PACK_INTERRUPTED; break; }
        if (pack) {
            n = (int)fread(buf, 1, sizeof buf, in);
            if (n > 0 && gzwrite(z, buf, (unsigned)n) != n) { rc = rbd_fail(RBD_EIO, "%s: write failed", tmp); break; }
            if (n < (int)sizeof buf) {
                if (ferror(in)) rc = rbd_fail(RBD_EIO, "%s: read failed", src);
                break;
            }
        } else {
            n = gzread(z, buf, sizeof buf);
            if (n < 0) { rc = rbd_fail(RBD_EIO, "%s: not a readable gzip file", src); break; }
            if (n == 0) break;
            if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) { rc = rbd_fail(RBD_EIO, "%s: write failed", tmp); break; }
        }
    }
done:
    if (in) fclose(in);
    if (z && gzclose(z) != Z_OK && !rc && pack) rc = rbd_fail(RBD_EIO, "%s: write failed", tmp);
    if (out && (fflush(out) || fsync(fileno(out)) || fclose(out)) && !rc) rc = rbd_fail(RBD_EIO, "%s: write failed", tmp);
    if (!rc && rename(tmp, dst) != 0) rc = rbd_fail(RBD_EIO, "%s: cannot rename: %s", tmp, strerror(errno));
    if (rc) unlink(tmp);
    return rc;
}

/* fn on dir holding dir's lock: no sweep or merge writes it meanwhile */
static int locked(const char *dir, int (*fn)(const char *), const char *what)
{
    results_lock lk;
    char cl[4300];
    snprintf(cl, sizeof cl, "rbdiff pack%s %s", what, dir);
    int rc = results_lock_take(&lk, dir, cl);
    if (rc) return rc;
    rc = fn(dir);
    results_lock_release(&lk, 0);
    return rc;
}
static int pack_locked(const char *dir);
static int unpack_locked(const char *dir);

static int exists(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

int samples_unpack(const char *dir)
{
    char plain[4200], gz[4200];
    if (exists(dir, SAMPLES_CSV, plain, sizeof plain) || !exists(dir, SAMPLES_CSV GZ_SUFFIX, gz, sizeof gz))
        return RBD_OK;
    int rc = transcode(gz, plain, 0);
    if (!rc) unlink(gz);
    return rc;
}

const char *pack_figure_format(const char *figure)
{
    return !strncmp(figure, "accuracy_", 9) || !strncmp(figure, "times_all", 9) ? "png" : "svg";
}

/* plots/ and plots/data/: drop the .dat files, and of a figure drawn both
 * ways keep the format pack_figure_format names; plots/data/ goes when
 * that leaves it empty. */
static int pack_plot_dir(const char *pd)
{
    DIR *d = opendir(pd);
    if (!d) return RBD_OK;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        char path[8400], svg[8400];
        snprintf(path, sizeof path, "%s/%s", pd, e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".dat")) unlink(path);
        else if (n > 4 && !strcmp(e->d_name + n - 4, ".png")) {
            snprintf(svg, sizeof svg, "%s/%.*s.svg", pd, (int)(n - 4), e->d_name);
            if (access(svg, F_OK) != 0) continue;
            char name[4200];
            snprintf(name, sizeof name, "%.*s", (int)(n - 4), e->d_name);
            unlink(strcmp(pack_figure_format(name), "png") ? path : svg);
        }
    }
    closedir(d);
    return RBD_OK;
}

static int pack_plots(const char *dir)
{
    char pd[4200];
    snprintf(pd, sizeof pd, "%s/plots/data", dir);
    pack_plot_dir(pd);
    rmdir(pd);              /* only when empty */
    snprintf(pd, sizeof pd, "%s/plots", dir);
    return pack_plot_dir(pd);
}

static int pack_one(const char *dir)
{
    char plain[4200], gz[4300], path[4200];
    int rc = RBD_OK;
    if (exists(dir, SAMPLES_CSV, plain, sizeof plain)) {
        snprintf(gz, sizeof gz, "%s" GZ_SUFFIX, plain);
        rc = transcode(plain, gz, 1);
        if (!rc) unlink(plain);
    }
    if (!rc && exists(dir, "benchmarks.json", path, sizeof path)) unlink(path);
    if (!rc) rc = pack_plots(dir);
    /* a set's README; not in a set within a set (OUT/clang, the second build) */
    snprintf(path, sizeof path, "%s/../meta.json", dir);
    if (!rc && access(path, F_OK) != 0) rc = pack_write_readme(dir);
    return rc;
}

static int unpack_one(const char *dir)
{
    int rc = samples_unpack(dir);
    if (rc) return rc;
    char path[4200];
    if (!exists(dir, TIMINGS_CSV, path, sizeof path)) return RBD_OK;
    timing_row *rows = NULL;
    int n = 0;
    /* Ctrl-C within 4096 lines of the read and within a row of the JSON
     * (csvlog.h, atomicio.h): 10^5 rows took seconds of each, unheeded */
    csvlog_stop_on(walk_stop);
    atomic_stop_on(walk_stop);
    rc = timing_rows_load(dir, &rows, &n);
    snprintf(path, sizeof path, "%s/benchmarks.json", dir);
    if (!rc) rc = gbench_write(path, rows, n, "rbdiff pack --unpack");
    csvlog_stop_on(NULL);
    atomic_stop_on(NULL);
    free(rows);
    return walk_stop && *walk_stop ? PACK_INTERRUPTED : rc;
}

static int (*walk_fn)(const char *dir);
static int walk_rc;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st; (void)ftw;
    if (type != FTW_D) return FTW_CONTINUE;
    char t[4200];
    if (!strcmp(path + strlen(path) - (strlen(path) >= 6 ? 6 : 0), "/plots")) return FTW_SKIP_SUBTREE;
    if (walk_stop && *walk_stop) { walk_rc = PACK_INTERRUPTED; return FTW_STOP; }
    if (exists(path, TIMINGS_CSV, t, sizeof t) || exists(path, SAMPLES_CSV GZ_SUFFIX, t, sizeof t)) {
        walk_rc = walk_fn(path);
        if (walk_rc) return FTW_STOP;
    }
    return FTW_CONTINUE;
}

static int walk(const char *dir, int (*fn)(const char *))
{
    if (access(dir, F_OK) != 0) return rbd_fail(RBD_EIO, "%s: no such directory", dir);
    walk_fn = fn;
    walk_rc = RBD_OK;
    if (nftw(dir, visit, 16, FTW_PHYS | FTW_ACTIONRETVAL) < 0 && !walk_rc)
        walk_rc = rbd_fail(RBD_EIO, "%s: cannot walk: %s", dir, strerror(errno));
    walk_stop = NULL;
    return walk_rc;
}

static int pack_locked(const char *dir) { return locked(dir, pack_one, ""); }
static int unpack_locked(const char *dir) { return locked(dir, unpack_one, " --unpack"); }

int results_pack(const char *dir, const volatile sig_atomic_t *stop)
{
    walk_stop = stop;
    return walk(dir, pack_locked);
}

int results_unpack(const char *dir, const volatile sig_atomic_t *stop)
{
    walk_stop = stop;
    return walk(dir, unpack_locked);
}
