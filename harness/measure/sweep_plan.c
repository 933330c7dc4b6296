/* A sweep's cells, checked before anything is written (sweep.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "measure/sweep.h"
#include "plan/modelspec.h"

/* Every model spec must parse, and every model fit in memory: a method's
 * outputs are 4 dense nv x nv blocks, a base algorithm's one, and the
 * dynamics scratch two more; a second-order method's four nv^3 tensors
 * where one is timed (so_nv_max). */
static int check_models(const sweep_plan *p, int *bad_input)
{
    int any_method = 0;
    for (int i = 0; i < p->ntg; i++) any_method |= p->tg[i].method != NULL;
    for (int j = 0; j < p->nbm; j++) {
        rbd_model *m;
        int rc = model_from_spec(p->bm[j].spec, &m);
        if (rc) return rc;      /* the input is wrong: a spec, a URDF file, a model too large to build */
        double nn = (double)m->nv * m->nv;
        char what[600];
        snprintf(what, sizeof what, "timing on %s (nv = %d, %d dense nv x nv blocks)", p->bm[j].spec, m->nv,
                 any_method ? 6 : 3);
        rc = rbd_check_memory(what, 8.0 * nn * (any_method ? 6 : 3));
        p->bm[j].nv = m->nv;
        for (int i = 0; i < p->ntg && !rc; i++)
            if (bench_target_is_so(&p->tg[i]) && bench_target_fits(p->c, &p->tg[i], m->nv, 0)) {
                snprintf(what, sizeof what, "timing %s on %s", p->tg[i].name, p->bm[j].spec);
                rc = rbd_so_check_size(m, what, NULL);
                break;
            }
        rbd_model_free(m);
        if (rc) { *bad_input = 0; return rc; }
    }
    return RBD_OK;
}

int sweep_plan_make(const char *cmd, const sweep_config *c, shard_spec sh, sweep_plan *p, int *bad_input)
{
    memset(p, 0, sizeof *p);
    p->c = c;
    p->sh = sh;
    *bad_input = 1;
    int rc = bench_targets(c, &p->tg, &p->ntg);
    if (!rc) rc = bench_models(c, &p->bm, &p->nbm);
    if (rc) return rc;
    *bad_input = 0;         /* a peer named that is not there is refused as a failed run (harness/README.md) */
    rc = bench_peers_open(cmd, c, &p->peers, &p->npeers);
    if (!rc) rc = bench_add_peer_targets(&p->tg, &p->ntg, p->peers, p->npeers);
    if (rc) return rc;
    *bad_input = 1;
    rc = bench_check_robot_methods(c, p->peers, p->npeers, p->tg, p->ntg);
    return rc ? rc : check_models(p, bad_input);
}

void sweep_plan_free(sweep_plan *p)
{
    bench_peers_close(p->peers, p->npeers);
    free(p->tg);
    free(p->bm);
    memset(p, 0, sizeof *p);
}
