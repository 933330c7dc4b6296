/* Model spec strings (README.md, "Conventions"): "autotree:N=100,bf=2,skew=0,taper=1" or
 * "urdf:PATH[,freeflyer][,continuous=revolute][,strict][,nonphysical]". */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/spec_internal.h"
#include "model/text.h"

static int parse_num(const char *key, const char *val, size_t len, double *out)
{
    int rc = rbd_text_number(val, len, out);     /* the one rule (text.h) */
    if (rc == RBD_ENONFINITE) {     /* inf, nan: read, so the range check names the key's rule */
        char b[16];
        snprintf(b, sizeof b, "%.*s", (int)len, val);
        *out = strtod(b, NULL);
        return RBD_OK;
    }
    if (rc)
        return rbd_fail(RBD_EPARSE, "model spec: %s='%.*s' is not a number", key, (int)len, val);
    return RBD_OK;
}

int rbd_spec_parse_autotree(const char *spec, double *Nout, double *bfout, double *skewout, double *taperout)
{
    if (strncmp(spec, "autotree:", 9)) return rbd_fail(RBD_EPARSE, "model spec '%s': not autotree:", spec);
    double N = 0, bf = 1, skew = 0, taper = 1;
    int have_N = 0;   /* a flag, not a sentinel value: N=-3 is given, and out of range */
    int seen = 0;     /* keys given, one bit each: a repeated key is refused, as in a config */
    /* key=value items by the one list rule (text.h): "N=3," or "N=3,,bf=2"
     * is a typo, refused as such */
    rbd_text_list l;
    rbd_text_list_begin(&l, spec + 9, ",", 0, 0, 480);
    const char *p;
    size_t len;
    int more;
    while ((more = rbd_text_list_next(&l, &p, &len)) == 1) {
        const char *eq = memchr(p, '=', len);
        if (!eq)
            return rbd_fail(RBD_EPARSE, "model spec '%s': '%.*s' is not key=value (keys: N, bf, skew, taper)",
                            spec, (int)len, p);
        size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
        double *dst = NULL;
        const char *key = NULL;
        /* keys are spelled one way, as a config's are: 'n' is refused */
        if (klen == 1 && p[0] == 'N') { dst = &N; key = "N"; }
        else if (klen == 2 && !strncmp(p, "bf", 2)) { dst = &bf; key = "bf"; }
        else if (klen == 4 && !strncmp(p, "skew", 4)) { dst = &skew; key = "skew"; }
        else if (klen == 5 && !strncmp(p, "taper", 5)) { dst = &taper; key = "taper"; }
        else
            return rbd_fail(RBD_EPARSE, "model spec '%s': unknown key '%.*s' (keys: N, bf, skew, taper)",
                            spec, (int)klen, p);
        int bit = dst == &N ? 1 : dst == &bf ? 2 : dst == &skew ? 4 : 8;
        if (seen & bit) return rbd_fail(RBD_EPARSE, "model spec '%s': key '%s' given twice", spec, key);
        seen |= bit;
        int rc = parse_num(key, eq + 1, vlen, dst);
        if (rc) return rc;
        have_N |= dst == &N;
    }
    if (more) return rbd_fail(RBD_EPARSE, "model spec '%s': %s", spec, l.why);
    if (!have_N) return rbd_fail(RBD_EPARSE, "model spec '%s': N is missing (e.g. autotree:N=10)", spec);
    /* range first: converting a double beyond LONG_MAX is undefined (found by fuzz_spec) */
    if (!(N >= 1) || N != floor(N))
        return rbd_fail(RBD_EINVAL, "model spec '%s': N=%g: must be a whole number >= 1", spec, N);
    if (N > INT_MAX)
        return rbd_fail(RBD_ENOMEM, "model spec '%s': N=%g is too large: one dense N x N derivative alone needs "
                        "%.3g GiB", spec, N, 8.0 * N * N / 1073741824.0);
    *Nout = N; *bfout = bf; *skewout = skew; *taperout = taper;
    return RBD_OK;
}

static int parse_autotree(const char *spec, const rbd_model_opts *o, rbd_model **out)
{
    double N, bf, skew, taper;
    int rc = rbd_spec_parse_autotree(spec, &N, &bf, &skew, &taper);
    return rc ? rc : rbd_autotree((int)N, bf, skew, taper, o, out);
}

int rbd_model_from_spec(const char *spec, const rbd_model_opts *o, rbd_model **out)
{
    if (!spec || !out) return rbd_fail(RBD_EINVAL, "rbd_model_from_spec: null argument");
    *out = NULL;
    int col;
    char why[48];
    if (rbd_text_line_bytes(spec, strlen(spec), &col, why, sizeof why))   /* the one rule for bytes (text.h) */
        return rbd_fail(RBD_EPARSE, "model spec '%s': a %s at byte %d", spec, why, col);
    size_t bad = rbd_text_utf8_bad(spec, strlen(spec));
    if (bad)    /* the spec is every row's model and every benchmark's name: UTF-8 files */
        return rbd_fail(RBD_EPARSE, "model spec '%.*s...': the byte 0x%02x at byte %zu is not UTF-8 (a spec is "
                        "recorded in the results' CSV and JSON files, which are UTF-8): rename the file, or "
                        "link it under a UTF-8 name", (int)(bad - 1), spec, (unsigned char)spec[bad - 1], bad);
    if (!strncmp(spec, "autotree:", 9)) return parse_autotree(spec, o, out);
    if (!strncmp(spec, "urdf:", 5)) {
        const char *path = spec + 5;
        rbd_model_opts uo;
        if (o) uo = *o; else rbd_model_opts_default(&uo);
        int ff = 0;
        size_t len = rbd_urdf_spec_split(path, &ff, &uo);
        char *file = malloc(len + 1);
        if (!file) return rbd_fail(RBD_ENOMEM, "out of memory");
        memcpy(file, path, len);
        file[len] = 0;
        /* "ur5.urdf,FREEFLYER": an option the split did not know stays in the
         * path; when the path before it is a file, name the option, not the
         * file that is not there; the options the split took must each be
         * given once (text.h's list rule) */
        char *comma = strchr(file, ',');
        const char *opts = NULL;
        if (comma && access(file, F_OK) != 0) {
            *comma = 0;
            if (access(file, F_OK) == 0) opts = path + (comma - file) + 1;
            *comma = ',';
        } else if (path[len] == ',') {
            opts = path + len + 1;
        }
        if (opts) {
            int rc = rbd_urdf_spec_options_check(spec, opts);
            if (rc) { free(file); return rc; }
        }
        int rc = len ? rbd_urdf_load(file, ff, &uo, out)
                     : rbd_fail(RBD_EPARSE, "model spec '%s': no URDF path after 'urdf:'", spec);
        free(file);
        return rc;
    }
    return rbd_fail(RBD_EPARSE, "model spec '%s': unknown kind (valid: autotree:N=..,bf=..,skew=..,taper=.. "
                    "or urdf:PATH[,freeflyer][,continuous=revolute][,strict][,nonphysical])", spec);
}
