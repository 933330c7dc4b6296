/* rbdiff pack DIR: a results directory as it is committed (pack.h). */
#include <getopt.h>
#include <stdio.h>
#include <sys/stat.h>
#include "commands/cli.h"
#include "store/pack.h"

static const char help[] =
    "Usage: rbdiff pack [--unpack] DIR\n\n"
    "Packs the results directory DIR (and every results directory below it)\n"
    "the way committed sets are kept: samples.csv, the per-batch raw data,\n"
    "is compressed to samples.csv.gz (every command reads either), and the\n"
    "files other commands rebuild are removed: benchmarks.json (rebuilt by\n"
    "--unpack), plots/*.dat, and of a figure drawn both ways one format:\n"
    "PNG for the small multiples (accuracy_*, times_all), SVG for the rest\n"
    "(`rbdiff plot DIR` draws both again).  Each file is written whole before its source is\n"
    "removed.  A sweep resuming in a packed directory unpacks samples.csv\n"
    "itself.\n\n"
    "  --unpack    samples.csv.gz back to samples.csv, benchmarks.json rebuilt\n"
    "  -h, --help\n\n"
    "Each set is locked while it is packed: one that a sweep or merge is writing\n"
    "is refused.  Ctrl-C stops before the next file; what is done stays.\n\n"
    "Exit status: 0 done, 1 failure, 2 usage (e.g. DIR does not exist, a set in\n"
    "use, a malformed table), 130 interrupted (rerun to finish).\n";

int cmd_pack(int argc, char **argv)
{
    static const struct option opts[] = { { "unpack", no_argument, 0, 'u' }, { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    int ch, unpack = 0;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hu", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return EXIT_OK; }
        if (ch == 'u') unpack = 1;
        else return cli_bad_option("pack", ch, argv);
    }
    if (argc - optind != 1) {
        cli_error("pack", 0, "needs one results directory");
        return cli_usage_error("pack");
    }
    const char *dir = argv[optind];
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) return cli_error("pack", EXIT_USAGE, "%s: no such directory", dir);
    cli_catch_interrupt();
    int rc = unpack ? results_unpack(dir, &cli_interrupted) : results_pack(dir, &cli_interrupted);
    if (rc == PACK_INTERRUPTED)
        return cli_error("pack", EXIT_INTERRUPTED, "interrupted; the file in progress is left as it was (no .tmp), "
                         "the ones done stay %s; rerun to finish", unpack ? "unpacked" : "packed");
    if (rc) return cli_lib_error("pack", rc == RBD_EINVAL || rc == RBD_EPARSE ? EXIT_USAGE : EXIT_FAIL);
    return EXIT_OK;
}
