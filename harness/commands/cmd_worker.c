/* rbdiff worker: the long-lived measuring process `rbdiff pair` starts in
 * each build (measure/worker.h has the protocol). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "commands/cli.h"
#include "measure/bench.h"
#include "measure/worker.h"
#include "store/meta.h"

static const char help[] =
    "Usage: rbdiff worker [--pin CPU] [--seed S] [--pool P] [--batch-ms MS] [--warmup-ms MS]\n"
    "                     [--counters no] [--minv KIND] [...method options of rbdiff time]\n\n"
    "Serves `rbdiff pair`: reads requests on stdin, one per line, and answers each\n"
    "with one line on stdout (harness/measure/worker.h):\n"
    "  prep ID METHOD SPEC   build the model, warm up and calibrate -> ok ID CALLS NV | skip ID WHY\n"
    "  run ID                one batch -> t ID NS_PER_CALL INSTRUCTIONS_PER_CALL|-\n"
    "  quit\n"
    "Its first line names the build: ready rbdiff-worker 1 BUILD_ID.\n";

int cmd_worker(int argc, char **argv)
{
    sweep_config c;
    sweep_config_init(&c);
    perfctr *pc = NULL;
    const cli_flags fl = { .no_config = 1 };
    int status = cli_config_args("worker", argc, argv, help, &fl, &c, NULL);
    if (status) { status = status < 0 ? EXIT_OK : status; goto done; }
    if (optind < argc) { status = cli_error("worker", EXIT_USAGE, "unexpected argument '%s'", argv[optind]); goto done; }
    status = EXIT_FAIL;
    if (bench_setup(&c)) { status = cli_lib_error("worker", EXIT_USAGE); goto done; }
    pc = bench_counters("worker", c.counters);
    worker_opts o;
    timing_opts_default(&o.t);
    o.t.warmup_ns = c.warmup_ms * 1e6;
    o.t.batch_ns = c.batch_ms * 1e6;
    o.t.pc = pc;
    o.t.stop = &cli_interrupted;
    o.pool = c.pool;
    o.seed = c.seed;
    sweep_config_method_options(&c, &o.opt);
    cli_catch_interrupt();
    printf("ready rbdiff-worker 1 %s\n", meta_build_id());
    fflush(stdout);
    status = worker_serve(stdin, stdout, &o) ? EXIT_INTERRUPTED : EXIT_OK;
done:
    if (pc) perfctr_close(pc);
    sweep_config_free(&c);
    return status;
}
