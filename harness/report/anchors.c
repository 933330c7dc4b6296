/* The Pinocchio timing tables and the machine floors, from their markdown
 * files, and a run's timings against them (see anchors.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "report/anchors.h"
#include "measure/method_facts.h"
#include "measure/stats.h"

enum { MAXCELL = 24 };

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

/* Splits "| a | b |" into trimmed cells; returns the count (MAXCELL + 1 if
 * there are too many). */
static int split_row(char *line, char **cell)
{
    char *s = trim(line);
    if (*s == '|') s++;
    size_t len = strlen(s);
    if (len && s[len - 1] == '|') s[len - 1] = 0;
    int n = 0;
    for (char *p = s;; ) {
        char *bar = strchr(p, '|');
        if (bar) *bar = 0;
        if (n == MAXCELL) return MAXCELL + 1;
        cell[n++] = trim(p);
        if (!bar) break;
        p = bar + 1;
    }
    return n;
}

static int is_separator(char *const *cell, int n)
{
    for (int k = 0; k < n; k++) {
        if (!*cell[k]) return 0;
        for (const char *p = cell[k]; *p; p++)
            if (*p != '-' && *p != ':') return 0;
    }
    return n > 0;
}

/* A whole cell as a number ("-" is NAN). */
static int cell_number(const char *s, double *x)
{
    if (!strcmp(s, "-")) { *x = NAN; return 0; }
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return end == s || *end || errno ? -1 : 0;
}

static void table_key(const char *title, char *key, size_t len)
{
    char low[160];
    size_t k = 0;
    for (; title[k] && k + 1 < sizeof low; k++) low[k] = (char)tolower((unsigned char)title[k]);
    low[k] = 0;
    const char *cc = strstr(low, "clang") ? "clang" : strstr(low, "g++") || strstr(low, "gcc") ? "gcc" : "other";
    snprintf(key, len, "%s-%s", cc, strstr(low, "native") ? "native" : "plain");
}

void anchors_free(anchor_set *s)
{
    if (!s) return;
    for (int t = 0; t < s->ntab; t++) free(s->tab[t].rows);
    free(s->tab);
    s->tab = NULL;
    s->ntab = 0;
}

/* A header row: an autoTree or robot table, or neither (skipped). */
static int start_table(anchor_set *s, char **cell, int n, const char *title, int hline, const char *path, int line)
{
    int robots;
    if (n >= 3 && !strcmp(cell[0], "bf") && !strcmp(cell[1], "N")) robots = 0;
    else if (n >= 5 && !strcmp(cell[0], "robot") && !strcmp(cell[1], "base") && !strcmp(cell[2], "nq") &&
             !strcmp(cell[3], "nv")) robots = 1;
    else return 1;
    if (!*title) return rbd_fail(RBD_EPARSE, "%s:%d: a timing table without a heading before it", path, line);
    int first = robots ? 4 : 2;
    if (n - first > ANCHOR_MAXCOL)
        return rbd_fail(RBD_EPARSE, "%s:%d: more than %d quantity columns", path, line, ANCHOR_MAXCOL);
    anchor_table *tab = realloc(s->tab, sizeof *tab * (size_t)(s->ntab + 1));
    if (!tab) return rbd_fail(RBD_ENOMEM, "out of memory reading %s", path);
    s->tab = tab;
    anchor_table *t = &tab[s->ntab++];
    memset(t, 0, sizeof *t);
    snprintf(t->title, sizeof t->title, "%s", title);
    table_key(title, t->key, sizeof t->key);
    t->robots = robots;
    t->line = hline;
    t->ncol = n - first;
    for (int k = 0; k < t->ncol; k++) {
        if (strlen(cell[first + k]) >= sizeof t->col[k])
            return rbd_fail(RBD_EPARSE, "%s:%d: column name '%s' too long", path, line, cell[first + k]);
        strcpy(t->col[k], cell[first + k]);
    }
    return 0;
}

static int add_row(anchor_table *t, char **cell, int n, const char *path, int line)
{
    int first = t->robots ? 4 : 2;
    if (n != first + t->ncol)
        return rbd_fail(RBD_EPARSE, "%s:%d: %d cells, the header of '%s' has %d", path, line, n, t->title,
                        first + t->ncol);
    anchor_row r;
    memset(&r, 0, sizeof r);
    double x;
    if (t->robots) {
        if (!*cell[0] || strlen(cell[0]) >= sizeof r.robot || strlen(cell[1]) >= sizeof r.base)
            return rbd_fail(RBD_EPARSE, "%s:%d: robot or base name empty or too long", path, line);
        if (strcmp(cell[1], "fixed") && strcmp(cell[1], "freeflyer"))
            return rbd_fail(RBD_EPARSE, "%s:%d: base '%s' is neither fixed nor freeflyer", path, line, cell[1]);
        strcpy(r.robot, cell[0]);
        strcpy(r.base, cell[1]);
        r.bf = NAN;
        if (cell_number(cell[3], &x) || !(x >= 1) || x != floor(x))
            return rbd_fail(RBD_EPARSE, "%s:%d: nv '%s' is not a whole number >= 1", path, line, cell[3]);
        r.N = (int)x;
    } else {
        if (cell_number(cell[0], &r.bf) || !(r.bf >= 1))
            return rbd_fail(RBD_EPARSE, "%s:%d: bf '%s' is not a number >= 1", path, line, cell[0]);
        if (cell_number(cell[1], &x) || !(x >= 1) || x != floor(x))
            return rbd_fail(RBD_EPARSE, "%s:%d: N '%s' is not a whole number >= 1", path, line, cell[1]);
        r.N = (int)x;
    }
    for (int k = 0; k < t->ncol; k++)
        if (cell_number(cell[first + k], &r.us[k]) || r.us[k] < 0)
            return rbd_fail(RBD_EPARSE, "%s:%d: %s '%s' is not a time in microseconds", path, line, t->col[k],
                            cell[first + k]);
    anchor_row *rows = realloc(t->rows, sizeof *rows * (size_t)(t->nrow + 1));
    if (!rows) return rbd_fail(RBD_ENOMEM, "out of memory reading %s", path);
    t->rows = rows;
    rows[t->nrow++] = r;
    return 0;
}

int anchors_load(const char *path, anchor_set *s)
{
    anchors_free(s);
    memset(s, 0, sizeof *s);
    FILE *f = fopen(path, "r");
    if (!f) return rbd_fail(RBD_EIO, "cannot read the Pinocchio timings %s: %s", path, strerror(errno));
    char *line = NULL, *cell[MAXCELL], title[160] = "";
    size_t cap = 0;
    int ln = 0, hline = 0, rc = 0;
    enum { OUT, HEADER, ROWS, SKIP } st = OUT;
    while (getline(&line, &cap, f) >= 0) {
        ln++;
        char *t = trim(line);
        if (*t != '|') {
            st = OUT;
            if (*t == '#') {
                while (*t == '#') t++;
                snprintf(title, sizeof title, "%s", trim(t));
                hline = ln;
            }
            continue;
        }
        int n = split_row(t, cell);
        if (n > MAXCELL) { rc = rbd_fail(RBD_EPARSE, "%s:%d: more than %d cells", path, ln, MAXCELL); break; }
        if (st == OUT) {
            rc = start_table(s, cell, n, title, hline, path, ln);
            if (rc < 0) break;
            st = rc ? SKIP : HEADER;
            rc = 0;
        } else if (st == HEADER) {
            if (!is_separator(cell, n) || n != (s->tab[s->ntab - 1].robots ? 4 : 2) + s->tab[s->ntab - 1].ncol) {
                rc = rbd_fail(RBD_EPARSE, "%s:%d: expected the |---|---| line under the table header", path, ln);
                break;
            }
            st = ROWS;
        } else if (st == ROWS) {
            if ((rc = add_row(&s->tab[s->ntab - 1], cell, n, path, ln))) break;
        }
    }
    int err = ferror(f);
    free(line);
    fclose(f);
    if (!rc && err) rc = rbd_fail(RBD_EIO, "error reading %s", path);
    if (!rc && !s->ntab) rc = rbd_fail(RBD_EPARSE, "%s: no timing table (| bf | N | ... or | robot | base | nq | nv | ...)", path);
    for (int k = 0; !rc && k < s->ntab; k++)
        if (!s->tab[k].nrow)
            rc = rbd_fail(RBD_EPARSE, "%s:%d: table '%s' has no rows", path, s->tab[k].line, s->tab[k].title);
    if (rc) anchors_free(s);
    return rc;
}

/* "0.12 us", "18 us", "0.23 ms" -> ns */
static int cell_time_ns(const char *s, double *ns)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || !(x >= 0)) return -1;
    while (isspace((unsigned char)*end)) end++;
    double scale = !strcmp(end, "ns") ? 1 : !strcmp(end, "us") ? 1e3 : !strcmp(end, "ms") ? 1e6 : !strcmp(end, "s") ? 1e9 : 0;
    if (!scale) return -1;
    *ns = x * scale;
    return 0;
}

int anchors_load_floors(const char *path, anchor_set *s)
{
    s->nfloor = 0;
    FILE *f = fopen(path, "r");
    if (!f) return rbd_fail(RBD_EIO, "cannot read the machine limits %s: %s", path, strerror(errno));
    char *line = NULL, *cell[MAXCELL];
    size_t cap = 0;
    int ln = 0, rc = 0, ncol = 0, in = 0, N[16];
    while (getline(&line, &cap, f) >= 0) {
        ln++;
        char *t = trim(line);
        if (*t != '|') { in = 0; continue; }
        int n = split_row(t, cell);
        if (n > MAXCELL) { rc = rbd_fail(RBD_EPARSE, "%s:%d: more than %d cells", path, ln, MAXCELL); break; }
        if (!in) {
            in = 1;
            ncol = 0;
            if (strcmp(cell[0], "quantity")) continue;
            if (n - 1 > 16) { rc = rbd_fail(RBD_EPARSE, "%s:%d: more than 16 N columns", path, ln); break; }
            for (int k = 1; k < n; k++) {
                if (sscanf(cell[k], "N = %d", &N[k - 1]) != 1 || N[k - 1] < 1) {
                    rc = rbd_fail(RBD_EPARSE, "%s:%d: column '%s' is not 'N = <number>'", path, ln, cell[k]);
                    break;
                }
            }
            if (rc) break;
            ncol = n - 1;
            continue;
        }
        if (!ncol || is_separator(cell, n) || !strstr(cell[0], "write")) continue;
        if (n != ncol + 1) {
            rc = rbd_fail(RBD_EPARSE, "%s:%d: %d cells, the header has %d", path, ln, n, ncol + 1);
            break;
        }
        for (int k = 0; k < ncol; k++)
            if (cell_time_ns(cell[k + 1], &s->floor_ns[k])) {
                rc = rbd_fail(RBD_EPARSE, "%s:%d: '%s' is not a time (a number and ns, us, ms or s)", path, ln,
                              cell[k + 1]);
                break;
            }
        if (rc) break;
        memcpy(s->floor_N, N, sizeof(int) * (size_t)ncol);
        s->nfloor = ncol;
        break;
    }
    free(line);
    fclose(f);
    if (!rc && !s->nfloor)
        rc = rbd_fail(RBD_EPARSE, "%s: no output-write floor (a row mentioning 'write' under | quantity | N = ... |)", path);
    return rc;
}

const anchor_table *anchors_find(const anchor_set *s, const char *key, int robots)
{
    for (int k = 0; k < s->ntab; k++)
        if (s->tab[k].robots == robots && !strcmp(s->tab[k].key, key)) return &s->tab[k];
    return NULL;
}

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

int anchors_compare(const anchor_set *s, const char *key, const timing_row *r, anchor_cmp *c)
{
    memset(c, 0, sizeof *c);
    c->pin_us = c->ratio = c->target = c->floor_us = c->floor_ratio = c->floor_target = NAN;
    c->pass = c->floor_pass = -1;
    c->ours_us = r->median_ns / 1000;
    c->column = anchors_column_of(r->method);
    if (!c->column) return 1;
    char name[64] = "";
    const char *base = NULL;
    int robot = 0;
    const anchor_row *row = NULL;
    const anchor_table *t = NULL;
    if (!strncmp(r->model, "autotree:", 9) && isfinite(r->bf)) {
        const char *p;
        double skew = (p = strstr(r->model, "skew=")) ? strtod(p + 5, NULL) : 0;
        double taper = (p = strstr(r->model, "taper=")) ? strtod(p + 6, NULL) : 1;
        if (skew != 0 || taper != 1) return 1;       /* the anchors are skew 0, taper 1 */
        if ((t = anchors_find(s, key, 0)))
            for (int k = 0; k < t->nrow && !row; k++)
                if (t->rows[k].bf == r->bf && t->rows[k].N == r->N) row = &t->rows[k];
    } else if (!robot_of(r->model, name, sizeof name, &base)) {
        robot = 1;
        if ((t = anchors_find(s, key, 1)))
            for (int k = 0; k < t->nrow && !row; k++)
                if (!strcmp(t->rows[k].robot, name) && !strcmp(t->rows[k].base, base)) row = &t->rows[k];
    } else return 1;
    if (row)
        for (int k = 0; k < t->ncol; k++)
            if (!strcmp(t->col[k], c->column)) c->pin_us = row->us[k];
    if (isfinite(c->pin_us) && c->pin_us > 0) {
        c->ratio = c->ours_us / c->pin_us;
        c->target = target_of(r->method, robot, name, r->N);
        if (isfinite(c->target)) c->pass = c->ratio <= c->target;
    }
    /* the output-write floor is for 2 nv^2 doubles: autoTree has nv = N */
    if (!strcmp(r->method, "idsva") && !robot)
        for (int k = 0; k < s->nfloor; k++)
            if (s->floor_N[k] == r->nv) {
                c->floor_us = s->floor_ns[k] / 1000;
                c->floor_ratio = c->ours_us / c->floor_us;
                if (r->nv >= 100) {
                    c->floor_target = 3;
                    c->floor_pass = c->floor_ratio <= 3;
                }
            }
    return isfinite(c->pin_us) || isfinite(c->floor_us) ? 0 : 1;
}

static void fmt_num(char *buf, size_t len, double x, const char *f)
{
    if (isfinite(x)) snprintf(buf, len, f, x);
    else snprintf(buf, len, "-");
}

int anchors_write_markdown(FILE *f, const anchor_set *s, const char *key, const timing_row *rows, int n,
                           const char *source)
{
    const anchor_table *ta = anchors_find(s, key, 0), *tr = anchors_find(s, key, 1);
    fprintf(f, "# rbdiff against Pinocchio 3.7.0's stored timings and the machine's floors\n\n"
               "**Fallback:** this run has no live Pinocchio peer (scripts/peers builds it; harness/README.md, "
               "\"Peers\"), so ours are set against figures stored from another run on another machine. "
               "Read the ratios as context, not as a verdict: two machines differ by more than the "
               "margins below (the calibration at the end says by how much).\n\n");
    fprintf(f, "Ours: %s.  Pinocchio: pinocchio-timings.md, tables '%s' and '%s'.  "
               "Floor: machine-limits.md, the time to write dtau/dq and dtau/dv (2 nv^2 doubles).  "
               "Targets: issue 10 (ratio to Pinocchio; within 3x of the floor at N >= 100).\n\n",
            source, ta ? ta->title : "(no autoTree table)", tr ? tr->title : "(no robot table)");
    fprintf(f, "| method | model | N | nv | ours (us) | Pinocchio (us) | quantity | ratio | target | verdict "
               "| floor (us) | ours/floor | target | verdict |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    int met = 0, missed = 0, fmet = 0, fmissed = 0, shown = 0, ncal = 0;
    double *cal = malloc(sizeof(double) * 2 * ((size_t)n + 1));     /* base-algorithm ratios, then scratch */
    for (int i = 0; i < n; i++) {
        anchor_cmp c;
        if (anchors_compare(s, key, &rows[i], &c)) continue;
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
