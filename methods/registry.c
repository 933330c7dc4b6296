/* The registry: every derivative method, in the order tables list them, and
 * the base algorithms the harness times beside them. */
#include <string.h>
#include "rbdiff/dynamics.h"
#include "rbdiff/method.h"

/* Each method file exports one descriptor. */
extern const rbd_method rbd_method_id_fd, rbd_method_id_cs, rbd_method_rneacr, rbd_method_pin26,
    rbd_method_idsva_body, rbd_method_idsva, rbd_method_idsva_ref;
extern const rbd_method rbd_method_fd_fd, rbd_method_fd_cs, rbd_method_abacr, rbd_method_fdcr, rbd_method_fdcr_forces, rbd_method_pin26_fd,
    rbd_method_fdsva_dmm, rbd_method_fdsva_dmm_loop, rbd_method_fdsva_dmm_sparse, rbd_method_fdsva_aza, rbd_method_fdsva_factored, rbd_method_fdsva_1pass,
    rbd_method_fdsva_forces, rbd_method_fdsva;
extern const rbd_method rbd_method_id2_fd, rbd_method_fd2_fd, rbd_method_idsva_so,
    rbd_method_fdsva_so, rbd_method_fdsva_so_dmm, rbd_method_fdsva_so_aza, rbd_method_id2_cs,
    rbd_method_fd2_cs;
extern const rbd_method rbd_method_idsva_emit, rbd_method_fdsva_emit;

const rbd_method *const rbd_methods[] = {
    &rbd_method_id_fd,
    &rbd_method_id_cs,
    &rbd_method_rneacr,
    &rbd_method_pin26,
    &rbd_method_idsva_body,
    &rbd_method_idsva,
    &rbd_method_idsva_ref,
    &rbd_method_fd_fd,
    &rbd_method_fd_cs,
    &rbd_method_abacr,
    &rbd_method_fdcr,
    &rbd_method_fdcr_forces,
    &rbd_method_pin26_fd,
    &rbd_method_fdsva_dmm,
    &rbd_method_fdsva_dmm_loop,
    &rbd_method_fdsva_dmm_sparse,
    &rbd_method_fdsva_aza,
    &rbd_method_fdsva_factored,
    &rbd_method_fdsva_forces,
    &rbd_method_fdsva_1pass,
    &rbd_method_fdsva,
    NULL
};

const rbd_method *const rbd_so_methods[] = {
    &rbd_method_id2_fd,
    &rbd_method_fd2_fd,
    &rbd_method_idsva_so,
    &rbd_method_fdsva_so,
    &rbd_method_fdsva_so_dmm,
    &rbd_method_fdsva_so_aza,
    &rbd_method_id2_cs,
    &rbd_method_fd2_cs,
    NULL
};

const rbd_method *const rbd_emit_methods[] = {
    &rbd_method_idsva_emit,
    &rbd_method_fdsva_emit,
    NULL
};

int rbd_method_count(void)
{
    int n = 0;
    while (rbd_methods[n]) n++;
    return n;
}

/* Edit distance (insertions, deletions, substitutions) between a and the
 * first 63 characters of b: what makes "fdsva_dmm" point at "fdsva-dmm". */
static int edit_distance(const char *a, const char *b)
{
    int row[64], nb = 0;
    while (nb < 63 && b[nb]) nb++;
    for (int j = 0; j <= nb; j++) row[j] = j;
    for (int i = 1; a[i - 1]; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= nb; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[nb];
}

/* An unknown name sets rbd_last_error(), naming the registered methods at
 * the smallest edit distance, so a typo is one message away from its fix. */
const rbd_method *rbd_method_find(const char *name)
{
    if (!name) {
        rbd_fail(RBD_EINVAL, "rbd_method_find: null name");
        return NULL;
    }
    for (int k = 0; rbd_methods[k]; k++)
        if (!strcmp(rbd_methods[k]->name, name)) return rbd_methods[k];
    for (int k = 0; rbd_so_methods[k]; k++)
        if (!strcmp(rbd_so_methods[k]->name, name)) return rbd_so_methods[k];
    for (int k = 0; rbd_emit_methods[k]; k++)
        if (!strcmp(rbd_emit_methods[k]->name, name)) return rbd_emit_methods[k];
    const rbd_method *const *lists[3] = { rbd_methods, rbd_so_methods, rbd_emit_methods };
    int best = 1 << 30;
    for (int l = 0; l < 3; l++)
        for (int k = 0; lists[l][k]; k++) {
            int d = edit_distance(lists[l][k]->name, name);
            if (d < best) best = d;
        }
    char near[256] = "";
    for (int l = 0; l < 3; l++)
        for (int k = 0; lists[l][k]; k++) {
            const char *nm = lists[l][k]->name;
            if (edit_distance(nm, name) == best && strlen(near) + strlen(nm) + 3 < sizeof near) {
                if (near[0]) strcat(near, ", ");
                strcat(near, nm);
            }
        }
    rbd_fail(RBD_EINVAL, "no method '%s' (nearest: %s; rbdiff methods lists them all)", name, near);
    return NULL;
}

int rbd_method_init_check(const rbd_method *meth, const rbd_model *m, void **out)
{
    if (!meth) return rbd_fail(RBD_EINVAL, "rbd_method_init_check: null method");
    if (!m || !out) return rbd_fail(RBD_EINVAL, "%s: null model or workspace pointer", meth->name);
    *out = NULL;
    return rbd_method_supports(meth, m);
}

int rbd_method_supports(const rbd_method *meth, const rbd_model *m)
{
    if (!meth || !m) return rbd_fail(RBD_EINVAL, "rbd_method_supports: null %s", !meth ? "method" : "model");
    for (int i = 0; i < m->nb; i++)
        if (!(meth->joints & (1u << m->joint[i].type)))
            return rbd_fail(RBD_ENOTSUP, "method '%s' does not support the %s joint '%s'", meth->name,
                            rbd_joint_type_name(m->joint[i].type), m->joint_name[i]);
    return RBD_OK;
}

const char *rbd_minv_name(rbd_minv_kind k)
{
    static const char *name[RBD_MINV_NKINDS] = { "analytic", "ltdl", "lapack" };
    return k >= 0 && k < RBD_MINV_NKINDS ? name[k] : "unknown";
}

void rbd_options_default(rbd_options *o)
{
    memset(o, 0, sizeof *o);
    o->minv = RBD_MINV_ANALYTIC;
    o->cs_step = 1e-20;
}

/* ---------------------------------------------------------------- base algorithms */

static int run_rnea(const rbd_model *m, void *d, const double *q, const double *v, const double *a,
                    const double *tau, double *out)
{
    (void)tau;
    return rbd_rnea(m, (rbd_data *)d, q, v, a, out);
}

static int run_rnea_ground(const rbd_model *m, void *d, const double *q, const double *v, const double *a,
                           const double *tau, double *out)
{
    (void)tau;
    return rbd_rnea_ground(m, (rbd_data *)d, q, v, a, out);
}

static int run_crba(const rbd_model *m, void *d, const double *q, const double *v, const double *a,
                    const double *tau, double *out)
{
    (void)v; (void)a; (void)tau;
    return rbd_crba(m, (rbd_data *)d, q, out);
}

static int run_aba(const rbd_model *m, void *d, const double *q, const double *v, const double *a,
                   const double *tau, double *out)
{
    (void)a;
    return rbd_aba(m, (rbd_data *)d, q, v, tau, out);
}

#define MINV_RUNNER(kind, fn)                                                                          \
    static int run_minv_##kind(const rbd_model *m, void *d, const double *q, const double *v,          \
                               const double *a, const double *tau, double *out)                        \
    {                                                                                                  \
        (void)v; (void)a; (void)tau;                                                                   \
        return fn(m, (rbd_data *)d, q, out);                                                           \
    }
MINV_RUNNER(auto, rbd_minv_auto)
MINV_RUNNER(ltdl, rbd_minv_ltdl)
MINV_RUNNER(lapack, rbd_minv_lapack)

const rbd_base_algo rbd_base_algos[] = {
    { "rnea", "inverse dynamics, body-frame RNEA (Featherstone, RBDA Table 5.1)", "a", "tau", 0, run_rnea },
    { "rnea-ground", "inverse dynamics, RNEA with ground-frame quantities", "a", "tau", 0, run_rnea_ground },
    { "crba", "joint-space inertia matrix M, CRBA (RBDA Table 6.2)", "", "M", 1, run_crba },
    { "aba", "forward dynamics, articulated-body algorithm (RBDA Table 7.1)", "tau", "qdd", 0, run_aba },
    { "minv", "M^-1, Carpentier's analytical ABA-like inverse (O(N^2)); CRBA + LTDL at nv <= 5", "", "Minv", 1, run_minv_auto },
    { "minv-ltdl", "M^-1 by CRBA + sparse LTDL (RBDA Tables 6.3-6.5)", "", "Minv", 1, run_minv_ltdl },
    { "minv-lapack", "M^-1 by CRBA + LAPACKE dpotrf/dpotri", "", "Minv", 1, run_minv_lapack },
    { NULL, NULL, NULL, NULL, 0, NULL }
};

const rbd_base_algo *rbd_base_algo_find(const char *name)
{
    if (!name) {
        rbd_fail(RBD_EINVAL, "rbd_base_algo_find: null name");
        return NULL;
    }
    for (int k = 0; rbd_base_algos[k].name; k++)
        if (!strcmp(rbd_base_algos[k].name, name)) return &rbd_base_algos[k];
    return NULL;
}

const char *rbd_output_name(rbd_output o)
{
    return o == RBD_ID_DERIVS ? "ID" : o == RBD_FD_DERIVS ? "FD" : o == RBD_ID_SO_DERIVS ? "ID2"
         : o == RBD_FD_SO_DERIVS ? "FD2" : "?";
}

int rbd_output_is_id(rbd_output o)
{
    return o == RBD_ID_DERIVS || o == RBD_ID_SO_DERIVS;
}

int rbd_output_order(rbd_output o)
{
    return o == RBD_ID_SO_DERIVS || o == RBD_FD_SO_DERIVS ? 2 : 1;
}
