/* rbdiff methods: the registry (and the base algorithms that time alike). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "commands/cli.h"
#include "peers/peer.h"

static const char help[] =
    "Usage: rbdiff methods [--names]\n\n"
    "Lists every registered derivative method: name, output kind (ID: tau,\n"
    "dtau_dq, dtau_dv; FD: qdd, dqdd_dq, dqdd_dv, dqdd_dtau), supported joint\n"
    "types and a one-line summary; then the base algorithms that `time` and\n"
    "`sweep` can time as well; then the peers' functions (`--peers`) of every\n"
    "peer module in the peer directory ($RBD_PEER_DIR, default build/peers),\n"
    "each with our counterpart and what one call writes.\n\n"
    "  --names   names only, one per line (for scripts)\n"
    "  -h, --help\n";

int cmd_methods(int argc, char **argv)
{
    static const struct option opts[] = { { "names", no_argument, 0, 'n' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int names = 0, c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (c == 'h') { fputs(help, stdout); return EXIT_OK; }
        if (c == 'n') names = 1;
        else return cli_bad_option("methods", c, argv);
    }
    if (optind < argc) {
        cli_error("methods", EXIT_USAGE, "unexpected argument '%s'", argv[optind]);
        return cli_usage_error("methods");
    }
    if (names) {
        for (int k = 0; rbd_methods[k]; k++) puts(rbd_methods[k]->name);
        for (int k = 0; rbd_so_methods[k]; k++) puts(rbd_so_methods[k]->name);
        for (int k = 0; rbd_emit_methods[k]; k++) puts(rbd_emit_methods[k]->name);
        for (int k = 0; rbd_base_algos[k].name; k++) puts(rbd_base_algos[k].name);
        return EXIT_OK;
    }
    printf("%-14s %-4s %-34s %s\n", "method", "out", "joints", "summary");
    if (!rbd_methods[0]) printf("(no derivative methods registered in this build)\n");
    for (int k = 0; rbd_methods[k]; k++) {
        const rbd_method *m = rbd_methods[k];
        char j[128];
        cli_joint_list(m->joints, j, sizeof j);
        printf("%-14s %-4s %-34s %s\n", m->name, rbd_output_name(m->output), j, m->summary);
    }
    printf("\nsecond-order methods (tensors nv x nv x nv, README.md \"Conventions\"):\n");
    for (int k = 0; rbd_so_methods[k]; k++) {
        const rbd_method *m = rbd_so_methods[k];
        char j[128];
        cli_joint_list(m->joints, j, sizeof j);
        printf("%-14s %-4s %-34s %s\n", m->name, rbd_output_name(m->output), j, m->summary);
    }
    printf("\nemitted methods (C for the model, compiled at init into the cache; run when named):\n");
    for (int k = 0; rbd_emit_methods[k]; k++) {
        const rbd_method *m = rbd_emit_methods[k];
        char j[128];
        cli_joint_list(m->joints, j, sizeof j);
        printf("%-14s %-4s %-34s %s\n", m->name, rbd_output_name(m->output), j, m->summary);
    }
    printf("\nbase algorithms (timed like methods):\n");
    for (int k = 0; rbd_base_algos[k].name; k++)
        printf("%-14s %-4s %-34s %s\n", rbd_base_algos[k].name, "base", "all", rbd_base_algos[k].summary);
    printf("\npeers (--peers; modules in %s):\n", peer_dir());
    for (int k = 0; peer_known[k]; k++) {   /* every version built, newest first */
        char ver[8][32], name[64];
        int nv = peer_versions(peer_known[k], ver, 8);
        for (int v = 0; v < (nv ? nv : 1); v++) {
            rbd_peer p;
            if (nv) snprintf(name, sizeof name, "%.15s@%.31s", peer_known[k], ver[v]);
            else snprintf(name, sizeof name, "%.15s", peer_known[k]);
            if (peer_open(name, &p)) { printf("%s: %s\n", name, rbd_last_error()); continue; }
            printf("%s %s, built with %s\n", p.name, p.api->version, p.api->build);
            for (int f = 0; f < p.api->nfunc; f++)
                printf("  %-32s vs %-6s %s\n", p.row[f], p.api->func[f].ours, p.api->func[f].writes);
            peer_close(&p);
        }
    }
    return EXIT_OK;
}
