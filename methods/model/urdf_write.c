/*
 * rbd_model -> URDF, so another library (Pinocchio, RBDL, Drake...) can load
 * the very model rbdiff runs.  Bodies are written in the user numbering, one
 * link per body (CoM and Ic as the inertial, rpy 0) and one joint per body
 * (Xtree as origin xyz + rpy).  A loader that follows urdfdom numbers joints
 * depth-first with siblings by name, which is the user numbering whenever
 * every body has at most one child (e.g. autoTree with bf = 1); otherwise
 * match joints by name.  Each joint is written so that a reader following
 * Pinocchio gets our nq: revolute (nq = 1) as "revolute" with limits that
 * bound nothing (urdfdom demands <limit> for it), continuous (nq = 2, (cos,
 * sin)) as "continuous".  Gravity is not part of URDF.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/urdf_internal.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* URDF needs unique link names and unique joint names. */
static int check_unique(char **names, int n, const char *what, const char *world)
{
    char **s = malloc((size_t)(n > 0 ? n : 1) * sizeof *s);
    if (!s) return rbd_fail(RBD_ENOMEM, "out of memory");
    memcpy(s, names, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_str);
    int rc = RBD_OK;
    for (int k = 0; k < n && !rc; k++)
        if ((k > 0 && !strcmp(s[k - 1], s[k])) || (world && !strcmp(s[k], world)))
            rc = rbd_fail(RBD_EINVAL, "URDF export: %s name '%s' is not unique", what, s[k]);
    free(s);
    return rc;
}

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(*s, f);
        }
    }
}

static void put_vec(FILE *f, const char *attr, const double *x)
{
    fprintf(f, " %s=\"%.17g %.17g %.17g\"", attr, x[0], x[1], x[2]);
}

static void put_link(FILE *f, const char *name, const rbd_body_inertia *in)
{
    fputs("  <link name=\"", f); put_escaped(f, name); fputs("\">\n", f);
    if (in) {
        static const double zero[3] = { 0, 0, 0 };
        const double *c = in->com, *J = in->Ic;
        fputs("    <inertial>\n      <origin", f);
        put_vec(f, "xyz", c); put_vec(f, "rpy", zero);
        fprintf(f, "/>\n      <mass value=\"%.17g\"/>\n", in->mass);
        fprintf(f, "      <inertia ixx=\"%.17g\" ixy=\"%.17g\" ixz=\"%.17g\" iyy=\"%.17g\" iyz=\"%.17g\" izz=\"%.17g\"/>\n",
                J[0], J[1], J[2], J[4], J[5], J[8]);
        fputs("    </inertial>\n", f);
    }
    fputs("  </link>\n", f);
}

int rbd_urdf_write(const rbd_model *m, FILE *f)
{
    if (!m || !f) return rbd_fail(RBD_EINVAL, "rbd_urdf_write: null argument");
    for (int k = 0; k < m->nb; k++)
        if (m->joint[k].type == RBD_JOINT_SPHERICAL)
            return rbd_fail(RBD_ENOTSUP, "URDF export: joint '%s' is spherical, which URDF cannot express",
                            m->joint_name[k]);
    /* a world link name no body uses */
    char world[64] = "world";
    for (int tries = 0;; tries++) {
        int used = 0;
        for (int k = 0; k < m->nb && !used; k++) used = !strcmp(m->body_name[k], world);
        if (!used) break;
        snprintf(world, sizeof world, "world_%d", tries);
    }
    int rc = check_unique(m->body_name, m->nb, "link", world);
    if (!rc) rc = check_unique(m->joint_name, m->nb, "joint", NULL);
    if (rc) return rc;
    int *internal = malloc((size_t)m->nb * sizeof *internal);
    if (!internal) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = 0; k < m->nb; k++) internal[m->user_body[k]] = k;

    fputs("<?xml version=\"1.0\"?>\n<!-- written by rbdiff; gravity is not part of URDF -->\n<robot name=\"rbdiff\">\n", f);
    put_link(f, world, NULL);
    for (int u = 0; u < m->nb; u++) {
        int k = internal[u], p = m->parent[k];
        const rbd_joint *j = &m->joint[k];
        put_link(f, m->body_name[k], &m->inertial[k]);
        /* continuous: Pinocchio (and rbdiff) read nq = 2; revolute with
         * unbounded limits: nq = 1 in both */
        const char *type = j->type == RBD_JOINT_REVOLUTE ? "revolute"
                         : j->type == RBD_JOINT_CONTINUOUS ? "continuous"
                         : j->type == RBD_JOINT_PRISMATIC ? "prismatic" : "floating";
        fputs("  <joint name=\"", f); put_escaped(f, m->joint_name[k]);
        fprintf(f, "\" type=\"%s\">\n    <origin", type);
        /* Xtree = (E, r): the joint frame sits at r with orientation R = E^T in the parent */
        double R[9], rpy[3];
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++) R[3 * a + b] = m->Xtree[k].E[3 * b + a];
        urdf_R_to_rpy(R, rpy);
        put_vec(f, "xyz", m->Xtree[k].r); put_vec(f, "rpy", rpy);
        fputs("/>\n    <parent link=\"", f); put_escaped(f, p < 0 ? world : m->body_name[p]);
        fputs("\"/>\n    <child link=\"", f); put_escaped(f, m->body_name[k]);
        fputs("\"/>\n", f);
        if (j->type != RBD_JOINT_FREEFLYER) {
            fputs("    <axis", f); put_vec(f, "xyz", j->axis); fputs("/>\n", f);
        }
        if (j->type == RBD_JOINT_PRISMATIC || j->type == RBD_JOINT_REVOLUTE)   /* required; bound nothing */
            fputs("    <limit lower=\"-1e30\" upper=\"1e30\" effort=\"1e30\" velocity=\"1e30\"/>\n", f);
        fputs("  </joint>\n", f);
    }
    fputs("</robot>\n", f);
    free(internal);
    if (ferror(f)) return rbd_fail(RBD_EIO, "URDF export: write error");
    return RBD_OK;
}
