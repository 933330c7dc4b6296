/* dgemm as a timeable: the reference rate of achieved GFLOP/s. */
#include <string.h>
#include <cblas.h>
#include <stdlib.h>
#include "measure/roofline.h"

typedef struct {
    int n;
    double *a, *b, *c;
} dctx;

static int call_dgemm(void *p, int k)
{
    (void)k;
    dctx *d = p;
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, d->n, d->n, d->n, 1.0, d->a, d->n, d->b, d->n, 0.0, d->c,
                d->n);
    return 0;
}

static void free_dgemm(void *p)
{
    dctx *d = p;
    if (!d) return;
    free(d->a);
    free(d);
}

int timeable_dgemm(int n, uint64_t seed, rbd_timeable *t)
{
    memset(t, 0, sizeof *t);            /* check = NULL: nothing to verify */
    if (n < 1) return rbd_fail(RBD_EINVAL, "dgemm: matrix size %d: need >= 1", n);
    dctx *d = calloc(1, sizeof *d);
    size_t nn = (size_t)n * (size_t)n;
    if (!d || !(d->a = malloc(3 * nn * sizeof(double)))) {
        free(d);
        return rbd_fail(RBD_ENOMEM, "dgemm: out of memory for n = %d", n);
    }
    d->n = n;
    d->b = d->a + nn;
    d->c = d->b + nn;
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    for (size_t k = 0; k < 3 * nn; k++) d->a[k] = rbd_rng_uniform(&r);
    t->name = ROOFLINE_NAME;
    t->kind = ROOFLINE_KIND;
    t->nv = n;
    t->pool = 1;
    t->ctx = d;
    t->call = call_dgemm;
    t->fini = free_dgemm;
    return RBD_OK;
}
