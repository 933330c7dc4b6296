/* rbdiff advise: the user's first question in one command: which method to
 * use for this robot on this machine, how fast against the peers, how
 * accurate.  Times every ID and FD derivative method and the peers on the
 * model in the same rounds (paired, as `time`), scores our methods against
 * the MPFR complex-step reference (as `accuracy`, through its cache), and
 * prints the fastest of each kind whose error is within --tol. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "report/advise.h"

static const char help[] =
    "Usage: rbdiff advise (--model SPEC | --robots LIST)... [--tol X] [options]\n\n"
    "Which derivative method to use on this model, on this machine.  Every ID\n"
    "and FD derivative method and the peers (Pinocchio, MuJoCo; those that\n"
    "load) are timed on the model in the same rounds; our methods are scored\n"
    "against the 256-bit MPFR complex-step reference at random states (cached,\n"
    "as `rbdiff accuracy`).  The error of a method is the worst over its\n"
    "outputs and the states of the normwise relative error ||X - R||_F / ||R||_F.\n"
    "Printed per model: every method's median time and error, then the fastest\n"
    "ID and the fastest FD method with error <= tol, its paired ratio to the\n"
    "peer's function of the same kind (median over rounds of ours / peer, and in\n"
    "how many rounds ours was faster), and its error.  Nothing is written.\n\n"
    "  --model SPEC     e.g. urdf:my_robot.urdf,freeflyer,nonphysical (repeatable)\n"
    "  --robots LIST    ur5,hyq:freeflyer (tests/models/NAME.urdf) or PATH:OPTION:...\n"
    "  --tol X          accuracy asked for (default 1e-8)\n"
    "  --peers LIST     default all (those built; scripts/peers); none; or names (then required)\n"
    "  --methods LIST   default every ID and FD method\n"
    "  --batches K --batch-ms MS --warmup-ms MS --pool P --seed S  timing (default 7, 2, 5, 16, 1;\n"
    "                   a batch is the fastest of 5 slices of MS / 5 each, as `rbdiff pair` times)\n"
    "  --accuracy-states S  reference states per model (default 2)\n"
    "  --cache DIR      reference cache (default ~/.cache/rbdiff)\n"
    "  -h, --help       this text\n";

int cmd_advise(int argc, char **argv)
{
    static const struct option extra[] = { { "tol", required_argument, 0, 'T' }, { "help", no_argument, 0, 'h' } };
    struct option *opts = sweep_options(extra, 2);
    if (!opts) return cli_error("advise", EXIT_FAIL, "out of memory");
    sweep_config c;
    sweep_config_init(&c);
    double tol = 1e-8;
    int ch, status = EXIT_USAGE;
    advise_plan ap;
    memset(&ap, 0, sizeof ap);
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch == 'T') {
            if (cli_num("advise", "--tol", optarg, &tol)) goto done;
            if (!(tol > 0)) { cli_error("advise", 0, "--tol: %s is not a positive number", optarg); goto done; }
            continue;
        }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("advise", 0); goto done; }
            continue;
        }
        cli_bad_option("advise", ch, argv);
        goto done;
    }
    if (optind < argc) { cli_error("advise", 0, "unexpected argument '%s'", argv[optind]); cli_usage_error("advise"); goto done; }
    int bad_input = 0;
    if (advise_plan_make(&ap, &c, &bad_input)) {
        status = cli_lib_error("advise", bad_input ? EXIT_USAGE : EXIT_FAIL);
        goto done;
    }
    cli_catch_interrupt();
    int rc = advise_run(&ap, tol, &cli_interrupted, &bad_input);
    status = rc == 1 ? cli_error("advise", EXIT_INTERRUPTED, "interrupted")
           : rc      ? cli_lib_error("advise", bad_input ? EXIT_USAGE : EXIT_FAIL)
                     : EXIT_OK;
done:
    advise_plan_free(&ap);
    sweep_config_free(&c);
    free(opts);
    return status;
}
