/* crossover.csv and crossover_probes.csv of a results set (crossover_set.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "measure/crossover_set.h"

void xo_opts_from_config(xo_opts *xo, const sweep_config *c)
{
    xo_opts_default(xo);
    xo->lo = c->xo_lo;
    xo->hi = c->xo_hi;
}

int xo_set_open(xo_set *s, const char *dir)
{
    memset(s, 0, sizeof *s);
    if (!(s->pr = malloc(sizeof *s->pr))) return rbd_fail(RBD_ENOMEM, "out of memory");
    if (!dir) return RBD_OK;
    int rc = results_open_table(&s->rows, dir, CROSSOVER_CSV, crossover_cols, CROSSOVER_NCOLS, CROSSOVER_NKEY);
    if (!rc)
        rc = results_open_table(&s->probes, dir, CROSSOVER_PROBES_CSV, crossover_probes_cols, CROSSOVER_PROBES_NCOLS,
                                CROSSOVER_PROBES_NKEY);
    s->open = 1;
    return rc;
}

void xo_set_close(xo_set *s)
{
    if (s->open) {
        csvlog_close(&s->probes);
        csvlog_close(&s->rows);
    }
    free(s->pr);
    memset(s, 0, sizeof *s);
}

int xo_set_has(const xo_set *s, const char *A, const char *B, double bf, const xo_opts *xo, crossover_row *row)
{
    xo_result r;
    memset(&r, 0, sizeof r);
    crossover_row_make(A, B, bf, xo, &r, row);
    return s->open && csvlog_find_row(&s->rows, row) >= 0;
}

int xo_set_search(xo_set *s, const rbd_method *A, const rbd_method *B, double bf, const sweep_config *c,
                  const xo_opts *xo, volatile sig_atomic_t *stop, xo_result *r, crossover_row *row)
{
    memset(r, 0, sizeof *r);
    int rc = crossover_run(A, B, bf, c, xo, stop, r, s->pr);
    if (!rc) crossover_row_make(A->name, B->name, bf, xo, r, row);
    return rc;
}

int xo_set_append(xo_set *s, const crossover_row *row)
{
    if (!s->open) return RBD_OK;
    int rc = csvlog_append_row(&s->rows, row);
    return rc ? rc : crossover_log_probes(&s->probes, row->A, row->B, row->bf, s->pr);
}

int xo_set_search_all(xo_set *set, const rbd_method *A, const rbd_method *B, const sweep_config *c,
                      const xo_opts *xo, volatile sig_atomic_t *stop, FILE *out)
{
    const rbd_method *m[2] = { A, B };
    fprintf(out, "%-12s %-12s %5s %9s %8s %-14s %6s %6s %10s\n", "A", "B", "bf", "N_cross", "bracket", "status", "probes",
           "reps", "confidence");
    for (int b = 0; b < c->nbf && !*stop; b++) {
        crossover_row row;
        xo_result r;
        if (xo_set_has(set, m[0]->name, m[1]->name, c->bf[b], xo, &row)) {
            fprintf(stderr, "rbdiff crossover: %s vs %s at bf = %g already in %s; skipped\n", m[0]->name, m[1]->name,
                    c->bf[b], set->rows.path);
            continue;
        }
        int rc = xo_set_search(set, m[0], m[1], c->bf[b], c, xo, stop, &r, &row);
        if (rc) return rc;
        char ncross[32] = "-";
        if (isfinite(row.N_cross)) snprintf(ncross, sizeof ncross, "%.0f", row.N_cross);
        fprintf(out, "%-12s %-12s %5g %9s %4d:%-3d %-14s %6d %6d %10.4f\n", m[0]->name, m[1]->name, c->bf[b], ncross, r.lo,
               r.hi, row.status, r.probes, r.reps, r.confidence);
        fflush(out);
        if ((rc = xo_set_append(set, &row))) return rc;
    }
    return *stop ? 1 : RBD_OK;
}
