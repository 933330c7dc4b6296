/* The sweep's crossover searches (sweep.h): each configured pair A B at
 * each bf, the cells after the timings for the shards.  A pair with a
 * second-order method searches up to so_nv_max only (N = nv on autoTree),
 * where the sweep times those methods: their four nv^3 tensors make the
 * range of the first-order searches (to 300, 500) hours and gigabytes. */
#include <stdio.h>
#include "rbdiff/method.h"
#include "rbdiff/rbd.h"
#include "measure/crossover_set.h"
#include "measure/sweep.h"

int sweep_crossovers(const sweep_plan *p, const char *dir, volatile sig_atomic_t *stop)
{
    const sweep_config *c = p->c;
    xo_set set;
    xo_opts xo;
    xo_opts_from_config(&xo, c);
    int rc = xo_set_open(&set, dir);
    long cell0 = (long)p->ntg * p->nbm;
    const int hi0 = xo.hi;
    for (int k = 0; !rc && k < c->nxo && !*stop; k++) {
        const rbd_method *A = rbd_method_find(c->xo_a[k]), *B = rbd_method_find(c->xo_b[k]);
        int so = rbd_output_order(A->output) == 2 || rbd_output_order(B->output) == 2;
        xo.hi = so && c->so_nv_max > 0 && c->so_nv_max < hi0 ? c->so_nv_max : hi0;
        if (xo.hi <= xo.lo) continue;
        for (int b = 0; !rc && b < c->nbf && !*stop; b++) {
            crossover_row row;
            xo_result r;
            if (xo_set_has(&set, A->name, B->name, c->bf[b], &xo, &row) ||
                !shard_owns(&p->sh, cell0 + (long)k * c->nbf + b))
                continue;
            fprintf(stderr, "crossover %s vs %s, bf = %g ...\n", A->name, B->name, c->bf[b]);
            rc = xo_set_search(&set, A, B, c->bf[b], c, &xo, stop, &r, &row);
            if (rc == 1) { rc = RBD_OK; break; }
            if (!rc) rc = xo_set_append(&set, &row);
        }
    }
    xo_set_close(&set);
    return rc;
}
