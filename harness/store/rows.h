/*
 * One struct per table of a results directory (results.h): what a row of
 * each CSV file holds, typed.  The tables are read and written through one
 * column description each (results.c: name, type, field, format), so a
 * reader and the writer cannot drift apart.
 */
#ifndef RBD_ROWS_H
#define RBD_ROWS_H

/* Batches whose samples a row keeps (samples.csv, compare's rank test). */
enum { RBD_MAX_SAMPLES = 64 };

/* One timings.csv row. */
typedef struct {
    char method[64];
    char kind[8];           /* ID, FD, base, roof, peer */
    char model[512];        /* model spec */
    double bf;              /* NAN for models that are not autoTree */
    int N;                  /* bodies */
    int nv;
    double median_ns, min_ns, q1_ns, q3_ns, iqr_ns;
    int batches;
    long calls_per_batch;
    double instructions, cycles;    /* per call; NAN when not measured */
    int nq;                 /* configuration size (robots: nq > nv with quaternions) */
    double fp_ops;                  /* PMU floating-point operations per call; NAN if none */
    double flops;                   /* analytic flops per call (flops.h); NAN if no formula */
    int nsamples;                   /* ns per call of each batch (0: not known) */
    double samples[RBD_MAX_SAMPLES];
} timing_row;

/* One samples.csv row: ns per call in batch `batch` of a timings row. */
typedef struct {
    char method[64];
    char kind[8];
    char model[512];
    int batch;
    double ns;
} sample_row;

/* One instructions.csv row (scripts/instructions, valgrind). */
typedef struct {
    char method[64];
    char model[512];
    double bf;
    int N;
    long calls_lo, calls_hi;
    double instructions;    /* per call */
    char tool[32];
} instruction_row;

/* One accuracy.csv row. */
typedef struct {
    char method[64];
    char output[16];
    char model[512];
    double bf;              /* NAN for models that are not autoTree */
    int N, nv, states;
    double rms_rel, max_abs, normwise;
    double zero_max;        /* NAN when the reference has no structural zeros */
} accuracy_row;

/* One peer_eps.csv row: a peer function that takes finite differences,
 * audited at one step (accuracy/accuracy_peer.h). */
typedef struct {
    char method[64];        /* the row name, <peer>.<function> */
    char model[512];
    double bf;              /* NAN for models that are not autoTree */
    double eps;             /* the step */
    int N, nv, states;
    double rms_rel;         /* worst over the states and the derivative outputs */
    double normwise;        /* likewise */
    char role[16];          /* default, best, default+best, or swept (neither) */
} peer_eps_row;

/* One conditioning.csv row. */
typedef struct {
    char model[512];
    double bf;              /* NAN for models that are not autoTree */
    int N, nv, states;
    double cond_M, cond_M_min;  /* max, min over the states */
} cond_row;

/* One crossover.csv row: the search for the smallest N where A beats B. */
typedef struct {
    char A[64], B[64];
    double bf;
    char range[32];         /* "lo:hi" searched */
    double N_cross;         /* NAN when not found */
    int bracket_lo, bracket_hi;
    char status[32];        /* found, at-lo, none, unresolved@N, ... */
    int probes, repetitions;
    double confidence;
} crossover_row;

/* One crossover_probes.csv row: an N a search timed, t_B / t_A there. */
typedef struct {
    char A[64], B[64];
    double bf;
    int N, pairs;
    double tA_median_ns, tB_median_ns, ratio_BA, ratio_q1, ratio_q3;
    int A_faster;
} probe_row;

/* One peer_checks.csv row: a peer function's outputs against ours. */
typedef struct {
    char function[64];      /* the row name, <peer>.<function> */
    char model[512];
    int nv;
    char ours[64];          /* our counterpart */
    double err;             /* max relative difference; NAN: not checked */
    double tol;
    char timed[4];          /* yes / no */
    char detail[1024];      /* the worst entry, or why it was not timed */
} peer_check_row;

/* One pair.csv row (`rbdiff pair --out`): a build against the reference
 * build on one cell, over the rounds (measure/pairing.h). */
typedef struct {
    char method[64];
    char model[512];
    char build[64], reference[64];      /* the builds' labels */
    int rounds;
    double ratio_median, ratio_q1, ratio_q3;    /* t_build / t_reference per round */
    int slower_rounds;
    double p_slower, p_faster;          /* one-sided sign tests */
    double t_ref_ns, t_build_ns;        /* medians over the rounds */
    double instructions_ratio;          /* NAN without counters */
    char verdict[8];                    /* SLOWER, faster, same */
} pair_row;

/* One pair_samples.csv row: a build's batch in one round. */
typedef struct {
    char method[64];
    char model[512];
    char build[64];
    int round;
    double ns_per_call;
    double instructions_per_call;       /* NAN without counters */
} pair_sample_row;

#endif
