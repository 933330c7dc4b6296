/*
 * fdsva's product for a model (RBD_COMBINE_SWITCH, fd_compose.h): the
 * factored product where dID/du's equivalent dense size R / nv reaches the
 * crossover, below it the sparse DMM or dgemm, whichever this machine runs
 * faster on this model's shapes (methods/README.md, "fdsva's DMM below the crossover": the
 * winner differs between CPUs), or with rbd_options.fdsva_dmm_rule the
 * fixed rule of RBD_FDSVA_SPARSE_MIN.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "derivatives/fd/fd_compose.h"

/* The rule: factored from the crossover nx, else the sparse DMM from
 * RBD_FDSVA_SPARSE_MIN dofs, else dgemm. */
static rbd_combine fdsva_rule(const rbd_model *m, const rbd_dmm_rows *rows, int nx)
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
        else rbd_dmm_sparse(m, rows, Mi, G, G + nn, X, X + nn);
    }
    return seconds() - t0;
}

/* The sparse loop against dgemm on this model's sizes and structure:
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

rbd_combine rbd_fdsva_switch(const rbd_model *m, const rbd_options *o, const rbd_dmm_rows *rows)
{
    const int nx = o->fdsva_crossover > 0 ? o->fdsva_crossover : RBD_FDSVA_CROSSOVER_DEFAULT;
    const rbd_combine c = fdsva_rule(m, rows, nx);
    return !o->fdsva_dmm_rule && c != RBD_COMBINE_FACTORED ? fdsva_measure(m, rows) : c;
}
