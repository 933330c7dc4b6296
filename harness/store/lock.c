/* The results directory's lock (lock.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/lock.h"

/* The holder's text, at most len - 1 bytes, one line. */
static void read_holder(int fd, char *buf, size_t len)
{
    ssize_t n = pread(fd, buf, len - 1, 0);
    buf[n > 0 ? n : 0] = 0;
    buf[strcspn(buf, "\n")] = 0;
}

/* "pid P on host H: COMMAND, since DATE" */
static int write_holder(int fd, const char *dir, const char *cmdline)
{
    char host[256] = "unknown", date[64], line[4400];
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int n = snprintf(line, sizeof line, "pid %ld on host %s: %s, since %s\n", (long)getpid(), host,
                     cmdline ? cmdline : "rbdiff", date);
    if (n >= (int)sizeof line) n = (int)sizeof line - 1;
    if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)n, 0) != n || fsync(fd) != 0)
        return rbd_fail(RBD_EIO, "results directory '%s' is not writable: %s", dir, strerror(errno));
    return RBD_OK;
}

/* The lock of a file that a releasing holder unlinked is worthless: the
 * next writer makes a new file.  After flock succeeds the descriptor must
 * still be the file at path. */
static int still_linked(int fd, const char *path)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Whether the text names a process of this host that is gone. */
static int holder_dead(const char *text)
{
    long pid = 0;
    char host[256] = "", me[256] = "";
    if (sscanf(text, "pid %ld on host %255[^:]", &pid, host) != 2 || pid <= 0) return 1;
    gethostname(me, sizeof me - 1);
    if (strcmp(host, me)) return 1;    /* flock is local: a free lock means its holder ended */
    return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* What a writer killed mid-file leaves: atomic_write's NAME.tmpXXXXXX,
 * pack's NAME.tmp, results_prepare_dir's probe.  The lock's holder is the
 * only writer, so any such file is a dead one's and goes. */
static void remove_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name, *t = strstr(n, ".tmp");
        size_t rest = t ? strlen(t + 4) : 0;
        if (!(t && (rest == 0 || rest == 6)) && strncmp(n, ".rbdiff-probe", 13)) continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", dir, n);
        if (unlink(p) == 0) fprintf(stderr, "rbdiff: %s: removed %s, left by an interrupted writer\n", dir, n);
    }
    closedir(d);
}

int results_lock_take(results_lock *lk, const char *dir, const char *cmdline)
{
    memset(lk, 0, sizeof *lk);
    lk->fd = -1;
    struct stat st;
    if (stat(dir, &st) != 0) {
        int rc = mkdir_p(dir);
        if (rc) return rc;
        lk->made_dir = 1;
    }
    size_t len = strlen(dir) + sizeof RESULTS_LOCK_FILE + 2;
    lk->path = malloc(len);
    lk->dir = strdup(dir);
    if (!lk->path || !lk->dir) { results_lock_release(lk, 1); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    snprintf(lk->path, len, "%s/%s", dir, RESULTS_LOCK_FILE);
    for (int tries = 0; tries < 100; tries++) {
        int fd = open(lk->path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
        if (fd < 0) {
            int rc = rbd_fail(write_place_code(errno), "results directory '%s' is not writable: %s", dir, strerror(errno));
            results_lock_release(lk, 1);
            return rc;
        }
        char text[4400];
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            /* the holder names itself right after its flock: give it a moment
             * so the refusal can say who holds the set */
            read_holder(fd, text, sizeof text);
            for (int wait = 0; !*text && e == EWOULDBLOCK && wait < 100; wait++) {
                nanosleep(&(struct timespec){ .tv_nsec = 2000000 }, NULL);
                read_holder(fd, text, sizeof text);
            }
            close(fd);
            int rc = e == EWOULDBLOCK
                         ? rbd_fail(RBD_EINVAL, "%s is in use by another writer (%s); wait for it to end, or "
                                    "write to another directory", dir, *text ? text : "holder not yet named")
                         : rbd_fail(RBD_EIO, "%s: cannot lock: %s", lk->path, strerror(e));
            results_lock_release(lk, 1);
            return rc;
        }
        if (!still_linked(fd, lk->path)) { close(fd); continue; }
        read_holder(fd, text, sizeof text);
        if (*text)
            fprintf(stderr, "rbdiff: %s: taking over a stale lock (%s%s)\n", dir, text,
                    holder_dead(text) ? ": that process is gone" : ": the lock was free");
        lk->fd = fd;
        int rc = write_holder(fd, dir, cmdline);
        if (rc) results_lock_release(lk, 1);
        else remove_leftovers(dir);
        return rc;
    }
    int rc = rbd_fail(RBD_EIO, "%s: the lock file keeps being replaced", lk->path);
    results_lock_release(lk, 1);
    return rc;
}

void results_lock_release(results_lock *lk, int undo_dir)
{
    if (lk->fd >= 0) {
        unlink(lk->path);   /* while still held: a waiter on this file sees it unlinked and retries */
        close(lk->fd);
    }
    if (undo_dir && lk->made_dir && lk->dir) rmdir(lk->dir);
    free(lk->path);
    free(lk->dir);
    memset(lk, 0, sizeof *lk);
    lk->fd = -1;
}
