/*
 * idsva-emit and fdsva-emit: IDSVA (Alg. 1) and FDSVA's composition traced
 * for the model at init (idsva_eg.c, fdsva_eg.c), printed as one C function
 * (emit_c.c), compiled and loaded (compile.c); eval is one call of that
 * function.  Listed in rbd_emit_methods, not rbd_methods: a compile per
 * model (seconds) would enter every generic test and the default sweep.
 *
 * Init refuses (RBD_ENOTSUP, one line) a model above RBD_EMIT_NV_MAX dofs,
 * whose emitted code grows like nv^2 (ID) to nv^3 (FD) and whose compile
 * like its size or worse (methods/README.md), and says when no compiler is
 * there.  With RBD_EMIT_VERBOSE set, init prints one line to stderr: the
 * operations emitted, the compile time or the cache hit, the library.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit/emit.h"
#include "rbdiff/method.h"

enum { RBD_EMIT_NV_MAX = 20 };

typedef struct {
    rbd_emit_lib lib;
} emit_ws;

static int trace(const rbd_method *meth, eg_graph *g, const rbd_model *m, eg_id **out, int *len, int *nout)
{
    const int n = m->nv;
    if (meth->output == RBD_ID_DERIVS) {
        eg_id *qd = out[3], *qdd = out[3] + n;   /* out[3]: scratch for the inputs */
        for (int k = 0; k < n; k++) { qd[k] = eg_in(g, EG_IN_V, k); qdd[k] = eg_in(g, EG_IN_U, k); }
        const eg_out_id o = { out[0], out[1], out[2], NULL };
        len[0] = n; len[1] = len[2] = n * n;
        *nout = 3;
        return eg_idsva(g, m, qd, qdd, &o);
    }
    len[0] = n; len[1] = len[2] = len[3] = n * n;
    *nout = 4;
    return eg_fdsva(g, m, out);
}

/* The C of meth on m, in a buffer the caller frees. */
static int emit_source(const rbd_method *meth, const rbd_model *m, char **src, size_t *len, long *ops)
{
    eg_graph g;
    int rc = eg_init(&g), nout = 0, lens[4];
    if (rc) return rc;
    const size_t n = (size_t)m->nv;
    eg_id *out[4] = { malloc(sizeof(eg_id) * n), malloc(sizeof(eg_id) * n * n), malloc(sizeof(eg_id) * n * n),
                      malloc(sizeof(eg_id) * (n * n + 2 * n)) };
    FILE *f = NULL;
    if (!out[0] || !out[1] || !out[2] || !out[3]) rc = rbd_fail(RBD_ENOMEM, "%s: out of memory", meth->name);
    if (!rc) rc = trace(meth, &g, m, out, lens, &nout);
    if (!rc && !(f = open_memstream(src, len))) rc = rbd_fail(RBD_ENOMEM, "%s: out of memory", meth->name);
    if (!rc) {
        char what[512];
        snprintf(what, sizeof what, "%s on %.400s", meth->name, m->spec ? m->spec : "a model");
        *ops = eg_emit_c(&g, out, lens, nout, what, f);
        if (*ops < 0) rc = RBD_ENOMEM;
    }
    if (f && fclose(f) && !rc) rc = rbd_fail(RBD_ENOMEM, "%s: out of memory", meth->name);
    if (rc && f) { free(*src); *src = NULL; }
    for (int k = 0; k < 4; k++) free(out[k]);
    eg_free(&g);
    return rc;
}

static int emit_init(const rbd_method *meth, const rbd_model *m, void **out)
{
    int rc = rbd_method_init_check(meth, m, out);
    if (rc) return rc;
    if (m->nv > RBD_EMIT_NV_MAX)
        return rbd_fail(RBD_ENOTSUP, "%s: nv = %d is over the emitted methods' limit of %d (the code grows as nv^2-nv^3)",
                        meth->name, m->nv, RBD_EMIT_NV_MAX);
    emit_ws *w = calloc(1, sizeof *w);
    char *src = NULL;
    size_t len = 0;
    long ops = 0;
    if (!w) return rbd_fail(RBD_ENOMEM, "%s: out of memory", meth->name);
    if (!(rc = emit_source(meth, m, &src, &len, &ops))) rc = rbd_emit_load(meth->name, src, len, &w->lib);
    free(src);
    if (rc) { free(w); return rc; }
    w->lib.ops = ops;
    if (getenv("RBD_EMIT_VERBOSE"))
        fprintf(stderr, "%s: %s nv %d: %ld operations, %s %.2f s, %s\n", meth->name, m->spec ? m->spec : "model",
                m->nv, ops, w->lib.compile_s > 0 ? "compiled in" : "cached, compile", w->lib.compile_s, w->lib.path);
    *out = w;
    return RBD_OK;
}

static void emit_fini(void *p)
{
    emit_ws *w = p;
    if (!w) return;
    rbd_emit_unload(&w->lib);
    free(w);
}

extern const rbd_method rbd_method_idsva_emit, rbd_method_fdsva_emit;

static int idsva_emit_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    return emit_init(&rbd_method_idsva_emit, m, out);
}

static int fdsva_emit_init(const rbd_model *m, const rbd_options *o, void **out)
{
    (void)o;
    return emit_init(&rbd_method_fdsva_emit, m, out);
}

static int idsva_emit_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    emit_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->a || !out || !out->tau || !out->dtau_dq || !out->dtau_dv)
        return rbd_fail(RBD_EINVAL, "idsva-emit: null workspace, state vector or output buffer");
    w->lib.fn(x->q, x->v, x->a, out->tau, out->dtau_dq, out->dtau_dv, NULL);
    return RBD_OK;
}

static int fdsva_emit_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    emit_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "fdsva-emit: null workspace, state vector or output buffer");
    w->lib.fn(x->q, x->v, x->tau, out->qdd, out->dqdd_dq, out->dqdd_dv, out->dqdd_dtau);
    return RBD_OK;
}

const rbd_method rbd_method_idsva_emit = {
    .name = "idsva-emit",
    .summary = "IDSVA (Alg. 1, ground frame) traced for the model, emitted as C, compiled at init (nv <= 20)",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = idsva_emit_init,
    .eval = idsva_emit_eval,
    .fini = emit_fini,
};

const rbd_method rbd_method_fdsva_emit = {
    .name = "fdsva-emit",
    .summary = "FDSVA's composition traced for the model (IDSVA at qdd, M^-1 by LTDL), emitted as C, compiled at init",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fdsva_emit_init,
    .eval = fdsva_emit_eval,
    .fini = emit_fini,
};
