/* vs-<peer>.md from live rounds (vs_peer.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "report/report_ratios.h"
#include "peers/peer.h"
#include "report/vs_peer.h"

enum { MAXFN = 16 };

typedef struct {
    const char *row, *ours, *writes;   /* into the meta.json object */
    double tol;
} fn_info;

typedef struct {
    json_t *meta;
    const char *peer;
    fn_info fn[MAXFN];
    int nfn;
    char emit[MAXFN][64];      /* the names of the emitted variants' columns */
    int zeros_preset;
    csvlog checks;
    int have_checks;
} vs_ctx;

int vs_peer_present(const timing_row *rows, int n, const char *peer)
{
    size_t len = strlen(peer);
    for (int k = 0; k < n; k++)
        if (!strcmp(rows[k].kind, "peer") && !strncmp(rows[k].method, peer, len) && rows[k].method[len] == '.')
            return 1;
    return 0;
}

/* What our counterpart writes per call (the harness times every method with
 * its outputs reused; zeros_preset: method_options in meta.json). */
static const char *ours_writes(const char *ours, int zeros_preset)
{
    if (!strcmp(ours, "idsva"))
        return zeros_preset ? "tau, dtau/dq, dtau/dv: the related entries (structural zeros cleared once, "
                              "zeros_preset)"
                            : "tau, dtau/dq, dtau/dv, every entry";
    static const char *const w[][2] = {
        { "fdsva", "qdd, dqdd/dq, dqdd/dv, dqdd/dtau = M^-1, every entry" },
        { "rnea", "tau" }, { "aba", "qdd" }, { "minv", "M^-1, every entry" }, { "crba", "M, every entry" },
        { "idsva-so", "tau, d2tau/dq2, d2tau/dv2, d2tau/dqdv, dM/dq: the four nv^3 tensors zeroed, then "
                      "filled, as Pinocchio" },
        /* the emitted code stores every output entry, the structural zeros as constants (emit_c.c) */
        { "idsva-emit", "tau, dtau/dq, dtau/dv, every entry" },
        { "fdsva-emit", "qdd, dqdd/dq, dqdd/dv, dqdd/dtau = M^-1, every entry" },
    };
    for (size_t k = 0; k < sizeof w / sizeof w[0]; k++)
        if (!strcmp(w[k][0], ours)) return w[k][1];
    return "see `rbdiff methods`";
}

/* The issues' targets for ours / Pinocchio (NAN: none): issue 19 for fdsva
 * and minv, issue 10 for idsva; issue 32 for idsva and fdsva against
 * Pinocchio's generated code. */
static double target(const char *peer, const char *ours, const char *fn, const timing_row *r)
{
    if (peer_family(peer) == peer_family("pinocchio-cg"))   /* issue 32: on the robots with nv <= 36 */
        return !isfinite(r->bf) && r->nv <= 36 && ((!strcmp(ours, "idsva") && strstr(fn, "computeRNEADerivatives")) ||
                                                   (!strcmp(ours, "fdsva") && strstr(fn, "computeABADerivatives")))
                   ? 1.0 : NAN;
    if (peer_family(peer) != peer_family("pinocchio")) return NAN;
    int robot = !isfinite(r->bf);
    if (!strcmp(ours, "fdsva") && strstr(fn, "computeABADerivatives"))
        return robot || r->N <= 100 ? 0.7 : r->bf == 1 && r->N == 500 ? 0.25 : NAN;
    if (!strcmp(ours, "minv") && strstr(fn, "computeMinverse")) return 0.8;
    if (!strcmp(ours, "idsva") && strstr(fn, "computeRNEADerivatives")) {
        if (robot) return strstr(r->model, "/ur5.urdf") || strstr(r->model, "/hyq.urdf") ? 0.8 : NAN;
        return r->N == 10 ? 0.8 : r->N >= 50 && r->N <= 500 ? 0.5 : NAN;
    }
    return NAN;
}

/* A column more for each function whose counterpart has an emitted variant
 * timed in the run (methods/emit: idsva-emit, fdsva-emit), against the same
 * peer function in the same rounds, beside the generic method's. */
static void add_emitted(vs_ctx *c, const timing_row *rows, int n)
{
    for (int k = 0, nfn = c->nfn; k < nfn && c->nfn < MAXFN; k++) {
        char *name = c->emit[c->nfn];
        snprintf(name, sizeof c->emit[0], "%s-emit", c->fn[k].ours);
        int timed = 0;
        for (int r = 0; r < n && !timed; r++) timed = !strcmp(rows[r].method, name);
        if (!timed) continue;
        c->fn[c->nfn] = c->fn[k];
        c->fn[c->nfn].ours = name;
        c->nfn++;
    }
}

static int load_meta(const char *dir, const char *peer, vs_ctx *c)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/meta.json", dir);
    json_error_t e;
    c->meta = json_load_file(path, 0, &e);
    if (!c->meta) return rbd_fail(RBD_EIO, "%s:%d: %s", path, e.line, e.text);
    json_t *p = json_object_get(json_object_get(c->meta, "peers"), peer);
    json_t *fs = json_object_get(p, "functions");
    if (!json_is_array(fs))
        return rbd_fail(RBD_EPARSE, "%s: no peers.%s.functions: not a run with the live peer %s", path, peer, peer);
    size_t k;
    json_t *f;
    json_array_foreach(fs, k, f) {
        if (c->nfn == MAXFN) break;
        fn_info *fi = &c->fn[c->nfn];
        fi->row = json_string_value(json_object_get(f, "name"));
        fi->ours = json_string_value(json_object_get(f, "ours"));
        fi->writes = json_string_value(json_object_get(f, "writes"));
        fi->tol = json_number_value(json_object_get(f, "tol"));
        if (!fi->row || !fi->ours || !fi->writes)
            return rbd_fail(RBD_EPARSE, "%s: peers.%s.functions[%zu] lacks name, ours or writes", path, peer, k);
        c->nfn++;
    }
    c->zeros_preset = json_is_true(json_object_get(json_object_get(c->meta, "method_options"), "zeros_preset"));
    return RBD_OK;
}

/* The peer's name as its project writes it. */
static const char *display(const char *peer)
{
    int fam = peer_family(peer);
    return fam == peer_family("pinocchio")      ? "Pinocchio"
           : fam == peer_family("mujoco")       ? "MuJoCo"
           : fam == peer_family("pinocchio-cg") ? "Pinocchio's generated code"
                                                : peer;
}

static const char *meta_str(const vs_ctx *c, const char *key)
{
    const char *s = json_string_value(json_object_get(c->meta, key));
    return s ? s : "(not recorded)";
}

/* Row r of peer_checks.csv, typed. */
static void check_row(const vs_ctx *c, int r, peer_check_row *out)
{
    csv_row_decode(peer_checks_cols, PEER_CHECKS_NCOLS, c->checks.rows[r], out);
}

/* The peer_checks.csv row of fn on model into *out; 0 when there is none. */
static int check_of(const vs_ctx *c, const char *fn, const char *model, peer_check_row *out)
{
    if (!c->have_checks) return 0;
    const char *key[2] = { fn, model };
    int r = csvlog_find(&c->checks, key);
    if (r >= 0) check_row(c, r, out);
    return r >= 0;
}

static void header(FILE *f, const vs_ctx *c, const char *first)
{
    fprintf(f, "| %s | nv |", first);
    for (int k = 0; k < c->nfn; k++) fprintf(f, " %s / %s |", c->fn[k].ours, c->fn[k].row + strlen(c->peer) + 1);
    fputs("\n|---|---:|", f);
    for (int k = 0; k < c->nfn; k++) fputs("---:|", f);
    fputc('\n', f);
}

/* "0.552 (11/11)" of ours / peer on one model, or "-"; counts a missed target. */
static void cell(FILE *f, const vs_ctx *c, const fn_info *fi, const timing_row *rows, int n, const char *model,
                 int *missed)
{
    const timing_row *p = timing_rows_find(rows, n, fi->row, model);
    const timing_row *o = timing_rows_find(rows, n, fi->ours, model);
    double q;
    int w, K = p && o ? report_vs_peer(o, p, &q, &w) : 0;
    if (!K) {
        peer_check_row chk;
        fputs(check_of(c, fi->row, model, &chk) && !strcmp(chk.timed, "no") ? " not timed |" : " - |", f);
        return;
    }
    double t = target(c->peer, fi->ours, fi->row, p);
    fprintf(f, " %.3g (%d/%d)", q, w, K);
    if (isfinite(t) && !(q <= t)) {
        fprintf(f, " **>%.2g**", t);
        (*missed)++;
    }
    fputs(" |", f);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* autoTree models before robots, trees by (bf, N); ties keep the run's order. */
static int cmp_model(const void *a, const void *b)
{
    const timing_row *x = *(const timing_row *const *)a, *y = *(const timing_row *const *)b;
    int rx = !isfinite(x->bf), ry = !isfinite(y->bf);
    if (rx != ry) return rx - ry;
    if (!rx && x->bf != y->bf) return x->bf < y->bf ? -1 : 1;
    if (!rx && x->N != y->N) return x->N - y->N;
    return (x > y) - (x < y);     /* rows are one array: its order */
}

/* A table per autoTree bf (rows N), then one of the robots. */
static int tables(FILE *f, const vs_ctx *c, const timing_row *rows, int n)
{
    const timing_row **m = malloc(sizeof *m * ((size_t)n + 1));
    if (!m) return rbd_fail(RBD_ENOMEM, "out of memory");
    int nm = 0, missed = 0;
    size_t plen = strlen(c->peer);
    for (int k = 0; k < n; k++) {       /* each model the peer was timed on, once */
        const timing_row *r = &rows[k];
        if (strcmp(r->kind, "peer") || strncmp(r->method, c->peer, plen) || r->method[plen] != '.') continue;
        int seen = 0;
        for (int j = 0; j < nm && !seen; j++) seen = !strcmp(m[j]->model, r->model);
        if (!seen) m[nm++] = r;
    }
    qsort(m, (size_t)nm, sizeof *m, cmp_model);
    for (int k = 0; k < nm; k++) {
        const timing_row *r = m[k];
        int robot = !isfinite(r->bf);
        if (k == 0 || robot != !isfinite(m[k - 1]->bf) || (!robot && r->bf != m[k - 1]->bf)) {
            if (robot) fputs("\n## Robots\n\n", f);
            else fprintf(f, "\n## autoTree, bf = %g%s\n\n", r->bf, r->bf == 1 ? " (chain)" : "");
            header(f, c, robot ? "model" : "N");
        }
        if (robot) fprintf(f, "| %s | %d |", r->model + (strncmp(r->model, "urdf:", 5) ? 0 : 5), r->nv);
        else fprintf(f, "| %d | %d |", r->N, r->nv);
        for (int j = 0; j < c->nfn; j++) cell(f, c, &c->fn[j], rows, n, r->model, &missed);
        fputc('\n', f);
    }
    free(m);
    return missed;
}

/* One line per function pair: over the models, min / median / max of the
 * ratio and on how many ours was faster (ratio < 1). */
static void summary(FILE *f, const vs_ctx *c, const timing_row *rows, int n)
{
    double *x = malloc(sizeof *x * ((size_t)n + 1));
    if (!x) return;
    fputs("\n## Summary over the models\n\n| ours / peer function | models | min | median | max | ours faster on |"
          "\n|---|---:|---:|---:|---:|---:|\n", f);
    for (int m = 0; m < c->nfn; m++) {
        const fn_info *fi = &c->fn[m];
        int cnt = 0, wins = 0;
        for (int k = 0; k < n; k++) {
            if (strcmp(rows[k].method, fi->row)) continue;
            const timing_row *o = timing_rows_find(rows, n, fi->ours, rows[k].model);
            double q;
            int w;
            if (o && report_vs_peer(o, &rows[k], &q, &w) && isfinite(q)) {
                x[cnt++] = q;
                wins += q < 1;
            }
        }
        if (!cnt) continue;
        qsort(x, (size_t)cnt, sizeof *x, cmp_double);
        double med = cnt % 2 ? x[cnt / 2] : 0.5 * (x[cnt / 2 - 1] + x[cnt / 2]);
        fprintf(f, "| %s / %s | %d | %.3g | %.3g | %.3g | %d of %d |\n", fi->ours, fi->row, cnt, x[0], med,
                x[cnt - 1], wins, cnt);
    }
    free(x);
}

static void writes_table(FILE *f, const vs_ctx *c)
{
    fputs("\n## What one call computes and writes\n\n| peer function | ours | the peer writes | ours writes |"
          " check: worst relative difference (tolerance) |\n|---|---|---|---|---|\n", f);
    for (int m = 0; m < c->nfn; m++) {
        const fn_info *fi = &c->fn[m];
        double worst = -1;
        int checked = 0;
        for (int r = 0; c->have_checks && r < c->checks.nrows; r++) {
            peer_check_row row;
            check_row(c, r, &row);
            if (strcmp(row.function, fi->row) || !isfinite(row.err)) continue;
            double e = row.err;
            checked++;
            if (e > worst) worst = e;
        }
        fprintf(f, "| %s | %s | %s | %s |", fi->row, fi->ours, fi->writes, ours_writes(fi->ours, c->zeros_preset));
        if (checked) fprintf(f, " %.2g over %d models (%.2g) |\n", worst, checked, fi->tol);
        else fprintf(f, " - (%.2g) |\n", fi->tol);
    }
}

/* The rows of peer_checks.csv whose function was not timed; the functions
 * of one model left out for one reason (pinocchio-cg without generated
 * code: every function) are one row. */
static void not_timed(FILE *f, const vs_ctx *c)
{
    int any = 0, same = 0;
    peer_check_row last;
    memset(&last, 0, sizeof last);
    for (int r = 0; c->have_checks && r <= c->checks.nrows; r++) {
        peer_check_row row;
        int have = r < c->checks.nrows;
        if (have) {
            check_row(c, r, &row);
            if (strncmp(row.function, c->peer, strlen(c->peer)) || strcmp(row.timed, "no")) continue;
            if (same && !strcmp(row.model, last.model) && !strcmp(row.detail, last.detail)) {
                same++;
                continue;
            }
        }
        if (same == 1) fprintf(f, "| %s | %s | %s |\n", last.function, last.model, last.detail);
        else if (same > 1) fprintf(f, "| %s.* (%d functions) | %s | %s |\n", c->peer, same, last.model, last.detail);
        if (!have) break;
        if (!any++) fputs("\n## Not timed\n\nA peer function is timed on a model only when its outputs agree "
                          "with ours there (peer_checks.csv).\n\n| peer function | model | why |\n|---|---|---|\n", f);
        last = row;
        same = 1;
    }
}

/* pinocchio-cg: which models had generated code and which the run left
 * out, and why (codegen.txt, scripts/codegen --record: one line per model,
 * with the cold generation's seconds or "cached"), quoted as written. */
static void codegen_lines(FILE *f, const char *dir, const char *peer)
{
    if (peer_family(peer) != peer_family("pinocchio-cg")) return;
    char path[4200], line[1024];
    snprintf(path, sizeof path, "%s/codegen.txt", dir);
    FILE *in = fopen(path, "r");
    if (!in) {
        fputs("\n## Generated code\n\nNo codegen.txt in the results: which models had generated code is not "
              "recorded (a model without any is refused by the peer and not timed).\n", f);
        return;
    }
    fputs("\n## Generated code\n\nPinocchio's code is generated and compiled once per model (set-up, "
          "`scripts/codegen`, cached in ~/.cache/rbdiff/cg); a model without it is not timed. This run's "
          "models, as scripts/codegen reported them (seconds of recording and compiling, or cached):\n\n", f);
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = 0;
        if (*line) fprintf(f, "- %s\n", line);
    }
    fclose(in);
}

int vs_peer_write(FILE *f, const char *dir, const char *peer, const timing_row *rows, int n)
{
    vs_ctx c;
    memset(&c, 0, sizeof c);
    c.peer = peer;
    int rc = load_meta(dir, peer, &c);
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, PEER_CHECKS_CSV);
    if (!rc) {
        rc = csvlog_read(&c.checks, path, peer_checks_cols, PEER_CHECKS_NCOLS, PEER_CHECKS_NKEY);
        c.have_checks = !rc;
        if (rc == RBD_EIO) rc = 0;      /* no checks file: the table says "-" */
    }
    if (rc) { json_decref(c.meta); return rc; }
    add_emitted(&c, rows, n);
    json_t *p = json_object_get(json_object_get(c.meta, "peers"), peer);
    const char *version = json_string_value(json_object_get(p, "version"));
    const char *build = json_string_value(json_object_get(p, "build"));
    fprintf(f, "# rbdiff vs %s %s, measured live\n\n"
               "Every %s function below was timed in the same rounds as our methods, on the same model "
               "(rbdiff's URDF export, joints matched by name) and the same pool of random states; before "
               "timing, its outputs were checked against ours at one state (`peer_checks.csv`). Each cell "
               "is the median over the rounds of ours / %s in the same round, and (w/K): in w of K rounds "
               "ours was the faster. Below 1, ours is faster. `**>T**` marks a ratio above an issue's "
               "target T.\n\n"
               "- results: %s (%s)\n- machine: %s\n- rbdiff: %s %s\n- %s %s: %s\n",
            display(peer), version ? version : "", display(peer), display(peer), dir, meta_str(&c, "date"),
            meta_str(&c, "cpu_model"), meta_str(&c, "compiler"), meta_str(&c, "flags"), display(peer),
            version ? version : "",
            build ? build : "(not recorded)");
    writes_table(f, &c);
    summary(f, &c, rows, n);
    int missed = tables(f, &c, rows, n);
    not_timed(f, &c);
    codegen_lines(f, dir, peer);
    if (missed >= 0) fprintf(f, "\n%d of the issues' targets missed.\n", missed);
    if (c.have_checks) csvlog_close(&c.checks);
    json_decref(c.meta);
    return missed;
}
