/* The results set a sweep writes (sweep.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "measure/sweep.h"
#include "store/meta.h"
#include "store/pack.h"

int sweep_set_open(const char *cmd, sweep_set *s, const char *dir, const sweep_plan *p)
{
    memset(s, 0, sizeof *s);
    int rc = results_open_table(&s->timings, dir, TIMINGS_CSV, timings_cols, TIMINGS_NCOLS, TIMINGS_NKEY);
    /* samples.csv beside timings.csv: every batch of each row, for the rank
     * test of `compare`.  Appended after the row, so a kill in between
     * leaves a row without samples (compare then uses its quartiles);
     * batches already there (a rerun after such a kill) are kept.  A packed
     * set's (rbdiff pack) is unpacked first. */
    if (!rc) rc = samples_unpack(dir);
    if (!rc) rc = results_open_table(&s->samples, dir, SAMPLES_CSV, samples_cols, SAMPLES_NCOLS, SAMPLES_NKEY);
    if (!rc && p->npeers)
        rc = results_open_table(&s->peer_checks, dir, PEER_CHECKS_CSV, peer_checks_cols, PEER_CHECKS_NCOLS,
                                PEER_CHECKS_NKEY);
    if (!rc && s->timings.dropped_partial)
        fprintf(stderr, "rbdiff %s: %s:%d: dropped a truncated line (interrupted write); it is measured again\n", cmd,
                s->timings.path, s->timings.dropped_partial);
    return rc;
}

void sweep_set_close(sweep_set *s)
{
    csvlog_close(&s->timings);
    csvlog_close(&s->samples);
    csvlog_close(&s->peer_checks);
}

/* meta.json "peers": what was built, how, and what each function writes. */
static json_t *peers_meta(const rbd_peer *p, int n)
{
    json_t *o = json_object();
    for (int k = 0; o && k < n; k++) {
        json_t *fs = json_array();
        for (int f = 0; f < p[k].api->nfunc; f++) {
            const rbd_peer_func *pf = &p[k].api->func[f];
            json_array_append_new(fs, json_pack("{s:s, s:s, s:s, s:f}", "name", p[k].row[f], "ours", pf->ours,
                                                "writes", pf->writes, "tol", pf->tol));
        }
        json_object_set_new(o, p[k].name, json_pack("{s:s, s:s, s:s, s:o}", "version", p[k].api->version, "build",
                                                    p[k].api->build, "module", p[k].path, "functions", fs));
    }
    return o;
}

int sweep_set_meta(const char *dir, const sweep_plan *p, json_t *extra, int counters, const char *cmdline)
{
    json_object_set_new(extra, "hardware_counters", json_boolean(counters));
    /* how the batches were taken: all methods of a model in rounds (paired) */
    json_object_set_new(extra, "timing", json_string("rounds: one batch of every method of a model per round"));
    if (p->npeers) json_object_set_new(extra, "peers", peers_meta(p->peers, p->npeers));
    if (p->sh.n > 1) json_object_set_new(extra, "shard", json_sprintf("%d/%d", p->sh.k, p->sh.n));
    return meta_write(dir, cmdline, extra);
}
