/*
 * Peers: other libraries timed in the same rounds as our methods
 * (harness/peers/README.md).  A peer is a module rbdpeer-<name>.so in the
 * peer directory, opened with dlopen; this file finds and opens it, hands it
 * the model as the URDF rbdiff writes, checks its outputs against ours entry
 * by entry, and wraps each of its functions as a timeable.
 */
#ifndef RBD_PEER_H
#define RBD_PEER_H

#include <stdint.h>
#include "peers/peer_api.h"
#include "common/timeable.h"

/* The peers rbdiff knows how to build (harness/peers/CMakeLists.txt). */
extern const char *const peer_known[];   /* NULL-terminated */

typedef struct {
    char name[32];          /* NAME@VERSION */
    char path[1024];
    void *dl;
    const rbd_peer_api *api;
    char (*row)[96];        /* [api->nfunc] timing-row names "<peer>.<func>" */
} rbd_peer;

/* $RBD_PEER_DIR if set, else the build tree's build/peers. */
const char *peer_dir(void);
/* A peer is named NAME@VERSION (pinocchio@4.1.0), one module per version
 * built: rbdpeer-NAME@VERSION.so; its rows are PEER.FUNCTION, PEER being
 * NAME@VERSION, or NAME alone in configs and in sets from before versions.
 * peer_name_parse reads every one of these forms, and every place that takes
 * a peer or a peer's row name apart goes through it:
 *   "pinocchio", "pinocchio@4.1.0", "pinocchio.aba", "pinocchio@4.1.0.aba".
 * The peer part ends at the first '.' not followed by a digit; VERSION is
 * digits and dots. */
typedef struct {
    int family;             /* index in peer_known; -1: no peer rbdiff knows  */
    char peer[48];          /* NAME or NAME@VERSION                            */
    char version[32];       /* VERSION; "" without one                         */
    const char *func;       /* FUNCTION, pointing into the parsed name; NULL without one */
} peer_name;
/* 0 when s is one of the four forms with a known NAME; -1 otherwise (out
 * still filled as far as it goes, family -1). */
int peer_name_parse(const char *s, peer_name *out);
/* peer_name_parse(name).family: the peer's index in peer_known, or -1. */
int peer_family(const char *name);
/* peer_versions: the versions of family built in peer_dir(), newest first
 * (strverscmp), at most max; their count. */
int peer_versions(const char *family, char (*ver)[32], int max);
/* Whether the row name `row` is the one `want` names: the same, or want's
 * peer has no @VERSION and names row's peer at any version
 * ("pinocchio.aba" matches "pinocchio@4.1.0.aba"). */
int peer_row_matches(const char *want, const char *row);
/* Opens rbdpeer-<name>.so of peer_dir(); a bare NAME opens the newest
 * version built, and p->name says which.  RBD_ENOTSUP when the module is not
 * there (the message says how to build it and what scripts/peers reported),
 * RBD_EINVAL when it does not load or speaks another interface version. */
int peer_open(const char *name, rbd_peer *p);
void peer_close(rbd_peer *p);
/* The step function f of p takes its finite differences with by default
 * (rbd_peer_api.default_step), 0 when it takes none or the module speaks
 * interface 1. */
double peer_default_step(const rbd_peer *p, int f);
/* The function of p whose row name or own name is fn, or -1. */
int peer_func_find(const rbd_peer *p, const char *fn);

/* The model as the peer loaded it from rbdiff's URDF export. */
typedef struct {
    const rbd_peer *peer;
    const rbd_model *m;
    void *pm;
} peer_model;

/* Writes m as URDF to a temporary file, has the peer load it (matching
 * joints by name), removes the file.  Errors name the peer and the reason. */
int peer_model_load(const rbd_peer *p, const rbd_model *m, peer_model *out);
/* The same from a URDF file of the user's (the one m was loaded from, fixed
 * base): the peer reads the file itself, so its nq, nv and joints are
 * compared with ours as it reads them, not as we export them. */
int peer_model_load_file(const rbd_peer *p, const rbd_model *m, const char *urdf, peer_model *out);
void peer_model_free(peer_model *pm);

/* The cross-check of one function at the first state of the pool drawn
 * from seed: the peer's outputs against those of its counterpart among our
 * methods and base algorithms (func.ours), block by block, in the user
 * numbering.  err = the largest over the blocks of max|X - R| / max|R|;
 * tol = max(func.tol, func.tol_cond * kappa), kappa = M's condition number
 * at that state (NAN when func.tol_cond is 0). */
typedef struct {
    double err, tol, kappa;
    int pass;
    char worst[160];        /* the block and entry of err, both values */
} peer_check;
int peer_check_func(const peer_model *pm, int f, uint64_t seed, peer_check *out);
/* The same for a second-order function (RBD_PEER_ID_SO_DERIVS; peer_so.c):
 * the four tensors against func.ours (idsva-so), err the largest of their
 * max|X - R| / max|R|; the tensors' size is checked first (RBD_ENOMEM). */
int peer_check_so(const peer_model *pm, int f, uint64_t seed, peer_check *out);
/* The peer's outputs of function f at the first state of the pool drawn
 * from seed, in the user numbering, laid out as its result() lays them out
 * (vec: nv; mat[0..2]: nv x nv each; for RBD_PEER_ID_SO_DERIVS mat[0]: 4 nv^3); with q, v, a, tau (if non-NULL) that
 * state in the user numbering (nq, nv, nv, nv).  For stored reference
 * values (tests/pinocchio/reference/warts.*). */
int peer_eval_func(const peer_model *pm, int f, uint64_t seed, double *vec, double *mat[3], double *q, double *v,
                   double *a, double *tau);

/* A timeable of function f on a pool of `pool` states drawn from seed: the
 * very states timeable_method draws, converted to the user numbering. */
int timeable_peer(const peer_model *pm, int f, int pool, uint64_t seed, rbd_timeable *t);

#endif
