/* rbdiff report DIR: report.md, the paper's figures beside the paper's own
 * claims (harness/report/paper_claims.tsv), each with a verdict computed from the
 * directory's data (report_claims.c). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "commands/cli.h"
#include "common/datadir.h"
#include "report/report_md.h"

static const char help[] =
    "Usage: rbdiff report DIR [--with DIR2] [--claims FILE]\n\n"
    "Writes DIR/report.md: per paper figure (Figs. 2-7, Table III, the accuracy\n"
    "of Sec. V.A, second order) its plots from DIR/plots (`rbdiff plot` first) and a table of\n"
    "the paper's claims about it (FILE, default harness/report/paper_claims.tsv of the\n"
    "data root that rbdiff --version prints; a header line names its columns, then\n"
    "one claim a line: source, the paper's number, the measured one, a verdict).\n"
    "The verdicts come from DIR's timings.csv (paired ratios, as tables.md),\n"
    "crossover.csv and accuracy.csv: reproduced (within the claim's factor),\n"
    "differs (by how much, and the setting the paper used where it is known to\n"
    "differ), or not measured in this run.  --with DIR2: a second build's run\n"
    "(scripts/run: clang) for the claims about it (Fig. 5, Table III).\n";

int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = { { "with", required_argument, 0, 'w' },
                                          { "claims", required_argument, 0, 'c' },
                                          { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    char shipped_claims[3000];
    data_path(shipped_claims, sizeof shipped_claims, "harness/report/paper_claims.tsv");
    const char *with = NULL, *claims = shipped_claims;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (ch) {
        case 'h': fputs(help, stdout); return EXIT_OK;
        case 'w': with = optarg; break;
        case 'c': claims = optarg; break;
        default: return cli_bad_option("report", ch, argv);
        }
    }
    if (argc - optind != 1) {
        cli_error("report", EXIT_USAGE, "needs one results directory");
        return cli_usage_error("report");
    }
    const char *dir = argv[optind];
    /* the directories and the claims are the input: refused with 2 (README,
     * exit statuses) before report.md is written */
    for (int k = 0; k < 2; k++) {
        const char *p = k ? with : dir;
        struct stat st;
        if (p && (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)))
            return cli_error("report", EXIT_USAGE, "'%s' is not a results directory", p);
    }
    int shipped = claims == shipped_claims, bad_input = 0;
    char *out = NULL;
    if (report_md_write(dir, with, claims, shipped ? "harness/report/paper_claims.tsv" : claims, &out, &bad_input))
        return cli_lib_error("report", bad_input ? EXIT_USAGE : EXIT_FAIL);
    printf("%s\n", out);
    free(out);
    return EXIT_OK;
}
