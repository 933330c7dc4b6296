/* One method or base algorithm at one state, its outputs in the user's
 * numbering (eval_state.h; `rbdiff eval`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rbdiff/check.h"
#include "rbdiff/rbd.h"
#include "measure/eval_state.h"
#include "store/atomicio.h"

int eval_out_write(FILE *f, void *p)
{
    eval_out *e = p;
    const rbd_model *m = e->m;
    int nv = m->nv, rc = 0;
    struct { const char *name; double *x; int mat; } b[4];
    int nblk;
    if (rbd_output_order(e->kind) == 2 && !e->base) {
        const char *const *names = rbd_so_output_names(e->kind);
        double *p[1 + RBD_SO_NTENSORS];
        rbd_so_output_ptrs(e->kind, &e->d, p);
        rbd_v_to_user(m, p[0], e->user);
        rc = rbd_block_write(f, names[0], nv, 1, e->user);
        for (int k = 1; k <= RBD_SO_NTENSORS && !rc; k++) {
            rbd_tensor_to_user(m, p[k], e->user);
            rc = rbd_block_write(f, names[k], nv, nv * nv, e->user);
        }
        return rc ? rbd_fail(RBD_EIO, "write error") : RBD_OK;
    }
    if (e->base) {
        b[0].name = e->base->out; b[0].x = e->base_out; b[0].mat = e->base->out_matrix;
        nblk = 1;
    } else if (e->kind == RBD_ID_DERIVS) {
        b[0].name = "tau"; b[0].x = e->d.tau; b[0].mat = 0;
        b[1].name = "dtau_dq"; b[1].x = e->d.dtau_dq; b[1].mat = 1;
        b[2].name = "dtau_dv"; b[2].x = e->d.dtau_dv; b[2].mat = 1;
        nblk = 3;
    } else {
        b[0].name = "qdd"; b[0].x = e->d.qdd; b[0].mat = 0;
        b[1].name = "dqdd_dq"; b[1].x = e->d.dqdd_dq; b[1].mat = 1;
        b[2].name = "dqdd_dv"; b[2].x = e->d.dqdd_dv; b[2].mat = 1;
        b[3].name = "dqdd_dtau"; b[3].x = e->d.dqdd_dtau; b[3].mat = 1;
        nblk = 4;
    }
    for (int k = 0; k < nblk && !rc; k++) {
        if (b[k].mat) rbd_mat_to_user(m, b[k].x, e->user);
        else rbd_v_to_user(m, b[k].x, e->user);
        rc = rbd_block_write(f, b[k].name, nv, b[k].mat ? nv : 1, e->user);
    }
    return rc ? rbd_fail(RBD_EIO, "write error") : RBD_OK;
}

/* The state has what the method needs, the method takes the model's
 * joints, and the outputs fit in memory; RBD_OK or the library's code. */
static int check_job(const eval_job *j, const char *state, int *bad_input)
{
    const rbd_state_file *sf = &j->sf;
    const char *need = j->need;
    const char *missing = !sf->v ? "v" : !strcmp(need, "a") && !sf->a ? "a" : !strcmp(need, "tau") && !sf->tau ? "tau" : NULL;
    *bad_input = 1;
    if (missing)
        return rbd_fail(RBD_EINVAL, "%s: field '%s' is missing (%s needs q, v%s%s)", state, missing, j->name,
                        *need ? " and " : "", need);
    int rc = j->method ? rbd_method_supports(j->method, j->m) : RBD_OK;
    if (rc) return rc;
    *bad_input = 0;
    /* a second-order kind: four nv^3 tensors and a user-numbered copy;
     * a model they would not fit is refused before anything is allocated */
    if (j->so && (rc = rbd_so_check_size(j->m, "eval", NULL))) return rc;
    /* internal q, v, a|tau; outputs: 2 vectors + 3 matrices + user scratch */
    if (!j->so) {
        char what[128];
        const rbd_model *m = j->m;
        snprintf(what, sizeof what, "eval on nv = %d (four dense nv x nv outputs)", m->nv);
        if ((rc = rbd_check_memory(what, 8.0 * ((double)m->nq + 4.0 * m->nv + 4.0 * m->nv * (double)m->nv))))
            return rc;
    }
    return RBD_OK;
}

/* The buffer laid out: the state in internal numbering, then each output
 * block of the method's kind; RBD_OK or RBD_ENOMEM. */
static int lay_out(eval_job *j)
{
    const rbd_model *m = j->m;
    size_t nv = (size_t)m->nv, nn = nv * nv, n3 = j->so ? nn * nv : 0;
    j->buf = calloc((size_t)m->nq + 4 * nv + 4 * nn + 5 * n3, sizeof *j->buf);
    if (!j->buf) return rbd_fail(RBD_ENOMEM, "out of memory (nv = %d)", m->nv);
    double *q = j->buf, *v = q + m->nq, *x = v + nv;
    eval_out e = { m, j->method ? j->method->output : RBD_ID_DERIVS, { 0 }, x + 2 * nv + 3 * nn, j->base,
                   x + 2 * nv };
    rbd_q_from_user(m, j->sf.q, q);
    rbd_v_from_user(m, j->sf.v, v);
    if (j->sf.a && !strcmp(j->need, "a")) rbd_v_from_user(m, j->sf.a, x);
    if (j->sf.tau && !strcmp(j->need, "tau")) rbd_v_from_user(m, j->sf.tau, x);
    double *o1 = x + nv, *mats = x + 2 * nv, *ten = x + 2 * nv + 4 * nn;
    if (j->so && j->id) {
        e.d.tau = o1; e.d.d2tau_dq2 = ten; e.d.d2tau_dv2 = ten + n3; e.d.d2tau_dqdv = ten + 2 * n3;
        e.d.dM_dq = ten + 3 * n3; e.user = ten + 4 * n3;
    } else if (j->so) {
        e.d.qdd = o1; e.d.d2qdd_dq2 = ten; e.d.d2qdd_dv2 = ten + n3; e.d.d2qdd_dqdv = ten + 2 * n3;
        e.d.d2qdd_dqdtau = ten + 3 * n3; e.user = ten + 4 * n3;
    } else if (j->id) { e.d.tau = o1; e.d.dtau_dq = mats; e.d.dtau_dv = mats + nn; }
    else { e.d.qdd = o1; e.d.dqdd_dq = mats; e.d.dqdd_dv = mats + nn; e.d.dqdd_dtau = mats + 2 * nn; }
    j->e = e;
    j->st = (rbd_state){ q, v, j->id ? x : NULL, j->id ? NULL : x };
    return RBD_OK;
}

int eval_job_prepare(eval_job *j, const rbd_method *meth, const rbd_base_algo *base, const char *name,
                     const rbd_model *m, const char *state, int *bad_input)
{
    memset(j, 0, sizeof *j);
    j->method = meth;
    j->base = base;
    j->name = name;
    j->m = m;
    *bad_input = 1;
    int rc = rbd_state_file_read(state, m, &j->sf);   /* missing, unreadable or malformed: the input is wrong */
    if (rc) return rc;
    j->id = meth ? rbd_output_is_id(meth->output) : !strcmp(base->needs, "a");
    j->so = meth && rbd_output_order(meth->output) == 2;
    j->need = meth ? (j->id ? "a" : "tau") : base->needs;
    if ((rc = check_job(j, state, bad_input))) return rc;
    *bad_input = 0;
    return lay_out(j);
}

int eval_job_run(eval_job *j, const rbd_options *o, int *bad_input)
{
    const rbd_model *m = j->m;
    const rbd_state *st = &j->st;
    int rc;
    *bad_input = 0;
    if (j->base) {
        rbd_data *d = rbd_data_new(m);
        if (!d) return RBD_ENOMEM;
        const double *x = j->id ? st->a : st->tau;
        rc = rbd_base_eval(j->base, m, d, st->q, st->v, x, x, j->e.base_out);
        rbd_data_free(d);
    } else {
        void *ws = NULL;
        if ((rc = j->method->init(m, o, &ws))) return rc;
        rc = rbd_method_eval(j->method, ws, m, st, &j->e.d);
        j->method->fini(ws);
    }
    *bad_input = rc == RBD_EINVAL;
    return rc;
}

void eval_job_warn_conditioning(const eval_job *j, FILE *err, const char *prefix)
{
    double rcond;
    if (!rbd_mass_rcond(j->m, j->st.q, &rcond) && rcond == 0)
        fprintf(err, "%s: warning: M(q) is singular at this configuration (Cholesky fails); "
                "only quantities that do not need M^-1 are defined\n", prefix);
    else if (rcond < RBD_RCOND_WARN)
        fprintf(err, "%s: warning: M(q) is ill-conditioned (reciprocal condition number %.3g, "
                "LAPACK dpocon): about %.0f of 16 digits may be lost\n", prefix, rcond,
                rcond > 0 ? -log10(rcond) : 16.0);
}

void eval_job_free(eval_job *j)
{
    free(j->buf);
    j->buf = NULL;
    rbd_state_file_free(&j->sf);
}

int eval_run(const char *prefix, const rbd_method *meth, const rbd_base_algo *base, const char *name,
             const rbd_model *m, const char *state, const rbd_options *o, const char *out, int *bad_input)
{
    eval_job j;
    int rc = eval_job_prepare(&j, meth, base, name, m, state, bad_input);
    if (!rc) rc = eval_job_run(&j, o, bad_input);
    if (!rc) {
        eval_job_warn_conditioning(&j, stderr, prefix);
        if (out) rc = atomic_write(out, eval_out_write, &j.e);
        else if (eval_out_write(stdout, &j.e) || fflush(stdout)) rc = rbd_fail(RBD_EIO, "cannot write to stdout");
    }
    eval_job_free(&j);
    return rc;
}
