/* Atomic file replacement and durable appends (interrupt safety). */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"

/* A flag the writes of atomic_write look at (atomic_stop_on). */
static const volatile sig_atomic_t *write_stop;

void atomic_stop_on(const volatile sig_atomic_t *stop)
{
    write_stop = stop;
}

int atomic_stopped(void)
{
    return write_stop && *write_stop;
}

/* The stream's writes once a stop flag is set: each write refused after the
 * flag is, so a long writer (a JSON dump of 10^5 rows) stops at its next
 * buffer rather than at its end. */
static ssize_t stop_write(void *cookie, const char *buf, size_t n)
{
    int fd = *(int *)cookie;
    size_t done = 0;
    while (done < n) {
        if (*write_stop) { errno = EINTR; return 0; }
        ssize_t w = write(fd, buf + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return 0;
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int stop_close(void *cookie)
{
    return close(*(int *)cookie);
}

int flush_to_disk(FILE *f, const char *path)
{
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        return rbd_fail(RBD_EIO, "%s: cannot write: %s", path, strerror(errno));
    return RBD_OK;
}

int atomic_write(const char *path, atomic_writer fn, void *ctx)
{
    size_t len = strlen(path);
    char *tmp = malloc(len + 16);
    if (!tmp) return rbd_fail(RBD_ENOMEM, "out of memory");
    /* Same directory as the target, so rename() is atomic (same file system). */
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = rbd_fail(RBD_EIO, "%s: cannot create a temporary file: %s", path, strerror(errno));
        free(tmp);
        return rc;
    }
    static int cookie_fd;
    cookie_fd = fd;
    FILE *f = write_stop ? fopencookie(&cookie_fd, "w", (cookie_io_functions_t){ NULL, stop_write, NULL, stop_close })
                         : fdopen(fd, "w");
    if (!f) {
        int rc = rbd_fail(RBD_EIO, "%s: %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return rc;
    }
    int rc = fn(f, ctx);
    if (!rc && ferror(f)) rc = rbd_fail(RBD_EIO, "%s: write error", path);
    if (!rc && (fflush(f) != 0 || fsync(fd) != 0))   /* fd: a cookie stream has no fileno */
        rc = rbd_fail(RBD_EIO, "%s: cannot write: %s", path, strerror(errno));
    /* mkstemp makes 0600; results are meant to be shared like any file. */
    if (!rc) {
        mode_t um = umask(0);
        umask(um);
        fchmod(fd, 0666 & ~um);
    }
    if (fclose(f) != 0 && !rc) rc = rbd_fail(RBD_EIO, "%s: cannot write: %s", path, strerror(errno));
    if (!rc && rename(tmp, path) != 0) rc = rbd_fail(RBD_EIO, "%s: cannot replace: %s", path, strerror(errno));
    if (rc) unlink(tmp);
    free(tmp);
    return rc;
}

static int write_json(FILE *f, void *ctx)
{
    if (json_dumpf((const json_t *)ctx, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
        return rbd_fail(RBD_EIO, "JSON could not be written");
    fputc('\n', f);
    return RBD_OK;
}

int atomic_write_json(const char *path, const json_t *j)
{
    return atomic_write(path, write_json, (void *)j);
}

int write_place_code(int e)
{
    switch (e) {
    case EROFS: case EACCES: case EPERM: case ENOTDIR: case EEXIST: case ENAMETOOLONG: case ELOOP: case ENOENT:
        return RBD_EINVAL;
    default:
        return RBD_EIO;
    }
}

int atomic_write_check(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return rbd_fail(RBD_ENOMEM, "out of memory");
    const char *dir = dirname(copy);
    struct stat st;
    int rc = RBD_OK;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        rc = rbd_fail(RBD_EINVAL, "%s: is a directory (a file to write was expected)", path);
    else if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        rc = rbd_fail(RBD_EINVAL, "%s: cannot be written in '%s': a file, not a directory", path, dir);
    else if (access(dir, W_OK | X_OK) != 0)
        rc = rbd_fail(write_place_code(errno), "%s: cannot be written in '%s': %s", path, dir, strerror(errno));
    free(copy);
    return rc;
}

int mkdir_p(const char *path)
{
    size_t len = strlen(path);
    char *p = malloc(len + 1);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    memcpy(p, path, len + 1);
    int rc = RBD_OK;
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == 0) {
            char c = *s;
            *s = 0;
            struct stat st;
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                rc = rbd_fail(write_place_code(errno), "cannot create directory '%s': %s", p, strerror(errno));
                break;
            }
            if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
                int e = errno;
                rc = stat(p, &st) != 0 ? rbd_fail(write_place_code(e), "cannot create directory '%s': %s", p, strerror(e))
                                       : rbd_fail(RBD_EINVAL, "cannot create directory '%s': a file of that name exists", p);
                break;
            }
            *s = c;
            if (!c) break;
        }
    }
    free(p);
    return rc;
}
