/*
 * The C of a traced algorithm: the nodes reachable from the outputs, in the
 * order they were made (an operand is always made before its use), one
 * `const double tN = ...;` each, then the outputs' stores.  Constants are
 * printed as C99 hexadecimal floats (exact), inputs as q[k], v[k], u[k].
 * The text depends only on the graph, so it keys the compile cache.
 */
#include <stdlib.h>
#include "emit/emit.h"

static void operand(const eg_graph *g, eg_id a, FILE *f)
{
    const eg_node *x = &g->n[a];
    static const char in_name[3] = { 'q', 'v', 'u' };
    if (x->op == EG_CONST) fprintf(f, x->c < 0 ? "(%a)" : "%a", x->c);
    else if (x->op == EG_IN) fprintf(f, "%c[%d]", in_name[x->a], x->b);
    else fprintf(f, "t%d", (int)a);
}

static long print_node(const eg_graph *g, eg_id i, FILE *f)
{
    const eg_node *x = &g->n[i];
    static const char sym[] = { [EG_ADD] = '+', [EG_SUB] = '-', [EG_MUL] = '*', [EG_DIV] = '/' };
    fprintf(f, "    const double t%d = ", (int)i);
    switch (x->op) {
    case EG_NEG: fputs("-", f); operand(g, x->a, f); break;
    case EG_SIN: fputs("sin(", f); operand(g, x->a, f); fputs(")", f); break;
    case EG_COS: fputs("cos(", f); operand(g, x->a, f); fputs(")", f); break;
    case EG_SQRT: fputs("sqrt(", f); operand(g, x->a, f); fputs(")", f); break;
    default:
        operand(g, x->a, f);
        fprintf(f, " %c ", sym[x->op]);
        operand(g, x->b, f);
    }
    fputs(";\n", f);
    return 1;
}

long eg_emit_c(const eg_graph *g, eg_id *const out[], const int len[], int nout, const char *what, FILE *f)
{
    unsigned char *live = calloc((size_t)g->nn + 1, 1);
    if (!live) return rbd_fail(RBD_ENOMEM, "emit: out of memory printing the C"), -1;
    for (int k = 0; k < nout; k++)
        for (int e = 0; e < len[k]; e++) live[out[k][e]] = 1;
    for (eg_id i = g->nn - 1; i >= 0; i--) {
        if (!live[i]) continue;
        const eg_node *x = &g->n[i];
        if (x->op == EG_CONST || x->op == EG_IN) continue;
        live[x->a] = 1;
        if (x->b >= 0) live[x->b] = 1;
    }
    fprintf(f, "/* %s: emitted by rbdiff (methods/emit, version %d); edit the emitter, not this file */\n",
            what, RBD_EMIT_VERSION);
    fputs("#include <math.h>\n\n", f);
    fputs("void rbd_emitted(const double *restrict q, const double *restrict v, const double *restrict u,\n"
          "                 double *restrict o0, double *restrict o1, double *restrict o2, double *restrict o3)\n{\n",
          f);
    fputs("    (void)q; (void)v; (void)u; (void)o0; (void)o1; (void)o2; (void)o3;\n", f);
    long ops = 0;
    for (eg_id i = 0; i < g->nn; i++)
        if (live[i] && g->n[i].op != EG_CONST && g->n[i].op != EG_IN) ops += print_node(g, i, f);
    for (int k = 0; k < nout; k++)
        for (int e = 0; e < len[k]; e++) {
            fprintf(f, "    o%d[%d] = ", k, e);
            operand(g, out[k][e], f);
            fputs(";\n", f);
        }
    fputs("}\n", f);
    free(live);
    return ops;
}
