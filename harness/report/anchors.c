/* A run's timings against the stored Pinocchio figures and the machine's
 * floors (anchors.h; the tables are read by anchors_load.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "report/anchors.h"
#include "measure/method_facts.h"
#include "common/stats.h"

const char *anchors_column_of(const char *method)
{
    const method_facts *f = method_facts_find(method);
    return f ? f->pinocchio : NULL;
}

/* robot name and base of a "urdf:PATH[,freeflyer]" spec */
static int robot_of(const char *spec, char *name, size_t len, const char **base)
{
    if (strncmp(spec, "urdf:", 5)) return -1;
    const char *p = spec + 5, *comma = strchr(p, ','), *end = comma ? comma : p + strlen(p);
    const char *slash = p;
    for (const char *q = p; q < end; q++)
        if (*q == '/') slash = q + 1;
    const char *dot = end;
    for (const char *q = slash; q < end; q++)
        if (*q == '.') dot = q;
    size_t n = (size_t)(dot - slash);
    if (!n || n >= len) return -1;
    memcpy(name, slash, n);
    name[n] = 0;
    *base = comma && strstr(comma, "freeflyer") ? "freeflyer" : "fixed";
    return 0;
}

/* issue 10's targets: ratio to Pinocchio */
static double target_of(const char *method, int robot, const char *name, int N)
{
    if (!strcmp(method, "idsva")) {
        if (robot) return !strcmp(name, "ur5") || !strcmp(name, "hyq") ? 0.8 : NAN;
        return N == 10 ? 0.8 : N >= 50 && N <= 500 ? 0.5 : NAN;
    }
    /* fdsva-1pass is FDSVA too (qdd0 and M^-1 from its one pass): the same targets */
    if (!strcmp(method, "fdsva") || !strcmp(method, "fdsva-1pass")) {
        if (robot) return 0.8;
        return N <= 100 ? 0.8 : N == 500 ? 0.25 : NAN;
    }
    return NAN;
}

/* The row of this build that r's model is: an autotree of skew 0 and taper
 * 1 (the anchors' trees) by bf and N, a robot by URDF name and base.  *kind:
 * 0 an autotree, 1 a robot, -1 neither (no row then); name gets the robot's. */
static const anchor_row *row_of(const anchor_set *s, const char *build, const timing_row *r, char *name, size_t len,
                                int *kind)
{
    const char *base = NULL, *p;
    *kind = -1;
    if (!strncmp(r->model, "autotree:", 9) && isfinite(r->bf)) {
        double skew = (p = strstr(r->model, "skew=")) ? strtod(p + 5, NULL) : 0;
        double taper = (p = strstr(r->model, "taper=")) ? strtod(p + 6, NULL) : 1;
        if (skew != 0 || taper != 1) return NULL;
        *kind = 0;
    } else if (!robot_of(r->model, name, len, &base)) {
        *kind = 1;
    } else return NULL;
    for (int k = 0; k < s->nrow; k++) {
        const anchor_row *a = &s->rows[k];
        if (strcmp(a->build, build)) continue;
        if (*kind == 0 ? !strcmp(a->model, "autotree") && a->bf == r->bf && a->N == r->N
                       : !strcmp(a->model, name) && !strcmp(a->base, base))
            return a;
    }
    return NULL;
}

int anchors_compare(const anchor_set *s, const char *build, const timing_row *r, anchor_cmp *c)
{
    memset(c, 0, sizeof *c);
    c->pin_us = c->ratio = c->target = c->floor_us = c->floor_ratio = c->floor_target = NAN;
    c->pass = c->floor_pass = -1;
    c->ours_us = r->median_ns / 1000;
    c->column = anchors_column_of(r->method);
    if (!c->column) return 1;
    char name[64] = "";
    int kind;
    const anchor_row *row = row_of(s, build, r, name, sizeof name, &kind);
    if (kind < 0) return 1;
    if (row) c->pin_us = anchors_us(row, c->column);
    if (isfinite(c->pin_us) && c->pin_us > 0) {
        c->ratio = c->ours_us / c->pin_us;
        c->target = target_of(r->method, kind, name, r->N);
        if (isfinite(c->target)) c->pass = c->ratio <= c->target;
    }
    /* the output-write floor is for 2 nv^2 doubles: autoTree has nv = N */
    if (!strcmp(r->method, "idsva") && kind == 0)
        for (int k = 0; k < s->nlimit; k++)
            if (s->limits[k].N == r->nv) {
                c->floor_us = s->limits[k].write_us;
                c->floor_ratio = c->ours_us / c->floor_us;
                if (r->nv >= 100) {
                    c->floor_target = 3;
                    c->floor_pass = c->floor_ratio <= 3;
                }
            }
    return isfinite(c->pin_us) || isfinite(c->floor_us) ? 0 : 1;
}

/* The compiler and flags of this build's autotree (robots: robot) rows. */
static const char *compiler_of(const anchor_set *s, const char *build, int robots)
{
    for (int k = 0; k < s->nrow; k++)
        if (!strcmp(s->rows[k].build, build) && (strcmp(s->rows[k].model, "autotree") != 0) == (robots != 0))
            return s->rows[k].compiler;
    return "no rows";
}

static void fmt_num(char *buf, size_t len, double x, const char *f)
{
    if (isfinite(x)) snprintf(buf, len, f, x);
    else snprintf(buf, len, "-");
}

int anchors_write_markdown(FILE *f, const anchor_set *s, const char *build, const timing_row *rows, int n,
                           const char *source)
{
    fprintf(f, "# rbdiff against Pinocchio 3.7.0's stored timings and the machine's floors\n\n"
               "**Fallback:** this run has no live Pinocchio peer (scripts/peers builds it; harness/README.md, "
               "\"Peers\"), so ours are set against figures stored from another run on another machine. "
               "Read the ratios as context, not as a verdict: two machines differ by more than the "
               "margins below (the calibration at the end says by how much).\n\n");
    fprintf(f, "Ours: %s.  Pinocchio: " ANCHORS_TIMINGS_CSV ", build '%s' (autoTree: %s; robots: %s).  "
               "Floor: " ANCHORS_LIMITS_CSV ", the time to write dtau/dq and dtau/dv (2 nv^2 doubles).  "
               "Targets: issue 10 (ratio to Pinocchio; within 3x of the floor at N >= 100).\n\n",
            source, build, compiler_of(s, build, 0), compiler_of(s, build, 1));
    fprintf(f, "| method | model | N | nv | ours (us) | Pinocchio (us) | quantity | ratio | target | verdict "
               "| floor (us) | ours/floor | target | verdict |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    int met = 0, missed = 0, fmet = 0, fmissed = 0, shown = 0, ncal = 0;
    double *cal = malloc(sizeof(double) * 2 * ((size_t)n + 1));     /* base-algorithm ratios, then scratch */
    for (int i = 0; i < n; i++) {
        anchor_cmp c;
        if (anchors_compare(s, build, &rows[i], &c)) continue;
        shown++;
        if (cal && isfinite(c.ratio) &&
            (!strcmp(rows[i].method, "rnea") || !strcmp(rows[i].method, "aba") || !strcmp(rows[i].method, "minv")))
            cal[ncal++] = c.ratio;
        char model[96], pin[32], ratio[32], tgt[32], fl[32], flr[32], ftgt[32];
        if (!strncmp(rows[i].model, "autotree:", 9)) snprintf(model, sizeof model, "autoTree bf=%g", rows[i].bf);
        else {
            const char *base;
            char name[64];
            robot_of(rows[i].model, name, sizeof name, &base);
            snprintf(model, sizeof model, "%s (%s)", name, base);
        }
        fmt_num(pin, sizeof pin, c.pin_us, "%.3g");
        fmt_num(ratio, sizeof ratio, c.ratio, "%.2f");
        fmt_num(tgt, sizeof tgt, c.target, "<= %.2g");
        fmt_num(fl, sizeof fl, c.floor_us, "%.3g");
        fmt_num(flr, sizeof flr, c.floor_ratio, "%.1f");
        fmt_num(ftgt, sizeof ftgt, c.floor_target, "<= %.0f");
        fprintf(f, "| %s | %s | %d | %d | %.3g | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", rows[i].method,
                model, rows[i].N, rows[i].nv, c.ours_us, pin, c.column, ratio, tgt,
                c.pass < 0 ? "" : c.pass ? "pass" : "FAIL", fl, flr, ftgt,
                c.floor_pass < 0 ? "" : c.floor_pass ? "pass" : "FAIL");
        met += c.pass == 1;
        missed += c.pass == 0;
        fmet += c.floor_pass == 1;
        fmissed += c.floor_pass == 0;
    }
    fprintf(f, "\n%d row%s with a counterpart; Pinocchio targets: %d met, %d missed; floor targets: %d met, %d "
               "missed.\n", shown, shown == 1 ? "" : "s", met, missed, fmet, fmissed);
    /* The same algorithms on both sides say whether the two sides ran on
     * comparable machines: Pinocchio's figures were measured on one machine,
     * ours may come from another */
    rbd_stats st;
    if (ncal && !stats_compute(cal, ncal, cal + n + 1, &st))
        fprintf(f, "\nCalibration: our rnea, aba and minv (the algorithms of Pinocchio's rnea, aba and "
                   "computeMinverse) run at a median %.2f of Pinocchio's figures (%d point%s, %.2f-%.2f).  A "
                   "machine faster than the one Pinocchio was timed on lowers every ratio above by about as "
                   "much, so compare this with its value on the anchors' machine (harness/README.md, "
                   "\"anchors\") before reading the verdicts.\n", st.median, ncal, ncal == 1 ? "" : "s", st.min, st.max);
    free(cal);
    return missed + fmissed;
}
