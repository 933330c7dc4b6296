/* The worker of `rbdiff pair`: prepared cells, one batch per request (worker.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "measure/worker.h"
#include "plan/modelspec.h"

typedef struct {
    char *id;
    rbd_timeable t;
    long calls;
    int k;
} cell;

typedef struct {
    char *spec;
    rbd_model *m;
} model_slot;

typedef struct {
    cell *c;
    int n, cap;
    model_slot *ms;
    int nm, capm;
} worker_state;

static rbd_model *model_get(worker_state *w, const char *spec)
{
    for (int i = 0; i < w->nm; i++)
        if (!strcmp(w->ms[i].spec, spec)) return w->ms[i].m;
    if (w->nm == w->capm) {
        int cap = w->capm ? 2 * w->capm : 8;
        model_slot *p = realloc(w->ms, sizeof *p * (size_t)cap);
        if (!p) { rbd_fail(RBD_ENOMEM, "out of memory"); return NULL; }
        w->ms = p, w->capm = cap;
    }
    rbd_model *m = NULL;
    if (model_from_spec(spec, &m)) return NULL;
    if (!(w->ms[w->nm].spec = strdup(spec))) { rbd_model_free(m); rbd_fail(RBD_ENOMEM, "out of memory"); return NULL; }
    w->ms[w->nm++].m = m;
    return m;
}

static cell *cell_find(worker_state *w, const char *id)
{
    for (int i = 0; i < w->n; i++)
        if (!strcmp(w->c[i].id, id)) return &w->c[i];
    return NULL;
}

/* One line of the message, so the parent reads it as one answer. */
static const char *one_line(const char *msg)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s", msg);
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r') *p = ' ';
    return buf;
}

static void prep(worker_state *w, const char *id, const char *name, const char *spec, const worker_opts *o, FILE *out)
{
    if (cell_find(w, id)) { fprintf(out, "err %s cell id given twice\n", id); return; }
    const rbd_method *meth = rbd_method_find(name);
    const rbd_base_algo *base = meth ? NULL : rbd_base_algo_find(name);
    if (!meth && !base) { fprintf(out, "skip %s %s is not registered in this build\n", id, name); return; }
    rbd_model *m = model_get(w, spec);
    if (!m) { fprintf(out, "err %s %s\n", id, one_line(rbd_last_error())); return; }
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        cell *p = realloc(w->c, sizeof *p * (size_t)cap);
        if (!p) { fprintf(out, "err %s out of memory\n", id); return; }
        w->c = p, w->cap = cap;
    }
    cell *c = &w->c[w->n];
    memset(c, 0, sizeof *c);
    int rc = meth ? timeable_method(meth, m, &o->opt, o->pool, o->seed, &c->t)
                  : timeable_base(base, m, o->pool, o->seed, &c->t);
    if (rc == RBD_ENOTSUP) { fprintf(out, "skip %s %s\n", id, one_line(rbd_last_error())); return; }
    if (rc) { fprintf(out, "err %s %s\n", id, one_line(rbd_last_error())); return; }
    /* the checked call first: a method that fails here is refused, not timed */
    timing_opts slice = o->t;
    slice.batch_ns /= WORKER_SLICES;
    slice.pc = NULL;
    if ((rc = c->t.check(c->t.ctx, 0)) || (rc = timing_calibrate(&c->t, &slice, &c->k, &c->calls))) {
        fprintf(out, "err %s %s\n", id, rc == 1 ? "interrupted" : one_line(rbd_last_error()));
        timeable_free(&c->t);
        return;
    }
    if (!(c->id = strdup(id))) { timeable_free(&c->t); fprintf(out, "err %s out of memory\n", id); return; }
    w->n++;
    fprintf(out, "ok %s %ld %d\n", id, c->calls, c->t.nv);
}

static void run(worker_state *w, const char *id, const worker_opts *o, FILE *out)
{
    cell *c = cell_find(w, id);
    if (!c) { fprintf(out, "err %s no such prepared cell\n", id); return; }
    int err = 0;
    double ins = NAN, cyc, fp, ns = INFINITY;
    if (o->t.pc) perfctr_start(o->t.pc);
    /* The fastest of WORKER_SLICES slices: on a shared machine another
     * tenant's time slice only ever adds to a slice, so the fastest is the
     * one least disturbed (the slices' medians differed by 2-3x under a
     * load of 9 on 2 cores; README.md "Tracking a regression"). */
    for (int s = 0; s < WORKER_SLICES; s++) {
        double x = timing_run_batch(&c->t, c->calls, &c->k, &err);
        if (x < 0) { fprintf(out, "err %s %s\n", id, one_line(rbd_last_error())); return; }
        if (x < ns) ns = x;
    }
    if (o->t.pc && perfctr_stop(o->t.pc, &ins, &cyc, &fp)) ins = NAN;
    ins /= WORKER_SLICES;
    if (isfinite(ins)) fprintf(out, "t %s %.6g %.6g\n", id, ns / (double)c->calls, ins / (double)c->calls);
    else fprintf(out, "t %s %.6g -\n", id, ns / (double)c->calls);
}

static void state_free(worker_state *w)
{
    for (int i = 0; i < w->n; i++) timeable_free(&w->c[i].t), free(w->c[i].id);
    for (int i = 0; i < w->nm; i++) rbd_model_free(w->ms[i].m), free(w->ms[i].spec);
    free(w->c);
    free(w->ms);
}

int worker_serve(FILE *in, FILE *out, const worker_opts *o)
{
    worker_state w = { 0 };
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (getline(&line, &cap, in) >= 0) {
        if (o->t.stop && *o->t.stop) { rc = 1; break; }
        line[strcspn(line, "\r\n")] = 0;
        char *save = NULL, *verb = strtok_r(line, " ", &save);
        if (!verb) continue;
        if (!strcmp(verb, "quit")) break;
        char *id = strtok_r(NULL, " ", &save);
        if (!strcmp(verb, "prep")) {
            char *name = strtok_r(NULL, " ", &save), *spec = strtok_r(NULL, "", &save);
            if (!id || !name || !spec) fprintf(out, "err %s prep needs ID METHOD SPEC\n", id ? id : "-");
            else prep(&w, id, name, spec, o, out);
        } else if (!strcmp(verb, "run") && id) {
            run(&w, id, o, out);
        } else {
            fprintf(out, "err %s unknown request '%s' (prep ID METHOD SPEC, run ID, quit)\n", id ? id : "-", verb);
        }
        fflush(out);
    }
    free(line);
    state_free(&w);
    return rc;
}
