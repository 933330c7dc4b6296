/* Model spec strings (DESIGN.md): "autotree:N=100,bf=2,skew=0,taper=1" or
 * "urdf:PATH[,freeflyer]". */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rbd.h"

static int parse_num(const char *key, const char *val, size_t len, double *out)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        return rbd_fail(RBD_EPARSE, "model spec: %s='%.*s' is not a number", key, (int)len, val);
    memcpy(buf, val, len);
    buf[len] = 0;
    char *end;
    errno = 0;
    double x = strtod(buf, &end);
    if (*end || errno) return rbd_fail(RBD_EPARSE, "model spec: %s='%s' is not a number", key, buf);
    *out = x;
    return RBD_OK;
}

static int parse_autotree(const char *args, const char *spec, const rbd_model_opts *o, rbd_model **out)
{
    double N = -1, bf = 1, skew = 0, taper = 1;
    const char *p = args;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (!eq)
            return rbd_fail(RBD_EPARSE, "model spec '%s': '%.*s' is not key=value (keys: N, bf, skew, taper)",
                            spec, (int)len, p);
        size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
        double *dst = NULL;
        const char *key = NULL;
        if (klen == 1 && (p[0] == 'N' || p[0] == 'n')) { dst = &N; key = "N"; }
        else if (klen == 2 && !strncmp(p, "bf", 2)) { dst = &bf; key = "bf"; }
        else if (klen == 4 && !strncmp(p, "skew", 4)) { dst = &skew; key = "skew"; }
        else if (klen == 5 && !strncmp(p, "taper", 5)) { dst = &taper; key = "taper"; }
        else
            return rbd_fail(RBD_EPARSE, "model spec '%s': unknown key '%.*s' (keys: N, bf, skew, taper)",
                            spec, (int)klen, p);
        int rc = parse_num(key, eq + 1, vlen, dst);
        if (rc) return rc;
        p += len;
        if (*p == ',') p++;
    }
    if (N < 0) return rbd_fail(RBD_EPARSE, "model spec '%s': N is missing (e.g. autotree:N=10)", spec);
    if (N != (double)(long)N || N < 1 || N > 2e9)
        return rbd_fail(RBD_EINVAL, "model spec '%s': N=%g: must be a whole number >= 1", spec, N);
    return rbd_autotree((int)N, bf, skew, taper, o, out);
}

int rbd_model_from_spec(const char *spec, const rbd_model_opts *o, rbd_model **out)
{
    if (!spec || !out) return rbd_fail(RBD_EINVAL, "rbd_model_from_spec: null argument");
    *out = NULL;
    if (!strncmp(spec, "autotree:", 9)) return parse_autotree(spec + 9, spec, o, out);
    if (!strncmp(spec, "urdf:", 5)) {
        const char *path = spec + 5;
        size_t len = strlen(path);
        int ff = 0;
        static const char sfx[] = ",freeflyer";
        if (len >= sizeof sfx - 1 && !strcmp(path + len - (sizeof sfx - 1), sfx)) { ff = 1; len -= sizeof sfx - 1; }
        char *file = malloc(len + 1);
        if (!file) return rbd_fail(RBD_ENOMEM, "out of memory");
        memcpy(file, path, len);
        file[len] = 0;
        int rc = len ? rbd_urdf_load(file, ff, o, out)
                     : rbd_fail(RBD_EPARSE, "model spec '%s': no URDF path after 'urdf:'", spec);
        free(file);
        return rc;
    }
    return rbd_fail(RBD_EPARSE, "model spec '%s': unknown kind (valid: autotree:N=..,bf=..,skew=..,taper=.. "
                    "or urdf:PATH[,freeflyer])", spec);
}
