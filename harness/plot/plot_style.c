/* Method colours and families for the figures (plot_style.h).  The palette
 * is Tableau 10 and Tableau 20c's shades plus black and indigo; no two
 * methods, base algorithms or peer functions share a colour. */
#include <stdio.h>
#include <string.h>
#include "peers/peer.h"
#include "plot/plot_style.h"

typedef struct {
    const char *method, *color;
    int family;
} style;

/* Every colour once: the small multiples (times_all, accuracy_<output>)
 * put several families in one figure, and a colour that meant fdsva-dmm in
 * one row and fdcr-forces in the next misled (issue 29).  Within a family
 * the colours are far apart; across families related methods keep a hue
 * (pin26 green, pin26-fd light green, pinocchio's functions dark shades). */
static const style styles[] = {
    /* 0: ID derivatives */
    { "idsva", "#1f77b4", 0 }, { "idsva-body", "#17becf", 0 }, { "rneacr", "#d62728", 0 },
    { "pin26", "#2ca02c", 0 }, { "id-fd", "#9467bd", 0 }, { "id-cs", "#7f7f7f", 0 },
    { "idsva-ref", "#bcbd22", 0 },
    /* 1: fdsva and its variants */
    { "fdsva", "#ff7f0e", 1 }, { "fdsva-dmm", "#e377c2", 1 }, { "fdsva-dmm-loop", "#8c6d31", 1 },
    { "fdsva-dmm-sparse", "#00a08a", 1 }, { "fdsva-aza", "#000000", 1 }, { "fdsva-factored", "#3b3bff", 1 },
    { "fdsva-1pass", "#8c564b", 1 }, { "fdsva-forces", "#7b4173", 1 },
    /* 2: the other FD derivatives */
    { "fdcr", "#843c39", 2 }, { "abacr", "#637939", 2 }, { "pin26-fd", "#74c476", 2 }, { "fd-fd", "#393b79", 2 },
    { "fd-cs", "#a55194", 2 }, { "fdcr-forces", "#6baed6", 2 },
    /* 3: base algorithms and the roofline */
    { "rnea", "#9c9ede", 3 }, { "rnea-ground", "#5254a3", 3 }, { "crba", "#b5cf6b", 3 }, { "aba", "#e7ba52", 3 },
    { "minv", "#d6616b", 3 }, { "minv-ltdl", "#ce6dbd", 3 }, { "minv-lapack", "#bd9e39", 3 },
    { "dgemm", "#525252", 3 },
    /* 4: Pinocchio 3, 5: MuJoCo (their functions) */
    { "pinocchio.computeRNEADerivatives", "#08519c", 4 }, { "pinocchio.computeABADerivatives", "#a63603", 4 },
    { "pinocchio.rnea", "#4292c6", 4 }, { "pinocchio.aba", "#fd8d3c", 4 }, { "pinocchio.computeMinverse", "#756bb1", 4 },
    { "pinocchio.crba", "#006d2c", 4 },
    { "mujoco.fd_forward", "#e6550d", 5 }, { "mujoco.fd_inverse", "#2171b5", 5 }, { "mujoco.transitionFD", "#8c2d04", 5 },
    { "mujoco.rne", "#41b6c4", 5 }, { "mujoco.crb", "#238b45", 5 }, { "mujoco.forward", "#cb181d", 5 },
};
enum { NSTYLES = sizeof styles / sizeof styles[0] };

static const char *const families[PLOT_NFAMILIES] = {
    "ID derivatives", "fdsva and its variants", "other FD derivatives", "base algorithms", "Pinocchio", "MuJoCo",
};

/* A peer's row names its version ("pinocchio@4.1.0.aba"): every version
 * takes the style of the bare name ("pinocchio.aba"). */
static const style *find(const char *method)
{
    char bare[128];
    peer_name pn;
    if (!peer_name_parse(method, &pn) && pn.func && *pn.version) {
        snprintf(bare, sizeof bare, "%s.%s", peer_known[pn.family], pn.func);
        method = bare;
    }
    for (size_t k = 0; k < sizeof styles / sizeof styles[0]; k++)
        if (!strcmp(styles[k].method, method)) return &styles[k];
    return NULL;
}

const char *plot_method_color(const char *method)
{
    const style *s = find(method);
    if (s) return s->color;
    static const char *const spare[] = { "#bdbdbd", "#969696", "#fdae6b", "#9ecae1", "#a1d99b", "#bcbddc" };
    unsigned h = 5381;
    for (const char *p = method; *p; p++) h = h * 33 + (unsigned char)*p;
    return spare[h % (sizeof spare / sizeof spare[0])];
}

int plot_method_family(const char *method)
{
    const style *s = find(method);
    if (s) return s->family;
    peer_name pn;
    if (!peer_name_parse(method, &pn) && pn.func) return pn.family == peer_family("pinocchio") ? 4 : 5;
    return 3;
}

int plot_method_styled(const char *method) { return find(method) != NULL; }

const char *plot_style_name(int k) { return k >= 0 && k < NSTYLES ? styles[k].method : NULL; }

const char *plot_family_name(int family)
{
    return family >= 0 && family < PLOT_NFAMILIES ? families[family] : "other";
}
