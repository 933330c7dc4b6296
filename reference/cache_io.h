/*
 * Internal to the reference cache: what the first-order cache (cache.c) and
 * the second-order one (cache_so.c) share, so both files are keyed, written
 * and checked the same way (README.md of reference/, "Cache").
 *
 *  - the key: a 128-bit hash (two independent 64-bit lanes) of the model's
 *    data bit for bit, the state vectors and which are given, the precision
 *    and the complex step; an order extends it (cache_key_extend);
 *  - the text: values in C99 hex floats (%a, read back by strtod to the very
 *    same double), inputs stored as "in <name> <n> <values>" and compared on
 *    reading, a last line "end <FNV-1a 64 of every byte before it>";
 *  - the write: a temporary file in the cache directory, fflush + fsync,
 *    rename(2), so a reader sees the old file or the new one, never half.
 */
#ifndef RBDREF_CACHE_IO_H
#define RBDREF_CACHE_IO_H

#include <stddef.h>
#include <stdint.h>
#include "rbdref.h"

/* in every file's first line and in the key: a new format makes old files misses */
#define CACHE_VERSION 1

typedef struct { uint64_t a, b; } cache_hash;

/* The inputs' key (model, state, precision, step); the first-order key. */
cache_hash cache_key_inputs(const rbd_model *m, const double *q, const double *v, const double *a,
                            const double *tau, const rbdref_opts *o);
/* The key continued by more integers (an order tag, a step of its own). */
void cache_key_extend(cache_hash *h, long x);
/* "<32 hex digits>" into key[33] */
void cache_key_hex(cache_hash h, char key[33]);
long cache_step_log2(const rbdref_opts *o);

/* A growing text buffer; oom set on the first failure, later calls no-ops. */
typedef struct { char *p; size_t n, cap; int oom; } cache_buf;
void cache_printf(cache_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "in <name> <n or -1 when x is NULL> <values>\n" */
void cache_put_vec(cache_buf *b, const char *name, const double *x, int n);
/* Appends the end line and writes b atomically to path (in dir); frees b. */
int cache_commit(cache_buf *b, const char *path, const char *dir);

/* The file's text before its end line, NUL-terminated and checksum-verified
 * (free with free()); NULL when missing, unreadable, truncated or corrupt. */
char *cache_read_verified(const char *path);
/* Parsing; each returns 0 on any mismatch. */
int cache_next_dbl(char **s, double *x);
int cache_next_word(char **s, const char *w);
int cache_same_vec(char **s, const char *name, const double *x, int n);

/* mkdir -p */
int cache_make_dirs(const char *dir);

#endif
