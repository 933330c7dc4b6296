/* The files derived from a results set's timing rows, rewritten whole
 * (atomically) whenever the rows change: tables.md and benchmarks.json. */
#ifndef RBD_REPORT_H
#define RBD_REPORT_H

#include "store/csvlog.h"
#include "store/rows.h"

/* dir/tables.md (report.c). */
int report_write_tables(const char *dir, const timing_row *rows, int n);
/* dir/tables.md and dir/benchmarks.json (store/gbench.h, cmdline in its
 * context): what `sweep` and `merge` write at the end. */
int report_write_derived(const char *dir, const timing_row *rows, int n, const char *cmdline);
/* The same from a set's timings.csv as sweep holds it open: its rows with
 * dir's instruction counts attached (timing_rows_attach). */
int report_write_derived_log(const char *dir, const csvlog *timings, const char *cmdline);

#endif
