/* Model specs with relative URDF paths and robot short names (modelspec.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "model/text.h"
#include "plan/modelspec.h"
#include "common/datadir.h"

static int load(const char *spec, rbd_model **m);

static json_t *notices_seen;   /* [{"spec", "nonphysical", "notices"}] */

static void note_model(const rbd_model *m)
{
    if (!m || !m->nnotice) return;
    if (!notices_seen && !(notices_seen = json_array())) return;
    for (size_t k = 0; k < json_array_size(notices_seen); k++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(notices_seen, k), "spec")), m->spec)) return;
    json_t *n = json_array();
    for (int k = 0; k < m->nnotice; k++) json_array_append_new(n, json_string(m->notice[k]));
    json_array_append_new(notices_seen, json_pack("{s:s, s:i, s:o}", "spec", m->spec, "nonphysical",
                                                   m->nonphysical, "notices", n));
}

json_t *model_notices(void) { return notices_seen; }

static int is_notice(const rbd_model *m, const char *w)
{
    for (int k = 0; k < m->nnotice; k++)
        if (!strcmp(m->notice[k], w)) return 1;
    return 0;
}

/* The loader's other warnings (a <mimic> joint loaded as an independent
 * one): on stderr once per model and process, the first three in full, so a
 * sweep that loads Talos at every cell does not repeat its 24 mimics. */
static void warn_once(const rbd_model *m)
{
    static json_t *warned;   /* specs already warned about */
    if (!warned && !(warned = json_object())) return;
    if (json_object_get(warned, m->spec)) return;
    json_object_set_new(warned, m->spec, json_true());
    int shown = 0, other = 0;
    for (int k = 0; k < m->nwarn; k++) {
        if (is_notice(m, m->warn[k])) continue;
        if (shown < 3) fprintf(stderr, "rbdiff: %s: warning: %s\n", m->spec, m->warn[k]), shown++;
        else other++;
    }
    if (other) fprintf(stderr, "rbdiff: %s: %d more warnings (rbdiff models describe %s lists them)\n", m->spec, other, m->spec);
}

/* The inertia rule's notices go with every result: on stderr at each load,
 * into meta.json (model_notices), and the spec's options into every table
 * row and plot key (spec_label). */
int model_from_spec(const char *spec, rbd_model **m)
{
    int rc = load(spec, m);
    if (rc) return rc;
    for (int k = 0; k < (*m)->nnotice; k++) fprintf(stderr, "rbdiff: %s: warning: %s\n", spec, (*m)->notice[k]);
    warn_once(*m);
    note_model(*m);
    return rc;
}

/* urdf:NAME with NAME a robot of tests/models (no '/', no ".urdf"), as
 * --robots NAME reads it: "urdf:panda,freeflyer" -> the spec of
 * tests/models/panda.urdf with the same options.  0 if it is not one. */
static int robot_name_spec(const char *spec, size_t len, char *buf, size_t n)
{
    const char *name = spec + 5;
    if (len == 0 || memchr(name, '/', len) || (len > 5 && !strncmp(name + len - 5, ".urdf", 5))) return 0;
    char rel[600], bare[4200];
    if (snprintf(rel, sizeof rel, "tests/models/%.*s.urdf", (int)len, name) >= (int)sizeof rel) return 0;
    if (access(rel, F_OK) != 0 && (data_path(bare, sizeof bare, rel) || access(bare, F_OK) != 0)) return 0;
    return snprintf(buf, n, "urdf:%s%s", rel, name + len) < (int)n;
}

static int load(const char *spec, rbd_model **m)
{
    if (!spec || strncmp(spec, "urdf:", 5) || spec[5] == '/' || !spec[5]) return rbd_model_from_spec(spec, NULL, m);
    const char *path = spec + 5;
    size_t len = rbd_urdf_spec_split(path, NULL, NULL);
    char file[4096], robot[4800];
    if (len >= sizeof file) return rbd_fail(RBD_EINVAL, "model spec '%s': path too long", spec);
    memcpy(file, path, len);
    file[len] = 0;
    if (access(file, F_OK) != 0 && robot_name_spec(spec, len, robot, sizeof robot)) return load(robot, m);
    if (access(file, F_OK) == 0) return rbd_model_from_spec(spec, NULL, m);
    char bare[4200], alt[8400];
    if (data_path(bare, sizeof bare, file)) return rbd_fail(RBD_EINVAL, "model spec '%s': path too long", spec);
    if (access(bare, F_OK) != 0) return rbd_model_from_spec(spec, NULL, m);  /* its message names the path */
    snprintf(alt, sizeof alt, "urdf:%s%s", bare, path + len);                /* the options as given */
    rbd_model *out = NULL;
    int rc = rbd_model_from_spec(alt, NULL, &out);
    if (rc) return rc;
    /* the model remembers the portable spec, not this checkout's path */
    char *s = strdup(spec);
    if (!s) { rbd_model_free(out); return rbd_fail(RBD_ENOMEM, "out of memory"); }
    free(out->spec);
    out->spec = s;
    *m = out;
    return RBD_OK;
}

/* NAME:OPTION[:OPTION]...: the model options of a urdf: spec, ':' the
 * separator (',' being the robots list's), read by the one list rule
 * (model/text.h): an empty option and an option given twice are refused. */
static int robot_options(const char *tok, const char *o, char *opts, size_t len)
{
    static const char *const known[] = { "freeflyer", "nonphysical", "strict", "continuous=revolute" };
    const char *seen[4];
    int nseen = 0, rc;
    size_t used = 0, k;
    rbd_text_list l;
    rbd_text_list_begin(&l, o, ":", 0, 0, 64);
    const char *item;
    opts[0] = 0;
    if (!*o) return rbd_fail(RBD_EPARSE, "robots: '%s': no model option after ':'", tok);
    while ((rc = rbd_text_list_next(&l, &item, &k)) == 1) {
        int hit = -1;
        for (int j = 0; j < 4; j++)
            if (strlen(known[j]) == k && !strncmp(item, known[j], k)) hit = j;
        if (hit < 0)
            return rbd_fail(RBD_EPARSE, "robots: '%s': unknown model option '%.*s' after the robot name "
                            "(NAME:OPTION[:OPTION]..., options freeflyer, nonphysical, strict, "
                            "continuous=revolute; or --model urdf:PATH,OPTION,...)", tok, (int)k, item);
        if (rbd_text_list_repeat(&l, item, k, seen, nseen)) { rc = RBD_EPARSE; break; }
        seen[nseen++] = known[hit];
        used += (size_t)snprintf(opts + used, used < len ? len - used : 0, ",%s", known[hit]);
    }
    return rc ? rbd_fail(RBD_EPARSE, "robots: '%s': model options: %s", tok, l.why) : RBD_OK;
}

int robot_spec(const char *tok, char *buf, size_t len)
{
    if (!*tok) return rbd_fail(RBD_EPARSE, "robots: empty name");
    size_t need;
    if (!strncmp(tok, "urdf:", 5) || !strncmp(tok, "autotree:", 9)) {
        need = (size_t)snprintf(buf, len, "%s", tok);
        return need < len ? RBD_OK : rbd_fail(RBD_EPARSE, "robots: '%.60s...' is longer than %zu bytes", tok, len - 1);
    }
    char name[4200];
    if ((size_t)snprintf(name, sizeof name, "%s", tok) >= sizeof name)     /* never cut: refused */
        return rbd_fail(RBD_EPARSE, "robots: '%.60s...' is longer than %zu bytes", tok, sizeof name - 1);
    char opts[128] = "";
    char *slash = strrchr(name, '/');
    char *colon = strchr(slash ? slash : name, ':');
    if (colon) {
        *colon = 0;
        int rc = robot_options(tok, colon + 1, opts, sizeof opts);
        if (rc) return rc;
    }
    size_t n = strlen(name);
    int is_path = strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".urdf"));
    if (!is_path)
        for (const char *p = name; *p; p++)
            if (!(*p == '_' || *p == '-' || *p == '.' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
                  (*p >= 'A' && *p <= 'Z')))
                return rbd_fail(RBD_EPARSE, "robots: '%s' is not a robot name, path or spec", tok);
    need = (size_t)snprintf(buf, len, "urdf:%s%s%s%s", is_path ? "" : "tests/models/", name, is_path ? "" : ".urdf",
                            opts);
    return need < len ? RBD_OK : rbd_fail(RBD_EPARSE, "robots: '%.60s...' is longer than %zu bytes", tok, len - 1);
}

double spec_bf(const char *spec)
{
    if (strncmp(spec, "autotree:", 9)) return NAN;
    const char *p = strstr(spec, "bf=");
    return p ? strtod(p + 3, NULL) : 1;
}

void spec_label(const char *spec, char *buf, size_t len)
{
    if (!strncmp(spec, "autotree:", 9)) { snprintf(buf, len, "%s", spec + 9); return; }
    if (strncmp(spec, "urdf:", 5)) { snprintf(buf, len, "%s", spec); return; }
    /* the model options as marks: hyq+ff, atlas_grid+nonphysical (so that every
     * table row and plot key says how the model was loaded) */
    const char *path = spec + 5;
    int ff = 0;
    rbd_model_opts o;
    rbd_model_opts_default(&o);
    size_t n = rbd_urdf_spec_split(path, &ff, &o);
    const char *base = path;
    for (size_t k = 0; k < n; k++)
        if (path[k] == '/') base = path + k + 1;
    n -= (size_t)(base - path);
    if (n > 5 && !strncmp(base + n - 5, ".urdf", 5)) n -= 5;
    snprintf(buf, len, "%.*s%s%s%s%s", (int)n, base, ff ? "+ff" : "", o.continuous_revolute ? "+revolute" : "",
             o.strict ? "+strict" : "", o.nonphysical ? "+nonphysical" : "");
}
