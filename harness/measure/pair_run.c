/* `rbdiff pair`'s run (pair_run.h). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "measure/bench.h"
#include "measure/pair_run.h"
#include "store/rows.h"

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

int pair_add_build(pair_args *a, char *v)
{
    char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1]) return rbd_fail(RBD_EINVAL, "--build '%s': want LABEL=PATH", v);
    if (a->nb == PAIR_MAX_BUILDS) return rbd_fail(RBD_EINVAL, "--build: at most %d builds", PAIR_MAX_BUILDS);
    *eq = 0;
    for (int b = 0; b < a->nb; b++)
        if (!strcmp(a->labels[b], v)) return rbd_fail(RBD_EINVAL, "--build: label '%s' given twice", v);
    for (const char *p = v; *p; p++)
        if (*p == ',' || *p == '"' || *p == ' ') return rbd_fail(RBD_EINVAL, "--build label '%s': no commas, quotes or spaces", v);
    if (strlen(v) >= sizeof(((pair_row *)0)->build))
        return rbd_fail(RBD_EINVAL, "--build label '%s': longer than %zu characters", v,
                         sizeof(((pair_row *)0)->build) - 1);
    a->labels[a->nb] = v;
    a->paths[a->nb++] = eq + 1;
    return RBD_OK;
}

/* The cells and the workers, once the input is checked; the workers
 * started are in w[0..*started-1]. */
static int run_workers(const char *cmd, const pair_args *a, const sweep_config *c, const bench_model *bm, int nbm,
                       pair_cell *cells, pair_worker *w, int *started, volatile sig_atomic_t *stop, int *bad_input)
{
    int nc = nbm * c->nmethods;
    for (int j = 0, i = 0; j < nbm; j++)
        for (int m = 0; m < c->nmethods; m++, i++) cells[i].method = c->methods[m], cells[i].spec = bm[j].spec;
    char buf[16][64], *args[17];
    worker_args(c, buf, args);
    signal(SIGPIPE, SIG_IGN);   /* a worker that died is an error of its answer, not a signal */
    int M = a->instances;
    for (; *started < a->nb * M; (*started)++)
        if (pair_worker_start(&w[*started], a->labels[*started / M], a->paths[*started / M], args)) {
            *bad_input = 1;
            return RBD_EINVAL;
        }
    for (int b = 0; b < a->nb; b++) fprintf(stderr, "rbdiff %s: %s = %s\n", cmd, a->labels[b], w[b * M].build_id);
    int rc = pair_prepare(w, a->nb, M, cells, nc);
    if (!rc) rc = pair_rounds(w, a->nb, M, cells, nc, a->rounds, stop);
    return rc == 1 || *stop ? 1 : rc;
}

void pair_result_free(pair_result *r)
{
    free(r->cells);
    free(r->bm);
    memset(r, 0, sizeof *r);
}

int pair_run(const char *cmd, pair_args *a, const sweep_config *c, volatile sig_atomic_t *stop, pair_result *r,
             int *bad_input)
{
    *bad_input = 1;
    memset(r, 0, sizeof *r);
    if (a->nb < 2) return rbd_fail(RBD_EINVAL, "need at least two --build LABEL=PATH (see --help)");
    if (!c->nmethods) return rbd_fail(RBD_EINVAL, "--methods LIST is required");
    if (!c->nN && !c->nmodels && !c->nrobots) return rbd_fail(RBD_EINVAL, "--N LIST, --model or --robots is required");
    for (a->ref = 0; a->reference && a->ref < a->nb && strcmp(a->labels[a->ref], a->reference); a->ref++) {}
    if (a->ref == a->nb) return rbd_fail(RBD_EINVAL, "--reference %s: not a --build label", a->reference);
    sweep_config cc = *c;
    if (!cc.nbf) { static double one = 1; cc.bf = &one; cc.nbf = 1; }
    int nbm = 0, rc = bench_models(&cc, &r->bm, &nbm);
    if (rc) *bad_input = 0;
    else rc = bench_models_check(r->bm, nbm);
    r->nc = nbm * c->nmethods;
    if (!rc && !(r->cells = calloc((size_t)r->nc, sizeof *r->cells))) *bad_input = 0, rc = rbd_fail(RBD_ENOMEM, "out of memory");
    pair_worker w[PAIR_MAX_BUILDS * PAIR_MAX_INSTANCES];
    int started = 0;
    if (!rc) {
        *bad_input = 0;
        rc = run_workers(cmd, a, c, r->bm, nbm, r->cells, w, &started, stop, bad_input);
    }
    for (int b = 0; b < started; b++) pair_worker_stop(&w[b]);
    return rc;
}
