/*
 * URDF XML -> link and joint tables (urdf_internal.h).  libxml2 parses; its
 * messages are captured through the parser context's structured-error hook so
 * that nothing reaches stderr.  What urdfdom requires is required here too
 * (names, types, <parent>/<child>, <mass value>, the six <inertia> entries);
 * what it defaults is defaulted (origin identity, axis (1, 0, 0)); <limit>,
 * <dynamics>, geometry and simulator extensions are ignored.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include "model/text.h"
#include "model/urdf_internal.h"

int urdf_fail(const urdf_robot *r, long line, int code, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0) return rbd_fail(code, "%s:%ld: %s", r->path, line, msg);
    return rbd_fail(code, "%s: %s", r->path, msg);
}

void urdf_rpy_to_R(const double rpy[3], double R[9])
{
    double cr = cos(rpy[0]), sr = sin(rpy[0]), cp = cos(rpy[1]), sp = sin(rpy[1]);
    double cy = cos(rpy[2]), sy = sin(rpy[2]);
    R[0] = cy * cp; R[1] = cy * sp * sr - sy * cr; R[2] = cy * sp * cr + sy * sr;
    R[3] = sy * cp; R[4] = sy * sp * sr + cy * cr; R[5] = sy * sp * cr - cy * sr;
    R[6] = -sp;     R[7] = cp * sr;                R[8] = cp * cr;
}

void urdf_R_to_rpy(const double R[9], double rpy[3])
{
    double cp = sqrt(R[0] * R[0] + R[3] * R[3]);
    rpy[1] = atan2(-R[6], cp);
    if (cp > 1e-12) {
        rpy[0] = atan2(R[7], R[8]);
        rpy[2] = atan2(R[3], R[0]);
    } else {
        /* gimbal lock: only r - y (p = pi/2) or r + y (p = -pi/2) is defined; take y = 0 */
        rpy[0] = atan2(-R[5], R[4]);
        rpy[2] = 0;
    }
}

/* ---- libxml2 error capture ---- */

typedef struct { char msg[512]; int line; int have; } xml_capture;

static void on_xml_error(void *user, xmlErrorPtr e)
{
    (void)user;
    if (!e || e->level < XML_ERR_ERROR || !e->ctxt) return;
    xml_capture *cap = ((xmlParserCtxtPtr)e->ctxt)->_private;
    if (!cap || cap->have) return;      /* the first error says what went wrong; the rest follow from it */
    snprintf(cap->msg, sizeof cap->msg, "%s", e->message ? e->message : "unknown XML error");
    size_t n = strlen(cap->msg);
    while (n > 0 && (cap->msg[n - 1] == '\n' || cap->msg[n - 1] == ' ')) cap->msg[--n] = 0;
    cap->line = e->line;
    cap->have = 1;
}

static void on_generic_error(void *ctx, const char *fmt, ...) { (void)ctx; (void)fmt; }

static int read_file(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return rbd_fail(RBD_EIO, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 0, n = 0;
    char *b = NULL;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            char *nb = cap <= INT_MAX ? realloc(b, cap) : NULL;
            if (!nb) {
                free(b); fclose(f);
                return rbd_fail(RBD_ENOMEM, "%s: file too large or out of memory", path);
            }
            b = nb;
        }
        errno = 0;
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int err = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (err) { free(b); return rbd_fail(RBD_EIO, "%s: cannot read: %s", path, strerror(err)); }
    *buf = b; *len = n;
    return RBD_OK;
}

/* ---- element helpers ---- */

static int is_elem(const xmlNode *n, const char *tag)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, tag);
}

static xmlNode *first_child(const xmlNode *n, const char *tag)
{
    for (xmlNode *c = n->children; c; c = c->next)
        if (is_elem(c, tag)) return c;
    return NULL;
}

static char *dup_prop(const xmlNode *n, const char *attr)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
    if (!v) return NULL;
    size_t len = strlen((const char *)v) + 1;
    char *s = malloc(len);
    if (s) memcpy(s, v, len);
    xmlFree(v);
    return s;
}

/* The owner of an element in messages: "link 'x'" or "joint 'y'". */
typedef struct { const urdf_robot *r; const char *kind, *name; } owner;

static int need_prop(const owner *o, const xmlNode *n, const char *attr, char **out)
{
    *out = dup_prop(n, attr);
    if (*out) return RBD_OK;
    if (xmlHasProp(n, (const xmlChar *)attr)) return rbd_fail(RBD_ENOMEM, "out of memory");
    return urdf_fail(o->r, xmlGetLineNo(n), RBD_EPARSE, "%s '%s': <%s> has no '%s' attribute (required)",
                     o->kind, o->name, (const char *)n->name, attr);
}

/* Exactly cnt finite numbers separated by white space; an absent optional
 * attribute leaves out unchanged. */
static int parse_numbers(const owner *o, const xmlNode *n, const char *attr, int required, int cnt, double *out)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)attr);
    long line = xmlGetLineNo(n);
    const char *tag = (const char *)n->name;
    if (!v) {
        if (!required) return RBD_OK;
        return urdf_fail(o->r, line, RBD_EPARSE, "%s '%s': <%s> has no '%s' attribute (required)", o->kind,
                         o->name, tag, attr);
    }
    const char *s = (const char *)v;
    int k = 0, rc = RBD_OK;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
        if (!*s) break;
        const char *tok = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') s++;
        int toklen = (int)(s - tok);
        double x = NAN;
        if (rbd_text_number(tok, (size_t)toklen, &x)) {     /* the one rule (text.h) */
            rc = urdf_fail(o->r, line, RBD_EPARSE, "%s '%s': <%s %s=\"%s\">: '%.*s' is not a finite number",
                           o->kind, o->name, tag, attr, (const char *)v, toklen, tok);
            break;
        }
        if (k < cnt) out[k] = x;
        k++;
    }
    if (!rc && k != cnt)
        rc = urdf_fail(o->r, line, RBD_EPARSE, "%s '%s': <%s %s=\"%s\">: expected %d number%s, found %d", o->kind,
                       o->name, tag, attr, (const char *)v, cnt, cnt > 1 ? "s" : "", k);
    xmlFree(v);
    return rc;
}

/* <origin xyz rpy> -> position p and rotation R (child -> parent), both optional. */
static int parse_origin(const owner *o, const xmlNode *parent, double p[3], double R[9])
{
    double rpy[3] = { 0, 0, 0 };
    p[0] = p[1] = p[2] = 0;
    const xmlNode *n = first_child(parent, "origin");
    int rc = RBD_OK;
    if (n && !(rc = parse_numbers(o, n, "xyz", 0, 3, p))) rc = parse_numbers(o, n, "rpy", 0, 3, rpy);
    urdf_rpy_to_R(rpy, R);
    return rc;
}

static int psd3(const double A[9])
{
    return rbd_sym3_psd(A, fabs(A[0]) + fabs(A[4]) + fabs(A[8]), 1e-9);
}

/* <inertial>: the inertia is given about the CoM in the inertial frame (origin
 * xyz, rpy); the link frame sees Ic_link = R Ic R^T with the CoM at xyz. */
static int parse_inertial(const owner *o, const xmlNode *ine, int strict, rbd_body_inertia *in)
{
    double R[9], Ic[9], mass;
    int rc = parse_origin(o, ine, in->com, R);
    if (rc) return rc;
    const xmlNode *mn = first_child(ine, "mass");
    if (!mn)
        return urdf_fail(o->r, xmlGetLineNo(ine), RBD_EPARSE, "%s '%s': <inertial> has no <mass> (required)",
                         o->kind, o->name);
    if ((rc = parse_numbers(o, mn, "value", 1, 1, &mass))) return rc;
    if (mass < 0)
        return urdf_fail(o->r, xmlGetLineNo(mn), RBD_EINVAL, "%s '%s': <mass value=\"%g\">: mass is negative",
                         o->kind, o->name, mass);
    const xmlNode *tn = first_child(ine, "inertia");
    if (!tn)
        return urdf_fail(o->r, xmlGetLineNo(ine), RBD_EPARSE, "%s '%s': <inertial> has no <inertia> (required)",
                         o->kind, o->name);
    static const char *key[6] = { "ixx", "ixy", "ixz", "iyy", "iyz", "izz" };
    static const int at[6][2] = { { 0, 0 }, { 0, 1 }, { 0, 2 }, { 1, 1 }, { 1, 2 }, { 2, 2 } };
    for (int k = 0; k < 6; k++) {
        double x;
        if ((rc = parse_numbers(o, tn, key[k], 1, 1, &x))) return rc;
        Ic[3 * at[k][0] + at[k][1]] = Ic[3 * at[k][1] + at[k][0]] = x;
    }
    /* strict: each link on its own (not the default: the composite body after
     * the fixed joints are merged is judged, README.md "Inertia rule") */
    if (strict && !psd3(Ic))
        return urdf_fail(o->r, xmlGetLineNo(tn), RBD_EINVAL,
                         "%s '%s': <inertia> is not positive semi-definite (not a physical inertia; strict mode)",
                         o->kind, o->name);
    /* Ic_link = R Ic R^T */
    double RI[9];
    sp_mat3_mul(R, Ic, RI);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            in->Ic[3 * a + b] = RI[3 * a] * R[3 * b] + RI[3 * a + 1] * R[3 * b + 1] + RI[3 * a + 2] * R[3 * b + 2];
    in->mass = mass;
    return RBD_OK;
}

static int parse_link(urdf_robot *r, const xmlNode *n, int strict, urdf_link *l)
{
    memset(l, 0, sizeof *l);
    l->line = xmlGetLineNo(n);
    owner o = { r, "link", "?" };
    int rc = need_prop(&o, n, "name", &l->name);
    if (rc) return rc;
    o.name = l->name;
    const xmlNode *ine = first_child(n, "inertial");
    return ine ? parse_inertial(&o, ine, strict, &l->in) : RBD_OK;   /* no <inertial>: massless (legal) */
}

static int parse_joint(urdf_robot *r, const xmlNode *n, int strict, urdf_joint *j)
{
    memset(j, 0, sizeof *j);
    j->line = xmlGetLineNo(n);
    j->axis[0] = 1;
    owner o = { r, "joint", "?" };
    char *type = NULL;
    int rc = need_prop(&o, n, "name", &j->name);
    if (rc) return rc;
    o.name = j->name;
    if ((rc = need_prop(&o, n, "type", &type))) return rc;
    static const char *tn[] = { "revolute", "continuous", "prismatic", "fixed", "floating" };
    int t = -1;
    for (int k = 0; k < 5; k++)
        if (!strcmp(type, tn[k])) t = k;
    if (t < 0) {
        int known = !strcmp(type, "planar");
        rc = urdf_fail(r, j->line, known ? RBD_ENOTSUP : RBD_EPARSE,
                       "joint '%s': %s joint type '%s' (rbdiff loads revolute, continuous, prismatic, fixed, floating)",
                       j->name, known ? "unsupported" : "unknown", type);
        free(type);
        return rc;
    }
    free(type);
    j->type = (urdf_jtype)t;
    const char *side[2] = { "parent", "child" };
    char **dst[2] = { &j->parent, &j->child };
    for (int s = 0; s < 2; s++) {
        const xmlNode *pn = first_child(n, side[s]);
        if (!pn)
            return urdf_fail(r, j->line, RBD_EPARSE, "joint '%s': no <%s link=...> (required)", j->name, side[s]);
        if ((rc = need_prop(&o, pn, "link", dst[s]))) return rc;
    }
    double p[3], R[9];
    if ((rc = parse_origin(&o, n, p, R))) return rc;
    for (int a = 0; a < 3; a++) {
        j->X.r[a] = p[a];
        for (int b = 0; b < 3; b++) j->X.E[3 * a + b] = R[3 * b + a];   /* E = R^T */
    }
    const xmlNode *an = first_child(n, "axis");
    if (an && j->type != URDF_FIXED && j->type != URDF_FLOATING) {
        if ((rc = parse_numbers(&o, an, "xyz", 0, 3, j->axis))) return rc;
        if (j->axis[0] * j->axis[0] + j->axis[1] * j->axis[1] + j->axis[2] * j->axis[2] < 1e-24)
            return urdf_fail(r, xmlGetLineNo(an), RBD_EINVAL, "joint '%s': <axis> has zero length", j->name);
    }
    const xmlNode *mn = first_child(n, "mimic");
    if (mn && j->type != URDF_FIXED) {
        if ((rc = need_prop(&o, mn, "joint", &j->mimic))) return rc;
        if (strict)
            return urdf_fail(r, xmlGetLineNo(mn), RBD_ENOTSUP,
                             "joint '%s': <mimic joint=\"%s\"> is rejected in strict mode "
                             "(otherwise it loads as an independent joint)", j->name, j->mimic);
    }
    return RBD_OK;
}

void urdf_robot_free(urdf_robot *r)
{
    for (int k = 0; k < r->nl; k++) free(r->link[k].name);
    for (int k = 0; k < r->nj; k++) {
        free(r->joint[k].name); free(r->joint[k].parent); free(r->joint[k].child); free(r->joint[k].mimic);
    }
    free(r->link); free(r->joint);
    r->link = NULL; r->joint = NULL; r->nl = r->nj = 0;
}

static int parse_robot(urdf_robot *r, const xmlNode *root, int strict)
{
    int nl = 0, nj = 0, rc = RBD_OK;
    for (const xmlNode *c = root->children; c; c = c->next) {
        nl += is_elem(c, "link");
        nj += is_elem(c, "joint");
    }
    if (nl == 0) return urdf_fail(r, xmlGetLineNo(root), RBD_EINVAL, "<robot> has no <link>");
    r->link = calloc((size_t)nl, sizeof *r->link);
    r->joint = calloc(nj > 0 ? (size_t)nj : 1, sizeof *r->joint);
    if (!r->link || !r->joint) return rbd_fail(RBD_ENOMEM, "%s: out of memory", r->path);
    for (const xmlNode *c = root->children; c && !rc; c = c->next) {
        /* count as we go so that urdf_robot_free sees exactly what was touched */
        if (is_elem(c, "link")) rc = parse_link(r, c, strict, &r->link[r->nl++]);
        else if (is_elem(c, "joint")) rc = parse_joint(r, c, strict, &r->joint[r->nj++]);
    }
    return rc;
}

int urdf_read(const char *path, int strict, urdf_robot *r)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    char *buf = NULL;
    size_t len = 0;
    int rc = read_file(path, &buf, &len);
    if (rc) return rc;
    rc = urdf_read_buffer(buf, len, path, strict, r);
    free(buf);
    return rc;
}

int urdf_read_buffer(const char *buf, size_t len, const char *name, int strict, urdf_robot *r)
{
    memset(r, 0, sizeof *r);
    r->path = name;
    int rc;
    if (len > INT_MAX) return rbd_fail(RBD_ENOMEM, "%s: file too large", name);
    xml_capture cap = { .have = 0 };
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) return rbd_fail(RBD_ENOMEM, "%s: out of memory", name);
    ctxt->_private = &cap;
    ctxt->sax->serror = on_xml_error;      /* takes precedence over libxml2's printing */
    xmlGenericErrorFunc old_generic = xmlGenericError;
    void *old_generic_ctx = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, on_generic_error);
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, buf, (int)len, name, NULL, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
    xmlSetGenericErrorFunc(old_generic_ctx, old_generic);
    int wellformed = ctxt->wellFormed;
    xmlFreeParserCtxt(ctxt);
    if (!doc || !wellformed || cap.have) {
        if (doc) xmlFreeDoc(doc);
        if (cap.have) return urdf_fail(r, cap.line, RBD_EPARSE, "malformed XML: %s", cap.msg);
        return urdf_fail(r, 0, RBD_EPARSE, "malformed XML");
    }
    const xmlNode *root = xmlDocGetRootElement(doc);
    if (!root || !is_elem(root, "robot"))
        rc = urdf_fail(r, root ? xmlGetLineNo(root) : 0, RBD_EPARSE, "the root element is <%s>, not <robot>",
                       root ? (const char *)root->name : "");
    else
        rc = parse_robot(r, root, strict);
    xmlFreeDoc(doc);
    if (rc) urdf_robot_free(r);
    return rc;
}
