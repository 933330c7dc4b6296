/*
 * The interchange formats (README.md, "Conventions"): state files (a name, then numbers, one
 * vector per line, '#' comments) and output blocks ("<name> <rows> <cols>"
 * followed by the rows at %.17g).  Shared by the CLI and the tests.
 */
#ifndef RBD_IO_H
#define RBD_IO_H

#include <stdio.h>
#include "rbd.h"

/* Vectors of a state file, in the user's numbering; absent ones are NULL. */
typedef struct {
    double *q, *v, *a, *tau;
} rbd_state_file;

/* Reads PATH and checks each vector's length against the model (nq or nv).
 * Errors name the file, the line, the field and the value. */
int rbd_state_file_read(const char *path, const rbd_model *m, rbd_state_file *out);
/* The same from an open stream; path names it in messages (the fuzz target
 * tests/fuzz/fuzz_state.c enters here). */
int rbd_state_file_read_stream(FILE *f, const char *path, const rbd_model *m, rbd_state_file *out);
void rbd_state_file_free(rbd_state_file *s);

typedef struct {
    char name[32];
    int rows, cols;
    double *x;          /* column-major: (i, j) at x[i + rows*j] */
} rbd_block;

int rbd_blocks_read(const char *path, rbd_block **blocks, int *nblocks);
int rbd_blocks_read_stream(FILE *f, const char *path, rbd_block **blocks, int *nblocks);
void rbd_blocks_free(rbd_block *blocks, int nblocks);
const rbd_block *rbd_blocks_find(const rbd_block *blocks, int nblocks, const char *name);
/* Writes one block from a column-major matrix; returns 0 or RBD_EIO. */
int rbd_block_write(FILE *f, const char *name, int rows, int cols, const double *x);

#endif
