/*
 * RBD_HOT: the placement of a method's hot kernel, fixed by the kernel
 * alone.  GCC aligns a function to 16 bytes and a loop head to 8 or 16, so
 * where a short inner loop falls against the CPU's 64-byte fetch and
 * op-cache lines depends on how many bytes every function linked before
 * it happens to take: a commit that changes crba.c could move idsva-body's
 * copy loop across a line and cost it 5-7% with the same instructions
 * (methods/README.md, "Re-measured: before the harness restructuring").
 * A hot kernel starts on a 64-byte line and its loop heads on 32-byte
 * boundaries, so a loop under 32 bytes never straddles a line and the
 * kernel's time no longer depends on the code around it.  The optimize
 * attribute only adds -falign-loops=32 to the command line's options
 * (GCC manual, "Common Function Attributes"); clang has no such attribute
 * and gets the function alignment only.
 *
 * RBD_HOT_ENTRY starts a kernel on a 64-byte line and leaves its loop heads
 * where GCC puts them: still a placement that depends on the kernel's own
 * code alone, without the padding before each loop head, which runs every
 * time a loop is entered from above.  For kernels whose inner loops run
 * once or twice per entry (a loop over a joint's dofs), where that padding
 * is executed thousands of times per call (abacr's tangent_column: 0.5% of
 * its instructions, methods/README.md).
 *
 * RBD_HOT_PAGE starts a large kernel, one whose code spans tens of kB, on a
 * 4 kB page.  For such a kernel the 64-byte start is not enough: where it
 * begins within a page decides how its lines fall onto the sets of the
 * CPU's instruction-side caches and predictors, which are indexed by
 * address bits above the line, so its time still moved with the bytes
 * linked before it (idsva-ref's ref_eval, 22 kB, with identical machine
 * code: methods/README.md, "id_ground's z-only copy").  A page-aligned
 * function also aligns the whole .text to a page, which moves every kernel
 * not on a page of its own; so each large kernel whose time depended on
 * its place (idsva-ref's, idsva-body's) has its own page.  The padding
 * costs at most one page of the binary each.
 */
#ifndef RBD_HOT_H
#define RBD_HOT_H

#if defined(__GNUC__) && !defined(__clang__)
#define RBD_HOT __attribute__((aligned(64), optimize("align-loops=32")))
#define RBD_HOT_ENTRY __attribute__((aligned(64)))
#define RBD_HOT_PAGE __attribute__((aligned(4096)))
#elif defined(__GNUC__)
#define RBD_HOT __attribute__((aligned(64)))
#define RBD_HOT_ENTRY __attribute__((aligned(64)))
#define RBD_HOT_PAGE __attribute__((aligned(4096)))
#else
#define RBD_HOT
#define RBD_HOT_ENTRY
#define RBD_HOT_PAGE
#endif

#endif
