/* Paired rounds across builds: the worker processes and the rounds (pairing.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "measure/crossover.h"
#include "measure/pairing.h"
#include "rbdiff/rbd.h"

int pair_worker_start(pair_worker *w, const char *label, const char *path, char *const *args)
{
    memset(w, 0, sizeof *w);
    w->label = label;
    w->path = path;
    if (access(path, X_OK)) return rbd_fail(RBD_EINVAL, "--build %s=%s: %s", label, path, strerror(errno));
    int down[2], up[2];
    if (pipe(down)) return rbd_fail(RBD_EIO, "pipe: %s", strerror(errno));
    if (pipe(up)) { close(down[0]), close(down[1]); return rbd_fail(RBD_EIO, "pipe: %s", strerror(errno)); }
    int n = 0;
    while (args && args[n]) n++;
    char **argv = calloc((size_t)n + 3, sizeof *argv);
    if (!argv) return rbd_fail(RBD_ENOMEM, "out of memory");
    argv[0] = (char *)path;
    argv[1] = "worker";
    for (int i = 0; i < n; i++) argv[2 + i] = args[i];
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(down[0], 0), dup2(up[1], 1);
        close(down[0]), close(down[1]), close(up[0]), close(up[1]);
        execv(path, argv);
        _exit(127);
    }
    free(argv);
    close(down[0]), close(up[1]);
    if (pid < 0) { close(down[1]), close(up[0]); return rbd_fail(RBD_EIO, "fork: %s", strerror(errno)); }
    w->pid = pid;
    w->to = fdopen(down[1], "w");
    w->from = fdopen(up[0], "r");
    char line[640];
    if (!w->to || !w->from || !fgets(line, sizeof line, w->from)) {
        pair_worker_stop(w);
        return rbd_fail(RBD_EINVAL, "--build %s=%s: no worker started (is it an rbdiff with the 'worker' command?)",
                        label, path);
    }
    line[strcspn(line, "\n")] = 0;
    const char *pre = "ready rbdiff-worker 1 ";
    if (strncmp(line, pre, strlen(pre))) {
        pair_worker_stop(w);
        return rbd_fail(RBD_EINVAL, "--build %s=%s: unexpected first line '%s'", label, path, line);
    }
    snprintf(w->build_id, sizeof w->build_id, "%.500s", line + strlen(pre));
    return RBD_OK;
}

int pair_worker_ask(pair_worker *w, const char *req, char *ans, size_t len)
{
    if (fprintf(w->to, "%s\n", req) < 0 || fflush(w->to) || !fgets(ans, (int)len, w->from))
        return rbd_fail(RBD_EIO, "build %s (%s): the worker stopped answering (at '%s')", w->label, w->path, req);
    ans[strcspn(ans, "\n")] = 0;
    return RBD_OK;
}

void pair_worker_stop(pair_worker *w)
{
    if (w->to) { fputs("quit\n", w->to); fclose(w->to); }
    if (w->from) fclose(w->from);
    if (w->pid > 0) waitpid(w->pid, NULL, 0);
    w->to = w->from = NULL;
    w->pid = 0;
}

int pair_prepare(pair_worker *w, int nb, int M, pair_cell *c, int nc)
{
    char req[768], ans[768];
    for (int i = 0; i < nc; i++)
        for (int b = 0; b < nb; b++) {
            c[i].ok[b] = 1;
            for (int m = 0; m < M && c[i].ok[b]; m++) {
                snprintf(req, sizeof req, "prep c%d %s %s", i, c[i].method, c[i].spec);
                int rc = pair_worker_ask(&w[b * M + m], req, ans, sizeof ans);
                if (rc) return rc;
                char tag[8] = "", id[32] = "";
                int at = 0;
                sscanf(ans, "%7s %31s %n", tag, id, &at);
                c[i].ok[b] = !strcmp(tag, "ok");
                if (!c[i].ok[b]) snprintf(c[i].why[b], sizeof c[i].why[b], "%s: %.140s", tag, at ? ans + at : ans);
            }
        }
    return RBD_OK;
}

static int ready_builds(const pair_cell *c, int nb)
{
    int n = 0;
    for (int b = 0; b < nb; b++) n += c->ok[b];
    return n;
}

/* The instance of build b in round k: (k / M^b) mod M, so two builds meet
 * in all M^2 combinations of their processes' layouts within M^2 rounds. */
static int instance_of(int b, int k, int M)
{
    for (int j = 0; j < b; j++) k /= M;
    return k % M;
}

int pair_rounds(pair_worker *w, int nb, int M, pair_cell *c, int nc, int K, volatile sig_atomic_t *stop)
{
    if (K < 1 || K > PAIR_MAX_ROUNDS) return rbd_fail(RBD_EINVAL, "rounds %d: need 1..%d", K, PAIR_MAX_ROUNDS);
    char req[64], ans[256];
    for (int k = 0; k < K; k++)
        for (int i = 0; i < nc; i++) {
            if (ready_builds(&c[i], nb) < 2) continue;
            for (int j = 0; j < nb; j++) {
                int b = (k + i + j) % nb;
                if (!c[i].ok[b]) continue;
                if (stop && *stop) return 1;
                pair_worker *x = &w[b * M + instance_of(b, k, M)];
                snprintf(req, sizeof req, "run c%d", i);
                int rc = pair_worker_ask(x, req, ans, sizeof ans);
                if (rc) return rc;
                char ins[64] = "";
                if (sscanf(ans, "t %*s %lf %63s", &c[i].ns[b][k], ins) != 2)
                    return rbd_fail(RBD_EIO, "build %s: %s on %s: %s", x->label, c[i].method, c[i].spec, ans);
                c[i].ins[b][k] = strcmp(ins, "-") ? strtod(ins, NULL) : NAN;
            }
        }
    return RBD_OK;
}

int pair_judge(const pair_cell *c, int b, int ref, int K, double threshold, double alpha, pair_verdict *v)
{
    double r[PAIR_MAX_ROUNDS], s[PAIR_MAX_ROUNDS];
    memset(v, 0, sizeof *v);
    v->K = K;
    v->ins_ratio = NAN;
    int have_ins = 1;
    for (int k = 0; k < K; k++) {
        r[k] = c->ns[b][k] / c->ns[ref][k];
        if (!isfinite(r[k]) || r[k] <= 0) return rbd_fail(RBD_EINVAL, "%s on %s: round %d not timed", c->method, c->spec, k);
        v->slower += r[k] > 1;
        have_ins &= isfinite(c->ins[b][k]) && isfinite(c->ins[ref][k]) && c->ins[ref][k] > 0;
    }
    int rc = stats_compute(r, K, s, &v->ratio);
    if (!rc) { rbd_stats st; rc = stats_compute(c->ns[ref], K, s, &st); v->t_ref = st.median; }
    if (!rc) { rbd_stats st; rc = stats_compute(c->ns[b], K, s, &st); v->t_b = st.median; }
    if (rc) return rc;
    if (have_ins) {
        rbd_stats st;
        for (int k = 0; k < K; k++) r[k] = c->ins[b][k] / c->ins[ref][k];
        if (!stats_compute(r, K, s, &st)) v->ins_ratio = st.median;
    }
    /* sign test: under "no difference" each round's slower build is a coin flip */
    v->p_slower = xo_sign_tail(v->slower, K);
    v->p_faster = xo_sign_tail(K - v->slower, K);
    if (v->ratio.median > 1 + threshold && v->p_slower <= alpha) v->verdict = PAIR_SLOWER;
    else if (v->ratio.median < 1 - threshold && v->p_faster <= alpha) v->verdict = PAIR_FASTER;
    return RBD_OK;
}
