/* rbdiff report DIR: report.md, the paper's figures beside the paper's own
 * claims (harness/report/paper_claims.tsv), each with a verdict computed from the
 * directory's data (report_claims.c). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "store/atomicio.h"
#include "commands/cli.h"
#include "report/report_claims.h"
#include "store/results_set.h"
#include "plan/datadir.h"
#include "store/pack.h"


static const char help[] =
    "Usage: rbdiff report DIR [--with DIR2] [--claims FILE]\n\n"
    "Writes DIR/report.md: per paper figure (Figs. 2-7, Table III, the accuracy\n"
    "of Sec. V.A, second order) its plots from DIR/plots (`rbdiff plot` first) and a table of\n"
    "the paper's claims about it (FILE, default harness/report/paper_claims.tsv of the\n"
    "source tree: source, the paper's number, the measured one, a verdict).\n"
    "The verdicts come from DIR's timings.csv (paired ratios, as tables.md),\n"
    "crossover.csv and accuracy.csv: reproduced (within the claim's factor),\n"
    "differs (by how much, and the setting the paper used where it is known to\n"
    "differ), or not measured in this run.  --with DIR2: a second build's run\n"
    "(scripts/run: clang) for the claims about it (Fig. 5, Table III).\n";

typedef struct {
    const char *id, *title, *plots[3];
    const char *note;           /* what the section's claims leave out, or NULL */
} section;

static const section sections[] = {
    { "fig2", "Fig. 2: IDSVA against RNEACR, FDSVA against FDCR and ABACR", { "fig2_id", "fig2_fd" }, NULL },
    { "fig3", "Fig. 3: IDSVA in ground coordinates against body coordinates", { "fig3_frames" }, NULL },
    { "fig4", "Fig. 4: IDSVA against Pinocchio 2.6's ID derivatives", { "fig4_pin26" }, NULL },
    { "fig5", "Fig. 5: robots, with two compilers", { "fig5_id", "fig5_fd" }, NULL },
    { "fig6", "Fig. 6: FDSVA against Pinocchio 2.6's FD derivatives", { "fig6_pin26fd" }, NULL },
    { "fig7", "Fig. 7: the DMM against AZA", { "fig7_times", "fig7_speedup" }, NULL },
    { "table3", "Table III: the DMM/AZA crossover N by compiler", { NULL }, NULL },
    { "accuracy", "Sec. V.A: accuracy against a complex-step reference", { "accuracy_dqdd_dq" }, NULL },
    { "so", "Second order (IROS 2022, T-RO 2024): IDSVA-SO and the FD-SO composition against differences of "
            "first-order derivatives", { "so_times", "so_id_speedup", "so_fd_speedup" },
      "Pinocchio's ComputeRNEASecondOrderDerivatives, where built, is timed in the same rounds (vs_PEER_so, "
      "tables.md); the accuracy of every second-order method against the 256-bit second-order reference is in "
      "tables.md and the accuracy_d2* figures.  The papers' other speed-ups are over automatic differentiation "
      "(CasADi), which rbdiff does not have, so they are not listed." },
};

typedef struct {
    const char *dir, *with, *claims;
    const claim *cl;
    int ncl;
    const claim_data *run, *wrun;
} report_ctx;

static void meta_line(FILE *f, const char *dir, const char *what)
{
    char *path = results_path(dir, "meta.json");
    json_t *m = path ? json_load_file(path, 0, NULL) : NULL;
    free(path);
    const char *cpu = json_string_value(json_object_get(m, "cpu_model")),
               *cc = json_string_value(json_object_get(m, "compiler")),
               *fl = json_string_value(json_object_get(m, "flags")),
               *date = json_string_value(json_object_get(m, "date")),
               *git = json_string_value(json_object_get(m, "git_commit"));
    fprintf(f, "- %s (`%s`): %s, `%s`, CPU %s, %s, commit %s\n", what, dir, cc ? cc : "compiler unknown",
            fl ? fl : "-", cpu ? cpu : "unknown", date ? date : "date unknown", git ? git : "unknown");
    json_decref(m);
}

static void crossover_rows(FILE *f, const char *label, const claim_data *d)
{
    for (int i = 0; d && i < d->ncrossover; i++) {
        const crossover_row *r = &d->crossover[i];
        char n[32] = "-";
        if (isfinite(r->N_cross)) snprintf(n, sizeof n, "%.0f", r->N_cross);
        fprintf(f, "| %s | %s vs %s | %g | %s | [%d, %d] | %s |\n", label, r->A, r->B, r->bf, n, r->bracket_lo,
                r->bracket_hi, r->status);
    }
}

static int write_report(FILE *f, void *p)
{
    const report_ctx *c = p;
    int count[3] = { 0, 0, 0 };
    char measured[512], verdict[1200];
    for (int k = 0; k < c->ncl; k++)
        count[claim_check(&c->cl[k], c->run, c->wrun, measured, sizeof measured, verdict, sizeof verdict)]++;
    fputs("# The paper's figures and claims, checked against this run\n\n", f);
    meta_line(f, c->dir, "this run");
    if (c->with) meta_line(f, c->with, "second build");
    fprintf(f, "\nWritten by `rbdiff report` from this directory's data: every verdict is computed from "
               "timings.csv (paired ratios, the median over the rounds of the per-round ratio, as tables.md), "
               "crossover.csv and accuracy.csv against the claims of the IDSVA paper (S. Singh, R. P. Russell, "
               "P. M. Wensing, RA-L 2022), and for second order of their IROS 2022 and T-RO 2024 papers, "
               "listed with their sections in %s.  **%d of %d "
               "claims reproduced, %d differ, %d not measured in this run.**  The paper measured Fortran and "
               "C++ inside Pinocchio on a 3.07 GHz Xeon with gcc-9 and Clang-10; its absolute times are not "
               "comparable, its ratios and crossovers are.\n",
            c->claims, count[CLAIM_REPRODUCED], c->ncl, count[CLAIM_DIFFERS], count[CLAIM_NOT_MEASURED]);
    for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++) {
        const section *sc = &sections[s];
        fprintf(f, "\n## %s\n\n", sc->title);
        int imgs = 0;
        for (int j = 0; j < 3 && sc->plots[j]; j++) {
            char rel[256];
            snprintf(rel, sizeof rel, "plots/%s.%s", sc->plots[j], pack_figure_format(sc->plots[j]));
            char *path = results_path(c->dir, rel);
            if (path && access(path, R_OK) == 0) {
                fprintf(f, "%s![%s](%s)", imgs ? " " : "", sc->plots[j], rel);
                imgs++;
            }
            free(path);
        }
        if (imgs) fputs("\n\n", f);
        else if (sc->plots[0]) fputs("(no figure: run `rbdiff plot` on this directory, or the run lacks the data)\n\n", f);
        if (!strcmp(sc->id, "table3")) {
            fputs("| build | search | bf | N_cross | bracket | status |\n|---|---|---:|---:|---|---|\n", f);
            crossover_rows(f, "this run", c->run);
            crossover_rows(f, "second build", c->wrun);
            fputc('\n', f);
        }
        int any = 0;
        for (int k = 0; k < c->ncl; k++) {
            const claim *cl = &c->cl[k];
            if (strcmp(cl->figure, sc->id)) continue;
            if (!any++) fputs("| the paper says | where | paper | here | verdict |\n|---|---|---:|---|---|\n", f);
            claim_check(cl, c->run, c->wrun, measured, sizeof measured, verdict, sizeof verdict);
            fprintf(f, "| %s | %s | %s | %s | %s |\n", cl->claim, cl->source, cl->paper, measured, verdict);
        }
        if (!any) fputs("(no claim of the paper about this figure in the claims file)\n", f);
        if (sc->note) fprintf(f, "\n%s\n", sc->note);
    }
    return RBD_OK;
}

/* The set's timings, crossovers and accuracy rows as the claims see them. */
static void claim_data_of(const results_set *s, claim_data *d)
{
    memset(d, 0, sizeof *d);
    d->rows = s->timings;
    d->nrows = s->ntimings;
    d->crossover = s->crossovers;
    d->ncrossover = s->ncrossovers;
    d->accuracy = s->accuracy;
    d->naccuracy = s->naccuracy;
}

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
    claim *cl = NULL;
    int ncl = 0, status = EXIT_FAIL;
    results_set set[2];
    claim_data d[2];
    memset(set, 0, sizeof set);
    int lrc = claims_read(claims, &cl, &ncl);
    if (!lrc) lrc = results_open(dir, &set[0]);
    if (!lrc && with) lrc = results_open(with, &set[1]);
    claim_data_of(&set[0], &d[0]);
    claim_data_of(&set[1], &d[1]);
    if (lrc) {
        status = cli_lib_error("report", lrc == RBD_ENOMEM ? EXIT_FAIL : EXIT_USAGE);
        goto done;
    }
    int shipped = claims == shipped_claims;
    report_ctx c = { dir, with, shipped ? "harness/report/paper_claims.tsv" : claims, cl, ncl, &d[0], with ? &d[1] : NULL };
    char *out = results_path(dir, "report.md");
    int rc = out ? atomic_write(out, write_report, &c) : rbd_fail(RBD_ENOMEM, "out of memory");
    if (rc) { free(out); cli_lib_error("report", 0); goto done; }
    printf("%s\n", out);
    free(out);
    status = EXIT_OK;
done:
    for (int k = 0; k < 2; k++) results_close(&set[k]);
    free(cl);
    return status;
}
