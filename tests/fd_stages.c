/*
 * fd_stages: where the FD compositions (fd_compose.h: dqdd/du = -M^-1 dID/du
 * at qdd0 = ABA) lose accuracy, stage by stage, against the MPFR reference
 * (methods/README.md, "The FD compositions on ill-conditioned chains").
 *
 *   fd_stages [SPEC [STATES [SEED]]]
 *
 * At each of STATES random states (rbd_random_state from SEED, the audit's
 * draws: default autoTree N = 100, bf = 1, skew = pi/3, taper = 0.99, 3
 * states, seed 1) it forms dqdd/dq from factors that are either exact (the
 * 256-bit reference: M^-1 from ABA's tau columns, dID/dq at the given qdd
 * from RNEA's q columns), exact but rounded to double, or computed in double
 * by the library, multiplies them in 256-bit arithmetic (so the product
 * adds no error), and scores the result against the exact dqdd/dq with the
 * audit's metrics (rms_rel over |R_ij| > 1e-12 max|R|, normwise).  One line
 * per combination: the worst over the states.  dqdd/dq only: dqdd/dqd is
 * the same product with dID/dqd.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "rbdiff/dynamics.h"
#include "derivatives/fd/fd_compose.h"
#include "derivatives/id/id_ground.h"
#include "rbdiff/method.h"
#include "plan/modelspec.h"
#include "rbdref.h"

enum { PREC = 256, NLINE = 40 };

static int nv;
static size_t nn;
static const char *line_name[NLINE];
static double worst[NLINE][2];
static int nline;

/* Scores P (nv x nv, 256 bits) against R; worst kept under the line's name. */
static void score(const char *what, mpfr_srcptr P, mpfr_srcptr R)
{
    double mx = 0, se = 0, sr = 0, srel = 0;
    size_t nrel = 0;
    for (size_t k = 0; k < nn; k++) mx = fmax(mx, fabs(mpfr_get_d(R + k, MPFR_RNDN)));
    mpfr_t e;
    mpfr_init2(e, PREC);
    for (size_t k = 0; k < nn; k++) {
        mpfr_sub(e, P + k, R + k, MPFR_RNDN);
        double ed = mpfr_get_d(e, MPFR_RNDN), r = mpfr_get_d(R + k, MPFR_RNDN);
        se += ed * ed;
        sr += r * r;
        if (fabs(r) > 1e-12 * mx) { srel += (ed / r) * (ed / r); nrel++; }
    }
    mpfr_clear(e);
    int l = 0;
    while (l < nline && strcmp(line_name[l], what)) l++;
    if (l == nline && nline == NLINE) { fputs("fd_stages: too many lines\n", stderr); exit(1); }
    if (l == nline) { line_name[nline++] = what; worst[l][0] = worst[l][1] = 0; }
    worst[l][0] = fmax(worst[l][0], nrel ? sqrt(srel / (double)nrel) : 0);
    worst[l][1] = fmax(worst[l][1], sr > 0 ? sqrt(se / sr) : 0);
}

static mpfr_ptr mp_new(void)
{
    mpfr_ptr p = malloc(nn * sizeof *p);
    if (!p) { fputs("fd_stages: out of memory\n", stderr); exit(1); }
    for (size_t k = 0; k < nn; k++) mpfr_init2(p + k, PREC);
    return p;
}

static void mp_free(mpfr_ptr p)
{
    for (size_t k = 0; k < nn; k++) mpfr_clear(p + k);
    free(p);
}

static void from_d(mpfr_ptr p, const double *x)
{
    for (size_t k = 0; k < nn; k++) mpfr_set_d(p + k, x[k], MPFR_RNDN);
}

/* p = x rounded to double; rows above the diagonal only (sel 1), on and
 * below it only (sel 2), or all (sel 0).  On a chain, rows above the
 * diagonal of dID/dq are S_k^T t3_c (k an ancestor of c), the others the
 * subtree terms (fd_factored.c). */
static void rounded(mpfr_ptr p, mpfr_srcptr x, int sel)
{
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nv; i++) {
            size_t k = (size_t)i + (size_t)nv * (size_t)j;
            if (!sel || (sel == 1) == (i < j)) mpfr_set_d(p + k, mpfr_get_d(x + k, MPFR_RNDN), MPFR_RNDN);
            else mpfr_set(p + k, x + k, MPFR_RNDN);
        }
}

/* P = -A B, exactly enough (256 bits). */
static void neg_product(mpfr_ptr P, mpfr_srcptr A, mpfr_srcptr B)
{
    mpfr_t t;
    mpfr_init2(t, PREC);
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nv; i++) {
            mpfr_ptr p = P + i + (size_t)nv * j;
            mpfr_set_zero(p, 1);
            for (int k = 0; k < nv; k++) {
                mpfr_mul(t, A + i + (size_t)nv * k, B + k + (size_t)nv * j, MPFR_RNDN);
                mpfr_sub(p, p, t, MPFR_RNDN);
            }
        }
    mpfr_clear(t);
}

_Noreturn static void die(const char *what)
{
    fprintf(stderr, "fd_stages: %s: %s\n", what, rbd_last_error());
    exit(1);
}

/* out = the output of a registered method at x. */
static void run_method(const char *name, const rbd_model *m, const rbd_state *x, rbd_derivs *out)
{
    const rbd_method *me = rbd_method_find(name);
    void *ws = NULL;
    if (!me || me->init(m, NULL, &ws)) die(name);
    if (me->eval(ws, x, out)) die(name);
    me->fini(ws);
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "autotree:N=100,bf=1,skew=1.0471975511965976,taper=0.98999999999999999";
    int S = argc > 2 ? atoi(argv[2]) : 3;
    unsigned long long seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    rbd_model *m;
    if (S < 1 || model_from_spec(spec, &m)) {
        fprintf(stderr, "usage: fd_stages [SPEC [STATES [SEED]]]%s%s\n", S < 1 ? "" : ": ", S < 1 ? "" : rbd_last_error());
        return 2;
    }
    nv = m->nv;
    nn = (size_t)nv * (size_t)nv;
    size_t nq = (size_t)m->nq, v1 = (size_t)nv;
    double *q = malloc(8 * nq), *v = malloc(8 * v1), *a = malloc(8 * v1), *tau = malloc(8 * v1),
           *qdd0 = malloc(8 * v1), *qa = malloc(8 * v1), *t1 = malloc(8 * v1), *Mi = malloc(8 * nn),
           *G = malloc(16 * nn), *X = malloc(16 * nn), *Gr = malloc(8 * nn), *LD = malloc(8 * nn),
           *o2 = malloc(8 * nn), *o3 = malloc(8 * nn), *o4 = malloc(8 * nn);
    rbd_data *d = rbd_data_new(m);
    rbd_aza *z = rbd_aza_new(m);
    if (!q || !v || !a || !tau || !qdd0 || !qa || !t1 || !Mi || !G || !X || !Gr || !LD || !o2 || !o3 || !o4 || !d || !z)
        die("allocation");
    mpfr_ptr P = mp_new(), A = mp_new(), B = mp_new();
    rbdref_opts o;
    rbdref_opts_default(&o);
    rbd_rng r;
    rbd_rng_seed(&r, seed);
    fprintf(stderr, "fd_stages: %s, %d states, seed %llu\n", spec, S, seed);
    for (int s = 0; s < S; s++) {
        rbd_random_state(m, &r, q, v, a, tau);
        rbdref_mp F, I0, Ia;     /* FD at tau; ID at a = qdd0 and at a = fl(exact qdd) */
        if (rbdref_mp_init(&F, nv, PREC) || rbdref_mp_init(&I0, nv, PREC) || rbdref_mp_init(&Ia, nv, PREC))
            die("reference");
        if (rbdref_eval_mp(m, q, v, NULL, tau, &o, &F)) die("reference");
        if (rbd_aba(m, d, q, v, tau, qdd0)) die("aba");
        for (int k = 0; k < nv; k++) qa[k] = mpfr_get_d(F.qdd + k, MPFR_RNDN);
        if (rbdref_eval_mp(m, q, v, qdd0, NULL, &o, &I0) || rbdref_eval_mp(m, q, v, qa, NULL, &o, &Ia))
            die("reference");
        mpfr_srcptr Xr = F.dqdd_dq, Mx = F.Minv, G0 = I0.dtau_dq;
        /* the composition as shipped, and its two factors */
        const rbd_state xf = { q, v, NULL, tau }, xi = { q, v, qdd0, NULL };
        rbd_derivs df = { .qdd = t1, .dqdd_dq = o2, .dqdd_dv = o3, .dqdd_dtau = o4 };
        run_method("fdsva", m, &xf, &df);
        from_d(P, o2); score("fdsva as shipped", P, Xr);
        rbd_derivs di = { .tau = t1, .dtau_dq = G, .dtau_dv = G + nn };
        run_method("idsva", m, &xi, &di);
        if (rbd_minv(m, d, RBD_MINV_ANALYTIC, q, Mi)) die("minv");
        from_d(P, Mi); score("  factor: analytic M^-1 vs exact M^-1", P, Mx);
        from_d(P, G); score("  factor: idsva dID/dq(qdd0) vs exact", P, G0);
        /* exact products of exact, rounded and computed factors */
        neg_product(P, Mx, Ia.dtau_dq); score("exact M^-1 x exact dID/dq(fl(qdd))", P, Xr);
        neg_product(P, Mx, G0); score("exact M^-1 x exact dID/dq(qdd0)", P, Xr);
        rounded(A, G0, 0); neg_product(P, Mx, A); score("exact M^-1 x fl(exact dID/dq)", P, Xr);
        rounded(A, G0, 1); neg_product(P, Mx, A); score("  ... ancestor rows (S_k^T t3_c) rounded", P, Xr);
        rounded(A, G0, 2); neg_product(P, Mx, A); score("  ... subtree rows rounded", P, Xr);
        rounded(B, Mx, 0); neg_product(P, B, G0); score("fl(exact M^-1) x exact dID/dq", P, Xr);
        from_d(B, Mi); neg_product(P, B, G0); score("analytic M^-1 x exact dID/dq", P, Xr);
        from_d(A, G); neg_product(P, Mx, A); score("exact M^-1 x idsva dID/dq", P, Xr);
        from_d(B, Mi); neg_product(P, B, A); score("analytic M^-1 x idsva dID/dq (exact product)", P, Xr);
        /* solves in double with ABA's factors (AZA) or CRBA + LTDL */
        if (rbd_aba(m, d, q, v, tau, qdd0)) die("aba");
        for (size_t k = 0; k < nn; k++) Gr[k] = mpfr_get_d(G0 + k, MPFR_RNDN);
        rbd_aza_solve(m, d, z, Gr, X); from_d(P, X); score("AZA solve of fl(exact dID/dq)", P, Xr);
        rbd_aza_solve(m, d, z, G, X); from_d(P, X); score("AZA solve of idsva dID/dq", P, Xr);
        if (rbd_crba(m, d, q, LD) || rbd_ltdl(m, LD)) die("ltdl");
        for (size_t k = 0; k < nn; k++) X[k] = -G[k];
        for (int j = 0; j < nv; j++) rbd_ltdl_solve(m, LD, X + (size_t)nv * j);
        from_d(P, X); score("LTDL solve of idsva dID/dq", P, Xr);
        static const char *const idm[] = { "rneacr", "idsva-body", "id-cs" };
        static const char *const lab[] = { "AZA solve of rneacr dID/dq", "AZA solve of idsva-body dID/dq",
                                           "AZA solve of id-cs dID/dq" };
        if (rbd_aba(m, d, q, v, tau, qdd0)) die("aba");
        for (int k = 0; k < 3; k++) {
            run_method(idm[k], m, &xi, &di);
            rbd_aza_solve(m, d, z, G, X); from_d(P, X); score(lab[k], P, Xr);
        }
        {   /* rneacr's ancestor rows as forces on the parent (rbd_aza_solve_forces) */
            const rbd_method *cr = rbd_method_find("rneacr");
            void *ws = NULL;
            double (*Fq)[6] = malloc(sizeof *Fq * v1), (*Fv)[6] = malloc(sizeof *Fv * v1);
            if (!cr || !Fq || !Fv || cr->init(m, NULL, &ws) || cr->eval(ws, &xi, &di)) die("rneacr");
            rbd_rneacr_parent_dforces(ws, Fq, Fv);
            cr->fini(ws);
            rbd_aza_solve_forces(m, d, z, G, (const double (*)[6])Fq, X);
            from_d(P, X); score("AZA solve, rneacr's ancestor rows as forces", P, Xr);
            rbd_aza_solve_forces(m, d, z, G + nn, (const double (*)[6])Fv, X);
            from_d(P, X); score("dqdd/dqd: AZA solve, rneacr's rows as forces", P, F.dqdd_dv);
            free(Fq); free(Fv);
        }
        {   /* idsva's t3 (dID/dq) and t2 (dID/dqd), ground frame, as forces: X0_p^* t */
            const rbd_method *id = rbd_method_find("idsva");
            void *ws = NULL;
            rbd_idg_tv *R = malloc(sizeof *R * v1);
            double (*Fq)[6] = malloc(sizeof *Fq * v1);
            if (!id || !R || !Fq || id->init(m, NULL, &ws) || id->eval(ws, &xi, &di)) die("idsva");
            rbd_idg *g = rbd_idsva_backend.idg(ws);
            rbd_idg_forward(m, g, q, v, qdd0);
            rbd_idsva_backend.tvecs(ws, t1, R);
            for (int c = 0; c < nv; c++) {
                const int p = m->parent[m->dof_body[c]];
                if (p >= 0) sp_xform_force(&g->X0[p], R[c].t3, Fq[c]);
            }
            id->fini(ws);
            rbd_aza_solve_forces(m, d, z, G, (const double (*)[6])Fq, X);
            from_d(P, X); score("AZA solve, idsva's t3 as forces", P, Xr);
            {
                const rbd_method *cr = rbd_method_find("rneacr");
                double (*Fr)[6] = malloc(sizeof *Fr * v1), (*Fv)[6] = malloc(sizeof *Fv * v1);
                double *Gi = malloc(8 * nn);
                memcpy(Gi, G, 8 * nn);
                if (cr->init(m, NULL, &ws) || cr->eval(ws, &xi, &di)) die("rneacr");
                rbd_rneacr_parent_dforces(ws, Fr, Fv);
                cr->fini(ws);
                rbd_aza_solve_forces(m, d, z, G, (const double (*)[6])Fq, X);
                from_d(P, X); score("  ... rneacr's subtree rows, idsva's t3", P, Xr);
                rbd_aza_solve_forces(m, d, z, Gi, (const double (*)[6])Fr, X);
                from_d(P, X); score("  ... idsva's subtree rows, rneacr's forces", P, Xr);
                free(Fr); free(Fv); free(Gi);
            }
            free(R); free(Fq);
        }
        static const char *const fdm[] = { "fdsva-aza", "fdsva-forces", "fdcr-forces", "fd-cs", "abacr" };
        for (int k = 0; k < 5; k++) {
            run_method(fdm[k], m, &xf, &df);
            from_d(P, o2); score(fdm[k], P, Xr);
        }
        static const char *const fdv[] = { "dqdd/dqd: fdsva", "dqdd/dqd: fdsva-forces", "dqdd/dqd: fdcr-forces",
                                           "dqdd/dqd: fd-cs" };
        for (int k = 0; k < 4; k++) {
            run_method(fdv[k] + 10, m, &xf, &df);
            from_d(P, o3); score(fdv[k], P, F.dqdd_dv);
        }
        rbdref_mp_clear(&F); rbdref_mp_clear(&I0); rbdref_mp_clear(&Ia);
    }
    printf("| dqdd/dq from | rms_rel | normwise |\n|---|---:|---:|\n");
    for (int l = 0; l < nline; l++) printf("| %s | %.2g | %.2g |\n", line_name[l], worst[l][0], worst[l][1]);
    mp_free(P); mp_free(A); mp_free(B);
    rbd_aza_free(z);
    rbd_data_free(d);
    rbd_model_free(m);
    free(q); free(v); free(a); free(tau); free(qdd0); free(qa); free(t1); free(Mi); free(G); free(X); free(Gr);
    free(LD); free(o2); free(o3); free(o4);
    return 0;
}
