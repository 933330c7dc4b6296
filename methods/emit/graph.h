/*
 * The expression graph the emitted methods are traced on: every scalar of
 * an algorithm run on a given model is a node in one arena (flat arrays, as
 * MuJoCo keeps its model), built by the eg_* operations below, which fold
 * what the model makes constant and share what is computed twice:
 *  - constant folding: const op const, x*0, 0*x, x*1, x*-1, x+0, x-0, 0-x,
 *    x-x, x/1, 0/x, -(-x), -(const), f(const) for sin, cos, sqrt;
 *  - hash-consing: an operation on the same operands (commutative ones in
 *    canonical order) is the same node, so the second pass over the same
 *    kinematics costs nothing.
 * Inputs are q[k], v[k] and u[k] (a for the ID kind, tau for the FD kind).
 * Nothing here knows dynamics; emit_c.c prints the nodes reachable from
 * the outputs as straight-line C.
 */
#ifndef RBD_EMIT_GRAPH_H
#define RBD_EMIT_GRAPH_H

#include <stddef.h>
#include <stdint.h>

typedef int32_t eg_id;

enum { EG_CONST, EG_IN, EG_ADD, EG_SUB, EG_MUL, EG_DIV, EG_NEG, EG_SIN, EG_COS, EG_SQRT };
enum { EG_IN_Q, EG_IN_V, EG_IN_U };      /* EG_IN: a = which input, b = its index */

typedef struct {
    uint8_t op;
    eg_id a, b;
    double c;           /* EG_CONST's value */
} eg_node;

typedef struct {
    eg_node *n;
    int nn, cap;
    eg_id *slot;        /* open-addressing table of node ids, -1 empty */
    size_t nslot;
    int failed;         /* an allocation failed: every later operation returns node 0 */
    eg_id zero, one;
} eg_graph;

int eg_init(eg_graph *g);       /* RBD_OK or RBD_ENOMEM */
void eg_free(eg_graph *g);

eg_id eg_const(eg_graph *g, double c);
eg_id eg_in(eg_graph *g, int which, int k);
eg_id eg_add(eg_graph *g, eg_id a, eg_id b);
eg_id eg_sub(eg_graph *g, eg_id a, eg_id b);
eg_id eg_mul(eg_graph *g, eg_id a, eg_id b);
eg_id eg_div(eg_graph *g, eg_id a, eg_id b);
eg_id eg_neg(eg_graph *g, eg_id a);
eg_id eg_sin(eg_graph *g, eg_id a);
eg_id eg_cos(eg_graph *g, eg_id a);
eg_id eg_sqrt(eg_graph *g, eg_id a);

/* 1 if node a is the constant c. */
int eg_is(const eg_graph *g, eg_id a, double c);

#endif
