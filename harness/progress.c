/* Progress bar: \r-redrawn line with a bar, count, elapsed and ETA. */
#include <stdio.h>
#include <unistd.h>
#include "progress.h"
#include "timing.h"

void progress_start(progress *p, int total)
{
    p->total = total;
    p->done = 0;
    p->active = isatty(STDERR_FILENO);
    p->t0 = timing_now_ns();
}

void progress_update(progress *p, int done, const char *label)
{
    p->done = done;
    if (!p->active || p->total <= 0) return;
    enum { W = 30 };
    int fill = (int)((long)W * done / p->total);
    double el = (timing_now_ns() - p->t0) / 1e9;
    double eta = done > 0 ? el * (p->total - done) / done : 0;
    char bar[W + 1];
    for (int k = 0; k < W; k++) bar[k] = k < fill ? '#' : '.';
    bar[W] = 0;
    fprintf(stderr, "\r\033[K[%s] %d/%d %4.0fs eta %4.0fs %.40s", bar, done, p->total, el, eta, label ? label : "");
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (p->active) fputs("\r\033[K", stderr);
}
