/* rbdiff models: the model families and the anatomy of one model. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/atomicio.h"
#include "commands/cli.h"
#include "plan/model_info.h"

static const char help[] =
    "Usage: rbdiff models [list]\n"
    "       rbdiff models describe SPEC\n"
    "       rbdiff models export SPEC [--out FILE]\n\n"
    "list      the model families: autoTree (spatial_v2's autoTree(N, bf, skew,\n"
    "          taper)) and the URDF files under tests/models/ of the source tree\n"
    "describe  bodies, nq, nv, depth, every joint in the user's order with its\n"
    "          type, parent and q/v offsets, total mass and validation warnings\n"
    "export    the model as a URDF file, to FILE (written whole or not at all)\n"
    "          or to stdout\n\n"
    "SPEC: autotree:N=100,bf=2,skew=0,taper=1 (defaults bf=1, skew=0, taper=1)\n"
    "      urdf:PATH[,freeflyer][,continuous=revolute][,strict][,nonphysical]\n"
    "      (model options: README.md, \"Model options\")\n";

static int models_list(int argc, char **argv)
{
    (void)argv;
    if (argc > 1) return cli_error("models", EXIT_USAGE, "list takes no arguments");
    puts("autotree:N=<N>,bf=<bf>,skew=<rad>,taper=<t>  spatial_v2 autoTree: N revolute bodies, branching factor bf "
         "(1 = serial chain; non-integer alternates), defaults bf=1, skew=0, taper=1");
    model_list_robots(stdout);
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
    model_describe(stdout, argv[1], m);
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
