/*
 * A results set written whole or not at all (issue 30): a writer that makes
 * a new set (merge) writes it into a staging directory beside DIR,
 * .NAME.stage-PID, and swaps it in at the end with one
 * renameat2(RENAME_EXCHANGE), DIR's lock file hard-linked into it first so
 * that the lock (flock on that inode, lock.h) holds across the swap.  A
 * kill -9 before the swap leaves DIR as it was (its lock file only) and the
 * staging directory, which the next holder of DIR's lock removes; after it,
 * DIR is the whole new set.  Where the file system cannot exchange
 * (EINVAL), the files are renamed into DIR one by one, timings.csv last, so
 * that DIR is a results set only once every other file is in.
 */
#ifndef RBD_STAGING_H
#define RBD_STAGING_H

typedef struct {
    char *dir;              /* the set's directory (its lock held by the caller) */
    char *stage;            /* .NAME.stage-PID beside it; NULL once committed or aborted */
} results_stage;

/* Removes the stagings a killed writer left beside dir, checks that dir
 * holds nothing but its lock file (RBD_EINVAL naming what it holds: a set
 * is made into a new or empty directory) and makes the staging directory. */
int results_stage_begin(results_stage *s, const char *dir);
/* Swaps the staged set in (see above); the staging directory is gone after. */
int results_stage_commit(results_stage *s);
/* Removes the staging directory and what it holds; dir is left as it was.
 * Safe after commit and on a zeroed stage. */
void results_stage_abort(results_stage *s);

#endif
