/* rbdiff compare BASE NEW: per benchmark, the ratio of medians with a
 * noise-aware verdict (compare.h); exit 1 on a regression beyond the
 * threshold. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "report/compare.h"

static const char help[] =
    "Usage: rbdiff compare BASE NEW [--threshold PCT] [--ins-threshold PCT] [--alpha P]\n\n"
    "BASE and NEW are rbdiff results directories, timings.csv files, Google\n"
    "Benchmark JSON files or instructions.csv files (scripts/instructions).\n"
    "For every benchmark (method x model) in both, prints the medians, their\n"
    "ratio NEW/BASE and a verdict on the times: with >= 5 timed batches on both\n"
    "sides (samples.csv, or a JSON's repetitions) a one-sided Mann-Whitney U\n"
    "test on the batches ('slower' or 'faster' at p <= --alpha), otherwise\n"
    "'slower'/'faster' only when the runs' inter-quartile ranges do not overlap;\n"
    "else 'same within noise'.  A row is a REGRESSION when it is slower and its\n"
    "median grew beyond --threshold, or when both runs counted instructions per\n"
    "call and the count grew beyond --ins-threshold (counts do not suffer from\n"
    "timing noise, so that holds whatever the times say).\n\n"
    "  --threshold PCT      allowed slow-down of the median in percent (default 10)\n"
    "  --ins-threshold PCT  allowed growth of instructions per call (default 2)\n"
    "  --alpha P            significance of the rank test (default 0.01)\n"
    "  -h, --help\n\n"
    "Columns: p = one-sided p-value of the rank test ('iqr' when the quartiles\n"
    "decided), instr = NEW/BASE instructions per call ('-' if either lacks them).\n"
    "Exit status: 0 no regression, 1 a regression, 2 the input is wrong (a run\n"
    "missing or malformed, no benchmark in common, bad options).\n";

int cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = { { "threshold", required_argument, 0, 't' },
                                          { "ins-threshold", required_argument, 0, 'i' },
                                          { "alpha", required_argument, 0, 'a' }, { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    cmp_opts o;
    cmp_opts_default(&o);
    double thr = 100 * o.threshold, ithr = 100 * o.ins_threshold;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ht:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return EXIT_OK; }
        if (ch == 't' || ch == 'i') {
            double *dst = ch == 't' ? &thr : &ithr;
            if (cli_num("compare", ch == 't' ? "--threshold" : "--ins-threshold", optarg, dst)) return EXIT_USAGE;
            if (*dst < 0) return cli_error("compare", EXIT_USAGE, "%s: %s must be >= 0",
                                           ch == 't' ? "--threshold" : "--ins-threshold", optarg);
        } else if (ch == 'a') {
            if (cli_num("compare", "--alpha", optarg, &o.alpha)) return EXIT_USAGE;
            if (!(o.alpha > 0 && o.alpha < 0.5)) return cli_error("compare", EXIT_USAGE, "--alpha: %s is out of range (0, 0.5)", optarg);
        } else return cli_bad_option("compare", ch, argv);
    }
    o.threshold = thr / 100;
    o.ins_threshold = ithr / 100;
    if (argc - optind != 2) {
        cli_error("compare", EXIT_USAGE, "needs two runs, BASE and NEW");
        return cli_usage_error("compare");
    }
    timing_row *b = NULL, *n = NULL;
    int nb = 0, nn = 0;
    if (timing_rows_load(argv[optind], &b, &nb)) return cli_lib_error("compare", EXIT_USAGE);
    if (timing_rows_load(argv[optind + 1], &n, &nn)) { free(b); return cli_lib_error("compare", EXIT_USAGE); }
    int regressions = compare_runs(stdout, b, nb, n, nn, &o, argv[optind], argv[optind + 1]);
    free(b);
    free(n);
    if (regressions < 0) return cli_lib_error("compare", regressions == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL);
    return regressions ? EXIT_FAIL : EXIT_OK;
}
