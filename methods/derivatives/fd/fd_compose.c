/*
 * The generic composer of fdcr, pin26-fd and fdsva-*: inner ID method +
 * M^-1 (rbd_options.minv) + DMM, AZA or the factored product (fd_compose.h
 * has the equations).
 * Per evaluation:
 *   1. qdd0 = ABA(q, qd, tau) (rbd_aba), leaving Xup, IA, U, D^-1 in d;
 *   2. dID/dq, dID/dqd at (q, qd, qdd0) by the inner method;
 *   3. M^-1 by the chosen variant into dqdd_dtau: the analytic one reuses
 *      step 1's Xup, IA, U, D^-1 (rbd_minv_analytic_after_aba: they depend
 *      on q only, and are what its own ABA-like pass 2 would compute); the
 *      others run in their own scratch dm, so d keeps them for AZA;
 *   4. dqdd_du = -M^-1 dID/du by DMM or AZA.
 * The factored product (fd_factored.c) replaces step 2's products and step
 * 4: the inner method's forward pass, its t-vectors alone, then M^-1 times
 * those.  With a ground backend, the analytic M^-1 and no AZA, c->pass may
 * share the work of steps 1-3:
 *  - RBD_PASS_SHARED (fdsva): the inner forward pass takes ABA's cos, sin
 *    of the joints about z instead of a second sincos; the results are bit
 *    for bit those of the separate passes;
 *  - RBD_PASS_GROUND (fdsva-1pass): one pass instead: the inner method's
 *    forward pass at qdd = 0, rbd_fdg_solve (qdd0 and M^-1 in ground
 *    coordinates, the forward pass brought to qdd0), then its backward
 *    pass alone.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "model/arena.h"
#include "derivatives/fd/fd_compose.h"
#include "derivatives/fd/fd_ground.h"

typedef struct {
    const rbd_model *m;
    const rbd_fd_compose *c;
    void *idws;
    rbd_minv_kind minv;
    rbd_combine combine;        /* after resolving the switch for this model */
    rbd_data *d, *dm;
    double *G, *tau;            /* [2 nv nv] dID/dq then dID/dqd; [nv] ID's tau */
    rbd_aza *aza;
    rbd_dmm_rows rows;
    rbd_fdf *fdf;
    rbd_idg_tv *R;              /* [nv] the t-vectors: the factored product, AZA with forces */
    double (*F)[6];             /* [2 nv] forces on the parents (q, then qd): AZA with forces, no t-vectors */
    rbd_fd_pass pass;           /* c->pass, or separate passes where it does not apply */
    int tv;                     /* the combination takes the inner method's t-vectors */
    rbd_idg *g;                 /* the inner method's forward pass, where shared or tv */
    double *zero;               /* [nv] qdd = 0 for RBD_PASS_GROUND */
} fdc_ws;

/* fdsva's combination step (fd_compose.h): the factored product where
 * dID/du's equivalent dense size R / nv reaches the crossover nx; below it,
 * the sparse DMM from RBD_FDSVA_SPARSE_MIN dofs, else dgemm, which
 * fdsva_measure replaces by a measurement unless rbd_options.fdsva_dmm_rule. */
static rbd_combine fdsva_choice(const rbd_model *m, const rbd_dmm_rows *rows, int nx)
{
    double R = 0;
    for (int j = 0; j < m->nv; j++) {
        int b = m->dof_body[j];
        for (int t = rows->off[b]; t < rows->off[b + 1]; t++) R += rows->run[2 * t + 1] - rows->run[2 * t];
    }
    if (R / m->nv >= nx) return RBD_COMBINE_FACTORED;
    return m->nv >= RBD_FDSVA_SPARSE_MIN ? RBD_COMBINE_DMM_SPARSE : RBD_COMBINE_DMM_BLAS;
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Seconds for k calls of one DMM variant on the buffers (X = -Mi G). */
static double dmm_time(const rbd_model *m, const rbd_dmm_rows *rows, rbd_combine v, int k, const double *Mi,
                       const double *G, double *X)
{
    const size_t nn = (size_t)m->nv * (size_t)m->nv;
    double t0 = seconds();
    for (int r = 0; r < k; r++) {
        if (v == RBD_COMBINE_DMM_BLAS) rbd_dmm_blas_cols(m->nv, 2 * m->nv, Mi, G, X);
        else {
            rbd_dmm_sparse(m, rows, Mi, G, G + nn, X, X + nn);
        }
    }
    return seconds() - t0;
}

/* fdsva below the crossover, by measurement: which of the sparse loop and
 * dgemm is faster depends on the machine (methods/README.md: on a Xeon the
 * loop won on chains of 7-20 bodies, on an AMD EPYC dgemm did, and below 6
 * dofs the other way round), so time both on this model's sizes and structure:
 * enough calls per sample for >= 20 us, 5 alternating samples of each, the
 * minimum of each (load only ever adds time).  About a millisecond at init;
 * the values do not matter, only the shapes. */
static rbd_combine fdsva_measure(const rbd_model *m, const rbd_dmm_rows *rows)
{
    const size_t nn = (size_t)m->nv * (size_t)m->nv;
    double *Mi = malloc(sizeof(double) * nn), *G = calloc(2 * nn, sizeof(double)),
           *X = malloc(sizeof(double) * 2 * nn);
    rbd_combine pick = RBD_COMBINE_DMM_SPARSE;
    if (Mi && G && X) {
        for (size_t e = 0; e < nn; e++) Mi[e] = 1.0 / (double)(1 + e % 7);
        for (int j = 0; j < m->nv; j++) {       /* dID/du's possibly non-zero rows */
            int b = m->dof_body[j];
            for (int t = rows->off[b]; t < rows->off[b + 1]; t++)
                for (int r = rows->run[2 * t]; r < rows->run[2 * t + 1]; r++)
                    G[(size_t)r + (size_t)m->nv * (size_t)j] = G[nn + (size_t)r + (size_t)m->nv * (size_t)j] = 1;
        }
        int k = 1;
        while (k < (1 << 16) && dmm_time(m, rows, RBD_COMBINE_DMM_BLAS, k, Mi, G, X) < 2e-5) k *= 2;
        double best[2] = { INFINITY, INFINITY };       /* sparse, dgemm */
        for (int s = 0; s < 5; s++) {
            best[0] = fmin(best[0], dmm_time(m, rows, RBD_COMBINE_DMM_SPARSE, k, Mi, G, X));
            best[1] = fmin(best[1], dmm_time(m, rows, RBD_COMBINE_DMM_BLAS, k, Mi, G, X));
        }
        pick = best[1] < best[0] ? RBD_COMBINE_DMM_BLAS : RBD_COMBINE_DMM_SPARSE;
    }
    free(Mi); free(G); free(X);
    return pick;
}

void rbd_fdc_fini(void *p)
{
    fdc_ws *w = p;
    if (!w) return;
    if (w->idws) w->c->id->fini(w->idws);
    rbd_data_free(w->d);
    rbd_data_free(w->dm);
    rbd_aza_free(w->aza);
    rbd_fdf_free(w->fdf);
    rbd_dmm_rows_fini(&w->rows);
    free(w);            /* the workspace heads its arena (arena.h): G, tau, R, zero */
}

/* forces: AZA with forces from the inner method's parent forces (no t-vectors) */
static void carve(fdc_ws *w, rbd_arena *a, const rbd_model *m, rbd_combine combine, rbd_fd_pass pass, int forces)
{
    const size_t nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, w->G, 2 * nv * nv);
    RBD_ARENA_TAKE(a, w->tau, nv);
    if (forces) RBD_ARENA_TAKE(a, w->F, 2 * nv);
    else if (combine == RBD_COMBINE_FACTORED || combine == RBD_COMBINE_AZA_FORCES) RBD_ARENA_TAKE(a, w->R, nv);
    if (pass == RBD_PASS_GROUND) RBD_ARENA_TAKE(a, w->zero, nv + 1);
}

int rbd_fdc_init(const rbd_fd_compose *c, const rbd_model *m, const rbd_options *o, void **out)
{
    const char *name = c->self->name;
    int rc = rbd_method_init_check(c->self, m, out);
    if (rc) return rc;
    rbd_options def;
    if (!o) { rbd_options_default(&def); o = &def; }
    if (o->minv < 0 || o->minv >= RBD_MINV_NKINDS)
        return rbd_fail(RBD_EINVAL, "%s: unknown M^-1 variant %d", name, (int)o->minv);
    if (o->fdsva_crossover < 0)
        return rbd_fail(RBD_EINVAL, "%s: fdsva_crossover = %d must be >= 0 (0: the built-in %d)", name,
                        o->fdsva_crossover, RBD_FDSVA_CROSSOVER_DEFAULT);
    rbd_combine combine = c->combine;
    rbd_dmm_rows rows = { 0 };
    if (combine == RBD_COMBINE_SWITCH) {
        int nx = o->fdsva_crossover > 0 ? o->fdsva_crossover : RBD_FDSVA_CROSSOVER_DEFAULT;
        if ((rc = rbd_dmm_rows_init(m, &rows))) return rc;
        combine = fdsva_choice(m, &rows, nx);
        if (!o->fdsva_dmm_rule && combine != RBD_COMBINE_FACTORED) combine = fdsva_measure(m, &rows);
        if (combine != RBD_COMBINE_DMM_SPARSE) rbd_dmm_rows_fini(&rows);
    }
    const int tvecs = c->ground && c->ground->tvecs;
    const int forces = combine == RBD_COMBINE_AZA_FORCES && !tvecs;
    if (combine == RBD_COMBINE_FACTORED && !tvecs) {
        rbd_dmm_rows_fini(&rows);
        return rbd_fail(RBD_EINVAL, "%s: the factored product needs the inner method's t-vectors", name);
    }
    if (forces && !c->parent_dforces) {
        rbd_dmm_rows_fini(&rows);
        return rbd_fail(RBD_EINVAL, "%s: AZA with forces needs the inner method's t-vectors or forces", name);
    }
    /* the shared passes need the analytic M^-1 (the others are their own
     * algorithms) and no AZA (it reads ABA's body-frame IA, U, D^-1, which
     * fd_ground.c does not make) */
    const rbd_fd_pass pass = o->minv == RBD_MINV_ANALYTIC && combine != RBD_COMBINE_AZA &&
                                     !(combine == RBD_COMBINE_AZA_FORCES && c->pass == RBD_PASS_GROUND)
                                 ? c->pass
                                 : RBD_PASS_SEPARATE;
    rbd_arena a = { 0 };
    fdc_ws sizing, *w;
    carve(&sizing, &a, m, combine, pass, forces);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, name))) { rbd_dmm_rows_fini(&rows); return RBD_ENOMEM; }
    carve(w, &a, m, combine, pass, forces);     /* zeroed: dID/du's structural zeros, qdd = 0 */
    w->m = m;
    w->c = c;
    w->minv = o->minv;
    w->combine = combine;
    w->rows = rows;
    w->pass = pass;
    /* dID/du lives in this workspace only and is cleared once here, so the
     * ID method may leave its structural zeros alone */
    rbd_options oid = *o;
    oid.zeros_preset = 1;
    if ((rc = c->id->init(m, &oid, &w->idws))) { w->idws = NULL; rbd_fdc_fini(w); return rc; }
    w->tv = combine == RBD_COMBINE_FACTORED || (combine == RBD_COMBINE_AZA_FORCES && !forces);
    if (pass != RBD_PASS_SEPARATE || w->tv) w->g = c->ground->idg(w->idws);
    if (!(w->d = rbd_data_new(m)) || (w->minv != RBD_MINV_ANALYTIC && !(w->dm = rbd_data_new(m))) ||
        ((combine == RBD_COMBINE_AZA || combine == RBD_COMBINE_AZA_FORCES) && !(w->aza = rbd_aza_new(m))) ||
        (combine == RBD_COMBINE_FACTORED && !(w->fdf = rbd_fdf_new(m)))) {
        rbd_fdc_fini(w);
        return RBD_ENOMEM;
    }
    if (combine == RBD_COMBINE_DMM_SPARSE && !w->rows.off && (rc = rbd_dmm_rows_init(m, &w->rows))) {
        rbd_fdc_fini(w);
        return rc;
    }
    *out = w;
    return RBD_OK;
}

int rbd_fdc_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fdc_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "%s: null workspace, state vector or output buffer",
                        w ? w->c->self->name : "fd-compose");
    const rbd_model *m = w->m;
    const size_t nn = (size_t)m->nv * (size_t)m->nv;
    int rc;
    const int tv = w->tv;
    rbd_idg *g = w->g;
    if (w->pass == RBD_PASS_GROUND) {
        rbd_idg_forward(m, g, x->q, x->v, w->zero);
        if ((rc = rbd_fdg_solve(m, w->d, g, x->tau, out->qdd, out->dqdd_dtau))) return rc;
    } else {
        if ((rc = rbd_aba(m, w->d, x->q, x->v, x->tau, out->qdd))) return rc;
        if (w->pass == RBD_PASS_SHARED) {
            rbd_idg_forward_cs(m, g, x->q, (const double (*)[2])w->d->cs, x->v, out->qdd);
            rbd_minv_analytic_after_aba(m, w->d, out->dqdd_dtau);
        } else {
            if (g) {
                rbd_idg_forward(m, g, x->q, x->v, out->qdd);
            } else {
                const rbd_state xa = { .q = x->q, .v = x->v, .a = out->qdd };
                rbd_derivs di = { .tau = w->tau, .dtau_dq = w->G, .dtau_dv = w->G + nn };
                if ((rc = w->c->id->eval(w->idws, &xa, &di))) return rc;
            }
            if (w->minv == RBD_MINV_ANALYTIC) rbd_minv_analytic_after_aba(m, w->d, out->dqdd_dtau);
            else if ((rc = rbd_minv(m, w->dm, w->minv, x->q, out->dqdd_dtau))) return rc;
        }
    }
    if (w->pass != RBD_PASS_SEPARATE && !tv)
        w->c->ground->backward(w->idws, w->tau, w->G, w->G + nn);
    const double *Mi = out->dqdd_dtau;
    switch (w->combine) {
    case RBD_COMBINE_DMM_BLAS:
        if (out->dqdd_dv == out->dqdd_dq + nn) {      /* one n x 2n product: G is [dID/dq dID/dqd] */
            rbd_dmm_blas_cols(m->nv, 2 * m->nv, Mi, w->G, out->dqdd_dq);
        } else {
            rbd_dmm_blas_cols(m->nv, m->nv, Mi, w->G, out->dqdd_dq);
            rbd_dmm_blas_cols(m->nv, m->nv, Mi, w->G + nn, out->dqdd_dv);
        }
        break;
    case RBD_COMBINE_DMM_LOOP:
        rbd_dmm_loop(m->nv, Mi, w->G, out->dqdd_dq);
        rbd_dmm_loop(m->nv, Mi, w->G + nn, out->dqdd_dv);
        break;
    case RBD_COMBINE_DMM_SPARSE:
        rbd_dmm_sparse(m, &w->rows, Mi, w->G, w->G + nn, out->dqdd_dq, out->dqdd_dv);
        break;
    case RBD_COMBINE_FACTORED:
        w->c->ground->tvecs(w->idws, w->tau, w->R);
        rbd_fdf_solve(m, w->fdf, Mi, g, w->R, out->dqdd_dq, out->dqdd_dv);
        break;
    case RBD_COMBINE_AZA_FORCES:
        if (w->F) {
            w->c->parent_dforces(w->idws, w->F, w->F + m->nv);
            rbd_aza_solve_forces(m, w->d, w->aza, w->G, (const double (*)[6])w->F, out->dqdd_dq);
            rbd_aza_solve_forces(m, w->d, w->aza, w->G + nn, (const double (*)[6])(w->F + m->nv), out->dqdd_dv);
            break;
        }
        w->c->ground->tvecs(w->idws, w->tau, w->R);
        rbd_aza_solve_tvecs(m, w->d, w->aza, g, w->R, out->dqdd_dq, out->dqdd_dv);
        break;
    default:
        rbd_aza_solve(m, w->d, w->aza, w->G, out->dqdd_dq);
        rbd_aza_solve(m, w->d, w->aza, w->G + nn, out->dqdd_dv);
        break;
    }
    return RBD_OK;
}
