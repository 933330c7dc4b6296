/* rbdiff merge OUT DIR...: joins the results of sweep shards (shard.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "commands/cli.h"
#include "store/lock.h"
#include "store/meta.h"
#include "store/shard.h"
#include "report/report.h"

static const char help[] =
    "Usage: rbdiff merge [--force] OUT DIR1 [DIR2 ...]\n\n"
    "Joins results directories (the shards of `rbdiff sweep --shard K/N`)\n"
    "into the new directory OUT: timings.csv, samples.csv, crossover.csv,\n"
    "crossover_probes.csv, "
    "accuracy.csv and instructions.csv rows are joined (a cell present twice\n"
    "keeps its first row), meta.json lists every shard (build, shard, host,\n"
    "invocations), tables.md and benchmarks.json are regenerated.  The set\n"
    "is written into a staging directory beside OUT and swapped in at the\n"
    "end: OUT holds the whole merge or nothing of it.\n\n"
    "  --force     merge results of different builds (meta.json build_id)\n"
    "  -h, --help\n\n"
    "Exit status: 0 merged, 1 a file could not be written, 2 the input is wrong\n"
    "(a directory missing or malformed, shards of different builds without\n"
    "--force, OUT already holding results or being written by another run),\n"
    "130 interrupted at any moment (nothing written into OUT).\n";

int cmd_merge(int argc, char **argv)
{
    static const struct option opts[] = { { "force", no_argument, 0, 'f' }, { "help", no_argument, 0, 'h' },
                                          { 0, 0, 0, 0 } };
    int ch, force = 0;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hf", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return EXIT_OK; }
        if (ch == 'f') force = 1;
        else return cli_bad_option("merge", ch, argv);
    }
    if (argc - optind < 2) {
        cli_error("merge", 0, "needs OUT and at least one results directory");
        return cli_usage_error("merge");
    }
    char *cl = meta_cmdline(cli_argc, cli_argv);
    int bad_input = 0;
    /* one writer of OUT for the whole merge (lock.h); a refusal removes OUT
     * again when the lock made it */
    results_lock lk;
    int rc = results_lock_take(&lk, argv[optind], cl);
    if (rc) { free(cl); return cli_lib_error("merge", rc == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL); }
    cli_catch_interrupt();
    rc = merge_results(argv[optind], argv + optind + 1, argc - optind - 1, force, cl, report_write_derived, &bad_input,
                       &cli_interrupted);
    free(cl);
    results_lock_release(&lk, rc != RBD_OK);     /* a failed merge wrote nothing into OUT (staging.h) */
    if (rc == MERGE_INTERRUPTED)
        return cli_error("merge", EXIT_INTERRUPTED, "interrupted; nothing was written into %s; rerun to merge",
                         argv[optind]);
    if (rc) return cli_lib_error("merge", bad_input ? EXIT_USAGE : EXIT_FAIL);
    printf("%s\n", argv[optind]);
    return EXIT_OK;
}
