/* One results set's colours (plot_palette.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "peers/peer.h"
#include "plot/plot_palette.h"
#include "plot/plot_style.h"

static void to_lab(const char *hex, double lab[3])
{
    unsigned rgb[3] = { 0, 0, 0 };
    if (!hex || sscanf(hex, "#%2x%2x%2x", &rgb[0], &rgb[1], &rgb[2]) != 3) rgb[0] = rgb[1] = rgb[2] = 0;
    double c[3];
    for (int k = 0; k < 3; k++) {   /* sRGB to linear light */
        double v = rgb[k] / 255.0;
        c[k] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    /* linear sRGB to XYZ, over the D65 white */
    double xyz[3] = { (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047,
                      0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2],
                      (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883 };
    double f[3];
    for (int k = 0; k < 3; k++) f[k] = xyz[k] > 0.008856 ? cbrt(xyz[k]) : 7.787 * xyz[k] + 16.0 / 116;
    lab[0] = 116 * f[1] - 16;
    lab[1] = 500 * (f[0] - f[1]);
    lab[2] = 200 * (f[1] - f[2]);
}

double plot_color_distance(const char *a, const char *b)
{
    double x[3], y[3];
    to_lab(a, x);
    to_lab(b, y);
    return sqrt((x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) + (x[2] - y[2]) * (x[2] - y[2]));
}

/* The least distance from c to a colour taken in p or held by the method
 * table (which its names may still claim later), but for the table's
 * colour own (a versioned peer row's bare function). */
static double clearance(const plot_palette *p, const char *c, const char *own)
{
    double d = INFINITY;
    for (int i = 0; i < p->n; i++) d = fmin(d, plot_color_distance(c, p->color[i]));
    for (int k = 0; plot_style_name(k); k++) {
        const char *t = plot_method_color(plot_style_name(k));
        if (!own || strcmp(t, own)) d = fmin(d, plot_color_distance(c, t));
    }
    return d;
}

/* Candidate k for a name whose own colour is base: base mixed towards
 * black or white in growing steps, then a 6x6x6 grid of colours neither
 * too dark nor too pale to read as a line (from start on); 0 past the end. */
static int candidate(const char *base, int k, int start, char out[8])
{
    static const double mix[] = { 0.3, -0.35, 0.5, -0.55, 0.15, -0.2, 0.65, -0.7 };   /* > 0 black, < 0 white */
    enum { NMIX = sizeof mix / sizeof mix[0], NGRID = 216 };
    unsigned rgb[3] = { 0, 0, 0 };
    if (k < NMIX) {
        if (sscanf(base, "#%2x%2x%2x", &rgb[0], &rgb[1], &rgb[2]) != 3) return 0;
        double t = fabs(mix[k]), to = mix[k] > 0 ? 0 : 255;
        for (int j = 0; j < 3; j++) rgb[j] = (unsigned)lround(rgb[j] + (to - rgb[j]) * t);
    } else if (k < NMIX + NGRID) {
        int g = (k - NMIX + start) % NGRID;
        rgb[0] = 51u * (unsigned)(g / 36), rgb[1] = 51u * (unsigned)(g / 6 % 6), rgb[2] = 51u * (unsigned)(g % 6);
    } else {
        return 0;
    }
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 255, rgb[1] & 255, rgb[2] & 255);
    return 1;
}

static const char *add(plot_palette *p, const char *name, const char *color)
{
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 64;
        char(*nm)[96] = realloc(p->name, sizeof *nm * (size_t)cap);
        if (nm) p->name = nm;
        char(*cl)[8] = nm ? realloc(p->color, sizeof *cl * (size_t)cap) : NULL;
        if (cl) p->color = cl;
        if (!nm || !cl) return NULL;
        p->cap = cap;
    }
    snprintf(p->name[p->n], sizeof p->name[0], "%s", name);
    snprintf(p->color[p->n], sizeof p->color[0], "%s", color);
    return p->color[p->n++];
}

/* A table name without a version keeps the table's colour; any other takes
 * the first candidate at PLOT_MIN_DE from every colour taken, or failing
 * that the one farthest from them. */
static const char *assign(plot_palette *p, const char *name)
{
    peer_name pn;
    int versioned = !peer_name_parse(name, &pn) && pn.func && *pn.version;
    const char *own = plot_method_color(name);
    if (plot_method_styled(name) && !versioned) return add(p, name, own);
    unsigned h = 5381;
    for (const char *s = name; *s; s++) h = h * 33 + (unsigned char)*s;
    char c[8], best[8] = "";
    double bd = -1;
    const char *skip = plot_method_styled(name) ? own : NULL;
    if (skip && clearance(p, own, skip) >= PLOT_MIN_DE) return add(p, name, own);
    for (int k = 0; candidate(own, k, (int)(h % 216), c); k++) {
        double lab[3];
        to_lab(c, lab);
        if (lab[0] < 15 || lab[0] > 80) continue;    /* a line must show on white, and not read as black */
        double d = clearance(p, c, skip);
        if (d >= PLOT_MIN_DE) return add(p, name, c);
        if (d > bd) bd = d, memcpy(best, c, sizeof best);
    }
    return add(p, name, best);
}

const char *plot_palette_color(plot_palette *p, const char *name)
{
    if (!p) return plot_method_color(name);
    for (int i = 0; i < p->n; i++)
        if (!strcmp(p->name[i], name)) return p->color[i];
    const char *c = assign(p, name);
    return c ? c : plot_method_color(name);
}

/* Seeding order: table names, versioned peer rows (by function, newest
 * version first, so the newest keeps the table's colour), the rest. */
static int seed_rank(const char *name, peer_name *pn)
{
    if (!peer_name_parse(name, pn) && pn->func && *pn->version) return 1;
    return plot_method_styled(name) ? 0 : 2;
}

static int cmp_seed(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    peer_name px, py;
    int rx = seed_rank(x, &px), ry = seed_rank(y, &py);
    if (rx != ry) return rx - ry;
    if (rx != 1) return 0;
    int f = strcmp(px.func, py.func);
    if (!f) f = px.family - py.family;
    return f ? f : strverscmp(py.version, px.version);
}

int plot_palette_build(plot_palette *p, const char *const *names, int n)
{
    memset(p, 0, sizeof *p);
    const char **s = malloc(sizeof *s * ((size_t)n + 1));
    if (!s) return rbd_fail(RBD_ENOMEM, "out of memory");
    int m = 0;
    for (int i = 0; i < n; i++) {
        int dup = 0;
        for (int j = 0; j < m && !dup; j++) dup = !strcmp(s[j], names[i]);
        if (!dup) s[m++] = names[i];
    }
    /* qsort is not stable: equal ranks 0 and 2 keep their order by index */
    for (int r = 0; r < 3; r++) {
        int k = 0;
        const char **part = malloc(sizeof *part * ((size_t)m + 1));
        if (!part) { free(s); plot_palette_free(p); return rbd_fail(RBD_ENOMEM, "out of memory"); }
        for (int i = 0; i < m; i++) {
            peer_name pn;
            if (seed_rank(s[i], &pn) == r) part[k++] = s[i];
        }
        if (r == 1) qsort(part, (size_t)k, sizeof *part, cmp_seed);
        for (int i = 0; i < k; i++) plot_palette_color(p, part[i]);
        free(part);
    }
    free(s);
    return RBD_OK;
}

void plot_palette_free(plot_palette *p)
{
    free(p->name);
    free(p->color);
    memset(p, 0, sizeof *p);
}
