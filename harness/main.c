/* rbdiff: the command-line program.  One file per subcommand (cmd_*.c);
 * this one dispatches and answers --version and --help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "common/datadir.h"
#include "store/meta.h"

static const cli_command commands[] = {
    { "advise", "which method for this model: fastest ID and FD within an accuracy, vs the peers", cmd_advise },
    { "methods", "list the registered derivative methods and base algorithms", cmd_methods },
    { "models", "list the model families and robots, describe a model, export it as URDF", cmd_models },
    { "eval", "evaluate one method at one state, print its outputs", cmd_eval },
    { "time", "time methods (and peers) on autoTree models and robots, print a table", cmd_time },
    { "accuracy", "score every method against the MPFR reference", cmd_accuracy },
    { "sweep", "time methods x bf x N and robots into a results directory, then crossovers, audit", cmd_sweep },
    { "crossover", "smallest N at which method A beats B (bisection)", cmd_crossover },
    { "plot", "render the figures of a results directory", cmd_plot },
    { "report", "report.md: the paper's figures and claims against a run, with verdicts", cmd_report },
    { "compare", "compare two runs, fail on a regression", cmd_compare },
    { "anchors", "vs-<peer>.md: ours against live peers in the same rounds (else stored figures)", cmd_anchors },
    { "merge", "join the results of sweep shards into one set", cmd_merge },
    { "pack", "a results directory as committed: raw samples gzipped, rebuildable files dropped", cmd_pack },
    { "run", "evaluate a method C times, untimed (for valgrind, perf)", cmd_run },
    { "pair", "several builds timed in the same rounds, fail on a regression", cmd_pair },
    { "worker", "the measuring process rbdiff pair starts in each build", cmd_worker },
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
    fputs("Usage: rbdiff [--version] [--help] <command> [<args>]\n\n"
          "Benchmark and verification harness for first- and second-order derivatives of\n"
          "rigid-body dynamics.\n\n"
          "Commands:\n", f);
    for (int k = 0; k < NCOMMANDS; k++) fprintf(f, "  %-10s %s\n", commands[k].name, commands[k].summary);
    fputs("\n'rbdiff <command> --help' describes a command.\n"
          "Exit status: 0 success; 1 the run failed (or compare found a regression);\n"
          "2 the input you gave is wrong (command line, options, config, model spec or\n"
          "file, state file, results directory to read); 130 interrupted.\n", f);
}

int main(int argc, char **argv)
{
    cli_argc = argc;
    cli_argv = argv;
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "--version") || !strcmp(c, "-V")) {
        char git[128];
        meta_git_commit(git, sizeof git);
        printf("rbdiff %s, commit %s (%s; %s)\ndata: %s\n", RBD_VERSION, git, RBD_COMPILER, RBD_FLAGS, data_root());
        return EXIT_OK;
    }
    if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
        if (!strcmp(c, "help") && argc > 2) {
            for (int k = 0; k < NCOMMANDS; k++)
                if (!strcmp(commands[k].name, argv[2])) {
                    char *hv[] = { argv[2], "--help", NULL };
                    return commands[k].run(2, hv);
                }
        }
        usage(stdout);
        return EXIT_OK;
    }
    for (int k = 0; k < NCOMMANDS; k++)
        if (!strcmp(commands[k].name, c)) return commands[k].run(argc - 1, argv + 1);
    fprintf(stderr, "rbdiff: unknown command '%s' (valid:", c);
    for (int k = 0; k < NCOMMANDS; k++) fprintf(stderr, "%s %s", k ? "," : "", commands[k].name);
    fputs(")\n", stderr);
    return EXIT_USAGE;
}
