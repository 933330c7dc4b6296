/* `rbdiff anchors` against the stored figures, over one or more runs
 * (anchors_runs.h). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rbdiff/rbd.h"
#include "common/stats.h"
#include "report/anchors.h"
#include "report/anchors_runs.h"
#include "peers/peer.h"
#include "report/vs_peer.h"
#include "report/vs_versions.h"
#include "store/atomicio.h"

typedef struct {
    const anchor_set *s;
    const char *build, *source;
    const timing_row *rows;
    int n;
} md_ctx;

static int write_md(FILE *f, void *p)
{
    md_ctx *c = p;
    anchors_write_markdown(f, c->s, c->build, c->rows, c->n, c->source);
    return ferror(f) ? RBD_EIO : RBD_OK;
}

/* The rows of the first run, each figure (median, or min with use_min)
 * replaced by its median over the runs that have the same method and model. */
static int load_runs(char **paths, int nruns, int use_min, timing_row **out, int *nout)
{
    timing_row **rr = calloc((size_t)nruns, sizeof *rr);
    int *nn = calloc((size_t)nruns, sizeof *nn);
    double *x = malloc(sizeof(double) * 2 * ((size_t)nruns + 1));
    if (!rr || !nn || !x) { free(rr); free(nn); free(x); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = 0;
    for (int r = 0; r < nruns && !rc; r++) rc = timing_rows_load(paths[r], &rr[r], &nn[r]);
    for (int k = 0; !rc && k < nn[0]; k++) {
        timing_row *row = &rr[0][k];
        int m = 0;
        for (int r = 0; r < nruns; r++) {
            const timing_row *t = timing_rows_find(rr[r], nn[r], row->method, row->model);
            if (t) x[m++] = use_min ? t->min_ns : t->median_ns;
        }
        rbd_stats st;
        if (!stats_compute(x, m, x + nruns + 1, &st)) row->median_ns = st.median;
    }
    for (int r = 1; r < nruns; r++) free(rr[r]);
    if (rc) { free(rr[0]); rr[0] = NULL; }
    *out = rr[0];
    *nout = rc ? 0 : nn[0];
    free(rr); free(nn); free(x);
    return rc;
}

/* What the runs' meta.json files say about how they were measured, as
 * "CPU: ...; ID outputs: ..." into buf: the CPU model, and whether the ID
 * outputs were written in full (method_options.zeros_preset absent or
 * false: every entry) or left with their structural zeros preset. */
static const char *runs_meta(char **paths, int nruns, char *buf, size_t len)
{
    char cpu[256] = "";
    int preset[2] = { 0, 0 }, same_cpu = 1;
    for (int r = 0; r < nruns; r++) {
        char meta[4200];
        struct stat st;
        snprintf(meta, sizeof meta, "%s/meta.json", paths[r]);
        json_t *j = !stat(paths[r], &st) && S_ISDIR(st.st_mode) ? json_load_file(meta, 0, NULL) : NULL;
        const char *c = j ? json_string_value(json_object_get(j, "cpu_model")) : NULL;
        if (!c || (r > 0 && strcmp(c, cpu))) same_cpu = 0;
        else if (r == 0) snprintf(cpu, sizeof cpu, "%s", c);
        if (j) preset[json_is_true(json_object_get(json_object_get(j, "method_options"), "zeros_preset"))]++;
        json_decref(j);
    }
    const char *out = preset[0] + preset[1] < nruns || (preset[0] && preset[1])
                          ? "not the same in every run, or not recorded"
                      : preset[1] ? "cleared once and reused, the structural zeros left unwritten as Pinocchio "
                                    "leaves them (zeros_preset = yes)"
                                  : "every entry written on every call (zeros_preset = no)";
    snprintf(buf, len, "CPU: %s; ID outputs: %s", same_cpu ? cpu : "not the same in every run, or not recorded",
             out);
    return buf;
}

/* The builds the anchors hold, "a, b, c", into buf. */
static void builds_of(const anchor_set *s, char *buf, size_t len)
{
    buf[0] = 0;
    for (int k = 0; k < s->nrow; k++)
        if (!strstr(buf, s->rows[k].build) && strlen(buf) + strlen(s->rows[k].build) + 3 < len) {
            if (*buf) strcat(buf, ", ");
            strcat(buf, s->rows[k].build);
        }
}

/* Where our figures come from, for the table's header. */
static void source_of(const anchors_job *j, char *source, size_t size)
{
    const char *stat = j->use_min ? "min over the batches" : "median";
    int len;
    if (j->nruns == 1) len = snprintf(source, size, "%s (%s per call)", j->runs[0], stat);
    else {
        len = snprintf(source, size, "the median over %d runs (", j->nruns);
        for (int r = 0; r < j->nruns && len < (int)size; r++)
            len += snprintf(source + len, size - (size_t)len, "%s%s", r ? ", " : "", j->runs[r]);
        if (len < (int)size) len += snprintf(source + len, size - (size_t)len, ") of the %s per call", stat);
    }
    char meta[512];
    if (len < (int)size) snprintf(source + len, size - (size_t)len, "; %s", runs_meta(j->runs, j->nruns, meta, sizeof meta));
}

/* --out, else vs-pinocchio.md in the first run's directory (beside it when
 * it is a file). */
static void out_of(const anchors_job *j, char *out, size_t len)
{
    struct stat st;
    const char *res = j->runs[0], *slash = strrchr(res, '/');
    if (j->out) snprintf(out, len, "%s", j->out);
    else if (!stat(res, &st) && S_ISDIR(st.st_mode)) snprintf(out, len, "%s/vs-pinocchio.md", res);
    else if (slash) snprintf(out, len, "%.*s/vs-pinocchio.md", (int)(slash - res), res);
    else snprintf(out, len, "vs-pinocchio.md");
}

int anchors_fallback(const anchors_job *j, int *missed, int *bad_input)
{
    anchor_set s;
    *missed = 0;
    *bad_input = 1;
    int rc = anchors_load(j->dir, &s);
    if (rc) return rc;
    if (!anchors_has(&s, j->build, 0) && !anchors_has(&s, j->build, 1)) {
        char keys[512];
        builds_of(&s, keys, sizeof keys);
        anchors_free(&s);
        return rbd_fail(RBD_EINVAL, "--table: no build '%s' in %s/%s (there: %s)", j->build, j->dir,
                        ANCHORS_TIMINGS_CSV, keys);
    }
    timing_row *rows = NULL;
    int n = 0;
    rc = load_runs(j->runs, j->nruns, j->use_min, &rows, &n);
    if (rc) { anchors_free(&s); return rc; }
    *bad_input = 0;
    char source[4400], out[4096];
    source_of(j, source, sizeof source);
    *missed = anchors_write_markdown(stdout, &s, j->build, rows, n, source);
    if (!j->nowrite) {
        out_of(j, out, sizeof out);
        md_ctx c = { &s, j->build, source, rows, n };
        if (!(rc = atomic_write(out, write_md, &c))) fprintf(stderr, "rbdiff anchors: wrote %s\n", out);
    }
    free(rows);
    anchors_free(&s);
    return rc;
}

typedef struct {
    const char *dir;
    char (*peer)[32];       /* the versions of one peer timed, newest first */
    int np;
    const timing_row *rows;
    int n, missed;
} live_ctx;

/* A section per version (vs_peer_write), then the versions side by side. */
static int write_live(FILE *f, void *p)
{
    live_ctx *c = p;
    c->missed = 0;
    for (int v = 0; v < c->np; v++) {
        if (v) fputs("\n\n", f);
        int m = vs_peer_write(f, c->dir, c->peer[v], c->rows, c->n);
        if (m < 0) return m;
        c->missed += m;
    }
    vs_versions_write(f, c->rows, c->n, c->peer, c->np);
    return ferror(f) ? RBD_EIO : RBD_OK;
}

int anchors_live(const char *res, int nowrite, const char *outpath, int *pin, int *missed)
{
    struct stat st;
    timing_row *rows = NULL;
    int n = 0, rc = RBD_OK;
    *missed = 0;
    if (stat(res, &st) || !S_ISDIR(st.st_mode) || timing_rows_load(res, &rows, &n)) return 1;
    for (int k = 0; peer_known[k]; k++) {
        char ver[VS_MAXVER][32];
        int np = vs_versions_present(rows, n, peer_known[k], ver);
        if (!np) continue;
        int is_pin = !strcmp(peer_known[k], "pinocchio");
        *pin |= is_pin;
        char out[4200];
        if (outpath && is_pin) snprintf(out, sizeof out, "%s", outpath);
        else snprintf(out, sizeof out, "%s/vs-%s.md", res, peer_known[k]);
        live_ctx c = { res, ver, np, rows, n, 0 };
        rc = nowrite ? write_live(stdout, &c) : atomic_write(out, write_live, &c);
        if (rc) break;
        *missed += c.missed;
        if (!nowrite) fprintf(stderr, "rbdiff anchors: wrote %s (live %s, same rounds)\n", out, peer_known[k]);
    }
    free(rows);
    return rc;
}
