/*
 * A peer's second-order inverse-dynamics tensors (RBD_PEER_ID_SO_DERIVS)
 * scored against the 256-bit second-order reference, as our second-order
 * methods are (accuracy_peer_so.c).
 */
#ifndef RBD_ACCURACY_PEER_SO_H
#define RBD_ACCURACY_PEER_SO_H

#include <signal.h>
#include "accuracy/audit_sink.h"
#include "peers/peer.h"

/* d2tau_dq2, d2tau_dv2, d2tau_dqdv, dM_dq, NULL (static storage). */
const char *const *audit_peer_so_outputs(void);

/* Function f of the loaded peer pm at every state of s (s->so computed):
 * its four rows, named name, to the sink.  0, 1 when stopped, or a negative
 * RBD_E* (a peer that fails is an error the caller turns into a note). */
int audit_peer_so(const peer_model *pm, int f, const char *name, const char *spec, double bf,
                  const audit_states *s, const audit_sink *sink, volatile sig_atomic_t *stop);

#endif
