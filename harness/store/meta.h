/* meta.json: how a results set was made (harness/README.md, "Timing": compiler,
 * flags, CPU model, library versions, git commit, date, command line). */
#ifndef RBD_META_H
#define RBD_META_H

#include <jansson.h>
#include "rbdiff/rbd.h"

/* The command line as one shell-quoted string (malloc'ed), always UTF-8:
 * an argument holding bytes that are not (a Latin-1 path) or control
 * bytes is written $'...' with them as \xHH; meta.json could not be built
 * from it before (jansson refuses such a string), after the set's tables
 * were made. */
char *meta_cmdline(int argc, char **argv);
/* s as a JSON string: itself when UTF-8, else as meta_cmdline writes such
 * a word (a path recorded for the reader: merge's inputs, the cache). */
json_t *meta_json_text(const char *s);
/* CPU model name from /proc/cpuinfo into buf ("unknown" if absent). */
void meta_cpu_model(char *buf, size_t len);
/* git rev-parse HEAD of the source tree at run time, else the commit the
 * binary was built from, into buf. */
void meta_git_commit(char *buf, size_t len);

/* What identifies the binary's build: version, commit at configure time,
 * compiler and flags.  A resumed sweep must come from the same build
 * (resume.h). */
const char *meta_build_id(void);
/* Writes DIR/meta.json atomically.  An existing meta.json's invocations
 * are kept, so a resumed run records every command that added rows.
 * extra (may be NULL) is merged in (e.g. counters, pinning). */
int meta_write(const char *dir, const char *cmdline, json_t *extra);

/* The method options a run used (sweep_config's minv, fdsva_crossover with
 * the built-in default resolved), as a new JSON object. */
#include "plan/sweepconf.h"
json_t *meta_method_options(const sweep_config *c);

#endif
