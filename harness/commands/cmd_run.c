/* rbdiff run METHOD --model SPEC --calls C: exactly C evaluations and no
 * clock, so a tool that counts (valgrind --tool=callgrind, perf stat) sees
 * the method and nothing else; scripts/instructions subtracts two such runs
 * with different C so set-up cost cancels (issue 8). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "measure/roofline.h"

static const char help[] =
    "Usage: rbdiff run METHOD --model SPEC --calls C [--pool P] [--seed S]\n\n"
    "Evaluates METHOD (a registered method, a base algorithm or dgemm) C times\n"
    "on the model, cycling through a pool of P random states (default 32),\n"
    "without timing anything, then prints 'METHOD MODEL C calls'.  Meant to\n"
    "run under a counting tool; see scripts/instructions.\n\n"
    "  --model SPEC   e.g. autotree:N=100,bf=1 or urdf:PATH[,OPTION]... (README.md, \"Model options\")\n"
    "  --calls C      number of evaluations (>= 0)\n"
    "  -h, --help\n";

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = { { "model", required_argument, 0, 'm' }, { "calls", required_argument, 0, 'c' },
                                          { "pool", required_argument, 0, 'p' }, { "seed", required_argument, 0, 's' },
                                          { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    const char *spec = NULL;
    long calls = -1, pool = 32, seed = 1;
    int ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":hm:c:", opts, NULL)) != -1) {
        switch (ch) {
        case 'h': fputs(help, stdout); return EXIT_OK;
        case 'm': spec = optarg; break;
        case 'c': if (cli_int("run", "--calls", optarg, 0, 1L << 40, &calls)) return EXIT_USAGE; break;
        case 'p': if (cli_int("run", "--pool", optarg, 1, 1 << 20, &pool)) return EXIT_USAGE; break;
        case 's': if (cli_int("run", "--seed", optarg, 0, (1L << 62), &seed)) return EXIT_USAGE; break;
        default: return cli_bad_option("run", ch, argv);
        }
    }
    if (argc - optind != 1 || !spec || calls < 0) {
        cli_error("run", 0, "needs METHOD, --model SPEC and --calls C");
        return cli_usage_error("run");
    }
    const char *name = argv[optind];
    cli_target tg = { NULL, NULL };
    if (strcmp(name, ROOFLINE_NAME) && cli_find_target("run", name, &tg)) return EXIT_USAGE;
    rbd_model *m;
    if (cli_model("run", spec, &m)) return EXIT_USAGE;
    rbd_timeable t;
    int rc = tg.method ? timeable_method(tg.method, m, NULL, (int)pool, (uint64_t)seed, &t)
             : tg.base ? timeable_base(tg.base, m, (int)pool, (uint64_t)seed, &t)
                       : timeable_dgemm(m->nv, (uint64_t)seed, &t);
    if (rc) { rbd_model_free(m); return cli_lib_error("run", rc == RBD_ENOTSUP ? EXIT_USAGE : EXIT_FAIL); }
    int k = 0;
    for (long c = 0; c < calls && !rc; c++) {
        rc = t.call(t.ctx, k);
        if (++k == t.pool) k = 0;
    }
    timeable_free(&t);
    rbd_model_free(m);
    if (rc) return cli_lib_error("run", EXIT_FAIL);
    printf("%s %s %ld calls\n", name, spec, calls);
    return EXIT_OK;
}
