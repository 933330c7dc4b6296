/* The method table (method_facts.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "measure/method_facts.h"
#include "peers/peer.h"

/* Colours: Tableau 10 and Tableau 20c's shades plus black and indigo, then
 * colours picked at a CIELAB distance of at least 10 (plot/plot_palette.h)
 * from all the others, every one once and none that looks like another
 * (rneacr's red and mj_forward's were 3.8 apart): the small multiples (times_all, accuracy_<output>) put several
 * families in one figure, and a colour that meant fdsva-dmm in one row and
 * fdcr-forces in the next misled (issue 29).  Within a family the colours
 * are far apart; across families related methods keep a hue (pin26 green,
 * pin26-fd light green, pinocchio's functions dark shades). */
static const method_facts table[] = {
    { "idsva", "#1f77b4", FAMILY_ID, flops_idsva, "rnea_derivs" },
    { "idsva-body", "#17becf", FAMILY_ID, NULL, NULL },
    { "rneacr", "#d62728", FAMILY_ID, flops_rneacr, NULL },
    { "pin26", "#2ca02c", FAMILY_ID, NULL, NULL },
    { "id-fd", "#9467bd", FAMILY_ID, NULL, NULL },
    { "id-cs", "#7f7f7f", FAMILY_ID, NULL, NULL },
    { "idsva-ref", "#bcbd22", FAMILY_ID, NULL, NULL },
    { "fdsva", "#ff7f0e", FAMILY_FDSVA, NULL, "aba_derivs" },
    { "fdsva-dmm", "#e377c2", FAMILY_FDSVA, flops_fdsva_dmm, "fd_via_id" },
    { "fdsva-dmm-loop", "#8c6d31", FAMILY_FDSVA, flops_fdsva_dmm, NULL },   /* the same product, a plain loop */
    { "fdsva-dmm-sparse", "#00a08a", FAMILY_FDSVA, NULL, NULL },
    { "fdsva-aza", "#000000", FAMILY_FDSVA, flops_fdsva_aza, "aba_derivs" },
    { "fdsva-factored", "#3b3bff", FAMILY_FDSVA, NULL, NULL },
    { "fdsva-1pass", "#8c564b", FAMILY_FDSVA, NULL, "aba_derivs" },
    { "fdsva-forces", "#7b4173", FAMILY_FDSVA, NULL, NULL },
    { "fdcr", "#843c39", FAMILY_FD, NULL, NULL },
    { "abacr", "#637939", FAMILY_FD, NULL, NULL },
    { "pin26-fd", "#74c476", FAMILY_FD, NULL, "fd_via_id" },
    { "fd-fd", "#393b79", FAMILY_FD, NULL, NULL },
    { "fd-cs", "#a55194", FAMILY_FD, NULL, NULL },
    { "fdcr-forces", "#6baed6", FAMILY_FD, NULL, NULL },
    { "rnea", "#9c9ede", FAMILY_BASE, flops_rnea, "rnea" },
    { "rnea-ground", "#5254a3", FAMILY_BASE, NULL, NULL },
    { "crba", "#b5cf6b", FAMILY_BASE, flops_crba, NULL },
    { "aba", "#e7ba52", FAMILY_BASE, flops_aba, "aba" },
    { "minv", "#d6616b", FAMILY_BASE, flops_minv, "minv" },
    { "minv-ltdl", "#cc66cc", FAMILY_BASE, NULL, NULL },
    { "minv-lapack", "#bd9e39", FAMILY_BASE, NULL, NULL },
    { "dgemm", "#525252", FAMILY_BASE, flops_dgemm, NULL },
    /* second order (their own registry list): beside the first-order ID and FD rows */
    { "idsva-so", "#223355", FAMILY_ID, NULL, NULL },
    { "id2-fd", "#ddbbee", FAMILY_ID, NULL, NULL },
    { "id2-cs", "#333333", FAMILY_ID, NULL, NULL },
    { "fdsva-so", "#aa5500", FAMILY_FD, NULL, NULL },
    { "fdsva-so-dmm", "#dd8844", FAMILY_FD, NULL, NULL },
    { "fdsva-so-aza", "#663300", FAMILY_FD, NULL, NULL },
    { "fd2-fd", "#6688cc", FAMILY_FD, NULL, NULL },
    { "fd2-cs", "#00a6a6", FAMILY_FD, NULL, NULL },
    { "pinocchio.computeRNEADerivatives", "#08519c", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio.computeABADerivatives", "#a63603", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio.rnea", "#4292c6", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio.aba", "#fd8d3c", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio.computeMinverse", "#756bb1", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio.crba", "#006d2c", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio.ComputeRNEASecondOrderDerivatives", "#114477", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio-cg.computeRNEADerivatives", "#8899bb", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio-cg.computeABADerivatives", "#cc8866", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio-cg.rnea", "#225577", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio-cg.aba", "#995522", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio-cg.computeMinverse", "#bbaacc", FAMILY_PINOCCHIO, NULL, NULL },
    { "pinocchio-cg.crba", "#66aa88", FAMILY_PINOCCHIO, NULL, NULL },
    { "mujoco.fd_forward", "#e6550d", FAMILY_MUJOCO, NULL, NULL },
    { "mujoco.fd_inverse", "#0077cc", FAMILY_MUJOCO, NULL, NULL },
    { "mujoco.transitionFD", "#8c2d04", FAMILY_MUJOCO, NULL, NULL },
    { "mujoco.inverseFD", "#774499", FAMILY_MUJOCO, NULL, NULL },
    { "mujoco.rne", "#55aabb", FAMILY_MUJOCO, NULL, NULL },
    { "mujoco.crb", "#238b45", FAMILY_MUJOCO, NULL, NULL },
    { "mujoco.forward", "#aa0011", FAMILY_MUJOCO, NULL, NULL },
};
enum { NENTRIES = sizeof table / sizeof table[0] };

static const char *const families[METHOD_NFAMILIES] = {
    "ID derivatives", "fdsva and its variants", "other FD derivatives", "base algorithms", "Pinocchio", "MuJoCo",
};

const method_facts *method_facts_find(const char *name)
{
    char bare[128];
    peer_name pn;
    if (!peer_name_parse(name, &pn) && pn.func && *pn.version) {
        snprintf(bare, sizeof bare, "%s.%s", peer_known[pn.family], pn.func);
        name = bare;
    }
    for (int k = 0; k < NENTRIES; k++)
        if (!strcmp(table[k].name, name)) return &table[k];
    return NULL;
}

const method_facts *method_facts_at(int k) { return k >= 0 && k < NENTRIES ? &table[k] : NULL; }

const char *method_family_name(int family)
{
    return family >= 0 && family < METHOD_NFAMILIES ? families[family] : "other";
}

const char *method_kind_baseline(const char *kind)
{
    return !strcmp(kind, "ID") ? "idsva" : !strcmp(kind, "FD") ? "fdsva" : !strcmp(kind, "ID2") ? "idsva-so"
         : !strcmp(kind, "FD2") ? "fdsva-so" : NULL;
}

double method_flops(const char *name, const flops_tree *t)
{
    const method_facts *f = method_facts_find(name);
    if (!f || !f->flops || !t->revolute_only || t->N < 1) return NAN;
    return f->flops(t);
}
