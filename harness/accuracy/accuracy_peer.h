/*
 * The peers' functions in the accuracy audit (accuracy_run.h): Pinocchio's
 * and MuJoCo's outputs scored against the same MPFR reference, at the same
 * states, with the same metrics as ours, one accuracy.csv row per (function,
 * output, model), named as its timing rows are: pinocchio@4.1.0.computeABADerivatives.
 *
 * The same quantities or none.  A peer computes in its own conventions and
 * its module converts to rbdiff's (peers/peer_api.h: joint order by name,
 * the free-flyer's x y z w quaternion, body-frame velocity and the tangent
 * q * exp(d)); the audit hands it the states in the user numbering and
 * brings its outputs back to the internal one.  Before scoring a function
 * on a model it is checked against our counterpart (peer_check_func, the
 * check that gates its timing): one that disagrees beyond the check's
 * tolerance computes something else (another convention, another model) and
 * is left out with the check's worst entry as the reason, not scored as an
 * error.  A model a peer cannot take (MuJoCo: armature, damping, contacts,
 * the inertia triangle inequality) is left out with the peer's reason; so is
 * a model whose gravity is not the (0, 0, -9.81) the peers assume (URDF
 * carries none).  Each of these is one line, and the audit goes on.
 *
 * Finite differences (MuJoCo's fd_forward, fd_inverse, transitionFD,
 * inverseFD): at the step the peer takes by default (1e-6, MuJoCo's
 * derivative sample) and at the step of 1e-2, 1e-3, ..., 1e-10 that is best on
 * that model (least rms_rel, worst over the states and the derivative
 * outputs), rows <row> and <row>.best_eps; every step's score goes to
 * peer_eps.csv.  The step does not move the nominal output (qdd, tau).
 */
#ifndef RBD_ACCURACY_PEER_H
#define RBD_ACCURACY_PEER_H

#include <signal.h>
#include <stdint.h>
#include "accuracy/audit_sink.h"
#include "measure/bench.h"
#include "peers/peer.h"

/* The suffix of the rows at the best step. */
#define AUDIT_PEER_BEST ".best_eps"

/* Function f of the loaded peer pm bound to the states of s, handed to it
 * in the user numbering (peer_api.h); NULL with the peer's reason set by
 * rbd_fail when it refuses.  The first- and second-order audits use it. */
void *audit_peer_bind(const peer_model *pm, int f, const audit_states *s);

/* The output names of a peer target, NULL-terminated (static storage). */
const char *const *audit_peer_outputs(const bench_target *t);

/* 1 if some row of the peer target t is not yet on disk. */
int audit_peer_missing(const bench_target *t, const audit_sink *sink);

/* Audits every peer target among tg[0..ntg) on m at the states s: each peer
 * loads the model once.  0, 1 when stopped by *stop, or a negative RBD_E*
 * (a failure of ours or of the sink; a peer that refuses is a note). */
int audit_peers(const rbd_model *m, const char *spec, double bf, const bench_target *tg, int ntg,
                const audit_states *s, uint64_t seed, const audit_sink *sink, volatile sig_atomic_t *stop);

#endif
