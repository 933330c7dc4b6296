/* Method colours and families for the figures (plot_style.h), from the
 * method table (measure/method_facts.h). */
#include <string.h>
#include "measure/method_facts.h"
#include "peers/peer.h"
#include "plot/plot_style.h"


const char *plot_method_color(const char *method)
{
    const method_facts *f = method_facts_find(method);
    if (f) return f->color;
    static const char *const spare[] = { "#bdbdbd", "#969696", "#fdae6b", "#9ecae1", "#a1d99b", "#bcbddc" };
    unsigned h = 5381;
    for (const char *p = method; *p; p++) h = h * 33 + (unsigned char)*p;
    return spare[h % (sizeof spare / sizeof spare[0])];
}

int plot_method_family(const char *method)
{
    const method_facts *f = method_facts_find(method);
    if (f) return f->family;
    peer_name pn;
    if (!peer_name_parse(method, &pn) && pn.func)
        return pn.family == peer_family("mujoco") ? FAMILY_MUJOCO : FAMILY_PINOCCHIO;   /* pinocchio, pinocchio-cg */
    return FAMILY_BASE;
}

int plot_method_styled(const char *method) { return method_facts_find(method) != NULL; }

const char *plot_style_name(int k)
{
    const method_facts *f = method_facts_at(k);
    return f ? f->name : NULL;
}

const char *plot_family_name(int family) { return method_family_name(family); }
