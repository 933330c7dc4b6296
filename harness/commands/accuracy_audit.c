/* The `accuracy` command's run (accuracy_audit.h). */
#include <stdio.h>
#include <stdlib.h>
#include "commands/accuracy_audit.h"
#include "accuracy/accuracy_run.h"
#include "accuracy/accuracy_sweep.h"
#include "report/report.h"
#include "accuracy/accuracy_summary.h"
#include "store/meta.h"
#include "store/resume.h"

int accuracy_models_check(const sweep_config *c, int *bad_input)
{
    bench_model *bm = NULL;
    int nbm = 0;
    *bad_input = 1;
    int rc = accuracy_models(c, &bm, &nbm);
    if (!rc) rc = bench_models_check(bm, nbm);
    if (!rc && (rc = bench_so_sizes_check(c, bm, nbm, 1))) *bad_input = 0;
    if (!rc && (rc = audit_cache_check(c))) *bad_input = rc == RBD_EINVAL;
    free(bm);
    return rc;
}

/* One writer for the whole run (lock.h); a directory to resume is an
 * input, and its rows were computed with settings that must be this run's
 * (resume.h). */
static int take_dir(const sweep_config *c, const char *dir, results_lock *lk, const char *cmdline, int *bad_input)
{
    json_t *ident = json_pack("{s:o}", "accuracy_settings", accuracy_identity(c));
    int rc = ident ? resume_open(lk, dir, cmdline, ident, bad_input) : rbd_fail(RBD_ENOMEM, "out of memory");
    if (!rc) rc = meta_write(dir, cmdline, ident);
    json_decref(ident);
    return rc;
}

/* tables.md: the timings of the directory (if any) and the audit. */
static int write_tables(const char *dir)
{
    timing_row *rows = NULL;
    int nrows = 0;
    char *tp = results_path(dir, TIMINGS_CSV);
    FILE *tf = tp ? fopen(tp, "r") : NULL;
    if (tf) fclose(tf);
    int rc = tf ? timing_rows_load(tp, &rows, &nrows) : RBD_OK;
    free(tp);
    if (!rc) rc = report_write_tables(dir, rows, nrows);
    free(rows);
    return rc;
}

/* The summary of DIR/accuracy.csv (with cond(M) when conditioning.csv is
 * there) on f, the rows' count on stderr; nothing without accuracy.csv. */
static int print_summary(FILE *f, const char *cmd, const char *dir)
{
    csvlog acc, cond;
    int present = 0, have_cond = 0;
    int rc = accuracy_read(dir, &acc, &present);
    if (rc || !present) return rc;
    if ((rc = conditioning_read(dir, &cond, &have_cond))) { csvlog_close(&acc); return rc; }
    accuracy_summary(f, &acc, have_cond ? &cond : NULL);
    if (have_cond) csvlog_close(&cond);
    fflush(f);
    fprintf(stderr, "rbdiff %s: %d rows in %s\n", cmd, acc.nrows, acc.path);
    csvlog_close(&acc);
    return RBD_OK;
}

int accuracy_audit(FILE *f, const char *cmd, const sweep_config *c, const char *dir, results_lock *lk,
                   const char *cmdline, volatile sig_atomic_t *stop, int *bad_input)
{
    *bad_input = 0;
    int rc = take_dir(c, dir, lk, cmdline, bad_input);
    if (rc) return rc;
    int st = accuracy_sweep(cmd, c, dir, stop);
    if (st < 0) return st;
    if ((rc = write_tables(dir)) || (rc = print_summary(f, cmd, dir))) return rc;
    return st;
}
