/*
 * vs-<peer>.md: a results directory's live comparison with a peer library
 * (peer.h), from the rounds in which the peer was timed beside our methods:
 * for every model, each peer function against its counterpart among ours as
 * the median over rounds of ours / peer and the rounds ours won, what each
 * side writes per call, the cross-check of peer_checks.csv, and the issues'
 * targets where they set one.
 */
#ifndef RBD_VS_PEER_H
#define RBD_VS_PEER_H

#include <stdio.h>
#include "store/results.h"

/* 1 when rows hold any row of peer (method "<peer>.<function>"). */
int vs_peer_present(const timing_row *rows, int n, const char *peer);

/* Writes the comparison for peer as markdown to f, reading meta.json and
 * peer_checks.csv of dir; returns the number of targets missed, or a
 * negative RBD_E* code. */
int vs_peer_write(FILE *f, const char *dir, const char *peer, const timing_row *rows, int n);

#endif
