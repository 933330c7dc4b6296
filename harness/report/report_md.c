/* report.md against the paper's claims (report_md.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include "rbdiff/method.h"
#include "rbdiff/rbd.h"
#include "report/report_claims.h"
#include "report/report_md.h"
#include "store/atomicio.h"
#include "store/pack.h"
#include "store/results_set.h"

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

static int so_row(const crossover_row *r)
{
    const rbd_method *a = rbd_method_find(r->A), *b = rbd_method_find(r->B);
    return (a && rbd_output_order(a->output) == 2) || (b && rbd_output_order(b->output) == 2);
}

/* The rows of d (so_only: the second-order searches alone). */
static void crossover_rows(FILE *f, const char *label, const claim_data *d, int so_only)
{
    for (int i = 0; d && i < d->ncrossover; i++) {
        const crossover_row *r = &d->crossover[i];
        if (so_only && !so_row(r)) continue;
        char n[32] = "-";
        if (isfinite(r->N_cross)) snprintf(n, sizeof n, "%.0f", r->N_cross);
        fprintf(f, "| %s | %s vs %s | %g | %s | [%d, %d] | %s |\n", label, r->A, r->B, r->bf, n, r->bracket_lo,
                r->bracket_hi, r->status);
    }
}

/* The second-order crossover searches: each pair's figure (plot_so_xo.c,
 * drawn from these rows) and the rows themselves, of both builds. */
static void so_crossovers(FILE *f, const report_ctx *c)
{
    int imgs = 0, rows = 0;
    for (int i = 0; c->run && i < c->run->ncrossover; i++) {
        const crossover_row *r = &c->run->crossover[i];
        if (!so_row(r)) continue;
        rows++;
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = !strcmp(c->run->crossover[j].A, r->A) && !strcmp(c->run->crossover[j].B, r->B);
        char name[200], rel[256];
        snprintf(name, sizeof name, "so_xo_%s_vs_%s", r->A, r->B);
        snprintf(rel, sizeof rel, "plots/%s.%s", name, pack_figure_format(name));
        char *path = seen ? NULL : results_path(c->dir, rel);
        if (path && access(path, R_OK) == 0) fprintf(f, "%s![%s](%s)", imgs++ ? " " : "", name, rel);
        free(path);
    }
    if (!rows) return;
    fputs(imgs ? "\n\n" : "(no crossover figure: run `rbdiff plot` on this directory)\n\n", f);
    fputs("The second-order crossover searches (crossover.csv; the figures mark the same N_cross, bracket or "
          "note per bf):\n\n| build | search | bf | N_cross | bracket | status |\n|---|---|---:|---:|---|---|\n", f);
    crossover_rows(f, "this run", c->run, 1);
    crossover_rows(f, "second build", c->wrun, 1);
    fputc('\n', f);
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
        if (!strcmp(sc->id, "so")) so_crossovers(f, c);
        if (!strcmp(sc->id, "table3")) {
            fputs("| build | search | bf | N_cross | bracket | status |\n|---|---|---:|---:|---|---|\n", f);
            crossover_rows(f, "this run", c->run, 0);
            crossover_rows(f, "second build", c->wrun, 0);
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

int report_md_write(const char *dir, const char *with, const char *claims, const char *claims_name, char **written,
                    int *bad_input)
{
    claim *cl = NULL;
    int ncl = 0;
    results_set set[2];
    claim_data d[2];
    memset(set, 0, sizeof set);
    *written = NULL;
    *bad_input = 0;
    int rc = claims_read(claims, &cl, &ncl);
    if (!rc) rc = results_open(dir, &set[0]);
    if (!rc && with) rc = results_open(with, &set[1]);
    claim_data_of(&set[0], &d[0]);
    claim_data_of(&set[1], &d[1]);
    if (rc) *bad_input = rc != RBD_ENOMEM;
    else {
        report_ctx c = { dir, with, claims_name, cl, ncl, &d[0], with ? &d[1] : NULL };
        char *out = results_path(dir, "report.md");
        rc = out ? atomic_write(out, write_report, &c) : rbd_fail(RBD_ENOMEM, "out of memory");
        if (rc) free(out);
        else *written = out;
    }
    for (int k = 0; k < 2; k++) results_close(&set[k]);
    free(cl);
    return rc;
}
