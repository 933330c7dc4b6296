/* The audit's rows from the worst metrics over the states (audit_sink.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "accuracy/audit_sink.h"

void audit_worst(rbd_accuracy *w, const rbd_accuracy *a, int first)
{
    if (first) { *w = *a; return; }
    w->rms_rel = fmax(w->rms_rel, a->rms_rel);
    w->max_abs = fmax(w->max_abs, a->max_abs);
    w->normwise = fmax(w->normwise, a->normwise);
    w->max_zero = fmax(w->max_zero, a->max_zero);
    if (a->n_zero > w->n_zero) w->n_zero = a->n_zero;
}

int audit_emit(const audit_sink *sink, const char *method, const char *output, const rbd_model *m, const char *spec,
               double bf, int states, const rbd_accuracy *worst)
{
    if (sink->have && sink->have(sink->ctx, method, output)) return RBD_OK;
    accuracy_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.method, sizeof r.method, "%s", method);
    snprintf(r.output, sizeof r.output, "%s", output);
    snprintf(r.model, sizeof r.model, "%s", spec);
    r.bf = bf;
    r.N = m->nb;
    r.nv = m->nv;
    r.states = states;
    r.rms_rel = worst->rms_rel;
    r.max_abs = worst->max_abs;
    r.normwise = worst->normwise;
    r.zero_max = worst->n_zero ? worst->max_zero : NAN;
    return sink->emit(sink->ctx, &r);
}
