/* Files that appear whole or not at all: written to a temporary file in the
 * same directory, flushed to disk, then renamed over the target. */
#ifndef RBD_ATOMICIO_H
#define RBD_ATOMICIO_H

#include <signal.h>
#include <stdio.h>
#include <jansson.h>

/* Writes the content; returns 0 or a negative RBD_E* code. */
typedef int (*atomic_writer)(FILE *f, void *ctx);

/* path appears with the content written by fn, or is left as it was (the
 * temporary file is removed on every failure).  Errors name the path. */
int atomic_write(const char *path, atomic_writer fn, void *ctx);
int atomic_write_json(const char *path, const json_t *j);

/* A flag (a SIGINT handler's) that atomic_write's writes look at: once
 * set, every write of the file being written fails, the writer's stream
 * is in error and the file is not made (the temporary removed), so that a
 * long writer stops at its next buffer (merge).  NULL (the default): never. */
void atomic_stop_on(const volatile sig_atomic_t *stop);
/* 1 once that flag is set: a writer that computes much between writes (a
 * table or JSON built from 10^5 rows) looks at it in its loops, so that it
 * stops within a row rather than at its next buffer. */
int atomic_stopped(void);

/* What a failure to make or write into a place the user named says, from
 * its errno: RBD_EINVAL when the place cannot hold output whatever the
 * machine's state (read-only, no permission, a file in the way, a
 * directory missing, a name too long), found before any work, so refused as input (exit 2); RBD_EIO
 * otherwise (a full disk, an I/O error: the run's, exit 1). */
int write_place_code(int e);

/* Whether a file can be made at path (its directory there and writable,
 * path not a directory), before the work that computes it: RBD_OK, else
 * the code write_place_code gives, naming the path (eval --out). */
int atomic_write_check(const char *path);

/* mkdir -p; errors name the component that could not be made, with the
 * code write_place_code gives. */
int mkdir_p(const char *path);

/* fflush + fsync: the bytes written so far survive a crash. */
int flush_to_disk(FILE *f, const char *path);

#endif
