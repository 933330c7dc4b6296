/* crossover.csv and crossover_probes.csv of a results set (crossover_set.h). */
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
