/* Versions of one peer side by side (vs_versions.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE          /* strverscmp */
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "peers/peer.h"
#include "report/report_ratios.h"
#include "report/vs_versions.h"

static int newer_first(const void *a, const void *b)
{
    return strverscmp((const char *)b, (const char *)a);
}

int vs_versions_present(const timing_row *rows, int n, const char *family, char (*peer)[32])
{
    int np = 0, fam = peer_family(family);
    for (int k = 0; k < n && np < VS_MAXVER; k++) {
        peer_name pn;   /* the row's peer: pinocchio@3.7.0, or pinocchio in a set from before versions */
        if (strcmp(rows[k].kind, "peer") || peer_name_parse(rows[k].method, &pn) || pn.family != fam) continue;
        int seen = 0;
        for (int j = 0; j < np && !seen; j++) seen = !strcmp(peer[j], pn.peer);
        if (!seen) snprintf(peer[np++], 32, "%.31s", pn.peer);
    }
    qsort(peer, (size_t)np, sizeof *peer, newer_first);
    return np;
}

/* The functions of peer p among rows (the part after "p."), at most max. */
static int functions(const timing_row *rows, int n, const char *p, const char **fn, int max)
{
    size_t len = strlen(p);
    int nf = 0;
    for (int k = 0; k < n && nf < max; k++) {
        const char *m = rows[k].method;
        if (strcmp(rows[k].kind, "peer") || strncmp(m, p, len) || m[len] != '.') continue;
        int seen = 0;
        for (int j = 0; j < nf && !seen; j++) seen = !strcmp(fn[j], m + len + 1);
        if (!seen) fn[nf++] = m + len + 1;
    }
    return nf;
}

/* One pair: rows model, columns the functions both versions timed. */
static void pair_table(FILE *f, const timing_row *rows, int n, const char *newer, const char *older)
{
    enum { MAXFN = 16 };
    const char *fn[MAXFN], *both[MAXFN];
    int nf = functions(rows, n, newer, fn, MAXFN), nb = 0;
    char a[128], b[128];
    for (int j = 0; j < nf; j++) {
        snprintf(b, sizeof b, "%s.%s", older, fn[j]);
        for (int k = 0; k < n; k++)
            if (!strcmp(rows[k].method, b)) { both[nb++] = fn[j]; break; }
    }
    fprintf(f, "\n## %s / %s\n\n", newer, older);
    if (!nb) { fputs("No function timed by both in these rounds.\n", f); return; }
    fputs("Each cell: the median over rounds of the newer's time over the older's in the same round, and (w/K) "
          "the rounds the newer was faster. Below 1, the newer version is faster.\n\n| model | nv |", f);
    for (int j = 0; j < nb; j++) fprintf(f, " %s |", both[j]);
    fputs("\n|---|---:|", f);
    for (int j = 0; j < nb; j++) fputs("---:|", f);
    fputc('\n', f);
    snprintf(a, sizeof a, "%s.%s", newer, both[0]);
    for (int k = 0; k < n; k++) {          /* the models, in the run's order, once each */
        const char *model = rows[k].model;
        if (strcmp(rows[k].method, a)) continue;
        fprintf(f, "| %s | %d |", strncmp(model, "urdf:", 5) ? model : model + 5, rows[k].nv);
        for (int j = 0; j < nb; j++) {
            snprintf(a, sizeof a, "%s.%s", newer, both[j]);
            snprintf(b, sizeof b, "%s.%s", older, both[j]);
            const timing_row *x = timing_rows_find(rows, n, a, model), *y = timing_rows_find(rows, n, b, model);
            double q;
            int w, K = x && y ? report_vs_peer(x, y, &q, &w) : 0;
            if (K && isfinite(q)) fprintf(f, " %.3g (%d/%d) |", q, w, K);
            else fputs(" - |", f);
        }
        fputc('\n', f);
        snprintf(a, sizeof a, "%s.%s", newer, both[0]);
    }
}

void vs_versions_write(FILE *f, const timing_row *rows, int n, char (*peer)[32], int np)
{
    if (np < 2) return;
    fputs("\n# The versions side by side\n", f);
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) pair_table(f, rows, n, peer[i], peer[j]);
}
