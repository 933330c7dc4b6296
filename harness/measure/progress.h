/* Progress of a long command on stderr: on a terminal a \r-redrawn bar; on
 * anything else (CI logs, nohup, Slurm) plain lines "done/total, elapsed,
 * ETA", one when items finish at most every PROGRESS_LINE_S seconds, and
 * one when the last item finishes. */
#ifndef RBD_PROGRESS_H
#define RBD_PROGRESS_H

#define PROGRESS_LINE_S 5.0

typedef struct {
    int total, done, active, tty, last_done;
    double t0, last_line;
    const char *what;           /* noun of the items, e.g. "cells" */
} progress;

/* what: the items' noun for the log lines (NULL: "items"). */
void progress_start(progress *p, int total, const char *what);
/* Shows done items finished; label: the item just started. */
void progress_update(progress *p, int done, const char *label);
void progress_end(progress *p);

#endif
