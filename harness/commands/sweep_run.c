/* `rbdiff sweep`'s run (sweep_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include "rbdiff/rbd.h"
#include "commands/accuracy_audit.h"
#include "accuracy/accuracy_sweep.h"
#include "commands/cli.h"
#include "commands/sweep_run.h"
#include "report/report.h"
#include "store/resume.h"

int sweep_check(const char *cmd, sweep_config *c, shard_spec sh, sweep_plan *p, int *bad_input)
{
    *bad_input = 1;
    if (!c->nN && !c->nmodels && !c->nrobots && !accuracy_wanted(c))
        return rbd_fail(RBD_EINVAL, "nothing to sweep: give N (--N LIST or 'N =' in a config)");
    int rc = c->nN && !c->nbf ? sweep_config_set(c, "bf", "1", "--bf") : RBD_OK;
    if (!rc) rc = sweep_plan_make(cmd, c, sh, p, bad_input);
    if (!rc && accuracy_wanted(c)) rc = accuracy_models_check(c, bad_input);
    if (!rc && (rc = bench_setup(c))) *bad_input = 1;   /* --pin to a CPU that is not there: refused before any write */
    return rc;
}

int sweep_open(const char *cmd, const sweep_plan *p, const char *dir, const char *cmdline, results_lock *lk,
               sweep_set *set, perfctr **pc, int *bad_input)
{
    const sweep_config *c = p->c;
    json_t *meta = resume_settings(c);
    if (meta && accuracy_wanted(c)) json_object_set_new(meta, "accuracy_settings", accuracy_identity(c));
    *bad_input = 0;
    int rc = meta ? resume_open(lk, dir, cmdline, meta, bad_input) : rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc) rc = sweep_set_open(cmd, set, dir, p);
    if (!rc) {
        *pc = bench_counters(cmd, c->counters);
        rc = sweep_set_meta(dir, p, meta, *pc != NULL, cmdline);
    }
    json_decref(meta);
    return rc;
}

int sweep_measure(const char *cmd, const sweep_plan *p, const char *dir, sweep_set *set, perfctr *pc,
                  volatile sig_atomic_t *stop, sweep_tally *t)
{
    int rc = sweep_cells_run(cmd, p, set, pc, stop, t);
    if (!rc && !*stop && p->c->nxo) rc = sweep_crossovers(p, dir, stop);
    if (!rc && !*stop && accuracy_wanted(p->c) && (rc = accuracy_sweep(cmd, p->c, dir, stop)) > 0) rc = RBD_OK;
    return rc;
}

int sweep_finish(const char *dir, const char *cmdline, const sweep_set *set, const sweep_tally *t)
{
    if (report_write_derived_log(dir, &set->timings, cmdline)) return cli_lib_error("sweep", EXIT_FAIL);
    fprintf(stderr, "rbdiff sweep: %d measured, %d already present, %d rows in %s\n", t->measured, t->skipped,
            set->timings.nrows, set->timings.path);
    if (cli_interrupted)
        return cli_error("sweep", EXIT_INTERRUPTED, "interrupted; every finished row is in %s; rerun to resume",
                         set->timings.path);
    printf("%s\n", dir);
    return EXIT_OK;
}
