/*
 * One writer per results directory (issue 30): every command that writes
 * into a set (sweep, crossover, accuracy, merge into, pack) holds
 * DIR/.rbdiff.lock for the whole run.  The lock is flock(2): the kernel
 * drops it when the holder's last descriptor closes, on every exit path
 * including kill -9, so a lock is never held by a dead process.  The file's
 * text names the holder (pid, host, command, start); a second writer is
 * refused at once with that text.  A file left by a killed holder (the
 * lock free, the text still there) is taken over with a message, and the
 * temporary files a killed writer leaves (NAME.tmp, NAME.tmpXXXXXX) are
 * removed by the next one.
 */
#ifndef RBD_LOCK_H
#define RBD_LOCK_H

#define RESULTS_LOCK_FILE ".rbdiff.lock"

typedef struct {
    int fd;                 /* -1: not held */
    char *path;             /* DIR/.rbdiff.lock */
    char *dir;              /* removed on release when made_dir and empty */
    int made_dir;
} results_lock;

/* Creates DIR when missing (made_dir then, so a refusal can remove it
 * again) and takes its lock.  RBD_OK; RBD_EINVAL when another process
 * holds it (the message names the holder: the input, a set in use, is
 * wrong: exit 2); RBD_EIO when DIR or the lock file cannot be made. */
int results_lock_take(results_lock *lk, const char *dir, const char *cmdline);
/* Removes the lock file and drops the lock; with undo_dir, also removes
 * DIR when this lock made it and it is empty (a refusal leaves nothing).
 * Safe on a lock never taken (fd -1, zeroed). */
void results_lock_release(results_lock *lk, int undo_dir);

#endif
