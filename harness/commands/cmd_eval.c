/* rbdiff eval: one method, one model, one state; outputs in the
 * interchange format (README.md, "Conventions"), in the user's numbering. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "store/atomicio.h"
#include "rbdiff/check.h"
#include "commands/cli.h"
#include "rbdiff/dynamics.h"
#include "rbdiff/rbd_io.h"

static const char help[] =
    "Usage: rbdiff eval METHOD --model SPEC --state FILE [--out FILE] [options]\n\n"
    "Evaluates METHOD at the state in FILE and prints every output as\n"
    "'<name> <rows> <cols>' blocks at %.17g, in the user's numbering:\n"
    "  ID methods: tau, dtau_dq, dtau_dv      (state needs q, v, a)\n"
    "  FD methods: qdd, dqdd_dq, dqdd_dv, dqdd_dtau (state needs q, v, tau)\n"
    "  ID2 methods: tau, d2tau_dq2, d2tau_dv2, d2tau_dqdv, dM_dq (state needs q, v, a)\n"
    "  FD2 methods: qdd, d2qdd_dq2, d2qdd_dv2, d2qdd_dqdv, d2qdd_dqdtau (q, v, tau)\n"
    "    a tensor T(i,j,k) = d/dx_k of entry (i,j) is printed as nv rows of nv^2\n"
    "    columns, column j + nv k (README.md, \"Conventions\")\n"
    "  base algorithms (rnea, ...): their one output (see rbdiff methods)\n\n"
    "  --model SPEC     autotree:N=..,bf=..,skew=..,taper=.. or urdf:PATH[,OPTION]... (README.md, \"Model options\")\n"
    "  --state FILE     lines 'q ...', 'v ...', 'a ...' / 'tau ...' ('#' comments)\n"
    "  --out FILE       write there (atomically) instead of stdout\n"
    "  --minv KIND      M^-1 variant of FD methods: analytic, ltdl, lapack\n"
    "  --fd-forward     forward instead of central differences (finite-difference methods)\n"
    "  --cs-step H      complex step, in (0, 1e-3] (default 1e-20)\n"
    "  -h, --help\n\n"
    "Exit status: 0 done (a warning for an ill-conditioned M(q)), 1 the\n"
    "evaluation failed (a singular M(q), a non-finite output, an unwritable\n"
    "output), 2 the input is wrong (options, model, state file).\n";

/* An evaluation's failure: the state's own values refused by the input
 * checks (RBD_EINVAL: a zero quaternion) are a wrong input; a numerical
 * fault at a well-formed state is a failed run. */
static int eval_status(int rc)
{
    return rc == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL;
}

typedef struct {
    const rbd_model *m;
    rbd_output kind;
    rbd_derivs d;
    double *user;      /* nv*nv (nv^3 for a second-order kind) scratch in user numbering */
    const rbd_base_algo *base;
    double *base_out;  /* the base algorithm's output (internal numbering) */
} eval_out;

static int write_blocks(FILE *f, void *p)
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

/* The flags: method, --model, --state, --out and the method options.
 * 0 to go on, else the exit status (-1: --help). */
static int read_args(int argc, char **argv, const char **spec, const char **state, const char **out, rbd_options *o)
{
    static const struct option opts[] = {
        { "model", required_argument, 0, 'm' }, { "state", required_argument, 0, 's' },
        { "out", required_argument, 0, 'o' }, { "minv", required_argument, 0, 'M' },
        { "fd-forward", no_argument, 0, 'F' }, { "cs-step", required_argument, 0, 'H' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 } };
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hm:s:o:", opts, NULL)) != -1) {
        switch (c) {
        case 'h': fputs(help, stdout); return -1;
        case 'm': *spec = optarg; break;
        case 's': *state = optarg; break;
        case 'o': *out = optarg; break;
        case 'F': o->fd_forward = 1; break;
        case 'H':
            if (cli_num("eval", "--cs-step", optarg, &o->cs_step)) return EXIT_USAGE;
            if (!(o->cs_step > 0) || o->cs_step > RBD_CS_STEP_MAX)
                return cli_error("eval", EXIT_USAGE, "--cs-step: %s is out of range (0, %g]", optarg, RBD_CS_STEP_MAX);
            break;
        case 'M': {
            int k = 0;
            while (k < RBD_MINV_NKINDS && strcmp(rbd_minv_name((rbd_minv_kind)k), optarg)) k++;
            if (k == RBD_MINV_NKINDS)
                return cli_error("eval", EXIT_USAGE, "--minv: unknown kind '%s' (valid: analytic, ltdl, lapack)",
                                 optarg);
            o->minv = (rbd_minv_kind)k;
            break;
        }
        default: return cli_bad_option("eval", c, argv);
        }
    }
    if (optind != argc - 1) {
        cli_error("eval", EXIT_USAGE, optind >= argc ? "which method?" : "one method only, got '%s' too",
                  optind < argc - 1 ? argv[optind + 1] : "");
        return cli_usage_error("eval");
    }
    if (!*spec || !*state) {
        cli_error("eval", EXIT_USAGE, "%s is required", !*spec ? "--model SPEC" : "--state FILE");
        return cli_usage_error("eval");
    }
    return 0;
}

/* One evaluation: what is evaluated, on which model and state, and where
 * its outputs go (one buffer: internal q, v, a|tau, then the outputs). */
typedef struct {
    cli_target t;
    const char *name, *need;        /* the method's name; "a", "tau" or the base's needs */
    int id, so;                     /* an ID kind; a second-order kind */
    rbd_model *m;
    rbd_state_file sf;
    double *buf;
    rbd_state st;
    eval_out e;
} eval_job;

/* The state has what the method needs, the method takes the model's
 * joints, and the outputs fit in memory; 0 or the exit status. */
static int check_job(const eval_job *j, const char *state)
{
    const rbd_state_file *sf = &j->sf;
    const char *need = j->need;
    const char *missing = !sf->v ? "v" : !strcmp(need, "a") && !sf->a ? "a" : !strcmp(need, "tau") && !sf->tau ? "tau" : NULL;
    if (missing)
        return cli_error("eval", EXIT_USAGE, "%s: field '%s' is missing (%s needs q, v%s%s)", state, missing, j->name,
                         *need ? " and " : "", need);
    if (j->t.method && rbd_method_supports(j->t.method, j->m)) return cli_lib_error("eval", EXIT_USAGE);
    /* a second-order kind: four nv^3 tensors and a user-numbered copy;
     * a model they would not fit is refused before anything is allocated */
    if (j->so && rbd_so_check_size(j->m, "eval", NULL)) return cli_lib_error("eval", EXIT_FAIL);
    /* internal q, v, a|tau; outputs: 2 vectors + 3 matrices + user scratch */
    if (!j->so) {
        char what[128];
        const rbd_model *m = j->m;
        snprintf(what, sizeof what, "eval on nv = %d (four dense nv x nv outputs)", m->nv);
        if (rbd_check_memory(what, 8.0 * ((double)m->nq + 4.0 * m->nv + 4.0 * m->nv * (double)m->nv)))
            return cli_lib_error("eval", EXIT_FAIL);
    }
    return 0;
}

/* The buffer laid out: the state in internal numbering, then each output
 * block of the method's kind; 0 or the exit status. */
static int lay_out(eval_job *j)
{
    const rbd_model *m = j->m;
    size_t nv = (size_t)m->nv, nn = nv * nv, n3 = j->so ? nn * nv : 0;
    j->buf = calloc((size_t)m->nq + 4 * nv + 4 * nn + 5 * n3, sizeof *j->buf);
    if (!j->buf) return cli_error("eval", EXIT_FAIL, "out of memory (nv = %d)", m->nv);
    double *q = j->buf, *v = q + m->nq, *x = v + nv;
    eval_out e = { m, j->t.method ? j->t.method->output : RBD_ID_DERIVS, { 0 }, x + 2 * nv + 3 * nn, j->t.base,
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
    return 0;
}

/* The base algorithm or the method at the state; 0 or the exit status. */
static int evaluate(eval_job *j, const rbd_options *o)
{
    const rbd_model *m = j->m;
    const rbd_state *st = &j->st;
    if (j->t.base) {
        rbd_data *d = rbd_data_new(m);
        if (!d) return cli_lib_error("eval", EXIT_FAIL);
        const double *x = j->id ? st->a : st->tau;
        int rc = rbd_base_eval(j->t.base, m, d, st->q, st->v, x, x, j->e.base_out);
        rbd_data_free(d);
        return rc ? cli_lib_error("eval", eval_status(rc)) : 0;
    }
    const rbd_method *meth = j->t.method;
    void *ws = NULL;
    if (meth->init(m, o, &ws)) return cli_lib_error("eval", EXIT_FAIL);
    int rc = rbd_method_eval(meth, ws, m, st, &j->e.d);
    meth->fini(ws);
    return rc ? cli_lib_error("eval", eval_status(rc)) : 0;
}

/* A result at an ill-conditioned M(q) is written, with a warning. */
static void warn_conditioning(const rbd_model *m, const double *q)
{
    double rcond;
    if (!rbd_mass_rcond(m, q, &rcond) && rcond == 0)
        fprintf(stderr, "rbdiff eval: warning: M(q) is singular at this configuration (Cholesky fails); "
                "only quantities that do not need M^-1 are defined\n");
    else if (rcond < RBD_RCOND_WARN)
        fprintf(stderr, "rbdiff eval: warning: M(q) is ill-conditioned (reciprocal condition number %.3g, "
                "LAPACK dpocon): about %.0f of 16 digits may be lost\n", rcond, rcond > 0 ? -log10(rcond) : 16.0);
}

int cmd_eval(int argc, char **argv)
{
    const char *spec = NULL, *state = NULL, *out = NULL;
    rbd_options o;
    rbd_options_default(&o);
    int status = read_args(argc, argv, &spec, &state, &out, &o);
    if (status) return status < 0 ? EXIT_OK : status;
    eval_job j;
    memset(&j, 0, sizeof j);
    j.name = argv[optind];
    if (cli_find_target("eval", j.name, &j.t)) return EXIT_USAGE;
    int place = out ? atomic_write_check(out) : RBD_OK;    /* a read-only --out: refused before the work */
    if (place) return cli_lib_error("eval", place == RBD_EINVAL ? EXIT_USAGE : EXIT_FAIL);
    if ((status = cli_model("eval", spec, &j.m))) return status;
    if (rbd_state_file_read(state, j.m, &j.sf)) {   /* missing, unreadable or malformed: the input is wrong */
        rbd_model_free(j.m);
        return cli_lib_error("eval", EXIT_USAGE);
    }
    const rbd_method *meth = j.t.method;
    j.id = meth ? rbd_output_is_id(meth->output) : !strcmp(j.t.base->needs, "a");
    j.so = meth && rbd_output_order(meth->output) == 2;
    j.need = meth ? (j.id ? "a" : "tau") : j.t.base->needs;
    status = check_job(&j, state);
    if (!status) status = lay_out(&j);
    if (!status) status = evaluate(&j, &o);
    if (!status) {
        warn_conditioning(j.m, j.st.q);
        if (out) {
            if (atomic_write(out, write_blocks, &j.e)) status = cli_lib_error("eval", EXIT_FAIL);
        } else if (write_blocks(stdout, &j.e) || fflush(stdout))
            status = cli_error("eval", EXIT_FAIL, "cannot write to stdout");
    }
    free(j.buf);
    rbd_state_file_free(&j.sf);
    rbd_model_free(j.m);
    return status;
}
