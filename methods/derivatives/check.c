/* Input/output checks and the condition estimate of M(q) (check.h). */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/check.h"
#include "rbdiff/dynamics.h"

static int check_vec(const rbd_model *m, const char *who, const char *name, const double *x, int n,
                     const int *user)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(x[k]))
            return rbd_fail(RBD_ENONFINITE, "%s: input %s[%d] = %g is not finite", who, name, user[k], x[k]);
        else if (fabs(x[k]) > RBD_STATE_MAX)
            return rbd_fail(RBD_EINVAL, "%s: input %s[%d] = %g is beyond %g: the dynamics would overflow", who, name,
                            user[k], x[k], RBD_STATE_MAX);
    (void)m;
    return RBD_OK;
}

int rbd_check_state(const rbd_model *m, const rbd_state *x, const char *who)
{
    if (!m || !x || !x->q) return rbd_fail(RBD_EINVAL, "%s: null model or state", who);
    int rc = check_vec(m, who, "q", x->q, m->nq, m->user_q);
    if (!rc && x->v) rc = check_vec(m, who, "v", x->v, m->nv, m->user_v);
    if (!rc && x->a) rc = check_vec(m, who, "a", x->a, m->nv, m->user_v);
    if (!rc && x->tau) rc = check_vec(m, who, "tau", x->tau, m->nv, m->user_v);
    if (rc) return rc;
    /* q / sqrt(q.q) of a zero quaternion or a zero (cos, sin) pair is 0/0 (joint_tpl.h) */
    for (int i = 0; i < m->nb; i++) {
        rbd_joint_type t = m->joint[i].type;
        int o, n;
        const char *what;
        if (t == RBD_JOINT_SPHERICAL) { o = 0; n = 4; what = "the quaternion"; }
        else if (t == RBD_JOINT_FREEFLYER) { o = 3; n = 4; what = "the quaternion"; }
        else if (t == RBD_JOINT_CONTINUOUS) { o = 0; n = 2; what = "(cos, sin)"; }
        else continue;
        const double *qu = x->q + m->idx_q[i] + o;
        double n2 = 0;
        for (int k = 0; k < n; k++) n2 += qu[k] * qu[k];
        if (!(n2 > 1e-20))
            return rbd_fail(RBD_EINVAL, "%s: joint '%s': %s q[%d..%d] is zero (not a rotation)", who,
                            m->joint_name[i], what, m->user_q[m->idx_q[i]] + o, m->user_q[m->idx_q[i]] + o + n - 1);
    }
    return RBD_OK;
}

int rbd_check_output(const rbd_model *m, const char *who, const char *name, const double *x, int cols)
{
    if (!m || !x || !who || !name) return rbd_fail(RBD_EINVAL, "rbd_check_output: null argument");
    const int nv = m->nv;
    const size_t n = (size_t)nv * (size_t)cols;
    for (size_t k = 0; k < n; k++)
        if (!isfinite(x[k])) {
            int i = (int)(k % (size_t)nv), j = (int)(k / (size_t)nv);
            if (cols == 1)
                return rbd_fail(RBD_ENONFINITE, "%s: output %s[%d] = %g is not finite", who, name, m->user_v[i], x[k]);
            return rbd_fail(RBD_ENONFINITE, "%s: output %s(%d,%d) = %g is not finite", who, name, m->user_v[i],
                            m->user_v[j], x[k]);
        }
    return RBD_OK;
}

int rbd_explain_singular(const rbd_model *m, const double *q, int rc)
{
    if (rc != RBD_ESINGULAR && rc != RBD_ENONFINITE) return rc;
    if (!m || !q) return rc;      /* nothing to add to the first message */
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rbd_last_error());
    double r;
    if (rbd_mass_rcond(m, q, &r)) return rbd_fail(rc, "%s", msg);   /* keep the first message */
    if (r == 0)
        return rbd_fail(rc, "%s [reciprocal condition number of M(q) = 0: Cholesky fails, M(q) is not "
                        "numerically positive definite]", msg);
    return rbd_fail(rc, "%s [reciprocal condition number of M(q) ~ %.3g (LAPACK dpocon, 1-norm)]", msg, r);
}

/* A tensor T(i, j, k) at [i + nv j + nv^2 k] (method.h), named in the user's numbering. */
static int check_tensor(const rbd_model *m, const char *who, const char *name, const double *x)
{
    const size_t nv = (size_t)m->nv, n = nv * nv * nv;
    for (size_t e = 0; e < n; e++)
        if (!isfinite(x[e]))
            return rbd_fail(RBD_ENONFINITE, "%s: output %s(%d,%d,%d) = %g is not finite", who, name,
                            m->user_v[e % nv], m->user_v[e / nv % nv], m->user_v[e / (nv * nv)], x[e]);
    return RBD_OK;
}

int rbd_method_check_outputs(const rbd_method *meth, const rbd_model *m, const rbd_derivs *out)
{
    if (!meth || !m || !out) return rbd_fail(RBD_EINVAL, "rbd_method_check_outputs: null argument");
    const char *who = meth->name;
    int rc;
    if (rbd_output_order(meth->output) == 2) {
        const char *const *names = rbd_so_output_names(meth->output);
        double *p[1 + RBD_SO_NTENSORS];
        rbd_so_output_ptrs(meth->output, out, p);
        if ((rc = rbd_check_output(m, who, names[0], p[0], 1))) return rc;
        for (int k = 1; k <= RBD_SO_NTENSORS; k++)
            if ((rc = check_tensor(m, who, names[k], p[k]))) return rc;
        return RBD_OK;
    }
    if (meth->output == RBD_ID_DERIVS) {
        if ((rc = rbd_check_output(m, who, "tau", out->tau, 1))) return rc;
        if ((rc = rbd_check_output(m, who, "dtau_dq", out->dtau_dq, m->nv))) return rc;
        return rbd_check_output(m, who, "dtau_dv", out->dtau_dv, m->nv);
    }
    if ((rc = rbd_check_output(m, who, "qdd", out->qdd, 1))) return rc;
    if ((rc = rbd_check_output(m, who, "dqdd_dq", out->dqdd_dq, m->nv))) return rc;
    if ((rc = rbd_check_output(m, who, "dqdd_dv", out->dqdd_dv, m->nv))) return rc;
    return rbd_check_output(m, who, "dqdd_dtau", out->dqdd_dtau, m->nv);
}

int rbd_method_eval(const rbd_method *meth, void *ws, const rbd_model *m, const rbd_state *x, rbd_derivs *out)
{
    if (!meth || !ws || !m || !x || !out) return rbd_fail(RBD_EINVAL, "rbd_method_eval: null argument");
    rbd_state in = { x->q, x->v, NULL, NULL };
    const int id = rbd_output_is_id(meth->output);
    if (id) in.a = x->a; else in.tau = x->tau;
    if (!in.v || (id ? !in.a : !in.tau))
        return rbd_fail(RBD_EINVAL, "%s: the state needs q, v and %s", meth->name, id ? "a" : "tau");
    int rc = rbd_check_state(m, &in, meth->name);
    if (rc) return rc;
    rc = meth->eval(ws, &in, out);
    if (!rc) rc = rbd_method_check_outputs(meth, m, out);
    return rbd_explain_singular(m, x->q, rc);
}

int rbd_base_eval(const rbd_base_algo *algo, const rbd_model *m, void *d, const double *q, const double *v,
                  const double *a, const double *tau, double *out)
{
    if (!algo || !m || !d || !out) return rbd_fail(RBD_EINVAL, "rbd_base_eval: null argument");
    /* crba and the M^-1 variants read q only; rnea reads v, a; aba v, tau */
    int uses_v = *algo->needs != 0;
    rbd_state in = { q, uses_v ? v : NULL, !strcmp(algo->needs, "a") ? a : NULL,
                     !strcmp(algo->needs, "tau") ? tau : NULL };
    int rc = rbd_check_state(m, &in, algo->name);
    if (rc) return rc;
    rc = algo->run(m, d, q, v, a, tau, out);
    if (!rc) rc = rbd_check_output(m, algo->name, algo->out, out, algo->out_matrix ? m->nv : 1);
    return rbd_explain_singular(m, q, rc);
}
