/* rbdiff eval: one method, one model, one state; outputs in the
 * interchange format (README.md, "Conventions"), in the user's numbering. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "measure/eval_state.h"
#include "store/atomicio.h"

static const char help[] =
    "Usage: rbdiff eval METHOD --model SPEC --state FILE [--out FILE] [options]\n\n"
    "Evaluates METHOD at the state in FILE and prints every output as\n"
    "'<name> <rows> <cols>' blocks at %.17g, in the user's numbering:\n"
    "  ID methods: tau, dtau_dq, dtau_dv      (state needs q, v, a)\n"
    "  FD methods: qdd, dqdd_dq, dqdd_dv, dqdd_dtau (state needs q, v, tau)\n"
    "  ID2 methods: tau, d2tau_dq2, d2tau_dv2, d2tau_dqdv, dM_dq (state needs q, v, a)\n"
    "  FD2 methods: qdd, d2qdd_dq2, d2qdd_dv2, d2qdd_dqdv, d2qdd_dqdtau (q, v, tau)\n"
    "    a tensor T(i,j,k) = d/dx_k of entry (i,j) is printed as nv rows of nv^2\n"
    "    columns, column j + nv k (README.md, \"Conventions\")\n"
    "  base algorithms (rnea, ...): their one output (see rbdiff methods)\n\n"
    "  --model SPEC     autotree:N=..,bf=..,skew=..,taper=.. or urdf:PATH[,OPTION]... (README.md, \"Model options\")\n"
    "  --state FILE     lines 'q ...', 'v ...', 'a ...' / 'tau ...' ('#' comments)\n"
    "  --out FILE       write there (atomically) instead of stdout\n"
    "  --minv KIND      M^-1 variant of FD methods: analytic, ltdl, lapack\n"
    "  --fd-forward     forward instead of central differences (finite-difference methods)\n"
    "  --cs-step H      complex step, in (0, 1e-3] (default 1e-20)\n"
    "  -h, --help\n\n"
    "Exit status: 0 done (a warning for an ill-conditioned M(q)), 1 the\n"
    "evaluation failed (a singular M(q), a non-finite output, an unwritable\n"
    "output), 2 the input is wrong (options, model, state file).\n";

/* The flags: method, --model, --state, --out and the method options.
 * 0 to go on, else the exit status (-1: --help). */
static int read_args(int argc, char **argv, const char **spec, const char **state, const char **out, rbd_options *o)
{
    static const struct option opts[] = {
        { "model", required_argument, 0, 'm' }, { "state", required_argument, 0, 's' },
        { "out", required_argument, 0, 'o' }, { "minv", required_argument, 0, 'M' },
        { "fd-forward", no_argument, 0, 'F' }, { "cs-step", required_argument, 0, 'H' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hm:s:o:", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(help, stdout); return -1;
        case 'm': *spec = optarg; break;
        case 's': *state = optarg; break;
        case 'o': *out = optarg; break;
        case 'F': o->fd_forward = 1; break;
        case 'H': if (cli_num_in("eval", "--cs-step", optarg, "(]", 0, RBD_CS_STEP_MAX, &o->cs_step)) return EXIT_USAGE; break;
        case 'M': {
            int k = 0;
            while (k < RBD_MINV_NKINDS && strcmp(rbd_minv_name((rbd_minv_kind)k), optarg)) k++;
            if (k == RBD_MINV_NKINDS)
                return cli_error("eval", EXIT_USAGE, "--minv: unknown kind '%s' (valid: analytic, ltdl, lapack)",
                                 optarg);
            o->minv = (rbd_minv_kind)k;
            break;
        }
        default: return cli_bad_option("eval", c, argv);
        }
    }
    if (optind != argc - 1) {
        cli_error("eval", EXIT_USAGE, optind >= argc ? "which method?" : "one method only, got '%s' too",
                  optind < argc - 1 ? argv[optind + 1] : "");
        return cli_usage_error("eval");
    }
    if (!*spec || !*state) {
        cli_error("eval", EXIT_USAGE, "%s is required", !*spec ? "--model SPEC" : "--state FILE");
        return cli_usage_error("eval");
    }
    return 0;
}

int cmd_eval(int argc, char **argv)
{
    const char *spec = NULL, *state = NULL, *out = NULL;
    rbd_options o;
    rbd_options_default(&o);
    int status = read_args(argc, argv, &spec, &state, &out, &o);
    if (status) return status < 0 ? EXIT_OK : status;
    cli_target t;
    if (cli_find_target("eval", argv[optind], &t)) return EXIT_USAGE;
    int place = out ? atomic_write_check(out) : RBD_OK;    /* a read-only --out: refused before the work */
    if (place) return cli_lib_error("eval", place == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL);
    rbd_model *m;
    if ((status = cli_model("eval", spec, &m))) return status;
    int bad_input = 0;
    if (eval_run("rbdiff eval", t.method, t.base, argv[optind], m, state, &o, out, &bad_input))
        status = cli_lib_error("eval", bad_input ? EXIT_USAGE : EXIT_FAIL);
    rbd_model_free(m);
    return status;
}
