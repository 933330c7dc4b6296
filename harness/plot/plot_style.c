/* Method colours and families for the figures (plot_style.h).  The palette
 * is Tableau 10 plus black and indigo; no family uses a colour twice. */
#include <string.h>
#include "plot/plot_style.h"

typedef struct {
    const char *method, *color;
    int family;
} style;

static const style styles[] = {
    /* 0: ID derivatives */
    { "idsva", "#1f77b4", 0 }, { "idsva-body", "#17becf", 0 }, { "rneacr", "#d62728", 0 },
    { "pin26", "#2ca02c", 0 }, { "id-fd", "#9467bd", 0 }, { "id-cs", "#7f7f7f", 0 },
    { "idsva-ref", "#bcbd22", 0 },
    /* 1: fdsva and its variants */
    { "fdsva", "#ff7f0e", 1 }, { "fdsva-dmm", "#e377c2", 1 }, { "fdsva-dmm-loop", "#bcbd22", 1 },
    { "fdsva-dmm-sparse", "#17becf", 1 }, { "fdsva-aza", "#000000", 1 }, { "fdsva-factored", "#3b3bff", 1 },
    { "fdsva-1pass", "#8c564b", 1 }, { "fdsva-forces", "#9467bd", 1 },
    /* 2: the other FD derivatives (fdsva's colour where it joins them) */
    { "fdcr", "#d62728", 2 }, { "abacr", "#8c564b", 2 }, { "pin26-fd", "#2ca02c", 2 }, { "fd-fd", "#9467bd", 2 },
    { "fd-cs", "#7f7f7f", 2 }, { "fdcr-forces", "#e377c2", 2 },
    /* 3: base algorithms and the roofline */
    { "rnea", "#1f77b4", 3 }, { "rnea-ground", "#17becf", 3 }, { "crba", "#2ca02c", 3 }, { "aba", "#ff7f0e", 3 },
    { "minv", "#d62728", 3 }, { "minv-ltdl", "#e377c2", 3 }, { "minv-lapack", "#9467bd", 3 },
    { "dgemm", "#7f7f7f", 3 },
    /* 4: Pinocchio 3, 5: MuJoCo (their functions) */
    { "pinocchio.computeRNEADerivatives", "#1f77b4", 4 }, { "pinocchio.computeABADerivatives", "#ff7f0e", 4 },
    { "pinocchio.rnea", "#17becf", 4 }, { "pinocchio.aba", "#d62728", 4 }, { "pinocchio.computeMinverse", "#9467bd", 4 },
    { "pinocchio.crba", "#2ca02c", 4 },
    { "mujoco.fd_forward", "#ff7f0e", 5 }, { "mujoco.fd_inverse", "#1f77b4", 5 }, { "mujoco.transitionFD", "#8c564b", 5 },
    { "mujoco.rne", "#17becf", 5 }, { "mujoco.crb", "#2ca02c", 5 }, { "mujoco.forward", "#d62728", 5 },
};

static const char *const families[PLOT_NFAMILIES] = {
    "ID derivatives", "fdsva and its variants", "other FD derivatives", "base algorithms", "Pinocchio 3", "MuJoCo",
};

static const style *find(const char *method)
{
    for (size_t k = 0; k < sizeof styles / sizeof styles[0]; k++)
        if (!strcmp(styles[k].method, method)) return &styles[k];
    return NULL;
}

const char *plot_method_color(const char *method)
{
    const style *s = find(method);
    if (s) return s->color;
    static const char *const spare[] = { "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd" };
    unsigned h = 5381;
    for (const char *p = method; *p; p++) h = h * 33 + (unsigned char)*p;
    return spare[h % (sizeof spare / sizeof spare[0])];
}

int plot_method_family(const char *method)
{
    const style *s = find(method);
    if (s) return s->family;
    if (!strncmp(method, "pinocchio.", 10)) return 4;
    if (!strncmp(method, "mujoco.", 7)) return 5;
    return 3;
}

const char *plot_family_name(int family)
{
    return family >= 0 && family < PLOT_NFAMILIES ? families[family] : "other";
}
