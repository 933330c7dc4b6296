/* The checks of a model under construction (builder.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "rbdiff/dynamics.h"
#include "model/builder.h"
#include "model/inertia.h"

int rbd_finite_all(const double *x, int n)
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
        if (!rbd_finite_all(j->axis, 3))
            return rbd_fail(RBD_EINVAL, "joint '%s': axis is not finite", b->jname[i]);
        double n = sqrt(j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2]);
        if (n < 1e-12) return rbd_fail(RBD_EINVAL, "joint '%s': axis has zero length", b->jname[i]);
    }
    const sp_xform *X = &b->Xtree[i];
    if (!rbd_finite_all(X->E, 9) || !rbd_finite_all(X->r, 3))
        return rbd_fail(RBD_EINVAL, "joint '%s': placement is not finite", b->jname[i]);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            double d = X->E[3 * r] * X->E[3 * c] + X->E[3 * r + 1] * X->E[3 * c + 1] + X->E[3 * r + 2] * X->E[3 * c + 2];
            if (fabs(d - (r == c)) > 1e-9)
                return rbd_fail(RBD_EINVAL, "joint '%s': placement rotation is not orthonormal", b->jname[i]);
        }
    rbd_body_inertia *in = &b->in[i];
    if (!isfinite(in->mass) || !rbd_finite_all(in->com, 3) || !rbd_finite_all(in->Ic, 9))
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

/* A model with bodies that are not physical (loaded by 'nonphysical') must
 * still have M(q) positive definite: checked by Cholesky at the neutral
 * configuration and RBD_PD_SAMPLES random ones (fixed seed). */
#define RBD_PD_SAMPLES 16
int rbd_model_check_mass_pd(const rbd_model *m)
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

/* Body sizes L (the farthest of its CoM and its children's joints) and
 * scales m L^2 + sum |Ic_kk| for the inertia rule, floored at a fraction of
 * the largest (a massless point body is judged against the robot). */
int rbd_builder_check_bodies(rbd_builder *b, const rbd_model_opts *o, rbd_model *m)
{
    const int nb = b->n;
    double *L = calloc((size_t)nb, sizeof *L), smax = 0;
    if (!L) return rbd_fail(RBD_ENOMEM, "out of memory");
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
    int rc = RBD_OK;
    for (int i = 0; i < nb && !rc; i++) {
        const rbd_body_inertia *in = &b->in[i];
        double sc = in->mass * L[i] * L[i] + fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
        rc = check_body(b, i, o, fmax(sc, RBD_INERTIA_FLOOR * smax), L[i], m);
        if (rc) b->bad = i;
    }
    free(L);
    if (!rc) rc = check_scale_about_root(b);   /* after check_body: non-finite data is named as such */
    return rc;
}

/* A joint that moves no mass makes M singular: the subtree sums of mass
 * and |Ic_kk|, leaves first. */
int rbd_model_check_moves_mass(const rbd_model *m)
{
    const int nb = m->nb;
    double *smass = calloc((size_t)nb, sizeof *smass);
    if (!smass) return rbd_fail(RBD_ENOMEM, "out of memory");
    for (int k = nb - 1; k >= 0; k--) {
        const rbd_body_inertia *in = &m->inertial[k];
        smass[k] += in->mass + fabs(in->Ic[0]) + fabs(in->Ic[4]) + fabs(in->Ic[8]);
        if (m->parent[k] >= 0) smass[m->parent[k]] += smass[k];
    }
    int rc = RBD_OK;
    for (int k = 0; k < nb && !rc; k++)
        if (smass[k] == 0)
            rc = rbd_fail(RBD_ESINGULAR, "joint '%s' moves no mass (body '%s' and its subtree are massless): "
                          "the mass matrix is singular", m->joint_name[k], m->body_name[k]);
    free(smass);
    return rc;
}
