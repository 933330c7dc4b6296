/*
 * What a sweep measures, from a config file and/or command-line flags.
 *
 * Config format (the .conf files in harness/sweeps/): one `key = value` per line, `#`
 * starts a comment, blank lines ignored.  Keys (flags of `rbdiff sweep`
 * take the same names, e.g. --N, --bf, --batch-ms):
 *
 *   name         = default            short name of the results directory
 *   methods      = all | a, b, ...    registered methods and base algorithms
 *   base         = yes | no           also time the base algorithms (rnea, ...)
 *   N            = 1, 2, 5, 10:10:100 whole numbers >= 1; A:B or A:STEP:B ranges
 *   bf           = 1, 2, 5            branching factors >= 1
 *   skew         = 0                  autoTree skew (radians)
 *   taper        = 1                  autoTree taper (> 0)
 *   model        = urdf:PATH[,OPTION]...  an extra model (repeatable; README.md "Model options")
 *   seed         = 1                  random-state seed
 *   pool         = 32                 random states per measurement
 *   batches      = 11                 timed batches per measurement
 *   batch_ms     = 10                 minimum wall time of one batch
 *   warmup_ms    = 20                 warm-up before calibrating
 *   pin          = -1                 CPU to pin to (-1: no pinning)
 *   blas_threads = 1                  OpenBLAS threads
 *   counters     = yes | no           hardware counters (perf_event_open)
 *   crossover    = A B                a crossover search, A vs B (repeatable)
 *   crossover_range = 2:200           N range of the crossover searches
 *   robots       = ur5, hyq:freeflyer robot models, timed and audited (modelspec.h:
 *                                     NAME[:freeflyer] = urdf:tests/models/NAME.urdf)
 *   robot_methods = idsva, pin26, ... the methods (and peer functions, e.g.
 *                                     pinocchio.computeRNEADerivatives) timed on the
 *                                     robots (default: all of methods and peers)
 *   peers        = none | all | pinocchio, mujoco   other libraries timed in the same
 *                                     rounds (peer.h); a peer not built is skipped, said once
 *   so_methods   = none | all | idsva-so, ...   second-order methods (rbd_so_methods),
 *                                     timed beside the others, with the peers' second-order
 *                                     functions (default none); on the robots as robot_methods says
 *   so_nv_max    = 30                 they are timed only on models with nv <= this (0: all);
 *                                     an nv^3 tensor method is slow and its tensors large
 *
 * The accuracy audit (accuracy_run.h; a sweep runs it when accuracy_N or
 * accuracy_model is set, `rbdiff accuracy` always):
 *   accuracy_N      = 10, 50, 100     autoTree N of the audit
 *   accuracy_bf     = 1, 2, 5         its branching factors (default 1)
 *   accuracy_skew   = 1.0471975511965976   (default pi/3: not planar)
 *   accuracy_taper  = 0.99            (default 0.99: see accuracy_run.h)
 *   accuracy_model  = SPEC            an extra audited model (repeatable)
 *   accuracy_states = 3               random states per model (seeded by seed)
 *   accuracy_so_nv_max = 10           second-order methods audited only on models with nv
 *                                     <= this (0: all): their reference costs ~nv^3 (1 s a
 *                                     state at nv = 10, 23 s at 30, minutes at 100)
 *   cache           = DIR             MPFR reference cache (default
 *                                     $RBD_CACHE_DIR, else ~/.cache/rbdiff)
 *   minv         = analytic | ltdl | lapack   M^-1 variant of the FD methods
 *   fdsva_crossover = 0               fdsva's DMM -> factored-product switch, as the
 *                                     equivalent dense size of dID/du (0: built-in)
 *   fdsva_dmm    = measure | rule     fdsva below the crossover: time the sparse loop
 *                                     and dgemm at init and keep the faster, or the
 *                                     fixed size rule of fd_compose.h
 *   zeros_preset = no                 yes: the timed ID methods may leave the structural
 *                                     zeros of their reused outputs unwritten, as
 *                                     Pinocchio does (rbd_options.zeros_preset); the
 *                                     accuracy audit always writes every entry
 *
 * Every error names file:line (or the flag), the key and the bad value.
 */
#ifndef RBD_SWEEPCONF_H
#define RBD_SWEEPCONF_H

#include <stdint.h>
#include <stdio.h>
#include "rbdiff/method.h"

enum { SWEEP_KEYS_MAX = 64 };         /* room for the keys of sweepconf.c's table */

typedef struct {
    char *name;
    char **methods; int nmethods;     /* empty: all registered */
    int base;
    int *N; int nN;
    double *bf; int nbf;
    double skew, taper;
    char **models; int nmodels;
    uint64_t seed;
    int pool, batches;
    double batch_ms, warmup_ms;
    int slices;                       /* a batch: the fastest of this many back-to-back slices (not a key: advise sets 5) */
    int pin, blas_threads, counters;
    char **xo_a, **xo_b; int nxo;
    int xo_lo, xo_hi;
    char **robots; int nrobots;       /* model specs of the robots key */
    char **robot_methods; int nrobot_methods;   /* empty: every target on the robots too */
    char **peers; int npeers;         /* peer names (peer.h); empty: none */
    char **so_methods; int nso_methods;   /* second-order methods; empty: none */
    int so_nv_max, acc_so_nv_max;     /* their timing's and audit's largest nv (0: no limit) */
    int peers_named;                  /* named, not 'all': each must load, or the run fails */
    int *acc_N; int nacc_N;
    double *acc_bf; int nacc_bf;
    double acc_skew, acc_taper;
    char **acc_models; int nacc_models;
    int acc_states;
    char *cache;                      /* NULL: the default cache directory */
    int minv;                         /* rbd_minv_kind of the FD methods      */
    int fdsva_crossover;              /* rbd_options.fdsva_crossover          */
    int zeros_preset;                 /* rbd_options.zeros_preset (timing only) */
    int fdsva_dmm_rule;               /* rbd_options.fdsva_dmm_rule            */
    unsigned char seen[SWEEP_KEYS_MAX];   /* per key: already set (a key given twice is refused) */
} sweep_config;

/* 1 if target (a method or PEER.FUNCTION) is timed on the robots. */
int sweep_config_robot_times(const sweep_config *c, const char *target);
void sweep_config_init(sweep_config *c);
void sweep_config_free(sweep_config *c);

/* Sets one key; where is "FILE:LINE" or "--flag" and prefixes every error.
 * A key given twice in one file is an error (except model, crossover). */
int sweep_config_set(sweep_config *c, const char *key, const char *value, const char *where);
/* Reads a config file, applying each line with sweep_config_set. */
int sweep_config_read(sweep_config *c, const char *path);
/* The same from an open stream; path names it in messages. */
int sweep_config_read_stream(sweep_config *c, FILE *f, const char *path);
/* Forgets which keys were set, so flags may override a file's values. */
void sweep_config_allow_override(sweep_config *c);

/* The method options the config selects (rbd_options_default otherwise). */
void sweep_config_method_options(const sweep_config *c, rbd_options *o);
/* The name of key k (index into the key table, as sweep_config_flag and
 * sweep_options number them), NULL past the last; each is also a flag
 * (--KEY, '_' -> '-'). */
const char *sweep_key_name(int k);
/* 1 if key was set since init or the last allow_override. */
int sweep_config_given(const sweep_config *c, const char *key);
enum { SWEEP_OPT_BASE = 1000 };
struct option;
/* getopt_long options for every key (val = SWEEP_OPT_BASE + key index)
 * followed by extra[0..nextra-1]; free() the result. */
struct option *sweep_options(const struct option *extra, int nextra);
/* Applies --KEY VALUE (key = index of sweep_key_name); errors name the flag. */
int sweep_config_flag(sweep_config *c, int key, const char *value);

/* Comma/space separated lists with ranges (sweeplists.h's rule: no empty
 * item, no value given twice); errors prefixed with where. */
int parse_int_list(const char *s, const char *where, const char *key, int min, int **out, int *n);
int parse_num_list(const char *s, const char *where, const char *key, double min, double **out, int *n);

/* "a, b, c" of every registered method and base algorithm, into buf. */
void valid_method_names(char *buf, size_t len);
/* 1 if name is a registered method or base algorithm. */
int known_method_name(const char *name);

#endif
