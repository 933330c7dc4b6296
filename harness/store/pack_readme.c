/* README.md of a packed results set (pack_readme.h): what the set is, how
 * it was made (from its meta.json), what each file holds and how to
 * rebuild what pack removed.  A set that has a README keeps it: the
 * committed sets' READMEs say why they were made, which no program knows. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/pack_readme.h"

static const char *const files[][2] = {
    { "report.md", "start here: each of the paper's figures and claims beside this run's, with a verdict" },
    { "tables.md", "median times (a table per kind of method), paired ratios, accuracy summary, counters" },
    { "vs-pinocchio.md", "ours against Pinocchio (each version built), timed live in the same rounds" },
    { "vs-pinocchio-cg.md", "ours against Pinocchio's generated code, timed live in the same rounds" },
    { "codegen.txt", "the models whose Pinocchio code was generated (cold seconds, or cached) and those left out, and why" },
    { "vs-mujoco.md", "ours against MuJoCo, timed live in the same rounds" },
    { "timings.csv", "one row per method and model: median, min, quartiles, counters (harness/README.md)" },
    { "samples.csv.gz", "every batch's time per call, the paired ratios' raw data (gzip)" },
    { "accuracy.csv", "every method's error against the 256-bit MPFR reference, per output and model" },
    { "accuracy.json", "the same with the audit's settings" },
    { "conditioning.csv", "cond(M) of each audited model" },
    { "crossover.csv", "the DMM / AZA crossover searches (Fig. 7, Table III)" },
    { "crossover_probes.csv", "every size those searches timed" },
    { "peer_checks.csv", "each peer function against ours before it was timed" },
    { "meta.json", "machine, compiler, flags, commit, command line, settings" },
    { "clang", "the second build's run (clang), for Fig. 5 and Table III" },
    { "plots", "the figures" },
};

typedef struct {
    const char *dir;
    json_t *meta;
} readme_ctx;

static const char *str(json_t *m, const char *key)
{
    const char *s = json_string_value(json_object_get(m, key));
    return s ? s : "?";
}

static int write_readme(FILE *f, void *p)
{
    const readme_ctx *c = p;
    const char *base = strrchr(c->dir, '/');
    base = base && base[1] ? base + 1 : c->dir;
    json_t *m = c->meta;
    fprintf(f, "# %s: an rbdiff results set\n\n", base);
    fprintf(f, "Made by `%s` on %s: rbdiff %s at commit %s, %s `%s`, on %s (%lld CPUs online, host %s), %s.  "
               "%lld timed batches of at least %g ms per cell, the methods of a model in rounds (paired ratios), "
               "seed %lld.  meta.json has the rest.\n\n",
            str(m, "command_line"), str(m, "date"), str(m, "rbdiff_version"), str(m, "git_commit"), str(m, "compiler"),
            str(m, "flags"), str(m, "cpu_model"), (long long)json_integer_value(json_object_get(m, "cpus_online")),
            str(m, "hostname"), str(m, "openblas_config"), (long long)json_integer_value(json_object_get(m, "batches")),
            json_number_value(json_object_get(m, "batch_ms")), (long long)json_integer_value(json_object_get(m, "seed")));
    fputs("| file | what it holds |\n|---|---|\n", f);
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", c->dir, files[k][0]);
        if (access(path, F_OK) == 0) fprintf(f, "| [%s](%s) | %s |\n", files[k][0], files[k][0], files[k][1]);
    }
    fputs("\nThe set is packed (`rbdiff pack`): the raw samples gzipped, and what a command rebuilds removed.  "
          "The line and bar figures are kept as SVG, which GitHub and any browser show and which scales; the "
          "dense small multiples (times_all, accuracy_*) as PNG, whose SVG is several MB.  `rbdiff plot DIR` "
          "draws every figure again in both formats, `rbdiff pack --unpack DIR` rebuilds samples.csv and the "
          "Google Benchmark benchmarks.json.\n\n"
          "`rbdiff pack` wrote this README because the set had none; replace it with why the set was made and "
          "what it shows, as the committed sets' READMEs do.\n", f);
    return ferror(f) ? rbd_fail(RBD_EIO, "%s/README.md: write failed", c->dir) : RBD_OK;
}

int pack_write_readme(const char *dir)
{
    char path[4200], meta[4200];
    snprintf(path, sizeof path, "%s/README.md", dir);
    snprintf(meta, sizeof meta, "%s/meta.json", dir);
    if (access(path, F_OK) == 0 || access(meta, F_OK) != 0) return RBD_OK;
    json_error_t err;
    json_t *m = json_load_file(meta, 0, &err);
    if (!m) return rbd_fail(RBD_EPARSE, "%s:%d: %s", meta, err.line, err.text);
    readme_ctx c = { dir, m };
    int rc = atomic_write(path, write_readme, &c);
    json_decref(m);
    return rc;
}
