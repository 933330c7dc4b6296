/*
 * The versions of one peer side by side (vs-<peer>.md): which versions of a
 * peer family a run timed, and each peer function's newer version over its
 * older one, from the same rounds (did the peer itself get faster?).
 */
#ifndef RBD_VS_VERSIONS_H
#define RBD_VS_VERSIONS_H

#include <stdio.h>
#include "store/results.h"

enum { VS_MAXVER = 8 };

/* The peers of family (peer_known's NAME) among rows: NAME@VERSION as the
 * rows name them (a bare NAME for runs before versions), newest first;
 * their count (at most VS_MAXVER). */
int vs_versions_present(const timing_row *rows, int n, const char *family, char (*peer)[32]);

/* For each pair of versions (newer, older) among peer[0..np): a table per
 * model of newer / older for every function both timed, the median over the
 * rounds of the per-round ratio and (w/K) the rounds the newer won. */
void vs_versions_write(FILE *f, const timing_row *rows, int n, char (*peer)[32], int np);

#endif
