/* meta.json. */
#include <cblas.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "rbdiff/rbd.h"
#include "store/atomicio.h"
#include "store/meta.h"
#include "store/results.h"
#include "derivatives/fd/fd_compose.h"
#include "plan/modelspec.h"
#include "model/text.h"

#include "rbd_buildinfo.h"    /* RBD_GIT, written at every build (harness/buildinfo.cmake) */

#ifndef RBD_VERSION
#define RBD_VERSION "unknown"
#endif
#ifndef RBD_COMPILER
#define RBD_COMPILER "unknown"
#endif
#ifndef RBD_FLAGS
#define RBD_FLAGS ""
#endif
#ifndef RBD_GIT
#define RBD_GIT ""
#endif

/* The length of the UTF-8 sequence at c (1 for ASCII), 0 if none starts there. */
static size_t utf8_seq(const char *c)
{
    for (size_t n = 1; n <= 4 && c[n - 1]; n++)
        if (!rbd_text_utf8_bad(c, n)) return n;
    return 0;
}

/* a as one shell word at p (room for 4 strlen(a) + 4 bytes); the end.
 * Plain words as they are, other UTF-8 text in '...', and a word holding
 * a control byte or bytes that are not UTF-8 as $'...' with those bytes
 * as \xHH, so that the text is UTF-8 (JSON's) and pastes back into a
 * shell as the same bytes. */
static char *shell_word(const char *a, char *p)
{
    int plain = *a != 0, text = 1;
    for (const char *c = a; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *c) != NULL;
    if (plain) return p + sprintf(p, "%s", a);
    for (const char *c = a; *c && text; c++) {
        size_t n = utf8_seq(c);
        text = n && (unsigned char)*c >= 0x20 && *c != 0x7f;
        if (n > 1) c += n - 1;
    }
    if (text) {
        *p++ = '\'';
        for (const char *c = a; *c; c++) {
            if (*c == '\'') { memcpy(p, "'\\''", 4); p += 4; }
            else *p++ = *c;
        }
        *p++ = '\'';
        return p;
    }
    *p++ = '$';
    *p++ = '\'';
    for (const char *c = a; *c;) {
        unsigned char b = (unsigned char)*c;
        size_t n = utf8_seq(c);
        if (b == '\'' || b == '\\') { *p++ = '\\'; *p++ = (char)b; c++; }
        else if (!n || b < 0x20 || b == 0x7f) { p += sprintf(p, "\\x%02x", b); c++; }
        else { memcpy(p, c, n); p += n; c += n; }
    }
    *p++ = '\'';
    return p;
}

char *meta_cmdline(int argc, char **argv)
{
    size_t len = 1;
    for (int k = 0; k < argc; k++) len += 4 * strlen(argv[k]) + 4;
    char *s = malloc(len), *p = s;
    if (!s) return NULL;
    for (int k = 0; k < argc; k++) {
        if (k) *p++ = ' ';
        p = shell_word(argv[k], p);
    }
    *p = 0;
    return s;
}

json_t *meta_json_text(const char *s)
{
    if (!rbd_text_utf8_bad(s, strlen(s))) return json_string(s);
    char *w = malloc(4 * strlen(s) + 4);
    if (!w) return NULL;
    *shell_word(s, w) = 0;
    json_t *j = json_string(w);
    free(w);
    return j;
}

void meta_cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10)) continue;
        char *c = strchr(line, ':');
        if (!c) continue;
        c++;
        while (*c == ' ' || *c == '\t') c++;
        c[strcspn(c, "\n")] = 0;
        snprintf(buf, len, "%s", c);
        break;
    }
    fclose(f);
}

void meta_git_commit(char *buf, size_t len)
{
    snprintf(buf, len, "%s", *RBD_GIT ? RBD_GIT : "unknown");
}

const char *meta_build_id(void)
{
    return "rbdiff " RBD_VERSION " " RBD_GIT " " RBD_COMPILER " " RBD_FLAGS;
}

int meta_write(const char *dir, const char *cmdline, json_t *extra)
{
    char cpu[256], git[128], host[256] = "unknown", date[64];
    meta_cpu_model(cpu, sizeof cpu);
    meta_git_commit(git, sizeof git);
    gethostname(host, sizeof host - 1);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    struct utsname u;
    char kernel[300] = "unknown";
    if (uname(&u) == 0) snprintf(kernel, sizeof kernel, "%s %s %s", u.sysname, u.release, u.machine);
    const char *blas = openblas_get_config();

    char *path = results_path(dir, "meta.json");
    if (!path) return rbd_fail(RBD_ENOMEM, "out of memory");
    json_t *inv = NULL;
    json_t *old = json_load_file(path, 0, NULL);
    if (old) inv = json_incref(json_object_get(old, "invocations"));
    if (!json_is_array(inv)) { json_decref(inv); inv = json_array(); }
    json_array_append_new(inv, json_pack("{s:s, s:s, s:s}", "date", date, "command_line", cmdline ? cmdline : "",
                                         "git_commit", git));
    json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:I, s:s, s:s, s:s, s:s, s:s}",
                          "rbdiff_version", RBD_VERSION, "compiler", RBD_COMPILER, "flags", RBD_FLAGS,
                          "cpu_model", cpu, "cpus_online", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN),
                          "openblas_config", blas ? blas : "unknown", "mpfr_version", mpfr_get_version(),
                          "openblas_threads", (json_int_t)openblas_get_num_threads(),
                          "git_commit", git, "date", date, "command_line", cmdline ? cmdline : "",
                          "hostname", host, "kernel", kernel);
    if (!m) { json_decref(old); json_decref(inv); free(path); return rbd_fail(RBD_ENOMEM, "meta.json: could not build"); }
    json_object_set_new(m, "build_id", json_string(meta_build_id()));
    if (extra) json_object_update(m, extra);
    /* what an earlier run recorded and this one does not say (a sweep's
     * settings when `accuracy` adds to its set) stays: resume.h checks it */
    if (json_is_object(old)) json_object_update_missing(m, old);
    json_decref(old);
    json_t *notices = model_notices();
    if (notices) json_object_set(m, "model_notices", notices);
    json_object_set_new(m, "invocations", inv);
    int rc = atomic_write_json(path, m);
    json_decref(m);
    free(path);
    return rc;
}

json_t *meta_method_options(const sweep_config *c)
{
    rbd_options o;
    sweep_config_method_options(c, &o);
    return json_pack("{s:s, s:i, s:s, s:b, s:f, s:b}", "minv", rbd_minv_name(o.minv), "fdsva_crossover",
                     o.fdsva_crossover > 0 ? o.fdsva_crossover : RBD_FDSVA_CROSSOVER_DEFAULT, "fdsva_dmm",
                     o.fdsva_dmm_rule ? "rule" : "measure", "fd_forward", o.fd_forward, "cs_step", o.cs_step,
                     "zeros_preset", o.zeros_preset);
}
