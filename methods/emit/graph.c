/*
 * The expression graph (graph.h): one arena of nodes, hash-consed, with
 * constants folded as they are made.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "emit/graph.h"
#include "rbdiff/rbd.h"

static uint64_t bits_of(double c)
{
    uint64_t u;
    memcpy(&u, &c, sizeof u);
    return u;
}

static uint64_t node_hash(const eg_node *x)
{
    uint64_t h = 1469598103934665603ull;
    const uint64_t parts[4] = { x->op, (uint64_t)(uint32_t)x->a, (uint64_t)(uint32_t)x->b, bits_of(x->c) };
    for (int k = 0; k < 4; k++) {
        h ^= parts[k];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static int same(const eg_node *x, const eg_node *y)
{
    return x->op == y->op && x->a == y->a && x->b == y->b && bits_of(x->c) == bits_of(y->c);
}

static int rehash(eg_graph *g, size_t nslot)
{
    eg_id *s = malloc(sizeof *s * nslot);
    if (!s) return -1;
    for (size_t k = 0; k < nslot; k++) s[k] = -1;
    for (int i = 0; i < g->nn; i++) {
        size_t p = node_hash(&g->n[i]) & (nslot - 1);
        while (s[p] >= 0) p = (p + 1) & (nslot - 1);
        s[p] = i;
    }
    free(g->slot);
    g->slot = s;
    g->nslot = nslot;
    return 0;
}

/* The node equal to x, made if there is none. */
static eg_id intern(eg_graph *g, eg_node x)
{
    if (g->failed) return 0;
    size_t p = node_hash(&x) & (g->nslot - 1);
    for (; g->slot[p] >= 0; p = (p + 1) & (g->nslot - 1))
        if (same(&g->n[g->slot[p]], &x)) return g->slot[p];
    if (g->nn == g->cap) {
        eg_node *n = g->cap < (1 << 29) ? realloc(g->n, sizeof *n * (size_t)g->cap * 2) : NULL;
        if (!n) { g->failed = 1; return 0; }
        g->n = n;
        g->cap *= 2;
    }
    g->n[g->nn] = x;
    g->slot[p] = g->nn;
    eg_id id = g->nn++;
    if ((size_t)g->nn * 2 > g->nslot && rehash(g, g->nslot * 2)) g->failed = 1;
    return id;
}

int eg_init(eg_graph *g)
{
    memset(g, 0, sizeof *g);
    g->cap = 1024;
    g->n = malloc(sizeof *g->n * (size_t)g->cap);
    if (!g->n || rehash(g, 4096)) {
        eg_free(g);
        return rbd_fail(RBD_ENOMEM, "emit: out of memory for the expression graph");
    }
    g->zero = eg_const(g, 0.0);
    g->one = eg_const(g, 1.0);
    return RBD_OK;
}

void eg_free(eg_graph *g)
{
    free(g->n);
    free(g->slot);
    memset(g, 0, sizeof *g);
}

eg_id eg_const(eg_graph *g, double c)
{
    if (c == 0) c = 0.0;        /* -0 and +0 one node */
    return intern(g, (eg_node){ EG_CONST, -1, -1, c });
}

eg_id eg_in(eg_graph *g, int which, int k)
{
    return intern(g, (eg_node){ EG_IN, which, k, 0 });
}

int eg_is(const eg_graph *g, eg_id a, double c)
{
    return g->n[a].op == EG_CONST && g->n[a].c == c;
}

static int is_const(const eg_graph *g, eg_id a)
{
    return g->n[a].op == EG_CONST;
}

/* Commutative operands in one order, so b + a is the node a + b. */
static eg_id binary(eg_graph *g, int op, eg_id a, eg_id b)
{
    if ((op == EG_ADD || op == EG_MUL) && a > b) { eg_id t = a; a = b; b = t; }
    return intern(g, (eg_node){ (uint8_t)op, a, b, 0 });
}

eg_id eg_neg(eg_graph *g, eg_id a)
{
    if (is_const(g, a)) return eg_const(g, -g->n[a].c);
    if (g->n[a].op == EG_NEG) return g->n[a].a;
    return intern(g, (eg_node){ EG_NEG, a, -1, 0 });
}

eg_id eg_add(eg_graph *g, eg_id a, eg_id b)
{
    if (is_const(g, a) && is_const(g, b)) return eg_const(g, g->n[a].c + g->n[b].c);
    if (eg_is(g, a, 0)) return b;
    if (eg_is(g, b, 0)) return a;
    if (g->n[b].op == EG_NEG) return eg_sub(g, a, g->n[b].a);
    if (g->n[a].op == EG_NEG) return eg_sub(g, b, g->n[a].a);
    return binary(g, EG_ADD, a, b);
}

eg_id eg_sub(eg_graph *g, eg_id a, eg_id b)
{
    if (is_const(g, a) && is_const(g, b)) return eg_const(g, g->n[a].c - g->n[b].c);
    if (a == b) return g->zero;
    if (eg_is(g, b, 0)) return a;
    if (eg_is(g, a, 0)) return eg_neg(g, b);
    if (g->n[b].op == EG_NEG) return eg_add(g, a, g->n[b].a);
    return binary(g, EG_SUB, a, b);
}

eg_id eg_mul(eg_graph *g, eg_id a, eg_id b)
{
    if (is_const(g, a) && is_const(g, b)) return eg_const(g, g->n[a].c * g->n[b].c);
    if (eg_is(g, a, 0) || eg_is(g, b, 0)) return g->zero;
    if (eg_is(g, a, 1)) return b;
    if (eg_is(g, b, 1)) return a;
    if (eg_is(g, a, -1)) return eg_neg(g, b);
    if (eg_is(g, b, -1)) return eg_neg(g, a);
    /* a sign moved out of a product, so -x*y and x*-y are one node */
    if (g->n[a].op == EG_NEG) return eg_neg(g, eg_mul(g, g->n[a].a, b));
    if (g->n[b].op == EG_NEG) return eg_neg(g, eg_mul(g, a, g->n[b].a));
    if (is_const(g, a) && g->n[a].c < 0) return eg_neg(g, eg_mul(g, eg_const(g, -g->n[a].c), b));
    if (is_const(g, b) && g->n[b].c < 0) return eg_neg(g, eg_mul(g, a, eg_const(g, -g->n[b].c)));
    return binary(g, EG_MUL, a, b);
}

eg_id eg_div(eg_graph *g, eg_id a, eg_id b)
{
    if (is_const(g, a) && is_const(g, b) && g->n[b].c != 0) return eg_const(g, g->n[a].c / g->n[b].c);
    if (eg_is(g, b, 1)) return a;
    if (eg_is(g, a, 0)) return g->zero;
    return binary(g, EG_DIV, a, b);
}

eg_id eg_sin(eg_graph *g, eg_id a)
{
    if (is_const(g, a)) return eg_const(g, sin(g->n[a].c));
    return intern(g, (eg_node){ EG_SIN, a, -1, 0 });
}

eg_id eg_cos(eg_graph *g, eg_id a)
{
    if (is_const(g, a)) return eg_const(g, cos(g->n[a].c));
    return intern(g, (eg_node){ EG_COS, a, -1, 0 });
}

eg_id eg_sqrt(eg_graph *g, eg_id a)
{
    if (is_const(g, a) && g->n[a].c >= 0) return eg_const(g, sqrt(g->n[a].c));
    return intern(g, (eg_node){ EG_SQRT, a, -1, 0 });
}
