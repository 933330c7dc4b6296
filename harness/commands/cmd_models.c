/* rbdiff models: the model families and the anatomy of one model. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/atomicio.h"
#include "commands/cli.h"
#include "plan/datadir.h"

static const char help[] =
    "Usage: rbdiff models [list]\n"
    "       rbdiff models describe SPEC\n"
    "       rbdiff models export SPEC [--out FILE]\n\n"
    "list      the model families: autoTree (spatial_v2's autoTree(N, bf, skew,\n"
    "          taper)) and the URDF files under tests/models/ of the source tree\n"
    "describe  bodies, nq, nv, depth, every joint in the user's order with its\n"
    "          type, parent and q/v offsets, total mass and validation warnings\n\n"
    "SPEC: autotree:N=100,bf=2,skew=0,taper=1 (defaults bf=1, skew=0, taper=1)\n"
    "      urdf:PATH[,freeflyer][,continuous=revolute][,strict][,nonphysical]\n"
    "      (model options: README.md, \"Model options\")\n";

static int models_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) return cli_error("models", EXIT_USAGE, "list takes no arguments");
    puts("autotree:N=<N>,bf=<bf>,skew=<rad>,taper=<t>  spatial_v2 autoTree: N revolute bodies, branching factor bf "
         "(1 = serial chain; non-integer alternates), defaults bf=1, skew=0, taper=1");
    char dir[4200];
    data_path(dir, sizeof dir, "tests/models");
    DIR *d = opendir(dir);
    if (!d) return EXIT_OK;
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
        printf("urdf:%s/%s\n", dir, names[k]);
        free(names[k]);
    }
    free(names);
    return EXIT_OK;
}

static int models_describe(int argc, char **argv)
{
    if (argc != 2) {
        cli_error("models", EXIT_USAGE, "describe needs one model spec");
        return cli_usage_error("models");
    }
    rbd_model *m;
    int rc = cli_model("models", argv[1], &m);
    if (rc) return rc;
    double mass = 0;
    for (int i = 0; i < m->nb; i++) mass += m->inertial[i].mass;
    printf("model       %s\nbodies      %d\nnq          %d\nnv          %d\ndepth       %d\ntotal mass  %.10g kg\n",
           argv[1], m->nb, m->nq, m->nv, m->depth_max, mass);
    printf("joints in user order:\n  %4s  %-20s %-10s %-6s %4s %4s %4s %4s  %s\n", "user", "joint", "type", "parent",
           "q", "nq", "v", "nv", "body");
    for (int u = 0; u < m->nb; u++) {
        int i = 0;
        while (i < m->nb && m->user_body[i] != u) i++;
        if (i == m->nb) continue;
        int p = m->parent[i];
        char par[16];
        if (p < 0) snprintf(par, sizeof par, "base");
        else snprintf(par, sizeof par, "%d", m->user_body[p]);
        printf("  %4d  %-20s %-10s %-6s %4d %4d %4d %4d  %s\n", u, m->joint_name[i],
               rbd_joint_type_name(m->joint[i].type), par, m->user_q[m->idx_q[i]], m->nq_of[i],
               m->user_v[m->idx_v[i]], m->nv_of[i], m->body_name[i]);
    }
    if (m->nonphysical)
        printf("not physical %d bod%s, loaded by the model option 'nonphysical'\n", m->nonphysical,
               m->nonphysical > 1 ? "ies" : "y");
    printf("warnings    %d\n", m->nwarn);
    for (int k = 0; k < m->nwarn; k++) printf("  %s\n", m->warn[k]);
    rbd_model_free(m);
    return EXIT_OK;
}

static int write_urdf(FILE *f, void *m)
{
    return rbd_urdf_write(m, f);
}

static int models_export(int argc, char **argv)
{
    const char *spec = NULL, *out = NULL;
    for (int k = 1; k < argc; k++) {
        if (!strcmp(argv[k], "--out") || !strcmp(argv[k], "-o")) {
            if (++k == argc) { cli_error("models", 0, "option '%s' needs a value", argv[k - 1]); return cli_usage_error("models"); }
            out = argv[k];
        } else if (!strncmp(argv[k], "--out=", 6)) {
            out = argv[k] + 6;
        } else if (argv[k][0] == '-' && argv[k][1]) {
            cli_error("models", 0, "unknown option '%s'", argv[k]);
            return cli_usage_error("models");
        } else if (spec) {
            cli_error("models", 0, "export needs one model spec, got '%s' and '%s'", spec, argv[k]);
            return cli_usage_error("models");
        } else {
            spec = argv[k];
        }
    }
    if (!spec) { cli_error("models", 0, "export needs one model spec"); return cli_usage_error("models"); }
    rbd_model *m;
    int rc = cli_model("models", spec, &m);
    if (rc) return rc;
    if (out) rc = atomic_write(out, write_urdf, m);
    else if (!(rc = rbd_urdf_write(m, stdout)) && fflush(stdout)) rc = rbd_fail(RBD_EIO, "stdout: write error");
    rbd_model_free(m);
    if (rc) return cli_lib_error("models", rc == RBD_ENOTSUP ? EXIT_USAGE : EXIT_FAIL);
    return EXIT_OK;
}

static const cli_command actions[] = {
    { "list", "model families", models_list },
    { "describe", "one model", models_describe },
    { "export", "one model as URDF", models_export },
};

int cmd_models(int argc, char **argv)
{
    if (argc < 2) return models_list(1, argv);   /* no action: list, as `methods` does */
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) { fputs(help, stdout); return EXIT_OK; }
    for (size_t k = 0; k < sizeof actions / sizeof actions[0]; k++)
        if (!strcmp(actions[k].name, argv[1])) {
            for (int j = 2; j < argc; j++)
                if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h")) { fputs(help, stdout); return EXIT_OK; }
            return actions[k].run(argc - 1, argv + 1);
        }
    return cli_error("models", EXIT_USAGE, "unknown action '%s' (valid: list, describe, export)", argv[1]);
}
