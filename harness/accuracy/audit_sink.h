/*
 * What the two halves of the accuracy audit share (accuracy_run.h: our
 * methods; accuracy_peer.h: the peers' functions, which accuracy_run calls):
 * the states of one model with their references, the sink that takes the
 * finished rows, and how a row is made from the worst metrics over the
 * states.  accuracy_row and cond_row are the rows of accuracy.csv and
 * conditioning.csv (store/rows.h), written through their column
 * descriptions.
 */
#ifndef RBD_AUDIT_SINK_H
#define RBD_AUDIT_SINK_H

#include "accuracy.h"
#include "rbdiff/rbd.h"
#include "rbdref.h"
#include "rbdref_so.h"
#include "store/rows.h"

typedef struct {
    /* 1 if the row (target, output) is already on disk; NULL: none is */
    int (*have)(void *ctx, const char *method, const char *output);
    /* a finished row; non-zero stops the audit with that code */
    int (*emit)(void *ctx, const accuracy_row *r);
    void *ctx;
    /* 1 if the model's conditioning row is on disk; NULL: none is */
    int (*have_cond)(void *ctx);
    /* its conditioning row; NULL: not recorded */
    int (*emit_cond)(void *ctx, const cond_row *r);
    /* a reference is being computed / was read (for progress messages) */
    void (*on_ref)(void *ctx, int state, int states, int hit);
    /* a peer's finite differences at one step (accuracy_peer.h); NULL: not recorded */
    int (*emit_eps)(void *ctx, const peer_eps_row *r);
    /* a line for the user (a peer left out, and why); NULL: stderr */
    void (*note)(void *ctx, const char *msg);
} audit_sink;

/* The audited states of one model and their references: state k is
 * q + k nq, v + k nv, a + k nv, tau + k nv, internal numbering. */
typedef struct {
    int S, nq, nv;
    double *q, *v, *a, *tau;    /* [S * nq], [S * nv] ... */
    rbdref_result *ref;         /* [S] */
    rbdref_so_result *so;       /* [S], when a second-order method is audited */
} audit_states;

/* w = the worst of w and a in each metric (w = a when first). */
void audit_worst(rbd_accuracy *w, const rbd_accuracy *a, int first);
/* The accuracy.csv row of (method, output) on m from the worst metrics, to
 * the sink unless it has it already. */
int audit_emit(const audit_sink *sink, const char *method, const char *output, const rbd_model *m, const char *spec,
               double bf, int states, const rbd_accuracy *worst);

#endif
