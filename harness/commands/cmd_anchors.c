/* rbdiff anchors RESULTS: RESULTS/vs-<peer>.md from the peers' live rounds
 * (vs_peer.h); without a live Pinocchio, the run against the stored
 * Pinocchio figures and the machine floors (anchors.h, a fallback). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/anchors_runs.h"
#include "commands/cli.h"
#include "common/datadir.h"

static const char help[] =
    "Usage: rbdiff anchors RESULTS [RESULTS...] [--anchors DIR] [--table KEY] [--stat median|min] [--out FILE] [--no-write] [--check]\n\n"
    "When RESULTS is a results directory whose sweep timed live peers (sweep --peers),\n"
    "writes RESULTS/vs-<peer>.md for each from those rounds (vs_peer.h): ours / peer\n"
    "paired, what each side writes, the cross-check, the issues' targets.  Only\n"
    "without a live Pinocchio it falls back to the stored figures:\n\n"
    "Compares the median ns per call of a results directory (or a timings.csv or\n"
    "Google Benchmark JSON file) with Pinocchio 3.7.0's figures on this machine\n"
    "kind (DIR/pinocchio-timings.csv) and with the output-write floor of\n"
    "DIR/machine-limits.csv: idsva <-> rnea_derivs, fdsva(-aza) <-> aba_derivs,\n"
    "fdsva-dmm and pin26-fd <-> fd_via_id, rnea, aba, minv <-> the same.  Prints a\n"
    "markdown table with the ratios, issue 10's targets and pass/FAIL, and writes\n"
    "it to RESULTS/vs-pinocchio.md (beside the file when RESULTS is a file).\n"
    "With several RESULTS (repeated runs of the same sweep), each of our figures\n"
    "is the median over the runs that have it, as Pinocchio's are medians over\n"
    "runs, and the table goes to the first RESULTS (or --out).\n\n"
    "  --anchors DIR  the anchors directory (default tests/pinocchio/anchors of the data root)\n"
    "  --table KEY    Pinocchio's build (the csv's build column): clang-native (default,\n"
    "                 its best), gcc-native, gcc-plain\n"
    "  --stat S       our figure: median (default) or min ns per call (the min of the\n"
    "                 batches resists load from other processes on a shared machine)\n"
    "  --out FILE     write the table there instead (atomically)\n"
    "  --no-write     print only\n"
    "  --check        exit 1 when a target is missed\n"
    "  -h, --help\n";

int cmd_anchors(int argc, char **argv)
{
    static const struct option opts[] = { { "anchors", required_argument, 0, 'a' }, { "table", required_argument, 0, 't' },
                                          { "no-write", no_argument, 0, 'n' }, { "out", required_argument, 0, 'o' }, { "stat", required_argument, 0, 's' }, { "check", no_argument, 0, 'c' },
                                          { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    char defdir[3000];
    data_path(defdir, sizeof defdir, "tests/pinocchio/anchors");
    const char *dir = defdir, *key = "clang-native";
    int nowrite = 0, check = 0, use_min = 0, ch;
    const char *outpath = NULL;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ha:t:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return EXIT_OK; }
        else if (ch == 'a') dir = optarg;
        else if (ch == 't') key = optarg;
        else if (ch == 'n') nowrite = 1;
        else if (ch == 'o') outpath = optarg;
        else if (ch == 'c') check = 1;
        else if (ch == 's') {
            if (!strcmp(optarg, "min")) use_min = 1;
            else if (strcmp(optarg, "median"))
                return cli_error("anchors", EXIT_USAGE, "--stat: '%s' is neither median nor min", optarg);
        }
        else return cli_bad_option("anchors", ch, argv);
    }
    if (argc - optind < 1) {
        cli_error("anchors", EXIT_USAGE, "needs a results directory or timings file");
        return cli_usage_error("anchors");
    }
    const char *res = argv[optind];
    const int nruns = argc - optind;
    int live_pin = 0, lmissed = 0, lrc = anchors_live(res, nowrite, outpath, &live_pin, &lmissed);
    if (lrc < 0) lrc = cli_lib_error("anchors", EXIT_FAIL);
    else lrc = lrc ? -1 : check && lmissed ? EXIT_FAIL : EXIT_OK;   /* -1: not a results directory */
    if (lrc >= 0 && live_pin) return lrc;
    anchors_job j = { dir, key, argv + optind, nruns, use_min, nowrite, outpath };
    int missed = 0, bad_input = 0, rc = EXIT_OK;
    if (anchors_fallback(&j, &missed, &bad_input)) rc = cli_lib_error("anchors", bad_input ? EXIT_USAGE : EXIT_FAIL);
    if (rc == EXIT_OK && check && missed) rc = EXIT_FAIL;
    /* the live peers other than Pinocchio (vs-mujoco.md) keep their status too */
    if (rc == EXIT_OK && lrc > 0) rc = lrc;
    return rc;
}
