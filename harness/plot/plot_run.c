/* plot's inputs checked and every figure drawn (plot_run.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "rbdiff/rbd.h"
#include "plot/plot.h"
#include "plot/plot_run.h"
#include "store/atomicio.h"
#include "store/results.h"

/* "gcc-12.2.0" from meta.json's "GNU 12.2.0" ("clang-14.0.6" from "Clang
 * ..."); "build" when there is none. */
static void build_label(const char *dir, char *out, size_t len)
{
    char *path = results_path(dir, "meta.json");
    json_t *meta = path ? json_load_file(path, 0, NULL) : NULL;
    free(path);
    const char *cc = json_string_value(json_object_get(meta, "compiler"));
    char id[32] = "", ver[32] = "";
    if (!cc || sscanf(cc, "%31s %31s", id, ver) < 1) snprintf(out, len, "build");
    else snprintf(out, len, "%s%s%s", !strcmp(id, "GNU") ? "gcc" : !strcmp(id, "Clang") ? "clang" : id,
                  *ver ? "-" : "", ver);
    for (char *p = out; *p; p++)
        if (*p == ' ' || *p == '\'') *p = '_';
    json_decref(meta);
}

/* The scripts are an input: every one the figures use must be there
 * before a data file is written (a missing GPDIR wrote plots/data first). */
int plot_check_scripts(const char *gpdir)
{
    static const char *const scripts[] = { "time_vs_n.gp", "speedup_vs_n.gp", "crossover_marks.gp", "fig5.gp",
                                           "panels.gp", "table3.gp" };
    if (strchr(gpdir, '\''))
        return rbd_fail(RBD_EINVAL, "'%s': a path with a single quote cannot go to gnuplot", gpdir);
    for (size_t k = 0; k < sizeof scripts / sizeof *scripts; k++) {
        char gp[4400];
        snprintf(gp, sizeof gp, "%s/%s", gpdir, scripts[k]);
        if (access(gp, R_OK) != 0)
            return rbd_fail(RBD_EINVAL, "--scripts %s: %s: %s (GPDIR holds the gnuplot scripts of plots/)",
                             gpdir, gp, strerror(errno));
    }
    return RBD_OK;
}


int plot_check_dir(const char *dir, int *has_timings, int *bad_input)
{
    *bad_input = 1;
    struct stat sb;
    if (stat(dir, &sb)) return rbd_fail(RBD_EINVAL, "results directory '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode)) return rbd_fail(RBD_EINVAL, "'%s' is not a directory (plot reads a results directory)", dir);
    char *tpath = results_path(dir, TIMINGS_CSV), *apath = results_path(dir, ACCURACY_CSV);
    int have_acc = apath && access(apath, F_OK) == 0, status = RBD_OK;
    if (have_acc) {   /* a malformed accuracy.csv refused before any figure is drawn */
        csvlog t;
        int arc = csvlog_read(&t, apath, accuracy_cols, ACCURACY_NCOLS, ACCURACY_NKEY);
        csvlog_close(&t);
        if (arc) status = arc;
    }
    if (!status && !tpath) *bad_input = 0, status = rbd_fail(RBD_ENOMEM, "out of memory");
    if (!status && access(tpath, F_OK) && !have_acc)
        status = rbd_fail(RBD_EINVAL, "'%s' holds neither %s nor %s: not a results directory", dir,
                           TIMINGS_CSV, ACCURACY_CSV);
    *has_timings = !status && access(tpath, R_OK) == 0;
    if (!status && !*has_timings) printf("plot: no %s; only accuracy can be plotted\n", tpath);
    free(apath);
    free(tpath);
    return status;
}

/* What every figure reads: the rows' bf, the builds' labels, Fig. 7's
 * crossovers and probes, the N axis. */
static int set_up(plot_env *e, const char *dir, const char *with)
{
    for (int i = 0; i < e->nrows; i++) {
        if (!isfinite(e->rows[i].bf)) continue;
        int j = 0;
        while (j < e->nbf && e->bfs[j] != e->rows[i].bf) j++;
        if (j == e->nbf && e->nbf < 16) e->bfs[e->nbf++] = e->rows[i].bf;
    }
    qsort(e->bfs, (size_t)e->nbf, sizeof e->bfs[0], plot_cmp_double);
    build_label(dir, e->label, sizeof e->label);
    if (with) {
        build_label(with, e->wlabel, sizeof e->wlabel);
        if (!strcmp(e->wlabel, e->label)) snprintf(e->wlabel + strlen(e->wlabel), sizeof e->wlabel - strlen(e->wlabel), "(2)");
    }
    plot_load_crossovers(e, dir, "fdsva-aza", "fdsva-dmm");
    int rc = plot_load_probes(e, dir, "fdsva-aza", "fdsva-dmm", "");
    if (rc) return rc;
    for (int i = 0; i < e->nrows && e->xmax > 0; i++)     /* the marks widen the axis, never cut the data */
        if (isfinite(e->rows[i].bf) && 1.1 * e->rows[i].N > e->xmax) e->xmax = 1.1 * e->rows[i].N;
    return 0;
}

/* The set's colours: every method of both builds' timings (accuracy's own
 * names join as its figures meet them). */
static int palette_of(plot_palette *p, const timing_row *rows, int n, const timing_row *wrows, int nw)
{
    const char **names = malloc(sizeof *names * ((size_t)n + (size_t)nw + 1));
    if (!names) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) names[i] = rows[i].method;
    for (int i = 0; i < nw; i++) names[n + i] = wrows[i].method;
    int rc = plot_palette_build(p, names, n + nw);
    free(names);
    return rc;
}

/* Every figure in turn. */
static int draw(const plot_env *e, const char *dir)
{
    static const char *const f5id[] = { "idsva", "pin26", "rneacr" }, *const f5fd[] = { "fdsva", "pin26-fd", "abacr" };
    int rc = plot_time_figures(e);
    if (!rc) rc = plot_fig5(e, "fig5_id", "ID derivatives on robots (Fig. 5 analogue; label: time / time of idsva in the same rounds and build)", f5id, 3);
    if (!rc) rc = plot_fig5(e, "fig5_fd", "FD derivatives on robots (Fig. 5 analogue; label: time / time of fdsva in the same rounds and build)", f5fd, 3);
    if (!rc) rc = plot_all_times(e);
    if (!rc) rc = plot_so_crossovers(e, dir);
    if (!rc) rc = plot_peers(e, dir);
    if (!rc) rc = plot_accuracy(e, dir);
    return rc;
}

int plot_run(plot_env *e, const char *dir, const char *with, const char *outdir, int has_timings, int *bad_input)
{
    timing_row *rows = NULL, *wrows = NULL;
    char *od = NULL, *dd = NULL;
    plot_palette pal;
    memset(&pal, 0, sizeof pal);
    *bad_input = 1;
    /* the directory, so the per-batch samples (samples.csv) come along;
     * DIR2 is an input too: read before anything is written */
    int rc = has_timings ? timing_rows_load(dir, &rows, &e->nrows) : RBD_OK;
    if (!rc && with) rc = timing_rows_load(with, &wrows, &e->nwrows);
    if (!rc && (!(od = outdir ? strdup(outdir) : results_path(dir, "plots")) || !(dd = results_path(od, "data"))))
        *bad_input = 0, rc = rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc && (rc = mkdir_p(dd))) *bad_input = rc == RBD_EINVAL;   /* a read-only place is the input's (atomicio.h): 2 */
    if (!rc) {
        *bad_input = 0;
        e->outdir = od;
        e->datadir = dd;
        e->rows = rows;
        e->wrows = with ? wrows : NULL;
        e->pal = &pal;
        rc = palette_of(&pal, rows, e->nrows, e->wrows, e->nwrows);
    }
    if (!rc) rc = set_up(e, dir, with);
    if (!rc) rc = draw(e, dir);
    plot_palette_free(&pal);
    free(rows);
    free(wrows);
    free(od);
    free(dd);
    return rc;
}
