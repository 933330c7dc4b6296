/* rbdiff pair: several builds timed in the same rounds (measure/pairing.h),
 * each build's time over the reference build's per round; exit 1 on a
 * regression. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "commands/cli.h"
#include "measure/bench.h"
#include "measure/pairing.h"
#include "report/pair_table.h"
#include "store/results.h"

static const char help[] =
    "Usage: rbdiff pair --build LABEL=PATH --build LABEL=PATH [...] --methods LIST\n"
    "                   (--N LIST [--bf LIST] | --model SPEC | --robots LIST) [options]\n\n"
    "Times the same methods on the same models in several builds of rbdiff\n"
    "(compilers, flags, commits) in the same rounds.  Each PATH is started once as\n"
    "`PATH worker` (a long-lived process, pinned with --pin as `rbdiff time` is);\n"
    "each worker warms up and calibrates every cell, then every round asks each\n"
    "build for one batch of each cell, the builds' order rotating; a batch is 5\n"
    "slices back to back and counts the fastest (harness/measure/worker.h).  Per method and\n"
    "model it prints each build's median over the rounds of its time over the\n"
    "reference build's in the same round, the quartiles of that ratio, w/K (the\n"
    "rounds in which the build was the slower), the one-sided sign test and, where\n"
    "the machine has hardware counters, the median ratio of instructions per call.\n"
    "A cell is SLOWER when the median ratio exceeds 1 + threshold and the sign test\n"
    "gives p <= alpha; FASTER likewise below 1 - threshold.\n\n"
    "  --build LABEL=PATH  a build's rbdiff program (repeatable, 2 to 16)\n"
    "  --reference LABEL   the build the others are divided by (default the first)\n"
    "  --rounds K          rounds (default 18, at most 201)\n"
    "  --instances M       worker processes per build (default 3, at most 8): round k\n"
    "                      pairs different processes, so no one process's memory layout\n"
    "                      decides the ratio (harness/measure/pairing.h)\n"
    "  --threshold PCT     regression threshold on the median ratio (default 3)\n"
    "  --alpha P           sign-test level (default 0.05)\n"
    "  --out DIR           also write DIR/pair.csv (one row per cell and build) and\n"
    "                      DIR/pair_samples.csv (every batch: ns and instructions per call)\n"
    "  --methods LIST --N LIST --bf LIST --model SPEC --robots LIST --skew X --taper X\n"
    "  --seed S --pool P --batch-ms MS --warmup-ms MS --pin CPU --counters no, and the\n"
    "  method options of `rbdiff time` (--minv, --fdsva-crossover, --fdsva-dmm,\n"
    "  --zeros-preset): passed to every worker\n"
    "  -h, --help\n\n"
    "Exit status: 0 no cell slower; 1 a cell SLOWER (a regression) or a worker\n"
    "failed; 2 the input is wrong; 130 interrupted.\n";

typedef struct {
    const char *labels[PAIR_MAX_BUILDS], *paths[PAIR_MAX_BUILDS];
    int nb, ref, rounds, instances;
    const char *reference, *out;
    double threshold, alpha;
} pair_args;

/* The flags every worker gets: what the timing and the methods depend on. */
static int worker_args(const sweep_config *c, char buf[16][64], char **args)
{
    int n = 0;
#define ARG(...) (snprintf(buf[n], sizeof buf[n], __VA_ARGS__), args[n] = buf[n], n++)
    ARG("--pin"), ARG("%d", c->pin);
    ARG("--seed"), ARG("%llu", (unsigned long long)c->seed);
    ARG("--pool"), ARG("%d", c->pool);
    ARG("--batch-ms"), ARG("%.17g", c->batch_ms);
    ARG("--warmup-ms"), ARG("%.17g", c->warmup_ms);
    ARG("--counters"), ARG("%s", c->counters ? "yes" : "no");
    ARG("--blas-threads"), ARG("%d", c->blas_threads);
#undef ARG
    args[n] = NULL;
    return n;
}

static int parse_build(pair_args *a, char *v)
{
    char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1]) return cli_error("pair", EXIT_USAGE, "--build '%s': want LABEL=PATH", v);
    if (a->nb == PAIR_MAX_BUILDS) return cli_error("pair", EXIT_USAGE, "--build: at most %d builds", PAIR_MAX_BUILDS);
    *eq = 0;
    for (int b = 0; b < a->nb; b++)
        if (!strcmp(a->labels[b], v)) return cli_error("pair", EXIT_USAGE, "--build: label '%s' given twice", v);
    for (const char *p = v; *p; p++)
        if (*p == ',' || *p == '"' || *p == ' ') return cli_error("pair", EXIT_USAGE, "--build label '%s': no commas, quotes or spaces", v);
    if (strlen(v) >= sizeof(((pair_row *)0)->build))
        return cli_error("pair", EXIT_USAGE, "--build label '%s': longer than %zu characters", v,
                         sizeof(((pair_row *)0)->build) - 1);
    a->labels[a->nb] = v;
    a->paths[a->nb++] = eq + 1;
    return 0;
}

int pair_main(pair_args *a, const sweep_config *c);

int cmd_pair(int argc, char **argv)
{
    static const struct option extra[] = { { "build", required_argument, 0, 'b' }, { "reference", required_argument, 0, 'r' },
                                           { "rounds", required_argument, 0, 'k' }, { "threshold", required_argument, 0, 't' },
                                           { "alpha", required_argument, 0, 'a' }, { "out", required_argument, 0, 'o' },
                                           { "instances", required_argument, 0, 'i' }, { "help", no_argument, 0, 'h' } };
    struct option *opts = sweep_options(extra, 8);
    if (!opts) return cli_error("pair", EXIT_FAIL, "out of memory");
    sweep_config c;
    sweep_config_init(&c);
    pair_args a = { .rounds = 18, .instances = 3, .threshold = 0.03, .alpha = 0.05 };
    int ch, status = EXIT_USAGE;
    long K = 18;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); status = EXIT_OK; goto done; }
        if (ch >= SWEEP_OPT_BASE) {
            if (sweep_config_flag(&c, ch - SWEEP_OPT_BASE, optarg)) { cli_lib_error("pair", 0); goto done; }
            continue;
        }
        double x;
        switch (ch) {
        case 'b': if (parse_build(&a, optarg)) goto done; break;
        case 'r': a.reference = optarg; break;
        case 'k': if (cli_int("pair", "--rounds", optarg, 1, PAIR_MAX_ROUNDS, &K)) goto done; a.rounds = (int)K; break;
        case 't':
            if (cli_num("pair", "--threshold", optarg, &x)) goto done;
            if (!(x >= 0 && x < 100)) { cli_error("pair", 0, "--threshold %s: want a percentage in [0, 100)", optarg); goto done; }
            a.threshold = x / 100;
            break;
        case 'a':
            if (cli_num("pair", "--alpha", optarg, &x)) goto done;
            if (!(x > 0 && x < 1)) { cli_error("pair", 0, "--alpha %s: want a level in (0, 1)", optarg); goto done; }
            a.alpha = x;
            break;
        case 'o': a.out = optarg; break;
        case 'i':
            if (cli_int("pair", "--instances", optarg, 1, PAIR_MAX_INSTANCES, &K)) goto done;
            a.instances = (int)K;
            break;
        default: cli_bad_option("pair", ch, argv); goto done;
        }
    }
    if (optind < argc) { cli_error("pair", 0, "unexpected argument '%s'", argv[optind]); goto done; }
    status = pair_main(&a, &c);
done:
    sweep_config_free(&c);
    free(opts);
    return status;
}

int pair_main(pair_args *a, const sweep_config *c)
{
    if (a->nb < 2) return cli_error("pair", EXIT_USAGE, "need at least two --build LABEL=PATH (see --help)");
    if (!c->nmethods) return cli_error("pair", EXIT_USAGE, "--methods LIST is required");
    if (!c->nN && !c->nmodels && !c->nrobots) return cli_error("pair", EXIT_USAGE, "--N LIST, --model or --robots is required");
    for (a->ref = 0; a->reference && a->ref < a->nb && strcmp(a->labels[a->ref], a->reference); a->ref++) {}
    if (a->ref == a->nb) return cli_error("pair", EXIT_USAGE, "--reference %s: not a --build label", a->reference);
    sweep_config cc = *c;
    if (!cc.nbf) { static double one = 1; cc.bf = &one; cc.nbf = 1; }
    bench_model *bm = NULL;
    int nbm = 0;
    if (bench_models(&cc, &bm, &nbm)) return cli_lib_error("pair", EXIT_FAIL);
    int status = bench_models_check(bm, nbm) ? cli_lib_error("pair", EXIT_USAGE) : EXIT_OK;
    int nc = nbm * c->nmethods;
    pair_cell *cells = status ? NULL : calloc((size_t)nc, sizeof *cells);
    pair_worker w[PAIR_MAX_BUILDS * PAIR_MAX_INSTANCES];
    int started = 0;
    if (status) goto done;
    status = EXIT_FAIL;
    if (!cells) { cli_error("pair", 0, "out of memory"); goto done; }
    for (int j = 0, i = 0; j < nbm; j++)
        for (int m = 0; m < c->nmethods; m++, i++) cells[i].method = c->methods[m], cells[i].spec = bm[j].spec;
    char buf[16][64], *args[17];
    worker_args(c, buf, args);
    signal(SIGPIPE, SIG_IGN);   /* a worker that died is an error of its answer, not a signal */
    int M = a->instances;
    for (; started < a->nb * M; started++)
        if (pair_worker_start(&w[started], a->labels[started / M], a->paths[started / M], args)) {
            status = cli_lib_error("pair", EXIT_USAGE);
            goto done;
        }
    for (int b = 0; b < a->nb; b++) fprintf(stderr, "rbdiff pair: %s = %s\n", a->labels[b], w[b * M].build_id);
    cli_catch_interrupt();
    int rc = pair_prepare(w, a->nb, M, cells, nc);
    if (!rc) rc = pair_rounds(w, a->nb, M, cells, nc, a->rounds, &cli_interrupted);
    if (rc == 1 || cli_interrupted) { status = cli_error("pair", EXIT_INTERRUPTED, "interrupted; nothing written"); goto done; }
    if (rc) { cli_lib_error("pair", 0); goto done; }
    pair_judging jd = { a->labels, a->nb, a->ref, a->rounds, a->threshold, a->alpha };
    int slower = pair_print_table(&jd, cells, nc);
    if (a->out && pair_write_tables(a->out, &jd, cells, nc)) { cli_lib_error("pair", 0); goto done; }
    status = slower ? EXIT_FAIL : EXIT_OK;
    if (slower) fprintf(stderr, "rbdiff pair: %d cell%s SLOWER than %s\n", slower, slower > 1 ? "s" : "", a->labels[a->ref]);
done:
    for (int b = 0; b < started; b++) pair_worker_stop(&w[b]);
    free(cells);
    free(bm);
    return status;
}
