/*
 * `rbdiff anchors` without a live Pinocchio: one or more runs' timings set
 * against the stored figures (anchors.h), each of our figures the median
 * over the runs that have it (Pinocchio's are medians over runs too), with
 * a header naming the runs, their CPU and how they wrote their outputs (from
 * their meta.json).  The table goes to stdout and, unless nowrite, to out,
 * else RESULTS/vs-pinocchio.md of the first run (beside it when it is a
 * file).
 */
#ifndef RBD_ANCHORS_RUNS_H
#define RBD_ANCHORS_RUNS_H

/* The live comparisons of a results directory res: vs-<peer>.md for every
 * peer it timed, every version in one file (vs_peer_write, then
 * vs_versions_write), to stdout with nowrite, else res/vs-<peer>.md (outpath
 * for Pinocchio's when given).  *pin: Pinocchio was among them (no fallback
 * needed); *missed: the targets missed.  0; 1 when res is not a directory
 * with timings (nothing done); or the error writing a file (message set). */
int anchors_live(const char *res, int nowrite, const char *outpath, int *pin, int *missed);

typedef struct {
    const char *dir;        /* the anchors directory */
    const char *build;      /* Pinocchio's build (--table) */
    char **runs;            /* results directories, timings.csv or benchmarks.json files */
    int nruns;
    int use_min;            /* our figure: the min over the batches, not the median */
    int nowrite;
    const char *out;        /* NULL: beside the first run */
} anchors_job;

/* 0, or the error (message set); *bad_input says whether the input was
 * at fault (the anchors, the build, a run: exit 2) rather than the writing
 * of the table (exit 1).  *missed: the targets missed. */
int anchors_fallback(const anchors_job *j, int *missed, int *bad_input);

#endif
