/* Model specs with relative URDF paths and robot short names (modelspec.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "plan/modelspec.h"
#include "plan/datadir.h"

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

/* The inertia rule's notices go with every result: on stderr at each load,
 * into meta.json (model_notices), and the spec's options into every table
 * row and plot key (spec_label). */
int model_from_spec(const char *spec, rbd_model **m)
{
    int rc = load(spec, m);
    if (rc) return rc;
    for (int k = 0; k < (*m)->nnotice; k++) fprintf(stderr, "rbdiff: %s: warning: %s\n", spec, (*m)->notice[k]);
    note_model(*m);
    return rc;
}

static int load(const char *spec, rbd_model **m)
{
    if (!spec || strncmp(spec, "urdf:", 5) || spec[5] == '/' || !spec[5]) return rbd_model_from_spec(spec, NULL, m);
    const char *path = spec + 5;
    size_t len = rbd_urdf_spec_split(path, NULL, NULL);
    char file[4096];
    if (len >= sizeof file) return rbd_fail(RBD_EINVAL, "model spec '%s': path too long", spec);
    memcpy(file, path, len);
    file[len] = 0;
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

int robot_spec(const char *tok, char *buf, size_t len)
{
    if (!*tok) return rbd_fail(RBD_EPARSE, "robots: empty name");
    if (!strncmp(tok, "urdf:", 5) || !strncmp(tok, "autotree:", 9)) {
        snprintf(buf, len, "%s", tok);
        return RBD_OK;
    }
    char name[512];
    snprintf(name, sizeof name, "%s", tok);
    int ff = 0;
    char *colon = strrchr(name, ':');
    if (colon) {
        if (strcmp(colon + 1, "freeflyer"))
            return rbd_fail(RBD_EPARSE, "robots: '%s': only ':freeflyer' may follow a robot name", tok);
        *colon = 0;
        ff = 1;
    }
    size_t n = strlen(name);
    int is_path = strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".urdf"));
    if (!is_path)
        for (const char *p = name; *p; p++)
            if (!(*p == '_' || *p == '-' || *p == '.' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
                  (*p >= 'A' && *p <= 'Z')))
                return rbd_fail(RBD_EPARSE, "robots: '%s' is not a robot name, path or spec", tok);
    snprintf(buf, len, "urdf:%s%s%s%s", is_path ? "" : "tests/models/", name, is_path ? "" : ".urdf",
             ff ? ",freeflyer" : "");
    return RBD_OK;
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
