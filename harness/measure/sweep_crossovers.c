/* The sweep's crossover searches (sweep.h): each configured pair A B at
 * each bf, the cells after the timings for the shards. */
#include <stdio.h>
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
    for (int k = 0; !rc && k < c->nxo && !*stop; k++) {
        const rbd_method *A = rbd_method_find(c->xo_a[k]), *B = rbd_method_find(c->xo_b[k]);
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
