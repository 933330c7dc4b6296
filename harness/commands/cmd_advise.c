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
    "  --cache DIR      reference cache (default $RBD_CACHE_DIR, else ~/.cache/rbdiff)\n"
    "  -h, --help       this text\n";

/* advise's own flag: --tol X. */
static int take(int ch, char *arg, void *ctx)
{
    double *tol = ctx;
    (void)ch;
    if (cli_num("advise", "--tol", arg, tol)) return EXIT_USAGE;
    if (!(*tol > 0)) return cli_error("advise", EXIT_USAGE, "--tol: %s is not a positive number", arg);
    return 0;
}

int cmd_advise(int argc, char **argv)
{
    static const struct option own[] = { { "tol", required_argument, 0, 'T' } };
    sweep_config c;
    sweep_config_init(&c);
    double tol = 1e-8;
    advise_plan ap;
    memset(&ap, 0, sizeof ap);
    const cli_flags fl = { .no_config = 1, .own = own, .nown = 1, .take = take, .ctx = &tol };
    int status = cli_config_args("advise", argc, argv, help, &fl, &c, NULL), bad_input = 0;
    if (!status && optind < argc) {
        cli_error("advise", 0, "unexpected argument '%s'", argv[optind]);
        status = cli_usage_error("advise");
    }
    if (!status && advise_plan_make(&ap, &c, &bad_input)) status = cli_lib_error("advise", bad_input ? EXIT_USAGE : EXIT_FAIL);
    if (!status) {
        cli_catch_interrupt();
        int rc = advise_run(&ap, tol, &cli_interrupted, &bad_input);
        status = rc == 1 ? cli_error("advise", EXIT_INTERRUPTED, "interrupted")
               : rc      ? cli_lib_error("advise", bad_input ? EXIT_USAGE : EXIT_FAIL)
                         : EXIT_OK;
    }
    advise_plan_free(&ap);
    sweep_config_free(&c);
    return status < 0 ? EXIT_OK : status;
}
