/* rbdiff compare BASE NEW: per benchmark, the ratio of medians with a
 * noise-aware verdict; exit 1 on a regression beyond the threshold. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "compare.h"

static const char help[] =
    "Usage: rbdiff compare BASE NEW [--threshold PCT]\n\n"
    "BASE and NEW are rbdiff results directories, timings.csv files or Google\n"
    "Benchmark JSON files.  For every benchmark (method x model) in both, prints\n"
    "the medians, their ratio NEW/BASE and a verdict: 'faster' or 'slower' when\n"
    "the two runs' inter-quartile ranges do not overlap, else 'same within\n"
    "noise'; instruction counts too when both runs have them.  A row is a\n"
    "REGRESSION when it is slower beyond the threshold.\n\n"
    "  --threshold PCT  allowed slow-down in percent (default 10)\n"
    "  -h, --help\n\n"
    "Exit status: 0 no regression, 1 a regression (or unreadable input), 2 usage.\n";

int cmd_compare(int argc, char **argv)
{
    static const struct option opts[] = { { "threshold", required_argument, 0, 't' }, { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    double thr = 10;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ht:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return EXIT_OK; }
        if (ch == 't') {
            if (cli_num("compare", "--threshold", optarg, &thr)) return EXIT_USAGE;
            if (thr < 0) return cli_error("compare", EXIT_USAGE, "--threshold: %s must be >= 0", optarg);
        } else return cli_bad_option("compare", ch, argv);
    }
    if (argc - optind != 2) {
        cli_error("compare", EXIT_USAGE, "needs two runs, BASE and NEW");
        return cli_usage_error("compare");
    }
    timing_row *b = NULL, *n = NULL;
    int nb = 0, nn = 0;
    if (timing_rows_load(argv[optind], &b, &nb)) return cli_lib_error("compare", EXIT_FAIL);
    if (timing_rows_load(argv[optind + 1], &n, &nn)) { free(b); return cli_lib_error("compare", EXIT_FAIL); }
    int regressions = 0, common = 0, faster = 0, slower = 0;
    printf("%-40s %12s %12s %7s %8s  %s\n", "benchmark", "base_ns", "new_ns", "ratio", "instr", "verdict");
    for (int i = 0; i < nb; i++) {
        char name[700], other[700];
        timing_row_name(&b[i], name, sizeof name);
        int j = 0;
        for (; j < nn; j++) {
            timing_row_name(&n[j], other, sizeof other);
            if (!strcmp(name, other)) break;
        }
        if (j == nn) { printf("%-40s %12.1f %12s %7s %8s  only in BASE\n", name, b[i].median_ns, "-", "-", "-"); continue; }
        cmp_result r;
        compare_rows(&b[i], &n[j], thr / 100, &r);
        char ins[32] = "-";
        if (isfinite(b[i].instructions) && isfinite(n[j].instructions) && b[i].instructions > 0)
            snprintf(ins, sizeof ins, "%.3f", n[j].instructions / b[i].instructions);
        printf("%-40s %12.1f %12.1f %7.3f %8s  %s%s\n", name, b[i].median_ns, n[j].median_ns, r.ratio, ins,
               cmp_verdict_name(r.verdict), r.regression ? "  REGRESSION" : "");
        common++;
        regressions += r.regression;
        faster += r.verdict == CMP_FASTER;
        slower += r.verdict == CMP_SLOWER;
    }
    for (int j = 0; j < nn; j++) {
        char name[700], other[700];
        timing_row_name(&n[j], name, sizeof name);
        int i = 0;
        for (; i < nb; i++) {
            timing_row_name(&b[i], other, sizeof other);
            if (!strcmp(name, other)) break;
        }
        if (i == nb) printf("%-40s %12s %12.1f %7s %8s  only in NEW\n", name, "-", n[j].median_ns, "-", "-");
    }
    printf("\n%d compared: %d faster, %d slower, %d same within noise; %d regression%s beyond %g%%\n", common, faster,
           slower, common - faster - slower, regressions, regressions == 1 ? "" : "s", thr);
    free(b);
    free(n);
    if (!common) return cli_error("compare", EXIT_FAIL, "no benchmark in common between %s and %s", argv[optind], argv[optind + 1]);
    return regressions ? EXIT_FAIL : EXIT_OK;
}
