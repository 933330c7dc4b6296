/*
 * id-cs: the complex step on RNEA (perturb.h; Squire & Trapp 1998).  The
 * complex RNEA is rnea_tpl.h itself instantiated for T = double complex,
 * the very source rbd_rnea runs.  tau depends on a only through M(q) a, and
 * dtau/da = M is not an output, so a is not perturbed.
 */
#include <complex.h>
#include "derivatives/perturb/perturb.h"
#include "rbdiff/dynamics.h"
#include "model/joint.h"

#define T double complex
#define SP(name) spz_##name
#define SPT(name) spz_##name
#include "dynamics/rnea_tpl.h"

typedef struct {
    spz_xform *Xtree, *Xup;         /* [nb] promoted model data and scratch */
    spz_inertia *Ib;
    double complex (*v)[6], (*a)[6], (*f)[6];
} rnea_z;

static void rnea_z_carve(void *p, rbd_arena *ar, const rbd_model *m)
{
    rnea_z *z = p;
    RBD_ARENA_TAKE(ar, z->Xtree, m->nb); RBD_ARENA_TAKE(ar, z->Xup, m->nb); RBD_ARENA_TAKE(ar, z->Ib, m->nb);
    RBD_ARENA_TAKE(ar, z->v, m->nb); RBD_ARENA_TAKE(ar, z->a, m->nb); RBD_ARENA_TAKE(ar, z->f, m->nb);
}

static int rnea_z_setup(void *p, const rbd_model *m)
{
    rnea_z *z = p;
    rbd_perturb_promote(m, z->Xtree, z->Ib);
    return RBD_OK;
}

static int rnea_z_f(void *p, const rbd_model *m, const double complex *q, const double complex *qd,
                    const double complex *qdd, double complex *tau)
{
    rnea_z *z = p;
    spz_rnea(m, z->Xtree, z->Ib, z->Xup, z->v, z->a, z->f, q, qd, qdd, tau);
    return RBD_OK;
}

extern const rbd_method rbd_method_id_cs;

static const rbd_perturb_fn rnea_cs = {
    .method = &rbd_method_id_cs, .scheme = RBD_PERTURB_CS, .du = 0, .ctx_size = sizeof(rnea_z),
    .carve = rnea_z_carve, .setup = rnea_z_setup, .fz = rnea_z_f,
};

static int id_cs_init(const rbd_model *m, const rbd_options *o, void **ws)
{
    return rbd_perturb_init(&rnea_cs, m, o, ws);
}

const rbd_method rbd_method_id_cs = {
    .name = "id-cs",
    .summary = "complex step on RNEA (one source, T = double complex), tangent-space q, h = 1e-20",
    .output = RBD_ID_DERIVS,
    .joints = RBD_JOINTS_ALL,
    .init = id_cs_init,
    .eval = rbd_perturb_eval,
    .fini = rbd_perturb_fini,
};
