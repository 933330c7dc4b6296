/*
 * fd-cs: the complex step on ABA (perturb.h; Squire & Trapp 1998) for q,
 * qd and tau; the tau columns are M^-1.  The complex ABA is aba_tpl.h
 * itself with T = double complex, the very source rbd_aba runs.
 */
#include <complex.h>
#include "derivatives/perturb/perturb.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/aba_tpl.h"

typedef struct {
    spz_xform *Xtree;               /* [nb] promoted model data */
    spz_inertia *Ib;
    spz_aba_ws s;                   /* ABA's scratch, in double complex */
} aba_z;

static void aba_z_carve(void *p, rbd_arena *ar, const rbd_model *m)
{
    aba_z *z = p;
    const size_t nb = (size_t)m->nb, nv = (size_t)m->nv;
    RBD_ARENA_TAKE(ar, z->Xtree, nb); RBD_ARENA_TAKE(ar, z->s.Xup, nb); RBD_ARENA_TAKE(ar, z->Ib, nb);
    RBD_ARENA_TAKE(ar, z->s.v, nb); RBD_ARENA_TAKE(ar, z->s.c, nb); RBD_ARENA_TAKE(ar, z->s.pA, nb);
    RBD_ARENA_TAKE(ar, z->s.a, nb); RBD_ARENA_TAKE(ar, z->s.IA, nb); RBD_ARENA_TAKE(ar, z->s.U, nv);
    RBD_ARENA_TAKE(ar, z->s.Dinv, 36 * nb); RBD_ARENA_TAKE(ar, z->s.u, nv);
    z->s.cs = NULL;                 /* no cos, sin cache: every X_J from q */
}

static int aba_z_setup(void *p, const rbd_model *m)
{
    aba_z *z = p;
    rbd_perturb_promote(m, z->Xtree, z->Ib);
    return RBD_OK;
}

static int aba_z_f(void *p, const rbd_model *m, const double complex *q, const double complex *qd,
                   const double complex *tau, double complex *qdd)
{
    aba_z *z = p;
    const int i = spz_aba(m, z->Xtree, z->Ib, &z->s, q, qd, tau, qdd);
    if (i >= 0)
        return rbd_fail(RBD_ESINGULAR, "fd-cs: joint '%s' (body '%s'): S^T IA S is singular at this configuration",
                        m->joint_name[i], m->body_name[i]);
    return RBD_OK;
}

extern const rbd_method rbd_method_fd_cs;

static const rbd_perturb_fn aba_cs = {
    .method = &rbd_method_fd_cs, .scheme = RBD_PERTURB_CS, .du = 1, .ctx_size = sizeof(aba_z),
    .carve = aba_z_carve, .setup = aba_z_setup, .fz = aba_z_f,
};

static int fd_cs_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    return rbd_perturb_init(&aba_cs, m, o, ws);
}

const rbd_method rbd_method_fd_cs = {
    .name = "fd-cs",
    .summary = "complex step on ABA (one source, T = double complex), tangent-space q, h = 1e-20; M^-1 = dqdd/dtau",
    .output = RBD_FD_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = fd_cs_init,
    .eval = rbd_perturb_eval,
    .fini = rbd_perturb_fini,
};
