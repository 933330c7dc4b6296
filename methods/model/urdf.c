/*
 * URDF -> rbd_model.  The link/joint tables of urdf_xml.c are resolved into
 * one tree, walked depth-first from the root with siblings in lexicographic
 * order of joint name (urdfdom keeps joints in a name-keyed map, and Pinocchio
 * walks its children in that order), fixed joints merged: the child link's
 * inertia is lumped into the moving body it hangs on, through the composed
 * fixed placement, and the joints below it are re-parented onto that body.
 * The walk order is the user numbering, so vectors line up with Pinocchio's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/urdf_internal.h"

/* ---- name lookup ---- */

typedef struct { const char *name; int idx; } name_idx;

static int cmp_name_idx(const void *a, const void *b)
{
    return strcmp(((const name_idx *)a)->name, ((const name_idx *)b)->name);
}

static int find_link(const name_idx *sorted, int n, const char *name)
{
    name_idx key = { name, -1 };
    const name_idx *hit = bsearch(&key, sorted, (size_t)n, sizeof key, cmp_name_idx);
    return hit ? hit->idx : -1;
}

/* ---- inertia lumping ---- */

/* acc += child's inertia, given in a frame placed by X (acc's frame -> child's
 * frame): CoM c' = r + E^T c, Ic' = E^T Ic E, then the parallel-axis theorem
 * about the combined CoM (exact, no spatial round trip). */
static void lump_inertia(rbd_body_inertia *acc, const sp_xform *X, const rbd_body_inertia *in)
{
    double c2[3], Ic2[9];
    sp_mat3T_vec(X->E, in->com, c2);
    for (int k = 0; k < 3; k++) c2[k] += X->r[k];
    sp_mat3_congruence(X->E, in->Ic, Ic2);
    double m1 = acc->mass, m2 = in->mass, m = m1 + m2, c[3];
    for (int k = 0; k < 3; k++) c[k] = m > 0 ? (m1 * acc->com[k] + m2 * c2[k]) / m : 0;
    double d1[3], d2[3];
    for (int k = 0; k < 3; k++) { d1[k] = acc->com[k] - c[k]; d2[k] = c2[k] - c[k]; }
    double s1 = sp_dot3(d1, d1), s2 = sp_dot3(d2, d2);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            acc->Ic[3 * a + b] += Ic2[3 * a + b] + m1 * ((a == b ? s1 : 0) - d1[a] * d1[b]) +
                                  m2 * ((a == b ? s2 : 0) - d2[a] * d2[b]);
    acc->mass = m;
    for (int k = 0; k < 3; k++) acc->com[k] = c[k];
}

/* ---- the walk ---- */

/* A joint keyed by (parent link, name): the sibling order of the walk. */
typedef struct { int ip; const char *name; int idx; } kid_key;

static int cmp_kid(const void *a, const void *b)
{
    const kid_key *x = a, *y = b;
    if (x->ip != y->ip) return x->ip < y->ip ? -1 : 1;
    return strcmp(x->name, y->name);
}

typedef struct {
    int parent;             /* body index, -1 = world */
    int joint;              /* URDF joint index, -1 for the added root_joint */
    int link;               /* the child link that names the body */
    sp_xform Xtree;
    rbd_body_inertia in;
} body;

typedef struct {
    urdf_robot r;
    name_idx *byname;       /* [nl] links sorted by name */
    int *child_of;          /* [nl] the joint whose child is this link, -1 = a root */
    int *kids, *kids_at;    /* joints of link l: kids[kids_at[l] .. kids_at[l+1]-1], by joint name */
    int *link_body;         /* [nl] body a link belongs to (-1 = world), -2 = not reached */
    sp_xform *link_X;       /* [nl] body frame -> link frame (through fixed joints) */
    int *stack;             /* [nj] */
    kid_key *keys;          /* [nj] sorting scratch */
    body *bodies;           /* [nj + 1] */
    int nbody;
} walk;

static void walk_free(walk *w)
{
    urdf_robot_free(&w->r);
    free(w->byname); free(w->child_of); free(w->kids); free(w->kids_at); free(w->link_body);
    free(w->link_X); free(w->stack); free(w->keys);
    free(w->bodies);
}

/* Names, parent/child links, one parent per link, one root, no cycle. */
static int resolve_tree(walk *w, int *root)
{
    urdf_robot *r = &w->r;
    int nl = r->nl, nj = r->nj;
    for (int l = 0; l < nl; l++) { w->byname[l].name = r->link[l].name; w->byname[l].idx = l; }
    qsort(w->byname, (size_t)nl, sizeof *w->byname, cmp_name_idx);
    for (int k = 1; k < nl; k++)
        if (!strcmp(w->byname[k - 1].name, w->byname[k].name)) {
            const urdf_link *a = &r->link[w->byname[k - 1].idx], *b = &r->link[w->byname[k].idx];
            return urdf_fail(r, b->line > a->line ? b->line : a->line, RBD_EINVAL,
                             "link '%s' is defined twice (lines %ld and %ld)", a->name, a->line, b->line);
        }
    /* duplicate joint names would make the sibling order ambiguous */
    kid_key *key = w->keys;
    for (int k = 0; k < nj; k++) key[k] = (kid_key){ 0, r->joint[k].name, k };
    qsort(key, (size_t)nj, sizeof *key, cmp_kid);
    for (int k = 1; k < nj; k++)
        if (!strcmp(key[k - 1].name, key[k].name)) {
            const urdf_joint *a = &r->joint[key[k - 1].idx], *b = &r->joint[key[k].idx];
            return urdf_fail(r, b->line > a->line ? b->line : a->line, RBD_EINVAL,
                             "joint '%s' is defined twice (lines %ld and %ld)", a->name, a->line, b->line);
        }
    for (int l = 0; l < nl; l++) w->child_of[l] = -1;
    for (int k = 0; k < nj; k++) {
        urdf_joint *j = &r->joint[k];
        j->ip = find_link(w->byname, nl, j->parent);
        j->ic = find_link(w->byname, nl, j->child);
        if (j->ip < 0 || j->ic < 0)
            return urdf_fail(r, j->line, RBD_EINVAL, "joint '%s': %s link '%s' is not defined", j->name,
                             j->ip < 0 ? "parent" : "child", j->ip < 0 ? j->parent : j->child);
        if (j->ip == j->ic)
            return urdf_fail(r, j->line, RBD_EINVAL, "joint '%s': link '%s' is its own parent (a cycle)", j->name,
                             j->child);
        int other = w->child_of[j->ic];
        if (other >= 0)
            return urdf_fail(r, j->line, RBD_EINVAL,
                             "joint '%s': link '%s' is already the child of joint '%s' (line %ld): "
                             "a link has one parent in a tree", j->name, j->child, r->joint[other].name,
                             r->joint[other].line);
        w->child_of[j->ic] = k;
    }
    *root = -1;
    for (int l = 0; l < nl; l++) {
        if (w->child_of[l] >= 0) continue;
        if (*root >= 0)
            return urdf_fail(r, r->link[l].line, RBD_EINVAL,
                             "two root links, '%s' (line %ld) and '%s' (line %ld): no joint connects them "
                             "into one tree", r->link[*root].name, r->link[*root].line, r->link[l].name,
                             r->link[l].line);
        *root = l;
    }
    if (*root < 0) {
        /* every link has a parent: follow parents from link 0 until one repeats */
        int l = 0;
        for (int s = 0; s < nl; s++) l = r->joint[w->child_of[l]].ip;
        const urdf_joint *j = &r->joint[w->child_of[l]];
        return urdf_fail(r, j->line, RBD_EINVAL, "no root link: joint '%s' closes a cycle through link '%s'",
                         j->name, r->link[l].name);
    }
    /* children of each link, sorted by joint name */
    for (int k = 0; k < nj; k++) key[k] = (kid_key){ r->joint[k].ip, r->joint[k].name, k };
    qsort(key, (size_t)nj, sizeof *key, cmp_kid);
    for (int k = 0; k < nj; k++) w->kids[k] = key[k].idx;
    for (int l = 0, k = 0; l <= nl; l++) {
        while (k < nj && key[k].ip < l) k++;
        w->kids_at[l] = k;
    }
    return RBD_OK;
}

static int walk_tree(walk *w, int root, int freeflyer)
{
    urdf_robot *r = &w->r;
    for (int l = 0; l < r->nl; l++) w->link_body[l] = -2;
    sp_xform_identity(&w->link_X[root]);
    w->link_body[root] = -1;
    if (freeflyer) {
        /* Pinocchio's root_joint: world -> root link, identity placement */
        body *b = &w->bodies[w->nbody++];
        b->parent = -1; b->joint = -1; b->link = root;
        sp_xform_identity(&b->Xtree);
        b->in = r->link[root].in;
        w->link_body[root] = 0;
    }
    int top = 0;
    for (int k = w->kids_at[root + 1] - 1; k >= w->kids_at[root]; k--) w->stack[top++] = w->kids[k];
    while (top > 0) {
        const urdf_joint *j = &r->joint[w->stack[--top]];
        int pb = w->link_body[j->ip];
        sp_xform X;                                /* body pb's frame -> the joint frame */
        sp_xform_compose(&j->X, &w->link_X[j->ip], &X);
        if (j->type == URDF_FIXED) {
            w->link_body[j->ic] = pb;
            w->link_X[j->ic] = X;
            if (pb >= 0) lump_inertia(&w->bodies[pb].in, &X, &r->link[j->ic].in);
        } else {
            body *b = &w->bodies[w->nbody];
            b->parent = pb; b->joint = (int)(j - r->joint); b->link = j->ic;
            b->Xtree = X;
            b->in = r->link[j->ic].in;
            w->link_body[j->ic] = w->nbody++;
            sp_xform_identity(&w->link_X[j->ic]);
        }
        for (int k = w->kids_at[j->ic + 1] - 1; k >= w->kids_at[j->ic]; k--) w->stack[top++] = w->kids[k];
    }
    for (int l = 0; l < r->nl; l++)
        if (w->link_body[l] == -2) {
            /* not reachable from the root, yet it has a parent: it hangs below a cycle */
            int c = l;
            for (int s = 0; s < r->nl; s++) c = r->joint[w->child_of[c]].ip;
            const urdf_joint *j = &r->joint[w->child_of[c]];
            return urdf_fail(r, j->line, RBD_EINVAL,
                             "joint '%s' closes a cycle through link '%s' (not connected to the root link '%s')",
                             j->name, r->link[c].name, r->link[root].name);
        }
    if (w->nbody == 0)
        return urdf_fail(r, 0, RBD_EINVAL, "no moving joint (every joint is fixed and no free-flyer was asked for)");
    return RBD_OK;
}

static int build_model(walk *w, int freeflyer, const rbd_model_opts *o, rbd_model **out)
{
    urdf_robot *r = &w->r;
    rbd_builder *b = rbd_builder_new();
    if (!b) return rbd_fail(RBD_ENOMEM, "out of memory");
    int rc = RBD_OK;
    for (int k = 0; k < w->nbody && !rc; k++) {
        const body *bd = &w->bodies[k];
        const urdf_joint *uj = bd->joint >= 0 ? &r->joint[bd->joint] : NULL;
        rbd_joint j = { .type = RBD_JOINT_FREEFLYER, .axis_id = -1 };
        if (uj && uj->type != URDF_FLOATING) {
            j.type = uj->type == URDF_PRISMATIC ? RBD_JOINT_PRISMATIC
                   : uj->type == URDF_CONTINUOUS && !o->continuous_revolute ? RBD_JOINT_CONTINUOUS
                   : RBD_JOINT_REVOLUTE;
            memcpy(j.axis, uj->axis, sizeof j.axis);
        }
        rc = rbd_builder_add(b, bd->parent, &j, &bd->Xtree, &bd->in, uj ? uj->name : "root_joint",
                             r->link[bd->link].name);
    }
    char *spec = NULL;
    if (!rc) {
        char sfx[128];
        rbd_urdf_spec_suffix(freeflyer, o, sfx, sizeof sfx);
        size_t n = strlen(r->path) + strlen(sfx) + 8;
        spec = malloc(n);
        if (!spec) rc = rbd_fail(RBD_ENOMEM, "out of memory");
        else snprintf(spec, n, "urdf:%s%s", r->path, sfx);
    }
    if (!rc) {
        rc = rbd_builder_finish(b, o, spec, out);
        if (rc) {
            /* the builder names the joint or body; add the file */
            char msg[1024];
            snprintf(msg, sizeof msg, "%s", rbd_last_error());
            int bad = rbd_builder_failed_body(b);
            urdf_fail(r, bad >= 0 ? r->link[w->bodies[bad].link].line : 0, rc, "%s", msg);
        }
    }
    free(spec);
    rbd_builder_free(b);
    return rc;
}

/* Pinocchio loads a mimic joint as an independent joint; say so in the model. */
static int record_mimics(const urdf_robot *r, rbd_model *m)
{
    for (int k = 0; k < r->nj; k++) {
        const urdf_joint *j = &r->joint[k];
        if (!j->mimic) continue;
        char msg[512];
        snprintf(msg, sizeof msg, "%s:%ld: joint '%s' mimics '%s': loaded as an independent joint", r->path,
                 j->line, j->name, j->mimic);
        int rc = rbd_model_add_warning(m, msg);
        if (rc) return rc;
    }
    return RBD_OK;
}

/* The tree, the walk and the model from the tables in w->r. */
static int load_tables(walk *w, const char *path, int freeflyer, const rbd_model_opts *o, rbd_model **out);

int rbd_urdf_load(const char *path, int freeflyer, const rbd_model_opts *o, rbd_model **out)
{
    if (!path || !out) return rbd_fail(RBD_EINVAL, "rbd_urdf_load: null argument");
    *out = NULL;
    rbd_model_opts dflt;
    if (!o) { rbd_model_opts_default(&dflt); o = &dflt; }
    walk w;
    memset(&w, 0, sizeof w);
    int rc = urdf_read(path, o->strict, &w.r);
    if (rc) return rc;
    return load_tables(&w, path, freeflyer, o, out);
}

int urdf_load_buffer(const char *buf, size_t len, const char *name, int freeflyer, const rbd_model_opts *o,
                     rbd_model **out)
{
    if (!buf || !name || !out) return rbd_fail(RBD_EINVAL, "urdf_load_buffer: null argument");
    *out = NULL;
    rbd_model_opts dflt;
    if (!o) { rbd_model_opts_default(&dflt); o = &dflt; }
    walk w;
    memset(&w, 0, sizeof w);
    int rc = urdf_read_buffer(buf, len, name, o->strict, &w.r);
    if (rc) return rc;
    return load_tables(&w, name, freeflyer, o, out);
}

static int load_tables(walk *w_, const char *path, int freeflyer, const rbd_model_opts *o, rbd_model **out)
{
    walk w = *w_;
    int rc = RBD_OK;
    size_t nl = (size_t)w.r.nl, nj = (size_t)w.r.nj;
    w.byname = calloc(nl, sizeof *w.byname);
    w.child_of = calloc(nl, sizeof *w.child_of);
    w.kids = calloc(nj + 1, sizeof *w.kids);
    w.kids_at = calloc(nl + 1, sizeof *w.kids_at);
    w.link_body = calloc(nl, sizeof *w.link_body);
    w.link_X = calloc(nl, sizeof *w.link_X);
    w.stack = calloc(nj + 1, sizeof *w.stack);
    w.keys = calloc(nj + 1, sizeof *w.keys);
    w.bodies = calloc(nj + 1, sizeof *w.bodies);
    if (!w.byname || !w.child_of || !w.kids || !w.kids_at || !w.link_body || !w.link_X || !w.stack || !w.keys ||
        !w.bodies)
        rc = rbd_fail(RBD_ENOMEM, "%s: out of memory", path);
    int root = -1;
    if (!rc) rc = resolve_tree(&w, &root);
    if (!rc) rc = walk_tree(&w, root, freeflyer);
    if (!rc) rc = build_model(&w, freeflyer, o, out);
    if (!rc && (rc = record_mimics(&w.r, *out))) {
        rbd_model_free(*out);
        *out = NULL;
    }
    walk_free(&w);
    return rc;
}
