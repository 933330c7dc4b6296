/* results_set.h: a results directory read once into typed rows. */
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "store/results_set.h"

int results_table_read(const char *dir, const char *file, void **rows, int *n, int *present)
{
    *rows = NULL;
    *n = 0;
    *present = 0;
    const results_table *t = results_tables;
    while (t->file && strcmp(t->file, file)) t++;
    if (!t->file) return rbd_fail(RBD_EINVAL, "%s: not a table of a results directory", file);
    char *p = results_path(dir, file);
    if (!p) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    if (csvlog_exists(p)) {
        csvlog log;
        *present = 1;
        rc = csvlog_read(&log, p, t->cols, t->ncols, t->nkey);
        if (!rc && !(rc = csvlog_rows(&log, t->row_size, rows))) *n = log.nrows;
        csvlog_close(&log);
    }
    free(p);
    return rc;
}

/* the typed tables other than timings.csv, and where each goes */
static int read_tables(results_set *s)
{
    struct {
        const char *file;
        void **rows;
        int *n;
        unsigned bit;
    } t[] = {
        { CROSSOVER_CSV, (void **)&s->crossovers, &s->ncrossovers, RESULTS_HAVE_CROSSOVER },
        { CROSSOVER_PROBES_CSV, (void **)&s->probes, &s->nprobes, RESULTS_HAVE_PROBES },
        { ACCURACY_CSV, (void **)&s->accuracy, &s->naccuracy, RESULTS_HAVE_ACCURACY },
        { CONDITIONING_CSV, (void **)&s->conditioning, &s->nconditioning, RESULTS_HAVE_CONDITIONING },
        { PEER_CHECKS_CSV, (void **)&s->peer_checks, &s->npeer_checks, RESULTS_HAVE_PEER_CHECKS },
    };
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        int present, rc = results_table_read(s->dir, t[k].file, t[k].rows, t[k].n, &present);
        if (rc) return rc;
        if (present) s->present |= t[k].bit;
    }
    return RBD_OK;
}

int results_open(const char *dir, results_set *s)
{
    memset(s, 0, sizeof *s);
    if (!(s->dir = strdup(dir))) return rbd_fail(RBD_ENOMEM, "out of memory");
    char *p = results_path(dir, TIMINGS_CSV);
    if (!p) { results_close(s); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = RBD_OK;
    if (csvlog_exists(p)) {
        s->present |= RESULTS_HAVE_TIMINGS;
        rc = timing_rows_load(dir, &s->timings, &s->ntimings);
    }
    free(p);
    if (!rc) rc = read_tables(s);
    if (!rc && (p = results_path(dir, "meta.json"))) {
        s->meta = json_load_file(p, 0, NULL);
        free(p);
    }
    if (rc) results_close(s);
    return rc;
}

void results_close(results_set *s)
{
    free(s->dir);
    free(s->timings);
    free(s->crossovers);
    free(s->probes);
    free(s->accuracy);
    free(s->conditioning);
    free(s->peer_checks);
    json_decref(s->meta);
    memset(s, 0, sizeof *s);
}
