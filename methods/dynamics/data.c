/* rbd_data: the scratch arrays of the base algorithms, made once per model. */
#include <stdlib.h>
#include <stdio.h>
#include "model/arena.h"
#include "rbdiff/dynamics.h"

void rbd_data_free(rbd_data *d)
{
    free(d);            /* the scratch heads its arena (arena.h) */
}

static void carve(rbd_data *d, rbd_arena *a, const rbd_model *m, int nslot)
{
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, d->Xup, nb); RBD_ARENA_TAKE(a, d->X0, nb);
    RBD_ARENA_TAKE(a, d->v, nb); RBD_ARENA_TAKE(a, d->a, nb); RBD_ARENA_TAKE(a, d->f, nb);
    RBD_ARENA_TAKE(a, d->c, nb); RBD_ARENA_TAKE(a, d->pA, nb); RBD_ARENA_TAKE(a, d->IA, nb);
    RBD_ARENA_TAKE(a, d->U, nv); RBD_ARENA_TAKE(a, d->Dinv, 36 * nb); RBD_ARENA_TAKE(a, d->u, nv);
    RBD_ARENA_TAKE(a, d->cs, nb); RBD_ARENA_TAKE(a, d->Ic, nb); RBD_ARENA_TAKE(a, d->F, nv);
    RBD_ARENA_TAKE(a, d->work, nv * nv); RBD_ARENA_TAKE(a, d->work2, nv * nv);
    RBD_ARENA_TAKE(a, d->S0, nv); RBD_ARENA_TAKE(a, d->UG, nv); RBD_ARENA_TAKE(a, d->U0, nv);
    RBD_ARENA_TAKE(a, d->SD0, nv); RBD_ARENA_TAKE(a, d->ipath, nv); RBD_ARENA_TAKE(a, d->Fs, 6 * nv);
    RBD_ARENA_TAKE(a, d->aslot, nb); RBD_ARENA_TAKE(a, d->A, (size_t)nslot * 6 * nv);
    RBD_ARENA_TAKE(a, d->axis_flat, nb);
}

/* rbd_data.axis_flat[i]: the joint's axis e_k when it is a revolute or
 * continuous joint about a coordinate axis and Xtree's E is the identity
 * (exactly: every autoTree body, most humanoid and quadruped joints). */
static int axis_flat(const rbd_model *m, int i)
{
    const double *E = m->Xtree[i].E;
    for (int k = 0; k < 9; k++)
        if (E[k] != (k % 4 == 0 ? 1.0 : 0.0)) return -1;
    return rbd_joint_is_rot1(m->joint[i].type) ? m->joint[i].axis_id : -1;
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
    int nslot = 1;
    for (int i = 0; i < m->nb; i++) {
        const int s = rbd_branch_slot(m, i) + 1;
        if (s > nslot) nslot = s;
    }
    rbd_arena a = { 0 };
    rbd_data sizing, *d;
    carve(&sizing, &a, m, nslot);
    if (!(d = rbd_arena_reserve(&a, sizeof *d, "the dynamics scratch"))) return NULL;
    carve(d, &a, m, nslot);
    d->nb = m->nb; d->nv = m->nv;
    d->nslot = nslot;
    for (int i = 0; i < m->nb; i++) {
        d->aslot[i] = rbd_branch_slot(m, i);
        d->axis_flat[i] = (signed char)axis_flat(m, i);
    }
    return d;
}
