/* rbd_data: the scratch arrays of the base algorithms, made once per model. */
#include <stdlib.h>
#include <stdio.h>
#include "rbdiff/dynamics.h"

void rbd_data_free(rbd_data *d)
{
    if (!d) return;
    free(d->Xup); free(d->X0); free(d->v); free(d->a); free(d->f); free(d->c); free(d->pA); free(d->IA);
    free(d->U); free(d->Dinv); free(d->u); free(d->cs); free(d->Ic); free(d->F); free(d->work); free(d->work2);
    free(d->S0); free(d->UG); free(d->U0); free(d->SD0); free(d->aslot); free(d->A); free(d->Fs); free(d->ipath);
    free(d);
}

rbd_data *rbd_data_new(const rbd_model *m)
{
    if (!m) { rbd_fail(RBD_EINVAL, "rbd_data_new: null model"); return NULL; }
    {
        /* two dense nv x nv work matrices dominate (check.h) */
        char what[96];
        double n = m->nv;
        snprintf(what, sizeof what, "the dynamics scratch of nv = %d (two dense nv x nv matrices)", m->nv);
        if (rbd_check_memory(what, 8.0 * (2 * n * n + 30 * n) + 2000.0 * m->nb)) return NULL;
    }
    rbd_data *d = calloc(1, sizeof *d);
    if (!d) { rbd_fail(RBD_ENOMEM, "out of memory"); return NULL; }
    size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    d->nb = m->nb; d->nv = m->nv;
    d->Xup = calloc(nb, sizeof *d->Xup);
    d->X0 = calloc(nb, sizeof *d->X0);
    d->v = calloc(nb, sizeof *d->v);
    d->a = calloc(nb, sizeof *d->a);
    d->f = calloc(nb, sizeof *d->f);
    d->c = calloc(nb, sizeof *d->c);
    d->pA = calloc(nb, sizeof *d->pA);
    d->IA = calloc(nb, sizeof *d->IA);
    d->U = calloc(nv, sizeof *d->U);
    d->Dinv = calloc(36 * nb, sizeof *d->Dinv);
    d->u = calloc(nv, sizeof *d->u);
    d->cs = calloc(nb, sizeof *d->cs);
    d->Ic = calloc(nb, sizeof *d->Ic);
    d->F = calloc(nv, sizeof *d->F);
    d->work = calloc(nv * nv, sizeof *d->work);
    d->work2 = calloc(nv * nv, sizeof *d->work2);
    d->S0 = calloc(nv, sizeof *d->S0);
    d->UG = calloc(nv, sizeof *d->UG);
    d->U0 = calloc(nv, sizeof *d->U0);
    d->SD0 = calloc(nv, sizeof *d->SD0);
    d->ipath = calloc(nv, sizeof *d->ipath);
    d->Fs = calloc(6 * nv, sizeof *d->Fs);
    d->aslot = calloc(nb, sizeof *d->aslot);
    if (d->aslot) {
        /* slot of a last child = its parent's (RBD data comment in dynamics.h) */
        for (int i = 0; i < m->nb; i++) {
            int p = m->parent[i];
            d->aslot[i] = p < 0 ? 0 : d->aslot[p] + (m->subtree_end[i] != m->subtree_end[p]);
            if (d->aslot[i] + 1 > d->nslot) d->nslot = d->aslot[i] + 1;
        }
        d->A = calloc((size_t)d->nslot * 6 * nv, sizeof *d->A);
    }
    if (!d->Xup || !d->X0 || !d->v || !d->a || !d->f || !d->c || !d->pA || !d->IA || !d->U || !d->Dinv ||
        !d->u || !d->cs || !d->Ic || !d->F || !d->work || !d->work2 || !d->S0 || !d->U0 || !d->SD0 || !d->ipath ||
        !d->aslot || !d->A || !d->Fs) {
        rbd_data_free(d);
        rbd_fail(RBD_ENOMEM, "out of memory for the dynamics scratch of %d bodies", m->nb);
        return NULL;
    }
    return d;
}
