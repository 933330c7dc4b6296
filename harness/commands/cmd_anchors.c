/* rbdiff anchors RESULTS: a run's timings against the stored Pinocchio
 * figures and the machine floors (anchors.h), printed and written to
 * RESULTS/vs-pinocchio.md. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "report/anchors.h"
#include "store/atomicio.h"
#include "commands/cli.h"
#include "peers/peer.h"
#include "measure/stats.h"
#include "report/vs_peer.h"
#include "report/vs_versions.h"
#include "plan/datadir.h"

static const char help[] =
    "Usage: rbdiff anchors RESULTS [RESULTS...] [--anchors DIR] [--table KEY] [--stat median|min] [--out FILE] [--no-write] [--check]\n\n"
    "When RESULTS is a results directory whose sweep timed live peers (sweep --peers),\n"
    "writes RESULTS/vs-<peer>.md for each from those rounds (vs_peer.h): ours / peer\n"
    "paired, what each side writes, the cross-check, the issues' targets.  Only\n"
    "without a live Pinocchio it falls back to the stored figures:\n\n"
    "Compares the median ns per call of a results directory (or a timings.csv or\n"
    "Google Benchmark JSON file) with Pinocchio 3.7.0's figures on this machine\n"
    "kind (DIR/pinocchio-timings.csv) and with the output-write floor of\n"
    "DIR/machine-limits.csv: idsva <-> rnea_derivs, fdsva(-aza) <-> aba_derivs,\n"
    "fdsva-dmm and pin26-fd <-> fd_via_id, rnea, aba, minv <-> the same.  Prints a\n"
    "markdown table with the ratios, issue 10's targets and pass/FAIL, and writes\n"
    "it to RESULTS/vs-pinocchio.md (beside the file when RESULTS is a file).\n"
    "With several RESULTS (repeated runs of the same sweep), each of our figures\n"
    "is the median over the runs that have it, as Pinocchio's are medians over\n"
    "runs, and the table goes to the first RESULTS (or --out).\n\n"
    "  --anchors DIR  the anchors directory (default tests/pinocchio/anchors of the data root)\n"
    "  --table KEY    Pinocchio's build (the csv's build column): clang-native (default,\n"
    "                 its best), gcc-native, gcc-plain\n"
    "  --stat S       our figure: median (default) or min ns per call (the min of the\n"
    "                 batches resists load from other processes on a shared machine)\n"
    "  --out FILE     write the table there instead (atomically)\n"
    "  --no-write     print only\n"
    "  --check        exit 1 when a target is missed\n"
    "  -h, --help\n";

typedef struct {
    const anchor_set *s;
    const char *key, *source;
    const timing_row *rows;
    int n;
} md_ctx;

static int write_md(FILE *f, void *p)
{
    md_ctx *c = p;
    anchors_write_markdown(f, c->s, c->key, c->rows, c->n, c->source);
    return ferror(f) ? RBD_EIO : RBD_OK;
}

/* The rows of the first run, each figure (median, or min with use_min)
 * replaced by its median over the runs that have the same method and model. */
static int load_runs(char **paths, int nruns, int use_min, timing_row **out, int *nout)
{
    timing_row **rr = calloc((size_t)nruns, sizeof *rr);
    int *nn = calloc((size_t)nruns, sizeof *nn);
    double *x = malloc(sizeof(double) * 2 * ((size_t)nruns + 1));
    if (!rr || !nn || !x) { free(rr); free(nn); free(x); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    int rc = 0;
    for (int r = 0; r < nruns && !rc; r++) rc = timing_rows_load(paths[r], &rr[r], &nn[r]);
    for (int k = 0; !rc && k < nn[0]; k++) {
        timing_row *row = &rr[0][k];
        int m = 0;
        for (int r = 0; r < nruns; r++) {
            const timing_row *t = timing_rows_find(rr[r], nn[r], row->method, row->model);
            if (t) x[m++] = use_min ? t->min_ns : t->median_ns;
        }
        rbd_stats st;
        if (!stats_compute(x, m, x + nruns + 1, &st)) row->median_ns = st.median;
    }
    for (int r = 1; r < nruns; r++) free(rr[r]);
    if (rc) { free(rr[0]); rr[0] = NULL; }
    *out = rr[0];
    *nout = rc ? 0 : nn[0];
    free(rr); free(nn); free(x);
    return rc;
}

/* What the runs' meta.json files say about how they were measured, as
 * "CPU: ...; ID outputs: ..." into buf: the CPU model, and whether the ID
 * outputs were written in full (method_options.zeros_preset absent or
 * false: every entry) or left with their structural zeros preset. */
static const char *runs_meta(char **paths, int nruns, char *buf, size_t len)
{
    char cpu[256] = "";
    int preset[2] = { 0, 0 }, same_cpu = 1;
    for (int r = 0; r < nruns; r++) {
        char meta[4200];
        struct stat st;
        snprintf(meta, sizeof meta, "%s/meta.json", paths[r]);
        json_t *j = !stat(paths[r], &st) && S_ISDIR(st.st_mode) ? json_load_file(meta, 0, NULL) : NULL;
        const char *c = j ? json_string_value(json_object_get(j, "cpu_model")) : NULL;
        if (!c || (r > 0 && strcmp(c, cpu))) same_cpu = 0;
        else if (r == 0) snprintf(cpu, sizeof cpu, "%s", c);
        if (j) preset[json_is_true(json_object_get(json_object_get(j, "method_options"), "zeros_preset"))]++;
        json_decref(j);
    }
    const char *out = preset[0] + preset[1] < nruns || (preset[0] && preset[1])
                          ? "not the same in every run, or not recorded"
                      : preset[1] ? "cleared once and reused, the structural zeros left unwritten as Pinocchio "
                                    "leaves them (zeros_preset = yes)"
                                  : "every entry written on every call (zeros_preset = no)";
    snprintf(buf, len, "CPU: %s; ID outputs: %s", same_cpu ? cpu : "not the same in every run, or not recorded",
             out);
    return buf;
}

typedef struct {
    const char *dir;
    char (*peer)[32];       /* the versions of one peer timed, newest first */
    int np;
    const timing_row *rows;
    int n, missed;
} live_ctx;

/* A section per version (vs_peer_write), then the versions side by side. */
static int write_live(FILE *f, void *p)
{
    live_ctx *c = p;
    c->missed = 0;
    for (int v = 0; v < c->np; v++) {
        if (v) fputs("\n\n", f);
        int m = vs_peer_write(f, c->dir, c->peer[v], c->rows, c->n);
        if (m < 0) return m;
        c->missed += m;
    }
    vs_versions_write(f, c->rows, c->n, c->peer, c->np);
    return ferror(f) ? RBD_EIO : RBD_OK;
}

/* The live comparisons of a results directory: vs-<peer>.md for every peer
 * it timed, every version in one file.  *pin: Pinocchio was among them (no
 * fallback needed).  Returns the exit status, or -1 when res is not a
 * directory with timings. */
static int live_peers(const char *res, int nowrite, const char *outpath, int check, int *pin)
{
    struct stat st;
    timing_row *rows = NULL;
    int n = 0, status = EXIT_OK, missed = 0;
    if (stat(res, &st) || !S_ISDIR(st.st_mode) || timing_rows_load(res, &rows, &n)) return -1;
    for (int k = 0; peer_known[k]; k++) {
        char ver[VS_MAXVER][32];
        int np = vs_versions_present(rows, n, peer_known[k], ver);
        if (!np) continue;
        int is_pin = !strcmp(peer_known[k], "pinocchio");
        *pin |= is_pin;
        char out[4200];
        if (outpath && is_pin) snprintf(out, sizeof out, "%s", outpath);
        else snprintf(out, sizeof out, "%s/vs-%s.md", res, peer_known[k]);
        live_ctx c = { res, ver, np, rows, n, 0 };
        int rc = nowrite ? write_live(stdout, &c) : atomic_write(out, write_live, &c);
        if (rc) { status = cli_lib_error("anchors", EXIT_FAIL); break; }
        missed += c.missed;
        if (!nowrite) fprintf(stderr, "rbdiff anchors: wrote %s (live %s, same rounds)\n", out, peer_known[k]);
    }
    free(rows);
    return status == EXIT_OK && check && missed ? EXIT_FAIL : status;
}

int cmd_anchors(int argc, char **argv)
{
    static const struct option opts[] = { { "anchors", required_argument, 0, 'a' }, { "table", required_argument, 0, 't' },
                                          { "no-write", no_argument, 0, 'n' }, { "out", required_argument, 0, 'o' }, { "stat", required_argument, 0, 's' }, { "check", no_argument, 0, 'c' },
                                          { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    char defdir[3000];
    data_path(defdir, sizeof defdir, "tests/pinocchio/anchors");
    const char *dir = defdir, *key = "clang-native";
    int nowrite = 0, check = 0, use_min = 0, ch;
    const char *outpath = NULL;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, ":ha:t:", opts, NULL)) != -1) {
        if (ch == 'h') { fputs(help, stdout); return EXIT_OK; }
        else if (ch == 'a') dir = optarg;
        else if (ch == 't') key = optarg;
        else if (ch == 'n') nowrite = 1;
        else if (ch == 'o') outpath = optarg;
        else if (ch == 'c') check = 1;
        else if (ch == 's') {
            if (!strcmp(optarg, "min")) use_min = 1;
            else if (strcmp(optarg, "median"))
                return cli_error("anchors", EXIT_USAGE, "--stat: '%s' is neither median nor min", optarg);
        }
        else return cli_bad_option("anchors", ch, argv);
    }
    if (argc - optind < 1) {
        cli_error("anchors", EXIT_USAGE, "needs a results directory or timings file");
        return cli_usage_error("anchors");
    }
    const char *res = argv[optind];
    const int nruns = argc - optind;
    int live_pin = 0, lrc = live_peers(res, nowrite, outpath, check, &live_pin);
    if (lrc >= 0 && live_pin) return lrc;
    anchor_set s;
    if (anchors_load(dir, &s)) return cli_lib_error("anchors", EXIT_USAGE);
    if (!anchors_has(&s, key, 0) && !anchors_has(&s, key, 1)) {
        char keys[512] = "";
        for (int k = 0; k < s.nrow; k++)
            if (!strstr(keys, s.rows[k].build) && strlen(keys) + strlen(s.rows[k].build) + 3 < sizeof keys) {
                if (*keys) strcat(keys, ", ");
                strcat(keys, s.rows[k].build);
            }
        anchors_free(&s);
        return cli_error("anchors", EXIT_USAGE, "--table: no build '%s' in %s/%s (there: %s)", key, dir,
                         ANCHORS_TIMINGS_CSV, keys);
    }
    timing_row *rows = NULL;
    int n = 0;
    if (load_runs(argv + optind, nruns, use_min, &rows, &n)) { anchors_free(&s); return cli_lib_error("anchors", EXIT_USAGE); }
    char source[4400];
    if (nruns == 1) snprintf(source, sizeof source, "%s (%s per call)", res, use_min ? "min over the batches" : "median");
    else {
        int len = snprintf(source, sizeof source, "the median over %d runs (", nruns);
        for (int r = 0; r < nruns && len < (int)sizeof source; r++)
            len += snprintf(source + len, sizeof source - (size_t)len, "%s%s", r ? ", " : "", argv[optind + r]);
        if (len < (int)sizeof source)
            snprintf(source + len, sizeof source - (size_t)len, ") of the %s per call", use_min ? "min over the batches" : "median");
    }
    int len = (int)strlen(source);
    char meta[512];
    snprintf(source + len, sizeof source - (size_t)len, "; %s", runs_meta(argv + optind, nruns, meta, sizeof meta));
    int missed = anchors_write_markdown(stdout, &s, key, rows, n, source);
    int rc = EXIT_OK;
    if (!nowrite) {
        struct stat st;
        char out[4096];
        if (outpath) snprintf(out, sizeof out, "%s", outpath);
        else if (!stat(res, &st) && S_ISDIR(st.st_mode)) snprintf(out, sizeof out, "%s/vs-pinocchio.md", res);
        else {
            const char *slash = strrchr(res, '/');
            if (slash) snprintf(out, sizeof out, "%.*s/vs-pinocchio.md", (int)(slash - res), res);
            else snprintf(out, sizeof out, "vs-pinocchio.md");
        }
        md_ctx c = { &s, key, source, rows, n };
        if (atomic_write(out, write_md, &c)) rc = cli_lib_error("anchors", EXIT_FAIL);
        else fprintf(stderr, "rbdiff anchors: wrote %s\n", out);
    }
    free(rows);
    anchors_free(&s);
    if (rc == EXIT_OK && check && missed) rc = EXIT_FAIL;
    /* the live peers other than Pinocchio (vs-mujoco.md) keep their status too */
    if (rc == EXIT_OK && lrc > 0) rc = lrc;
    return rc;
}
