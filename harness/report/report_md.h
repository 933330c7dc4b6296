/* report.md: per paper figure its plots and the paper's claims about it,
 * each with a verdict computed from a results directory's data
 * (report_claims.h), for `rbdiff report`. */
#ifndef RBD_REPORT_MD_H
#define RBD_REPORT_MD_H

/* Writes DIR/report.md (atomically) from dir's timings, crossovers and
 * accuracy rows (and with's, a second build's run, when not NULL) against
 * the claims read from the file claims, named claims_name in the text.
 * Returns 0 with *written the path written (malloc'ed), or the library's
 * code (message set) with *bad_input 1 when the claims or a directory are
 * wrong (missing, malformed) and 0 when the report could not be written. */
int report_md_write(const char *dir, const char *with, const char *claims, const char *claims_name, char **written,
                    int *bad_input);

#endif
