/* A one-line progress bar on stderr, shown only when stderr is a terminal. */
#ifndef RBD_PROGRESS_H
#define RBD_PROGRESS_H

typedef struct {
    int total, done, active;
    double t0;
} progress;

void progress_start(progress *p, int total);
/* Redraws with the item just started (label) after done items. */
void progress_update(progress *p, int done, const char *label);
void progress_end(progress *p);

#endif
