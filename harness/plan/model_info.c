/* What `rbdiff models` prints of the robots shipped and of one model
 * (model_info.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "common/datadir.h"
#include "plan/model_info.h"

void model_list_robots(FILE *f)
{
    char dir[4200];
    data_path(dir, sizeof dir, "tests/models");
    DIR *d = opendir(dir);
    if (!d) return;
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".urdf")) continue;
        char **p = realloc(names, sizeof *p * (size_t)(n + 1));
        if (!p) break;
        names = p;
        if (!(names[n] = strdup(e->d_name))) break;
        n++;
    }
    closedir(d);
    /* readdir order is arbitrary; sort for stable listings */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j]; names[j] = names[j - 1]; names[j - 1] = t;
        }
    for (int k = 0; k < n; k++) {
        fprintf(f, "urdf:%s/%s\n", dir, names[k]);
        free(names[k]);
    }
    free(names);
}

void model_describe(FILE *f, const char *spec, const rbd_model *m)
{
    double mass = 0;
    for (int i = 0; i < m->nb; i++) mass += m->inertial[i].mass;
    fprintf(f, "model       %s\nbodies      %d\nnq          %d\nnv          %d\ndepth       %d\ntotal mass  %.10g kg\n",
           spec, m->nb, m->nq, m->nv, m->depth_max, mass);
    fprintf(f, "joints in user order:\n  %4s  %-20s %-10s %-6s %4s %4s %4s %4s  %s\n", "user", "joint", "type", "parent",
           "q", "nq", "v", "nv", "body");
    for (int u = 0; u < m->nb; u++) {
        int i = 0;
        while (i < m->nb && m->user_body[i] != u) i++;
        if (i == m->nb) continue;
        int p = m->parent[i];
        char par[16];
        if (p < 0) snprintf(par, sizeof par, "base");
        else snprintf(par, sizeof par, "%d", m->user_body[p]);
        fprintf(f, "  %4d  %-20s %-10s %-6s %4d %4d %4d %4d  %s\n", u, m->joint_name[i],
               rbd_joint_type_name(m->joint[i].type), par, m->user_q[m->idx_q[i]], m->nq_of[i],
               m->user_v[m->idx_v[i]], m->nv_of[i], m->body_name[i]);
    }
    if (m->nonphysical)
        fprintf(f, "not physical %d bod%s, loaded by the model option 'nonphysical'\n", m->nonphysical,
               m->nonphysical > 1 ? "ies" : "y");
    fprintf(f, "warnings    %d\n", m->nwarn);
    for (int k = 0; k < m->nwarn; k++) fprintf(f, "  %s\n", m->warn[k]);
}
