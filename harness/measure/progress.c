/* Progress: a bar on a terminal, rate-limited log lines elsewhere
 * (progress.h). */
#include <stdio.h>
#include <unistd.h>
#include "measure/progress.h"
#include "measure/timing.h"

void progress_start(progress *p, int total, const char *what)
{
    p->total = total;
    p->done = 0;
    p->last_done = 0;
    p->tty = isatty(STDERR_FILENO);
    p->active = total > 0;
    p->t0 = timing_now_ns();
    p->last_line = p->t0;
    p->what = what ? what : "items";
}

static void log_line(progress *p, double now, const char *label)
{
    double el = (now - p->t0) / 1e9;
    fprintf(stderr, "progress: %d/%d %s, %.0f s elapsed", p->done, p->total, p->what, el);
    if (p->done > 0 && p->done < p->total) fprintf(stderr, ", eta %.0f s", el * (p->total - p->done) / p->done);
    if (label && *label) fprintf(stderr, "; next: %.60s", label);
    fputc('\n', stderr);
    fflush(stderr);
    p->last_line = now;
    p->last_done = p->done;
}

void progress_update(progress *p, int done, const char *label)
{
    p->done = done;
    if (!p->active) return;
    double now = timing_now_ns();
    if (!p->tty) {
        /* a line when something finished: at most every PROGRESS_LINE_S, and at the end */
        if (done > p->last_done && (done >= p->total || now - p->last_line >= PROGRESS_LINE_S * 1e9))
            log_line(p, now, done >= p->total ? "" : label);
        return;
    }
    enum { W = 30 };
    int fill = (int)((long)W * done / p->total);
    double el = (now - p->t0) / 1e9;
    double eta = done > 0 ? el * (p->total - done) / done : 0;
    char bar[W + 1];
    for (int k = 0; k < W; k++) bar[k] = k < fill ? '#' : '.';
    bar[W] = 0;
    fprintf(stderr, "\r\033[K[%s] %d/%d %4.0fs eta %4.0fs %.40s", bar, done, p->total, el, eta, label ? label : "");
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (!p->active) return;
    if (p->tty) fputs("\r\033[K", stderr);
    else if (p->done > p->last_done) log_line(p, timing_now_ns(), "");
}
