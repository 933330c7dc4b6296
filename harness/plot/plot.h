/* rbdiff plot's internals (cmd_plot.c and the plot_*.c of one figure
 * family each): series handed to the gnuplot scripts of plots/, the
 * command's environment, and the helpers every figure uses. */
#ifndef RBD_PLOT_H
#define RBD_PLOT_H

#include <stdio.h>
#include "rbdiff/rbd.h"
#include "store/csvlog.h"
#include "store/results.h"
#include "plot/plot_palette.h"

/* Space-separated words for gnuplot: data files, legend titles, "#rrggbb"
 * colours, dash types and (panels.gp) panel rows and columns. */
typedef struct {
    char files[32768], titles[8192], colors[2048], dts[512], prow[1024], pcol[1024];
    int n;
} series;

typedef struct {
    const char *gnuplot, *gpdir, *outdir, *datadir;
    const timing_row *rows;
    int nrows;
    double bfs[16];
    int nbf;
    /* Fig. 7: the crossover searches of fdsva-aza vs fdsva-dmm (crossover_marks.gp) and their probes;
     * xcA, xcB the pair (NULL: Fig. 7's), xcname what the marks call A (NULL: "AZA") */
    char xckind[64], xcross[256], xclo[256], xchi[256], xcbf[256], xcdts[64];
    char pfiles[8192], ptitles[1024];
    double xmax;
    const char *xcA, *xcB, *xcname;
    /* --with DIR: a second build's run (Fig. 5 side by side); labels from the meta.json compilers */
    const timing_row *wrows;
    int nwrows;
    char label[64], wlabel[64];
    /* every name's colour in this set's figures (plot_palette.h); NULL: the table's */
    plot_palette *pal;
} plot_env;

/* write_dat's input: rows a (times) or a and b at common N (pairs). */
typedef struct {
    const timing_row **a, **b;
    int na, nb, pair;
} dat_ctx;

/* One series of a small-multiples figure: its data file, method and bf. */
typedef struct {
    char file[1024];
    const char *method;
    double bf;
} pentry;


/* plot_common.c */
int plot_dash_of(double bf);            /* 1 chain, 2 bf = 2, 3 bf = 5, 4 other */
/* name's colour in every figure of e's set (e->pal), one per name */
const char *plot_color(const plot_env *e, const char *name);
void plot_add_word(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void plot_add_series_at(series *s, const char *file, const char *title, const char *color, int dt, int row, int col);
void plot_add_series(series *s, const char *file, const char *title, const char *color, int dt);
int plot_cmp_double(const void *a, const void *b);
/* autoTree rows of method at bf, sorted by N, into out; returns the count. */
int plot_rows_of(const timing_row *rows, int n, const char *method, double bf, const timing_row **out);
int plot_write_dat(FILE *f, void *p);   /* atomic_write callback, ctx: dat_ctx */
int plot_run_gnuplot(const char *prog, const char *script, const char *vars);
/* The smallest and largest x (first column) of the data lines of files
 * (space-separated paths); returns how many lines (0: lo, hi undefined).
 * A figure whose x is one value gets xone (plot_render_at) or xoneR_C
 * (panels.gp's panel R, C) and draws it in a range around it. */
int plot_x_span(const char *files, double *lo, double *hi);
/* Runs script with s; mark: Fig. 7's crossover marks and probes; keypos: gnuplot's key placement. */
int plot_render_at(const plot_env *e, const char *script, const char *outname, const series *s, const char *ttl,
                   const char *ylab, int logy, int mark, const char *keypos);
int plot_render(const plot_env *e, const char *script, const char *outname, const series *s, const char *ttl,
                const char *ylab, int logy, int mark);

/* plot_panels.c: small multiples (panels.gp) */
int plot_render_panels(const plot_env *e, const char *name, const char *ttl, const char *ylab, int ycol,
                       double yscale, double yfloor, const pentry *pe, int n);
int plot_all_times(const plot_env *e);
int plot_accuracy(const plot_env *e, const char *dir);

/* plot_times.c: Fig. 2, 3, 4, 6 and 7 analogues (times, speed-ups); the
 * live peers' ratios (meta.json's peers) */
int plot_time_figures(const plot_env *e);
int plot_peers(const plot_env *e, const char *dir);

/* plot_fig5.c: the robots, m[0..nm) as bars (and e->wrows' beside) */
int plot_fig5(const plot_env *e, const char *name, const char *ttl, const char *const *m, int nm);

/* plot_fig7.c: crossover.csv's marks and crossover_probes.csv's points of A against B into e */
void plot_load_crossovers(plot_env *e, const char *dir, const char *A, const char *B);
int plot_load_probes(plot_env *e, const char *dir, const char *A, const char *B, const char *tag);

/* plot_so_xo.c: one figure per second-order crossover search of crossover.csv
 * (so_xo_<A>_vs_<B>): the probes, the sweep's paired ratios and the marks */
int plot_so_crossovers(const plot_env *e, const char *dir);

#endif
