/* `rbdiff pair`'s verdicts as a table and as files (pair_table.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "plan/modelspec.h"
#include "report/pair_table.h"
#include "store/atomicio.h"
#include "store/csvlog.h"
#include "store/results.h"

typedef struct {
    const pair_judging *a;
    const pair_cell *c;
    int nc;
} pair_out;

static const char *verdict_name(int v) { return v == PAIR_SLOWER ? "SLOWER" : v == PAIR_FASTER ? "faster" : "same"; }

/* pair.csv: a row per cell and build other than the reference. */
static int write_pairs(FILE *f, void *ctx)
{
    const pair_out *o = ctx;
    const pair_judging *a = o->a;
    csv_write_header(f, pair_cols, PAIR_NCOLS);
    for (int i = 0; i < o->nc; i++)
        for (int b = 0; b < a->nb; b++) {
            pair_verdict v;
            if (b == a->ref || !o->c[i].ok[b] || !o->c[i].ok[a->ref]) continue;
            if (pair_judge(&o->c[i], b, a->ref, a->rounds, a->threshold, a->alpha, &v)) continue;
            pair_row r = { .rounds = v.K, .ratio_median = v.ratio.median, .ratio_q1 = v.ratio.q1,
                           .ratio_q3 = v.ratio.q3, .slower_rounds = v.slower, .p_slower = v.p_slower,
                           .p_faster = v.p_faster, .t_ref_ns = v.t_ref, .t_build_ns = v.t_b,
                           .instructions_ratio = v.ins_ratio };
            snprintf(r.method, sizeof r.method, "%s", o->c[i].method);
            snprintf(r.model, sizeof r.model, "%s", o->c[i].spec);
            snprintf(r.build, sizeof r.build, "%s", a->labels[b]);
            snprintf(r.reference, sizeof r.reference, "%s", a->labels[a->ref]);
            snprintf(r.verdict, sizeof r.verdict, "%s", verdict_name(v.verdict));
            if (csv_write_row(f, pair_cols, PAIR_NCOLS, &r)) return RBD_ENOMEM;
        }
    return ferror(f) ? RBD_EIO : RBD_OK;
}

/* pair_samples.csv: every batch of every build in every round. */
static int write_samples(FILE *f, void *ctx)
{
    const pair_out *o = ctx;
    csv_write_header(f, pair_samples_cols, PAIR_SAMPLES_NCOLS);
    for (int i = 0; i < o->nc; i++)
        for (int b = 0; b < o->a->nb; b++) {
            if (!o->c[i].ok[b] || !o->c[i].ok[o->a->ref]) continue;
            pair_sample_row r;
            memset(&r, 0, sizeof r);
            snprintf(r.method, sizeof r.method, "%s", o->c[i].method);
            snprintf(r.model, sizeof r.model, "%s", o->c[i].spec);
            snprintf(r.build, sizeof r.build, "%s", o->a->labels[b]);
            for (int k = 0; k < o->a->rounds; k++) {
                r.round = k;
                r.ns_per_call = o->c[i].ns[b][k];
                r.instructions_per_call = o->c[i].ins[b][k];
                if (csv_write_row(f, pair_samples_cols, PAIR_SAMPLES_NCOLS, &r)) return RBD_ENOMEM;
            }
        }
    return ferror(f) ? RBD_EIO : RBD_OK;
}

int pair_print_table(const pair_judging *a, const pair_cell *c, int nc)
{
    int slower = 0;
    printf("# reference %s; %d rounds; SLOWER/faster: median ratio beyond 1 -/+ %.3g%% and sign test p <= %g\n",
           a->labels[a->ref], a->rounds, 100 * a->threshold, a->alpha);
    printf("%-18s %-34s %-14s %9s %19s %6s %9s %9s %7s\n", "method", "model", "build", "ratio", "[q1, q3]", "w/K",
           "p", "ins_ratio", "verdict");
    for (int i = 0; i < nc; i++) {
        char label[128];
        spec_label(c[i].spec, label, sizeof label);
        for (int b = 0; b < a->nb; b++) {
            if (b == a->ref) continue;
            if (!c[i].ok[b] || !c[i].ok[a->ref]) {
                int who = !c[i].ok[a->ref] ? a->ref : b;
                printf("%-18s %-34s %-14s not timed (%s %s)\n", c[i].method, label, a->labels[b], a->labels[who],
                       c[i].why[who]);
                continue;
            }
            pair_verdict v;
            if (pair_judge(&c[i], b, a->ref, a->rounds, a->threshold, a->alpha, &v)) continue;
            char iqr[40], ins[24] = "-";
            snprintf(iqr, sizeof iqr, "[%.4f, %.4f]", v.ratio.q1, v.ratio.q3);
            if (isfinite(v.ins_ratio)) snprintf(ins, sizeof ins, "%.4f", v.ins_ratio);
            printf("%-18s %-34s %-14s %9.4f %19s %3d/%-2d %9.2g %9s %7s\n", c[i].method, label, a->labels[b],
                   v.ratio.median, iqr, v.slower, v.K, v.verdict == PAIR_FASTER ? v.p_faster : v.p_slower, ins,
                   verdict_name(v.verdict));
            slower += v.verdict == PAIR_SLOWER;
        }
    }
    return slower;
}

int pair_write_tables(const char *dir, const pair_judging *a, const pair_cell *c, int nc)
{
    pair_out o = { a, c, nc };
    char p[4096];
    int rc = mkdir_p(dir);
    if (!rc) {
        snprintf(p, sizeof p, "%s/pair.csv", dir);
        rc = atomic_write(p, write_pairs, &o);
    }
    if (!rc) {
        snprintf(p, sizeof p, "%s/pair_samples.csv", dir);
        rc = atomic_write(p, write_samples, &o);
    }
    return rc;
}

int pair_report(const pair_args *a, const pair_result *r)
{
    pair_judging j = { a->labels, a->nb, a->ref, a->rounds, a->threshold, a->alpha };
    int slower = pair_print_table(&j, r->cells, r->nc);
    int rc = a->out ? pair_write_tables(a->out, &j, r->cells, r->nc) : RBD_OK;
    return rc ? rc : slower;
}
