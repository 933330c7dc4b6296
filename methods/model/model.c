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
#include "model/builder.h"
#include "model/inertia.h"

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
    free(m->parent); free(m->subtree_end); free(m->subtree_end_v); free(m->idx_q); free(m->idx_v); free(m->nq_of); free(m->nv_of);
    free(m->dof_body); free(m->dof_parent); free(m->dof_run0); free(m->joint); free(m->S); free(m->Xtree); free(m->inertia);
    free(m->inertial); free(m->joint_name); free(m->body_name); free(m->user_body); free(m->user_q);
    free(m->user_v); free(m->spec);
    free(m);
}

#define ALLOC(ptr, n) do { size_t n_ = (size_t)(n); (ptr) = calloc(n_ > 0 ? n_ : 1, sizeof *(ptr)); \
    if (!(ptr)) return rbd_fail(RBD_ENOMEM, "out of memory building a model of %d bodies", nb); } while (0)

/* Depth-first order, children in insertion order: user_body[k] is the user
 * body numbered k, internal[u] the number of user body u. */
static int depth_first(const rbd_builder *b, int *internal, int *user_body)
{
    const int nb = b->n;
    int *stack = NULL, *first_child = NULL, *next_sib = NULL, *last_child = NULL, rc = RBD_OK;
    stack = malloc(sizeof(int) * (size_t)nb); next_sib = malloc(sizeof(int) * (size_t)nb);
    first_child = malloc(sizeof(int) * (size_t)(nb + 1)); last_child = malloc(sizeof(int) * (size_t)(nb + 1));
    if (!stack || !next_sib || !first_child || !last_child) {
        rc = rbd_fail(RBD_ENOMEM, "out of memory building a model of %d bodies", nb);
        goto done;
    }
    for (int i = 0; i <= nb; i++) first_child[i] = last_child[i] = -1;
    for (int i = 0; i < nb; i++) {
        int p = b->parent[i] + 1;       /* slot 0 = base */
        next_sib[i] = -1;
        if (last_child[p] < 0) first_child[p] = i; else next_sib[last_child[p]] = i;
        last_child[p] = i;
    }
    int top = 0, k = 0;
    /* push roots in reverse so the first is visited first */
    for (int c = first_child[0]; c >= 0; c = next_sib[c]) stack[top++] = c;
    for (int a = 0, z = top - 1; a < z; a++, z--) { int t = stack[a]; stack[a] = stack[z]; stack[z] = t; }
    while (top > 0) {
        int u = stack[--top];
        internal[u] = k;
        user_body[k++] = u;
        int base = top;
        for (int c = first_child[u + 1]; c >= 0; c = next_sib[c]) stack[top++] = c;
        for (int a = base, z = top - 1; a < z; a++, z--) { int t = stack[a]; stack[a] = stack[z]; stack[z] = t; }
    }
done:
    free(stack); free(first_child); free(next_sib); free(last_child);
    return rc;
}

/* The bodies in internal order: parent, joint (unit axis, axis_id for the
 * axis shortcuts), sizes, placement, inertia; the names move from b to m. */
static int take_bodies(rbd_builder *b, rbd_model *m, const int *internal)
{
    const int nb = m->nb;
    ALLOC(m->parent, nb); ALLOC(m->subtree_end, nb); ALLOC(m->subtree_end_v, nb); ALLOC(m->idx_q, nb);
    ALLOC(m->idx_v, nb); ALLOC(m->nq_of, nb); ALLOC(m->nv_of, nb); ALLOC(m->joint, nb); ALLOC(m->Xtree, nb);
    ALLOC(m->inertia, nb); ALLOC(m->inertial, nb); ALLOC(m->joint_name, nb); ALLOC(m->body_name, nb);
    for (int k = 0; k < nb; k++) {
        int u = m->user_body[k];
        m->parent[k] = b->parent[u] < 0 ? -1 : internal[b->parent[u]];
        rbd_joint j = b->joint[u];
        j.axis_id = -1;
        if (j.type == RBD_JOINT_REVOLUTE || j.type == RBD_JOINT_PRISMATIC || j.type == RBD_JOINT_CONTINUOUS) {
            double n = sqrt(j.axis[0] * j.axis[0] + j.axis[1] * j.axis[1] + j.axis[2] * j.axis[2]);
            for (int c = 0; c < 3; c++) j.axis[c] /= n;
            for (int c = 0; c < 3; c++)
                if (j.axis[c] == 1.0 && j.axis[(c + 1) % 3] == 0.0 && j.axis[(c + 2) % 3] == 0.0) j.axis_id = c;
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
    return RBD_OK;
}

/* Offsets into q and v, the subtree ranges (bodies and dofs), the depth. */
static int body_tables(rbd_model *m)
{
    const int nb = m->nb;
    for (int k = 0; k < nb; k++) {
        m->idx_q[k] = m->nq; m->idx_v[k] = m->nv;
        m->nq += m->nq_of[k]; m->nv += m->nv_of[k];
    }
    for (int k = nb - 1; k >= 0; k--) {
        int e = k + 1;
        for (int c = k + 1; c < nb && m->parent[c] >= k; c = m->subtree_end[c])
            if (m->parent[c] == k) e = m->subtree_end[c];
        m->subtree_end[k] = e;
        m->subtree_end_v[k] = e < nb ? m->idx_v[e] : m->nv;
    }
    int *depth;
    ALLOC(depth, nb);
    for (int k = 0; k < nb; k++) {
        depth[k] = m->parent[k] < 0 ? 1 : depth[m->parent[k]] + 1;
        if (depth[k] > m->depth_max) m->depth_max = depth[k];
    }
    free(depth);
    return RBD_OK;
}

/* Per dof: its body, the expanded parent array (RBDA Table 6.4), the start
 * of its run of consecutive parents, its column of S in the body frame. */
static int dof_tables(rbd_model *m)
{
    const int nb = m->nb;
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
    return RBD_OK;
}

/* user_q, user_v: each internal q and v index in the user's numbering. */
static int user_numbering(rbd_model *m, const int *internal)
{
    const int nb = m->nb;
    int *uq, oq = 0, ov = 0;
    ALLOC(m->user_q, m->nq); ALLOC(m->user_v, m->nv); ALLOC(uq, 2 * nb);
    int *uv = uq + nb;
    for (int u = 0; u < nb; u++) {
        int k = internal[u];
        uq[k] = oq; uv[k] = ov;
        oq += m->nq_of[k]; ov += m->nv_of[k];
    }
    for (int k = 0; k < nb; k++) {
        for (int d = 0; d < m->nq_of[k]; d++) m->user_q[m->idx_q[k] + d] = uq[k] + d;
        for (int d = 0; d < m->nv_of[k]; d++) m->user_v[m->idx_v[k] + d] = uv[k] + d;
    }
    free(uq);
    return RBD_OK;
}

/* Validates the bodies, numbers them depth-first and builds the model's
 * tables; then the checks that need the model (mass moved, M(q) > 0). */
static int finish(rbd_builder *b, const rbd_model_opts *opts, const char *spec, rbd_model *m, int *internal)
{
    const int nb = b->n;
    int rc;
    if ((rc = rbd_builder_check_bodies(b, opts, m))) return rc;
    m->nb = nb;
    ALLOC(m->user_body, nb);
    if ((rc = depth_first(b, internal, m->user_body)) || (rc = take_bodies(b, m, internal))) return rc;
    if ((rc = body_tables(m)) || (rc = dof_tables(m)) || (rc = rbd_model_check_moves_mass(m)) || (rc = user_numbering(m, internal)))
        return rc;
    for (int c = 0; c < 3; c++) { m->a0[c] = 0; m->a0[3 + c] = -opts->gravity[c]; }
    if (!(m->spec = dupstr(spec ? spec : "builder"))) return rbd_fail(RBD_ENOMEM, "out of memory");
    return m->nonphysical ? rbd_model_check_mass_pd(m) : RBD_OK;
}

int rbd_builder_finish(rbd_builder *b, const rbd_model_opts *opts, const char *spec, rbd_model **out)
{
    rbd_model_opts dflt;
    if (!opts) { rbd_model_opts_default(&dflt); opts = &dflt; }
    if (!b || !out) return rbd_fail(RBD_EINVAL, "rbd_builder_finish: null argument");
    *out = NULL;
    b->bad = -1;
    if (b->n < 1) return rbd_fail(RBD_EINVAL, "model has no bodies (N must be >= 1)");
    if (!rbd_finite_all(opts->gravity, 3)) return rbd_fail(RBD_EINVAL, "gravity is not finite");
    rbd_model *m = calloc(1, sizeof *m);
    int *internal = malloc(sizeof(int) * (size_t)b->n);
    int rc = m && internal ? finish(b, opts, spec, m, internal) : rbd_fail(RBD_ENOMEM, "out of memory building a model");
    free(internal);
    if (rc) { rbd_model_free(m); return rc; }
    *out = m;
    return RBD_OK;
}
