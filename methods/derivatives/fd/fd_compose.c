/*
 * The compositions of eq. (5) (fd_compose.h): fdcr, pin26-fd and fdsva-*.
 * Every evaluation is one recipe of two steps, chosen at init:
 *
 *   passes:   qdd0 = FD(q, qd, tau), M^-1, and what the product takes from
 *             the inner ID method at (q, qd, qdd0): dID/du, or the factors
 *             of dID/du (IDSVA's t-vectors, lines 13-16 of Algorithm 1);
 *   product:  dqdd/du = -M^-1 dID/du from those.
 *
 * The passes (rbd_fd_pass):
 *   body_passes    ABA in body frames (leaving Xup, IA, U, D^-1 in d, which
 *                  the analytic M^-1 and AZA reuse: they depend on q only),
 *                  then the inner method alone, then M^-1 (rbd_options.minv);
 *   shared_passes  ABA in body frames, the inner ground-frame forward pass on
 *                  ABA's cos, sin of q (the same bits without a second
 *                  sincos), the analytic M^-1 from ABA's factors, the inner
 *                  backward pass;
 *   ground_passes  one ground-frame pass: the inner forward pass at qdd = 0,
 *                  qdd0 and M^-1 from it (fd_ground.c), then the inner
 *                  backward pass.
 * The products (rbd_combine): dgemm, the plain loop or the sparse loop of
 * the DMM, AZA (eq. 34) on dID/du's columns, the factored product of the
 * t-vectors, AZA on the t-vectors or on RNEACR's parent forces (ancestor
 * rows as forces; aza.c).
 */
#include <stdlib.h>
#include "model/arena.h"
#include "derivatives/fd/fd_compose.h"
#include "derivatives/fd/fd_ground.h"

typedef struct fdc_ws fdc_ws;

/* What a product takes from the inner method: dID/du (in G), the
 * t-vectors (the backend's tvecs after its forward pass), or dID/du and
 * the forces of each column's ancestor rows on the parent body. */
typedef enum { TAKES_DID, TAKES_TVECS, TAKES_FORCES } fdc_takes;

/* The products, each a function below; rbd_fdc_eval calls them by a
 * switch, not through pointers, so that they and the passes are compiled
 * into it as the one function they were split from: direct calls, no
 * indirect call per evaluation. */
typedef enum { P_DGEMM, P_LOOP, P_SPARSE, P_AZA, P_FACTORED, P_AZA_TVECS, P_AZA_FORCES } fdc_product_id;

typedef struct {
    fdc_takes takes;
    fdc_product_id id;
} fdc_product;

struct fdc_ws {
    const rbd_model *m;
    const rbd_fd_compose *c;
    void *idws;
    rbd_minv_kind minv;
    rbd_fd_pass pass;           /* which passes: body_passes, shared_passes or ground_passes */
    const fdc_product *product;
    rbd_combine combine;        /* the product's kind, fdsva's switch resolved */
    rbd_data *d, *dm;           /* ABA's (and the analytic M^-1's) scratch; another M^-1's */
    double *G, *tau;            /* [2 nv nv] dID/dq then dID/dqd; [nv] ID's tau */
    rbd_aza *aza;
    rbd_dmm_rows rows;
    rbd_fdf *fdf;
    rbd_idg_tv *R;              /* [nv] the t-vectors (TAKES_TVECS) */
    double (*F)[6];             /* [2 nv] forces on the parents, q then qd (TAKES_FORCES) */
    rbd_idg *g;                 /* the inner forward pass, where shared or the t-vectors are taken */
    double *zero;               /* [nv] qdd = 0 for ground_passes */
};

/* ---------------------------------------------------------------- passes */

static void inner_backward(fdc_ws *w)
{
    const size_t nn = (size_t)w->m->nv * (size_t)w->m->nv;
    if (w->product->takes != TAKES_TVECS) w->c->ground->backward(w->idws, w->tau, w->G, w->G + nn);
}

static int body_passes(fdc_ws *w, const rbd_state *x, rbd_derivs *out)
{
    const rbd_model *m = w->m;
    int rc = rbd_aba(m, w->d, x->q, x->v, x->tau, out->qdd);
    if (rc) return rc;
    if (w->g) {                                 /* the t-vectors: the forward pass alone */
        rbd_idg_forward(m, w->g, x->q, x->v, out->qdd);
    } else {
        const size_t nn = (size_t)m->nv * (size_t)m->nv;
        const rbd_state xa = { .q = x->q, .v = x->v, .a = out->qdd };
        rbd_derivs di = { .tau = w->tau, .dtau_dq = w->G, .dtau_dv = w->G + nn };
        if ((rc = w->c->id->eval(w->idws, &xa, &di))) return rc;
    }
    if (w->minv == RBD_MINV_ANALYTIC) rbd_minv_analytic_after_aba(m, w->d, out->dqdd_dtau);
    else rc = rbd_minv(m, w->dm, w->minv, x->q, out->dqdd_dtau);
    return rc;
}

static int shared_passes(fdc_ws *w, const rbd_state *x, rbd_derivs *out)
{
    const rbd_model *m = w->m;
    int rc = rbd_aba(m, w->d, x->q, x->v, x->tau, out->qdd);
    if (rc) return rc;
    rbd_idg_forward_cs(m, w->g, x->q, (const double (*)[2])w->d->cs, x->v, out->qdd);
    rbd_minv_analytic_after_aba(m, w->d, out->dqdd_dtau);
    inner_backward(w);
    return RBD_OK;
}

static int ground_passes(fdc_ws *w, const rbd_state *x, rbd_derivs *out)
{
    rbd_idg_forward(w->m, w->g, x->q, x->v, w->zero);
    int rc = rbd_fdg_solve(w->m, w->d, w->g, x->tau, out->qdd, out->dqdd_dtau);
    if (!rc) inner_backward(w);
    return rc;
}

/* ---------------------------------------------------------------- products */

static void dgemm_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    const int n = w->m->nv;
    const size_t nn = (size_t)n * (size_t)n;
    if (out->dqdd_dv == out->dqdd_dq + nn) {     /* one n x 2n product: G is [dID/dq dID/dqd] */
        rbd_dmm_blas_cols(n, 2 * n, Mi, w->G, out->dqdd_dq);
    } else {
        rbd_dmm_blas_cols(n, n, Mi, w->G, out->dqdd_dq);
        rbd_dmm_blas_cols(n, n, Mi, w->G + nn, out->dqdd_dv);
    }
}

static void loop_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    const size_t nn = (size_t)w->m->nv * (size_t)w->m->nv;
    rbd_dmm_loop(w->m->nv, Mi, w->G, out->dqdd_dq);
    rbd_dmm_loop(w->m->nv, Mi, w->G + nn, out->dqdd_dv);
}

static void sparse_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    const size_t nn = (size_t)w->m->nv * (size_t)w->m->nv;
    rbd_dmm_sparse(w->m, &w->rows, Mi, w->G, w->G + nn, out->dqdd_dq, out->dqdd_dv);
}

static void aza_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    (void)Mi;                                   /* a solve with ABA's factors in w->d instead */
    const size_t nn = (size_t)w->m->nv * (size_t)w->m->nv;
    rbd_aza_solve(w->m, w->d, w->aza, w->G, out->dqdd_dq);
    rbd_aza_solve(w->m, w->d, w->aza, w->G + nn, out->dqdd_dv);
}

static void factored_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    w->c->ground->tvecs(w->idws, w->tau, w->R);
    rbd_fdf_solve(w->m, w->fdf, Mi, w->g, w->R, out->dqdd_dq, out->dqdd_dv);
}

static void aza_tvecs_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    (void)Mi;
    w->c->ground->tvecs(w->idws, w->tau, w->R);
    rbd_aza_solve_tvecs(w->m, w->d, w->aza, w->g, w->R, out->dqdd_dq, out->dqdd_dv);
}

static void aza_forces_product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    (void)Mi;
    const int n = w->m->nv;
    const size_t nn = (size_t)n * (size_t)n;
    w->c->parent_dforces(w->idws, w->F, w->F + n);
    rbd_aza_solve_forces(w->m, w->d, w->aza, w->G, (const double (*)[6])w->F, out->dqdd_dq);
    rbd_aza_solve_forces(w->m, w->d, w->aza, w->G + nn, (const double (*)[6])(w->F + n), out->dqdd_dv);
}

static const fdc_product dgemm = { TAKES_DID, P_DGEMM }, loop = { TAKES_DID, P_LOOP },
                         sparse = { TAKES_DID, P_SPARSE }, aza = { TAKES_DID, P_AZA },
                         factored = { TAKES_TVECS, P_FACTORED }, aza_tvecs = { TAKES_TVECS, P_AZA_TVECS },
                         aza_forces = { TAKES_FORCES, P_AZA_FORCES };

static int passes(fdc_ws *w, const rbd_state *x, rbd_derivs *out)
{
    switch (w->pass) {
    case RBD_PASS_GROUND: return ground_passes(w, x, out);
    case RBD_PASS_SHARED: return shared_passes(w, x, out);
    default: return body_passes(w, x, out);
    }
}

static void product(fdc_ws *w, const double *Mi, rbd_derivs *out)
{
    switch (w->product->id) {
    case P_DGEMM: dgemm_product(w, Mi, out); break;
    case P_LOOP: loop_product(w, Mi, out); break;
    case P_SPARSE: sparse_product(w, Mi, out); break;
    case P_AZA: aza_product(w, Mi, out); break;
    case P_FACTORED: factored_product(w, Mi, out); break;
    case P_AZA_TVECS: aza_tvecs_product(w, Mi, out); break;
    case P_AZA_FORCES: aza_forces_product(w, Mi, out); break;
    }
}

int rbd_fdc_eval(void *p, const rbd_state *x, rbd_derivs *out)
{
    fdc_ws *w = p;
    if (!w || !x || !x->q || !x->v || !x->tau || !out || !out->qdd || !out->dqdd_dq || !out->dqdd_dv ||
        !out->dqdd_dtau)
        return rbd_fail(RBD_EINVAL, "%s: null workspace, state vector or output buffer",
                        w ? w->c->self->name : "fd-compose");
    int rc = passes(w, x, out);
    if (!rc) product(w, out->dqdd_dtau, out);
    return rc;
}

/* ---------------------------------------------------------------- init */

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
    free(w);            /* the workspace heads its arena (arena.h): G, tau, R, F, zero */
}

/* The product of kind k: AZA with forces on the t-vectors where the inner
 * method has them (IDSVA), else on its parent forces (RNEACR). */
static const fdc_product *product_of(rbd_combine k, const rbd_fd_compose *c)
{
    switch (k) {
    case RBD_COMBINE_DMM_BLAS: return &dgemm;
    case RBD_COMBINE_DMM_LOOP: return &loop;
    case RBD_COMBINE_DMM_SPARSE: return &sparse;
    case RBD_COMBINE_AZA: return &aza;
    case RBD_COMBINE_FACTORED: return &factored;
    case RBD_COMBINE_AZA_FORCES: return c->ground && c->ground->tvecs ? &aza_tvecs : &aza_forces;
    default: return NULL;
    }
}

/* The shared and ground passes make the analytic M^-1 (the other variants
 * are their own algorithms), and the ground pass leaves no body-frame IA,
 * U, D^-1 for AZA; plain AZA keeps the body passes. */
static rbd_fd_pass passes_of(const rbd_fd_compose *c, const rbd_options *o, rbd_combine k)
{
    if (o->minv != RBD_MINV_ANALYTIC || k == RBD_COMBINE_AZA) return RBD_PASS_SEPARATE;
    if (k == RBD_COMBINE_AZA_FORCES && c->pass == RBD_PASS_GROUND) return RBD_PASS_SEPARATE;
    return c->pass;
}

static void carve(fdc_ws *w, rbd_arena *a, const rbd_model *m, fdc_takes takes, rbd_fd_pass pass)
{
    const size_t nv = (size_t)m->nv;
    RBD_ARENA_TAKE(a, w->G, 2 * nv * nv);       /* zeroed: dID/du's structural zeros */
    RBD_ARENA_TAKE(a, w->tau, nv);
    if (takes == TAKES_FORCES) RBD_ARENA_TAKE(a, w->F, 2 * nv);
    if (takes == TAKES_TVECS) RBD_ARENA_TAKE(a, w->R, nv);
    if (pass == RBD_PASS_GROUND) RBD_ARENA_TAKE(a, w->zero, nv + 1);
}

/* The workspace's own pieces beside the arena: the inner method's (it may
 * leave dID/du's structural zeros: G is cleared once, here), ABA's scratch,
 * another M^-1's, AZA's, the factored product's, the sparse DMM's rows. */
static int open_parts(fdc_ws *w, const rbd_options *o, rbd_fd_pass pass)
{
    const rbd_model *m = w->m;
    rbd_options oid = *o;
    oid.zeros_preset = 1;
    int rc = w->c->id->init(m, &oid, &w->idws);
    if (rc) { w->idws = NULL; return rc; }
    if (pass != RBD_PASS_SEPARATE || w->product->takes == TAKES_TVECS) w->g = w->c->ground->idg(w->idws);
    const int aza_kind = w->combine == RBD_COMBINE_AZA || w->combine == RBD_COMBINE_AZA_FORCES;
    if (!(w->d = rbd_data_new(m)) || (w->minv != RBD_MINV_ANALYTIC && !(w->dm = rbd_data_new(m))) ||
        (aza_kind && !(w->aza = rbd_aza_new(m))) || (w->combine == RBD_COMBINE_FACTORED && !(w->fdf = rbd_fdf_new(m))))
        return RBD_ENOMEM;
    if (w->combine == RBD_COMBINE_DMM_SPARSE && !w->rows.off) return rbd_dmm_rows_init(m, &w->rows);
    return RBD_OK;
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
    rbd_combine k = c->combine;
    rbd_dmm_rows rows = { 0 };
    if (k == RBD_COMBINE_SWITCH) {
        if ((rc = rbd_dmm_rows_init(m, &rows))) return rc;
        k = rbd_fdsva_switch(m, o, &rows);
        if (k != RBD_COMBINE_DMM_SPARSE) rbd_dmm_rows_fini(&rows);
    }
    const fdc_product *product = product_of(k, c);
    if (product && product->takes == TAKES_TVECS && !(c->ground && c->ground->tvecs))
        rc = rbd_fail(RBD_EINVAL, "%s: the factored product needs the inner method's t-vectors", name);
    else if (product && product->takes == TAKES_FORCES && !c->parent_dforces)
        rc = rbd_fail(RBD_EINVAL, "%s: AZA with forces needs the inner method's t-vectors or forces", name);
    else if (!product)
        rc = rbd_fail(RBD_EINVAL, "%s: unknown product %d", name, (int)k);
    if (rc) { rbd_dmm_rows_fini(&rows); return rc; }
    const rbd_fd_pass pass = passes_of(c, o, k);
    rbd_arena a = { 0 };
    fdc_ws sizing, *w;
    carve(&sizing, &a, m, product->takes, pass);
    if (!(w = rbd_arena_reserve(&a, sizeof *w, name))) { rbd_dmm_rows_fini(&rows); return RBD_ENOMEM; }
    carve(w, &a, m, product->takes, pass);
    w->m = m;
    w->c = c;
    w->minv = o->minv;
    w->product = product;
    w->combine = k;
    w->rows = rows;
    w->pass = pass;
    if ((rc = open_parts(w, o, pass))) { rbd_fdc_fini(w); return rc; }
    *out = w;
    return RBD_OK;
}
