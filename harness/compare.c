/* A change is called only when the inter-quartile ranges of the two runs'
 * batches do not overlap: half of each run's batches lie inside its IQR, so
 * disjoint IQRs mean most batches of one run beat most of the other's. */
#include "compare.h"

const char *cmp_verdict_name(cmp_verdict v)
{
    return v == CMP_FASTER ? "faster" : v == CMP_SLOWER ? "slower" : "same within noise";
}

void compare_rows(const timing_row *b, const timing_row *n, double threshold, cmp_result *r)
{
    r->ratio = n->median_ns / b->median_ns;
    if (n->q1_ns > b->q3_ns) r->verdict = CMP_SLOWER;
    else if (n->q3_ns < b->q1_ns) r->verdict = CMP_FASTER;
    else r->verdict = CMP_SAME;
    r->regression = r->verdict == CMP_SLOWER && r->ratio > 1 + threshold;
}
