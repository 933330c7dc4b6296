/* timing_index.h: sorted indexes of a timings set. */
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include <math.h>
#include "store/timing_index.h"

typedef struct {
    char *name;
    int row;
} named;

static int cmp_named(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

int timing_names_build(const timing_row *rows, int n, timing_names *x)
{
    memset(x, 0, sizeof *x);
    named *v = calloc((size_t)n + 1, sizeof *v);
    x->name = calloc((size_t)n + 1, sizeof *x->name);
    x->order = calloc((size_t)n + 1, sizeof *x->order);
    int rc = v && x->name && x->order ? RBD_OK : RBD_ENOMEM;
    for (int k = 0; k < n && !rc; k++) {
        char buf[700];
        timing_row_name(&rows[k], buf, sizeof buf);
        v[k].row = k;
        if (!(v[k].name = strdup(buf))) rc = RBD_ENOMEM;
        else x->n = k + 1;
    }
    if (!rc) {
        qsort(v, (size_t)n, sizeof *v, cmp_named);
        for (int k = 0; k < n; k++) {
            x->name[k] = v[k].name;
            x->order[k] = v[k].row;
        }
    } else {
        for (int k = 0; k < x->n; k++) free(v[k].name);
        x->n = 0;
    }
    free(v);
    if (rc) {
        timing_names_free(x);
        return rbd_fail(RBD_ENOMEM, "out of memory");
    }
    return RBD_OK;
}

int timing_names_find(const timing_names *x, const char *name)
{
    int lo = 0, hi = x->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(x->name[mid], name);
        if (!c) return x->order[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

void timing_names_free(timing_names *x)
{
    for (int k = 0; k < x->n; k++) free(x->name[k]);
    free(x->name);
    free(x->order);
    memset(x, 0, sizeof *x);
}

/* position breaks ties: the first row of the set comes first */
static int cmp_pos(const timing_row *a, const timing_row *b)
{
    return (a > b) - (a < b);
}

static int cmp_mm(const void *pa, const void *pb)
{
    const timing_row *a = *(const timing_row *const *)pa, *b = *(const timing_row *const *)pb;
    int c = strcmp(a->method, b->method);
    if (!c) c = strcmp(a->model, b->model);
    return c ? c : cmp_pos(a, b);
}

static int cmp_bnm_key(const timing_row *a, double bf, int N, const char *method)
{
    if (a->bf != bf) return a->bf < bf ? -1 : 1;
    if (a->N != N) return a->N < N ? -1 : 1;
    return strcmp(a->method, method);
}

static int cmp_bnm(const void *pa, const void *pb)
{
    const timing_row *a = *(const timing_row *const *)pa, *b = *(const timing_row *const *)pb;
    int c = cmp_bnm_key(a, b->bf, b->N, b->method);
    return c ? c : cmp_pos(a, b);
}

int timing_index_build(const timing_row *rows, int n, timing_index *x)
{
    memset(x, 0, sizeof *x);
    x->by_mm = malloc(sizeof *x->by_mm * ((size_t)n + 1));
    x->by_bnm = malloc(sizeof *x->by_bnm * ((size_t)n + 1));
    if (!x->by_mm || !x->by_bnm) {
        timing_index_free(x);
        return rbd_fail(RBD_ENOMEM, "out of memory");
    }
    for (int k = 0; k < n; k++) {
        x->by_mm[k] = &rows[k];
        if (isfinite(rows[k].bf)) x->by_bnm[x->nb++] = &rows[k];
    }
    x->n = n;
    qsort(x->by_mm, (size_t)n, sizeof *x->by_mm, cmp_mm);
    qsort(x->by_bnm, (size_t)x->nb, sizeof *x->by_bnm, cmp_bnm);
    return RBD_OK;
}

const timing_row *timing_index_find(const timing_index *x, const char *method, const char *model)
{
    int lo = 0, hi = x->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2, c = strcmp(x->by_mm[mid]->method, method);
        if (!c) c = strcmp(x->by_mm[mid]->model, model);
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    if (lo < x->n && !strcmp(x->by_mm[lo]->method, method) && !strcmp(x->by_mm[lo]->model, model))
        return x->by_mm[lo];
    return NULL;
}

const timing_row *timing_index_find_bnm(const timing_index *x, double bf, int N, const char *method)
{
    int lo = 0, hi = x->nb;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cmp_bnm_key(x->by_bnm[mid], bf, N, method) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < x->nb && !cmp_bnm_key(x->by_bnm[lo], bf, N, method) ? x->by_bnm[lo] : NULL;
}

const timing_row *timing_index_of_method(const timing_index *x, const char *method)
{
    int lo = 0, hi = x->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(x->by_mm[mid]->method, method) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < x->n && !strcmp(x->by_mm[lo]->method, method) ? x->by_mm[lo] : NULL;
}

/* The first autoTree row at bf or after it in by_bnm. */
static int lower_bf(const timing_index *x, double bf)
{
    int lo = 0, hi = x->nb;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (x->by_bnm[mid]->bf < bf) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

int timing_index_Ns(const timing_index *x, double bf, int *Ns)
{
    int n = 0;
    for (int k = lower_bf(x, bf); k < x->nb && x->by_bnm[k]->bf == bf; k++)
        if (!n || Ns[n - 1] != x->by_bnm[k]->N) Ns[n++] = x->by_bnm[k]->N;
    return n;
}

int timing_index_max_N(const timing_index *x, double bf)
{
    int lo = lower_bf(x, bf), hi = x->nb;
    while (lo < hi) {       /* the first row past bf: the one before it has bf's largest N */
        int mid = lo + (hi - lo) / 2;
        if (x->by_bnm[mid]->bf <= bf) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && x->by_bnm[lo - 1]->bf == bf ? x->by_bnm[lo - 1]->N : 0;
}

void timing_index_free(timing_index *x)
{
    free(x->by_mm);
    free(x->by_bnm);
    memset(x, 0, sizeof *x);
}
