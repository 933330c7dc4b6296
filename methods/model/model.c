/*
 * Building a kinematic tree: bodies are added in the user's numbering, then
 * validated and renumbered depth-first (every subtree a contiguous range, which
 * the subtree block products of IDSVA, CRBA and LTDL rely on).  The user's
 * numbering is kept so that every vector a user sees stays in it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/rbd.h"
#include "rbdiff/dynamics.h"
#include "model/inertia.h"

struct rbd_builder {
    int n, cap;
    int *parent;
    rbd_joint *joint;
    sp_xform *Xtree;
    rbd_body_inertia *in;
    char **jname, **bname;
    int bad;                /* user index of the body finish refused, -1 */
};

void rbd_model_opts_default(rbd_model_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gravity[2] = -9.81;
}

rbd_builder *rbd_builder_new(void)
{
    rbd_builder *b = calloc(1, sizeof(rbd_builder));
    if (b) b->bad = -1;
    return b;
}

int rbd_builder_failed_body(const rbd_builder *b)
{
    return b ? b->bad : -1;
}

void rbd_builder_free(rbd_builder *b)
{
    if (!b) return;
    for (int i = 0; i < b->n; i++) { free(b->jname[i]); free(b->bname[i]); }
    free(b->parent); free(b->joint); free(b->Xtree); free(b->in); free(b->jname); free(b->bname);
    free(b);
}

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

#define GROW(ptr, cap) do { void *p_ = realloc((ptr), (size_t)(cap) * sizeof *(ptr)); \
    if (!p_) return rbd_fail(RBD_ENOMEM, "out of memory growing the model to %d bodies", cap); \
    (ptr) = p_; } while (0)

int rbd_builder_add(rbd_builder *b, int parent, const rbd_joint *j, const sp_xform *Xtree,
                    const rbd_body_inertia *in, const char *joint_name, const char *body_name)
{
    if (!b || !j || !Xtree || !in) return rbd_fail(RBD_EINVAL, "rbd_builder_add: null argument");
    if (b->n == b->cap) {
        int cap = b->cap ? 2 * b->cap : 16;
        GROW(b->parent, cap); GROW(b->joint, cap); GROW(b->Xtree, cap); GROW(b->in, cap);
        GROW(b->jname, cap); GROW(b->bname, cap);
        b->cap = cap;
    }
    int i = b->n;
    char buf[32];
    snprintf(buf, sizeof buf, "j%d", i + 1);
    b->jname[i] = dupstr(joint_name ? joint_name : buf);
    snprintf(buf, sizeof buf, "b%d", i + 1);
    b->bname[i] = dupstr(body_name ? body_name : buf);
    if (!b->jname[i] || !b->bname[i]) {
        free(b->jname[i]); free(b->bname[i]);
        return rbd_fail(RBD_ENOMEM, "out of memory adding body %d", i + 1);
    }
    b->parent[i] = parent;
    b->joint[i] = *j;
    b->Xtree[i] = *Xtree;
    b->in[i] = *in;
    b->n++;
    return RBD_OK;
}

/* ---- validation ---- */

static int finite_all(const double *x, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(x[k])) return 0;
    return 1;
}

/* A symmetric 3x3 is positive semi-definite when every principal minor of
 * order k is >= -rtol * scale^k: rounding in the minors themselves is of
 * order eps * scale^k, so the tolerance must scale the same way. */
int rbd_sym3_psd(const double A[9], double scale, double rtol)
{
    double s = scale > 0 ? scale : 1;
    for (int k = 0; k < 3; k++)
        if (A[4 * k] < -rtol * s) return 0;
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (A[4 * a] * A[4 * b] - A[3 * a + b] * A[3 * b + a] < -rtol * s * s) return 0;
    double det = A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
                 A[2] * (A[3] * A[7] - A[4] * A[6]);
    return det >= -rtol * s * s * s;
}

static int psd3(const double A[9], double scale)
{
    return rbd_sym3_psd(A, scale, 1e-9);
}

int rbd_model_add_warning(rbd_model *m, const char *msg)
{
    if (!m || !msg) return rbd_fail(RBD_EINVAL, "rbd_model_add_warning: null argument");
    char **w = realloc(m->warn, (size_t)(m->nwarn + 1) * sizeof *w);
    if (!w) return rbd_fail(RBD_ENOMEM, "out of memory recording a warning");
    m->warn = w;
    if (!(m->warn[m->nwarn] = dupstr(msg))) return rbd_fail(RBD_ENOMEM, "out of memory recording a warning");
    m->nwarn++;
    return RBD_OK;
}

int rbd_model_add_notice(rbd_model *m, const char *msg)
{
    int rc = rbd_model_add_warning(m, msg);
    if (rc) return rc;
    char **w = realloc(m->notice, (size_t)(m->nnotice + 1) * sizeof *w);
    if (!w) return rbd_fail(RBD_ENOMEM, "out of memory recording a warning");
    m->notice = w;
    if (!(m->notice[m->nnotice] = dupstr(msg))) return rbd_fail(RBD_ENOMEM, "out of memory recording a warning");
    m->nnotice++;
    return RBD_OK;
}

/* The rotational inertia of body i by the rule of README.md ("Inertia
 * rule"): scale = m L^2 + sum |Ic_kk| of the body (L: its size), floored. */
static int judge_inertia(rbd_builder *b, int i, const rbd_model_opts *o, double scale, double L, rbd_model *m)
{
    const char *bn = b->bname[i];
    rbd_body_inertia *in = &b->in[i];
    double lam[3], e, tol, change;
    int v = rbd_inertia_judge(in->Ic, scale, lam, &e, &tol, &change);
    if (v == RBD_INERTIA_PHYSICAL) return RBD_OK;
    char msg[640], what[96];
    if (lam[0] < 0) snprintf(what, sizeof what, "include the negative eigenvalue %.6g", lam[0]);
    else snprintf(what, sizeof what, "violate the triangle inequality");
    int n = snprintf(msg, sizeof msg, "body %d ('%s'): principal moments of inertia about the CoM (%.6g, %.6g, "
                     "%.6g) %s: excess %.3g (the largest minus the other two) %s the rounding tolerance %.3g "
                     "(1e-6 x (m L^2 + tr), m = %g, L = %g)", i + 1, bn, lam[0], lam[1], lam[2], what, e,
                     v == RBD_INERTIA_CLAMPED ? "within" : "beyond", tol, in->mass, L);
    if (n < 0) n = 0;
    size_t k = (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1;
    if (v == RBD_INERTIA_CLAMPED) {
        snprintf(msg + k, sizeof msg - k, ": clamped (the second moment's negative eigenvalue set to 0), entries "
                 "changed by at most %.3g", change);
        return rbd_model_add_notice(m, msg);
    }
    if (!o->nonphysical)
        return rbd_fail(RBD_EINVAL, "%s: not a physical body (the model option 'nonphysical' loads it when M(q) "
                        "stays positive definite)", msg);
    m->nonphysical++;
    snprintf(msg + k, sizeof msg - k, ": not a physical body, loaded as given (model option 'nonphysical')");
    return rbd_model_add_notice(m, msg);
}

/* Checks one body's data; user index i (1-based in messages).  scale, L:
 * the body's scale and size for judge_inertia (not strict). */
static int check_body(rbd_builder *b, int i, const rbd_model_opts *o, double scale, double L, rbd_model *m)
{
    const char *bn = b->bname[i];
    int p = b->parent[i];
    if (p < -1 || p >= i)
        return rbd_fail(RBD_EINVAL, "body %d ('%s'): parent %d is not an earlier body (parents must come first)",
                        i + 1, bn, p + 1);
    const rbd_joint *j = &b->joint[i];
    if (j->type < 0 || j->type >= RBD_JOINT_NTYPES)
        return rbd_fail(RBD_EINVAL, "joint '%s': unknown joint type %d", b->jname[i], (int)j->type);
    if (j->type == RBD_JOINT_REVOLUTE || j->type == RBD_JOINT_PRISMATIC || j->type == RBD_JOINT_CONTINUOUS) {
        if (!finite_all(j->axis, 3))
            return rbd_fail(RBD_EINVAL, "joint '%s': axis is not finite", b->jname[i]);
        double n = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
        if (n < 1e-12) return rbd_fail(RBD_EINVAL, "joint '%s': axis has zero length", b->jname[i]);
    }
    const sp_xform *X = &b->Xtree[i];
    if (!finite_all(X->E, 9) || !finite_all(X->r, 3))
        return rbd_fail(RBD_EINVAL, "joint '%s': placement is not finite", b->jname[i]);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double d = X->E[3 * r] * X->E[3 * c] + X->E[3 * r + 1] * X->E[3 * c + 1] + X->E[3 * r + 2] * X->E[3 * c + 2];
            if (fabs(d - (r == c)) > 1e-9)
                return rbd_fail(RBD_EINVAL, "joint '%s': placement rotation is not orthonormal", b->jname[i]);
        }
    rbd_body_inertia *in = &b->in[i];
    if (!isfinite(in->mass) || !finite_all(in->com, 3) || !finite_all(in->Ic, 9))
        return rbd_fail(RBD_EINVAL, "body %d ('%s'): inertial data is not finite", i + 1, bn);
    if (in->mass < 0)
        return rbd_fail(RBD_EINVAL, "body %d ('%s'): mass %g is negative", i + 1, bn, in->mass);
    double tr = in->Ic[0] + in->Ic[4] + in->Ic[8];
    double sc = fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
    for (int r = 0; r < 3; r++)
        for (int c = r + 1; c < 3; c++)
            if (fabs(in->Ic[3 * r + c] - in->Ic[3 * c + r]) > 1e-9 * (sc > 0 ? sc : 1))
                return rbd_fail(RBD_EINVAL, "body %d ('%s'): rotational inertia is not symmetric", i + 1, bn);
    if (!o->strict) return judge_inertia(b, i, o, scale, L, m);
    /* strict: the audit of before the inertia rule (README.md, "Model options") */
    if (!psd3(in->Ic, sc))
        return rbd_fail(RBD_EINVAL, "body %d ('%s'): rotational inertia is not positive semi-definite "
                        "(strict mode)", i + 1, bn);
    /* Triangle inequality of the principal moments <=> the second moment
     * Sigma = tr(Ic)/2 1 - Ic is PSD (a physical mass distribution). */
    double Sg[9];
    for (int k = 0; k < 9; k++) Sg[k] = -in->Ic[k];
    for (int k = 0; k < 3; k++) Sg[4 * k] += tr / 2;
    if (!psd3(Sg, sc))
        return rbd_fail(RBD_EINVAL, "body %d ('%s'): principal moments of inertia violate the triangle "
                        "inequality (strict mode)", i + 1, bn);
    return RBD_OK;
}

/* Overflow found at load, not as inf in an output (inertia.h,
 * RBD_SCALE_MAX): each body's scale about the root, with R its joint's
 * distance from the root along the tree (parents come first). */
static int check_scale_about_root(rbd_builder *b)
{
    double *R = calloc((size_t)b->n, sizeof *R);
    if (!R) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    for (int i = 0; i < b->n && !rc; i++) {
        const double *r = b->Xtree[i].r, *c = b->in[i].com;
        int p = b->parent[i];
        R[i] = (p >= 0 && p < i ? R[p] : 0) + hypot(hypot(r[0], r[1]), r[2]);   /* no overflow in the norm itself */
        double d = R[i] + hypot(hypot(c[0], c[1]), c[2]), d2 = d * d;
        const rbd_body_inertia *in = &b->in[i];
        double sc = in->mass * d2 + fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
        if (d2 > RBD_SCALE_MAX || sc > RBD_SCALE_MAX) {
            b->bad = i;
            rc = rbd_fail(RBD_EINVAL, "body %d ('%s'): its scale about the root, m L^2 + tr(Ic) = %.3g (m = %g, L = "
                          "%.3g: its distance from the root), is beyond %g: the dynamics would overflow; not a robot "
                          "a double can describe", i + 1, b->bname[i], sc, in->mass, d, RBD_SCALE_MAX);
        }
    }
    free(R);
    return rc;
}

/* A model with bodies that are not physical (loaded by 'nonphysical') must
 * still have M(q) positive definite: checked by Cholesky at the neutral
 * configuration and RBD_PD_SAMPLES random ones (fixed seed). */
#define RBD_PD_SAMPLES 16
static int check_mass_pd(const rbd_model *m)
{
    double *q = malloc(sizeof *q * (size_t)m->nq);
    if (!q) return rbd_fail(RBD_ENOMEM, "out of memory");
    rbd_rng r;
    rbd_rng_seed(&r, 21);
    int rc = RBD_OK;
    for (int k = 0; k <= RBD_PD_SAMPLES && !rc; k++) {
        if (k == 0) rbd_neutral(m, q);
        else rbd_random_state(m, &r, q, NULL, NULL, NULL);
        double rcond;
        if ((rc = rbd_mass_rcond(m, q, &rcond))) break;
        if (rcond == 0)
            rc = rbd_fail(RBD_ESINGULAR, "%d bod%s not physical (model option 'nonphysical') and M(q) is not "
                          "positive definite at the %s configuration%s: refused (%s)", m->nonphysical,
                          m->nonphysical > 1 ? "ies are" : "y is", k ? "random" : "neutral",
                          k ? " (seed 21)" : "", m->notice[m->nnotice - 1]);
    }
    free(q);
    return rc;
}

void rbd_model_free(rbd_model *m)
{
    if (!m) return;
    for (int i = 0; i < m->nb; i++) {
        if (m->joint_name) free(m->joint_name[i]);
        if (m->body_name) free(m->body_name[i]);
    }
    for (int k = 0; k < m->nwarn; k++) free(m->warn[k]);
    free(m->warn);
    for (int k = 0; k < m->nnotice; k++) free(m->notice[k]);
    free(m->notice);
    free(m->parent); free(m->subtree_end); free(m->idx_q); free(m->idx_v); free(m->nq_of); free(m->nv_of);
    free(m->dof_body); free(m->dof_parent); free(m->dof_run0); free(m->joint); free(m->S); free(m->Xtree); free(m->inertia);
    free(m->inertial); free(m->joint_name); free(m->body_name); free(m->user_body); free(m->user_q);
    free(m->user_v); free(m->spec);
    free(m);
}

#define ALLOC(ptr, n) do { size_t n_ = (size_t)(n); (ptr) = calloc(n_ > 0 ? n_ : 1, sizeof *(ptr)); \
    if (!(ptr)) { rc = rbd_fail(RBD_ENOMEM, "out of memory building a model of %d bodies", nb); goto fail; } } while (0)

int rbd_builder_finish(rbd_builder *b, const rbd_model_opts *opts, const char *spec, rbd_model **out)
{
    rbd_model_opts dflt;
    if (!opts) { rbd_model_opts_default(&dflt); opts = &dflt; }
    if (!b || !out) return rbd_fail(RBD_EINVAL, "rbd_builder_finish: null argument");
    *out = NULL;
    b->bad = -1;
    int nb = b->n, rc = RBD_OK;
    if (nb < 1) return rbd_fail(RBD_EINVAL, "model has no bodies (N must be >= 1)");
    if (!finite_all(opts->gravity, 3)) return rbd_fail(RBD_EINVAL, "gravity is not finite");

    rbd_model *m = calloc(1, sizeof *m);
    int *internal = NULL, *stack = NULL, *first_child = NULL, *next_sib = NULL, *last_child = NULL;
    int *uq = NULL, *uv = NULL;
    if (!m) return rbd_fail(RBD_ENOMEM, "out of memory building a model");
    /* body sizes L (the farthest of its CoM and its children's joints) and
     * scales m L^2 + sum |Ic_kk| for the inertia rule, floored at a fraction
     * of the largest (a massless point body is judged against the robot) */
    {
        double *L = calloc((size_t)nb, sizeof *L), smax = 0;
        if (!L) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); goto fail; }
        for (int i = 0; i < nb; i++) {
            const double *c = b->in[i].com, *r = b->Xtree[i].r;
            if (isfinite(c[0] + c[1] + c[2])) L[i] = fmax(L[i], sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]));
            int p = b->parent[i];
            if (p >= 0 && p < i && isfinite(r[0] + r[1] + r[2]))
                L[p] = fmax(L[p], sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]));
        }
        for (int i = 0; i < nb; i++) {
            const rbd_body_inertia *in = &b->in[i];
            double sc = in->mass * L[i] * L[i] + fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
            if (isfinite(sc)) smax = fmax(smax, sc);
        }
        for (int i = 0; i < nb && !rc; i++) {
            const rbd_body_inertia *in = &b->in[i];
            double sc = in->mass * L[i] * L[i] + fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
            rc = check_body(b, i, opts, fmax(sc, RBD_INERTIA_FLOOR * smax), L[i], m);
            if (rc) b->bad = i;
        }
        free(L);
        if (!rc) rc = check_scale_about_root(b);   /* after check_body: non-finite data is named as such */
        if (rc) goto fail;
    }

    /* depth-first order, children in insertion order */
    ALLOC(internal, nb); ALLOC(stack, nb); ALLOC(first_child, nb + 1); ALLOC(next_sib, nb);
    ALLOC(last_child, nb + 1);
    for (int i = 0; i <= nb; i++) first_child[i] = last_child[i] = -1;
    for (int i = 0; i < nb; i++) {
        int p = b->parent[i] + 1;       /* slot 0 = base */
        next_sib[i] = -1;
        if (last_child[p] < 0) first_child[p] = i; else next_sib[last_child[p]] = i;
        last_child[p] = i;
    }
    m->nb = nb;
    ALLOC(m->user_body, nb);
    {
        int top = 0, k = 0;
        /* push roots in reverse so the first is visited first */
        for (int c = first_child[0]; c >= 0; c = next_sib[c]) stack[top++] = c;
        for (int a = 0, z = top - 1; a < z; a++, z--) { int t = stack[a]; stack[a] = stack[z]; stack[z] = t; }
        while (top > 0) {
            int u = stack[--top];
            internal[u] = k;
            m->user_body[k++] = u;
            int base = top;
            for (int c = first_child[u + 1]; c >= 0; c = next_sib[c]) stack[top++] = c;
            for (int a = base, z = top - 1; a < z; a++, z--) { int t = stack[a]; stack[a] = stack[z]; stack[z] = t; }
        }
    }

    ALLOC(m->parent, nb); ALLOC(m->subtree_end, nb); ALLOC(m->idx_q, nb); ALLOC(m->idx_v, nb);
    ALLOC(m->nq_of, nb); ALLOC(m->nv_of, nb); ALLOC(m->joint, nb); ALLOC(m->Xtree, nb); ALLOC(m->inertia, nb);
    ALLOC(m->inertial, nb); ALLOC(m->joint_name, nb); ALLOC(m->body_name, nb);
    for (int k = 0; k < nb; k++) {
        int u = m->user_body[k];
        m->parent[k] = b->parent[u] < 0 ? -1 : internal[b->parent[u]];
        rbd_joint j = b->joint[u];
        if (j.type == RBD_JOINT_REVOLUTE || j.type == RBD_JOINT_PRISMATIC || j.type == RBD_JOINT_CONTINUOUS) {
            double n = sqrt(j.axis[0] * j.axis[0] + j.axis[1] * j.axis[1] + j.axis[2] * j.axis[2]);
            for (int c = 0; c < 3; c++) j.axis[c] /= n;
            j.axis_id = -1;
            for (int c = 0; c < 3; c++)
                if (j.axis[c] == 1.0 && j.axis[(c + 1) % 3] == 0.0 && j.axis[(c + 2) % 3] == 0.0) j.axis_id = c;
        } else {
            j.axis_id = -1;
        }
        m->joint[k] = j;
        m->nq_of[k] = rbd_joint_nq(j.type);
        m->nv_of[k] = rbd_joint_nv(j.type);
        m->Xtree[k] = b->Xtree[u];
        m->inertial[k] = b->in[u];
        sp_inertia_from_mcI(b->in[u].mass, b->in[u].com, b->in[u].Ic, &m->inertia[k]);
        m->joint_name[k] = b->jname[u];
        m->body_name[k] = b->bname[u];
        b->jname[u] = b->bname[u] = NULL;
    }

    /* offsets, subtree ranges, depth */
    for (int k = 0; k < nb; k++) {
        m->idx_q[k] = m->nq; m->idx_v[k] = m->nv;
        m->nq += m->nq_of[k]; m->nv += m->nv_of[k];
    }
    for (int k = nb - 1; k >= 0; k--) {
        int e = k + 1;
        for (int c = k + 1; c < nb && m->parent[c] >= k; c = m->subtree_end[c])
            if (m->parent[c] == k) e = m->subtree_end[c];
        m->subtree_end[k] = e;
    }
    {
        int *depth = stack;
        for (int k = 0; k < nb; k++) {
            depth[k] = m->parent[k] < 0 ? 1 : depth[m->parent[k]] + 1;
            if (depth[k] > m->depth_max) m->depth_max = depth[k];
        }
    }
    ALLOC(m->dof_body, m->nv); ALLOC(m->dof_parent, m->nv); ALLOC(m->dof_run0, m->nv); ALLOC(m->S, 6 * m->nv);
    for (int k = 0; k < nb; k++) {
        int p = m->parent[k];
        for (int d = 0; d < m->nv_of[k]; d++) {
            int dof = m->idx_v[k] + d;
            m->dof_body[dof] = k;
            m->dof_parent[dof] = d > 0 ? dof - 1 : (p < 0 ? -1 : m->idx_v[p] + m->nv_of[p] - 1);
            m->dof_run0[dof] = dof > 0 && m->dof_parent[dof] == dof - 1 ? m->dof_run0[dof - 1] : dof;
            double *S = m->S + 6 * dof;
            const rbd_joint *j = &m->joint[k];
            switch (j->type) {
            case RBD_JOINT_REVOLUTE:
            case RBD_JOINT_CONTINUOUS: for (int c = 0; c < 3; c++) S[c] = j->axis[c]; break;
            case RBD_JOINT_PRISMATIC: for (int c = 0; c < 3; c++) S[3 + c] = j->axis[c]; break;
            case RBD_JOINT_SPHERICAL: S[d] = 1; break;
            case RBD_JOINT_FREEFLYER: S[d < 3 ? 3 + d : d - 3] = 1; break;  /* v = [lin; ang] */
            default: break;
            }
        }
    }

    /* a joint that moves no mass makes M singular */
    {
        double *smass = calloc((size_t)nb, sizeof *smass);
        if (!smass) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); goto fail; }
        for (int k = nb - 1; k >= 0; k--) {
            const rbd_body_inertia *in = &m->inertial[k];
            smass[k] += in->mass + fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
            if (m->parent[k] >= 0) smass[m->parent[k]] += smass[k];
        }
        for (int k = 0; k < nb; k++)
            if (smass[k] == 0) {
                rc = rbd_fail(RBD_ESINGULAR, "joint '%s' moves no mass (body '%s' and its subtree are massless): "
                              "the mass matrix is singular", m->joint_name[k], m->body_name[k]);
                free(smass);
                goto fail;
            }
        free(smass);
    }

    /* user numbering of q and v */
    ALLOC(m->user_q, m->nq); ALLOC(m->user_v, m->nv); ALLOC(uq, nb); ALLOC(uv, nb);
    {
        int oq = 0, ov = 0;
        for (int u = 0; u < nb; u++) {
            int k = internal[u];
            uq[k] = oq; uv[k] = ov;
            oq += m->nq_of[k]; ov += m->nv_of[k];
        }
        for (int k = 0; k < nb; k++) {
            for (int d = 0; d < m->nq_of[k]; d++) m->user_q[m->idx_q[k] + d] = uq[k] + d;
            for (int d = 0; d < m->nv_of[k]; d++) m->user_v[m->idx_v[k] + d] = uv[k] + d;
        }
    }
    for (int c = 0; c < 3; c++) { m->a0[c] = 0; m->a0[3 + c] = -opts->gravity[c]; }
    m->spec = dupstr(spec ? spec : "builder");
    if (!m->spec) { rc = rbd_fail(RBD_ENOMEM, "out of memory"); goto fail; }

    if (m->nonphysical && (rc = check_mass_pd(m))) goto fail;

    free(internal); free(stack); free(first_child); free(next_sib); free(last_child); free(uq); free(uv);
    *out = m;
    return RBD_OK;
fail:
    free(internal); free(stack); free(first_child); free(next_sib); free(last_child); free(uq); free(uv);
    rbd_model_free(m);
    return rc;
}
