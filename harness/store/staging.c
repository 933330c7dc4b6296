/* A results set staged beside its directory and swapped in whole (staging.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/lock.h"
#include "store/results.h"
#include "store/staging.h"

/* Removes a flat directory (a staging holds files only) and its files. */
static void remove_flat(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                unlinkat(dirfd(d), e->d_name, 0);
        closedir(d);
    }
    rmdir(path);
}

/* The parent directory of dir and the prefix ".NAME.stage-" of its stagings. */
static int stage_names(const char *dir, char **parent, char **prefix)
{
    char *a = strdup(dir), *b = strdup(dir);
    *parent = a ? strdup(dirname(a)) : NULL;
    const char *base = b ? basename(b) : NULL;
    *prefix = NULL;
    if (base && asprintf(prefix, ".%s.stage-", base) < 0) *prefix = NULL;
    free(a);
    free(b);
    if (*parent && *prefix) return RBD_OK;
    free(*parent);
    free(*prefix);
    return rbd_fail(RBD_ENOMEM, "out of memory");
}

/* The first entry of dir other than its lock file, or NULL (a copy). */
static char *other_entry(const char *dir)
{
    DIR *d = opendir(dir);
    char *found = NULL;
    if (!d) return NULL;
    struct dirent *e;
    while (!found && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, RESULTS_LOCK_FILE))
            found = strdup(e->d_name);
    closedir(d);
    return found;
}

int results_stage_begin(results_stage *s, const char *dir)
{
    s->dir = s->stage = NULL;
    /* the directory itself, not a symbolic link to it: the swap moves the
     * name it is given (a link's target would be left behind) */
    char *real = realpath(dir, NULL);
    if (!real) return rbd_fail(RBD_EIO, "results directory '%s': %s", dir, strerror(errno));
    char *parent, *prefix;
    int rc = stage_names(real, &parent, &prefix);
    if (rc) { free(real); return rc; }
    dir = real;
    /* the caller holds dir's lock: every staging of dir is a dead writer's */
    DIR *d = opendir(parent);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (!strncmp(e->d_name, prefix, strlen(prefix))) {
                char *p = results_path(parent, e->d_name);
                if (p) remove_flat(p);
                free(p);
            }
        closedir(d);
    }
    char *other = other_entry(dir);
    if (other) {
        rc = rbd_fail(RBD_EINVAL, "%s holds '%s': a set is made into a new or empty directory", dir, other);
        free(other);
    }
    if (!rc && asprintf(&s->stage, "%s/%s%ld", parent, prefix, (long)getpid()) < 0) {
        s->stage = NULL;
        rc = rbd_fail(RBD_ENOMEM, "out of memory");
    }
    if (!rc && mkdir(s->stage, 0777) != 0) {
        rc = rbd_fail(write_place_code(errno), "results directory '%s': cannot make its staging directory %s "
                      "(a set is written beside its directory and swapped in whole, so DIR's parent must be "
                      "writable): %s", dir, s->stage, strerror(errno));
        free(s->stage);
        s->stage = NULL;
    }
    if (!rc && !(s->dir = strdup(dir))) rc = rbd_fail(RBD_ENOMEM, "out of memory");
    if (rc) results_stage_abort(s);
    free(parent);
    free(prefix);
    free(real);
    return rc;
}

/* No exchange here: every file into dir by rename, timings.csv last. */
static int commit_by_files(results_stage *s)
{
    DIR *d = opendir(s->stage);
    if (!d) return rbd_fail(RBD_EIO, "%s: %s", s->stage, strerror(errno));
    int rc = RBD_OK;
    struct dirent *e;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        rewinddir(d);
        while (!rc && (e = readdir(d))) {
            if (e->d_name[0] == '.' || (strcmp(e->d_name, TIMINGS_CSV) == 0) != (pass == 1)) continue;
            char *to = results_path(s->dir, e->d_name);
            if (!to) rc = rbd_fail(RBD_ENOMEM, "out of memory");
            else if (renameat(dirfd(d), e->d_name, AT_FDCWD, to) != 0)
                rc = rbd_fail(RBD_EIO, "%s: cannot move it in: %s", to, strerror(errno));
            free(to);
        }
    }
    closedir(d);
    return rc;
}

int results_stage_commit(results_stage *s)
{
    char *lock_in = results_path(s->dir, RESULTS_LOCK_FILE), *lock_st = results_path(s->stage, RESULTS_LOCK_FILE);
    int rc = lock_in && lock_st ? RBD_OK : rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc && link(lock_in, lock_st) != 0)
        rc = rbd_fail(RBD_EIO, "%s: cannot link its lock into %s: %s", s->dir, s->stage, strerror(errno));
    if (!rc && renameat2(AT_FDCWD, s->stage, AT_FDCWD, s->dir, RENAME_EXCHANGE) != 0) {
        if (errno == EINVAL || errno == ENOSYS) {
            unlink(lock_st);
            rc = commit_by_files(s);
        } else {
            rc = rbd_fail(RBD_EIO, "%s: cannot swap the staged set in: %s", s->dir, strerror(errno));
        }
    }
    free(lock_in);
    free(lock_st);
    results_stage_abort(s);     /* after the swap the staging path holds the old, empty directory */
    return rc;
}

void results_stage_abort(results_stage *s)
{
    if (s->stage) remove_flat(s->stage);
    free(s->stage);
    free(s->dir);
    s->stage = s->dir = NULL;
}
