/* The paper's claims (harness/report/paper_claims.tsv) against a results
 * directory: each claim's measured value and a verdict computed from the
 * data (report.md, cmd_report.c). */
#ifndef RBD_REPORT_CLAIMS_H
#define RBD_REPORT_CLAIMS_H

#include "store/csvlog.h"
#include "store/results.h"

typedef struct {
    char figure[16], source[64], kind[32], A[64], B[64], where[64], paper[32], tol[16], claim[256], setup[512];
    int line;
} claim;

/* The data one claim is checked against (NULL / 0: not in this run). */
typedef struct {
    const timing_row *rows;
    int nrows;
    const crossover_row *crossover;     /* crossover.csv */
    int ncrossover;
    const accuracy_row *accuracy;       /* accuracy.csv */
    int naccuracy;
} claim_data;

/* Reads the claims file (claims_read.c): comment lines (#) and blank lines
 * skipped, then a header line naming the columns (figure, source, kind, A,
 * B, where, paper, tol, claim, setup; any order), then one claim a line,
 * its fields found by the header's names.  Errors name file:line:column
 * and the field.  *out is malloc'ed. */
int claims_read(const char *path, claim **out, int *n);

typedef enum { CLAIM_REPRODUCED, CLAIM_DIFFERS, CLAIM_NOT_MEASURED } claim_verdict;

/* Evaluates c against run (or, for a "-with" kind, against with):
 * measured gets the measured value in words (e.g. "14.6", "1.03 at
 * N=5,bf=2", "[66, 71] unresolved"), verdict the line for report.md. */
claim_verdict claim_check(const claim *c, const claim_data *run, const claim_data *with, char *measured, size_t mlen,
                          char *verdict, size_t vlen);

#endif
