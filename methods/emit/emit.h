/*
 * Emitted methods (README.md, "Issue 32, fifth stop: emitted code"): an
 * algorithm traced on the expression graph for one model (graph.h,
 * spatial_eg.h), its reachable nodes printed as one straight-line C
 * function (emit_c.c), compiled at init with the compiler and flags
 * librbdiff was built with into a cache outside the clone, and loaded
 * (compile.c).
 */
#ifndef RBD_EMIT_H
#define RBD_EMIT_H

#include <stdio.h>
#include "emit/graph.h"
#include "rbdiff/rbd.h"

/* The version of what is emitted: part of every cache key, raised whenever
 * the tracer, the traced algorithms or the printed C change. */
#define RBD_EMIT_VERSION 4

/* The node of each output entry (NULL: not wanted). */
typedef struct { eg_id *tau, *dq, *dv, *M; } eg_out_id;

/* IDSVA (Alg. 1) at (q, qd, qdd): tau, dtau/dq, dtau/dv and M as asked by o (idsva_eg.c). */
int eg_idsva(eg_graph *g, const rbd_model *m, const eg_id *qd, const eg_id *qdd, const eg_out_id *o);
/* qdd by ABA in body coordinates (aba_eg.c), inputs q, v, u = tau. */
int eg_aba(eg_graph *g, const rbd_model *m, eg_id *qdd);
/* M(q) by CRBA in body coordinates (crba_eg.c), nv*nv nodes, column-major. */
int eg_crba(eg_graph *g, const rbd_model *m, eg_id *M);
/* FDSVA's composition at (q, v, tau) (fdsva_eg.c): out[0] qdd, out[1..3]
 * dqdd/dq, dqdd/dv, dqdd/dtau = M^-1, each nv or nv*nv nodes. */
int eg_fdsva(eg_graph *g, const rbd_model *m, eg_id *out[4]);

/* The emitted function: inputs q, v, u (a or tau), outputs o[0..3]. */
typedef void (*rbd_emitted_fn)(const double *q, const double *v, const double *u, double *o0, double *o1,
                               double *o2, double *o3);

/* Prints the C of the nodes reachable from the outputs out[k] (len[k]
 * entries each, nout <= 4) as the function rbd_emitted; returns the number
 * of operations printed, or -1 (RBD_ENOMEM set). */
long eg_emit_c(const eg_graph *g, eg_id *const out[], const int len[], int nout, const char *what, FILE *f);

typedef struct {
    void *dl;                 /* dlopen handle */
    rbd_emitted_fn fn;
    double compile_s;         /* seconds spent compiling at this init, 0 for a cache hit */
    long ops;                 /* operations in the function */
    char path[4096];          /* the loaded shared object */
} rbd_emit_lib;

/* The compiled source (a cache hit, or compiled now) loaded into lib. */
int rbd_emit_load(const char *who, const char *src, size_t len, rbd_emit_lib *lib);
void rbd_emit_unload(rbd_emit_lib *lib);
/* The compiler and flags the emitted code is compiled with. */
const char *rbd_emit_cc(void);
const char *rbd_emit_flags(void);

#endif
