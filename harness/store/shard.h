/*
 * Distributed sweeps (issue 8): `rbdiff sweep --shard K/N` measures only the
 * cells it owns, `rbdiff merge` joins the shards' results directories.  A
 * cell is one timing (target x model) or one crossover search (pair x bf),
 * numbered in the sweep's own deterministic order (models outer, targets
 * inner, then the crossovers); shard K of N owns the cells c with
 * c mod N = K - 1.  Round robin, not blocks: the sweep's N grows along the
 * order, so every shard gets a share of the large (slow) models.
 */
#ifndef RBD_SHARD_H
#define RBD_SHARD_H

#include <signal.h>
#include "store/rows.h"

typedef struct {
    int k, n;               /* shard k of n, 1 <= k <= n; 1/1 = everything */
} shard_spec;

/* Parses "K/N" (errors name the flag and the value). */
int shard_parse(const char *s, shard_spec *sh);
/* 1 if shard sh owns cell number cell (0-based). */
int shard_owns(const shard_spec *sh, long cell);

/* Merges the results directories dirs[0..ndirs-1] into out (created if
 * needed, must hold no timings.csv yet): the CSV tables' rows are joined
 * (a row whose key is already there is dropped: identical cells measured
 * twice keep the first), meta.json lists every input's build, shard and
 * invocations, the derived files are written by derive (the report wing's
 * report_write_derived: tables.md and benchmarks.json; store stays below
 * report) from the merged timing rows; the whole
 * set is staged beside out and swapped in at the end (staging.h), so out
 * holds the whole merge or nothing of it (out must hold nothing but its
 * lock file).  Inputs from different builds (meta.json
 * build_id) are refused unless force.  cmdline goes into meta.json.
 * The caller holds out's lock (lock.h) for the whole merge.
 * *bad_input: 1 when the failure is the inputs' (missing, malformed,
 * different builds, out already a results set), 0 when writing failed. */
typedef int (*merge_derive_fn)(const char *dir, const timing_row *rows, int n, const char *cmdline);
int merge_results(const char *out, char *const *dirs, int ndirs, int force, const char *cmdline, merge_derive_fn derive,
                  int *bad_input, const volatile sig_atomic_t *stop);
/* merge_results' return when *stop was set: looked at while reading, every
 * 1024 rows written and between files; nothing was written into out (the
 * set is staged beside it, staging.h). */
#define MERGE_INTERRUPTED 1

#endif
