/*
 * What the harness knows about each method, base algorithm and peer
 * function, in one table (method_facts.c): its colour in every figure, the
 * family the small multiples put it in, the flop count it runs (flops.h),
 * and the quantity of Pinocchio's stored timings it is compared with
 * (report/anchors.c).  A method the table does not hold still runs; it
 * gets a spare colour, no flop count and no stored comparison.
 */
#ifndef RBD_METHOD_FACTS_H
#define RBD_METHOD_FACTS_H

#include "measure/flops.h"

enum {
    FAMILY_ID,                  /* ID derivatives */
    FAMILY_FDSVA,               /* fdsva and its variants */
    FAMILY_FD,                  /* the other FD derivatives */
    FAMILY_BASE,                /* base algorithms and the roofline */
    FAMILY_PINOCCHIO,           /* the peers' functions */
    FAMILY_MUJOCO,
    METHOD_NFAMILIES
};

typedef struct {
    const char *name;           /* registry or base-algorithm name, or PEER.FUNCTION */
    const char *color;          /* "#rrggbb", no two entries alike */
    int family;
    double (*flops)(const flops_tree *t);   /* NULL: not counted */
    const char *pinocchio;      /* column of Pinocchio's stored timings (anchors), or NULL */
} method_facts;

/* The entry of name; a peer's versioned row ("pinocchio@4.1.0.aba") takes
 * the bare name's.  NULL when the table does not hold it. */
const method_facts *method_facts_find(const char *name);
/* The k-th entry, NULL past the end. */
const method_facts *method_facts_at(int k);
/* "ID derivatives", ...; "other" out of range. */
const char *method_family_name(int family);
/* The method whose time every other of its kind's is paired with in the
 * ratio tables (`time`, tables.md): idsva for ID, fdsva for FD, idsva-so
 * for ID2, fdsva-so for FD2; NULL for other kinds. */
const char *method_kind_baseline(const char *kind);
/* Flops per call of name on tree t, or NAN when it has no count or t is
 * not a tree of revolute joints. */
double method_flops(const char *name, const flops_tree *t);

#endif
