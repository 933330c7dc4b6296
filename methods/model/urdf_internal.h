/*
 * URDF reading, split in two steps: urdf_xml.c turns the XML into flat link
 * and joint tables (every number checked, every element's line kept for error
 * messages); urdf.c resolves the tree, merges fixed joints and builds the
 * model.  Private to the library.
 */
#ifndef RBD_URDF_INTERNAL_H
#define RBD_URDF_INTERNAL_H

#include "rbdiff/rbd.h"

typedef enum {
    URDF_REVOLUTE, URDF_CONTINUOUS, URDF_PRISMATIC, URDF_FIXED, URDF_FLOATING
} urdf_jtype;

typedef struct {
    char *name;
    long line;
    rbd_body_inertia in;     /* in the link frame; all zero without <inertial> */
} urdf_link;

typedef struct {
    char *name;
    long line;
    urdf_jtype type;
    char *parent, *child;    /* link names as written */
    int ip, ic;              /* resolved link indices (urdf.c) */
    sp_xform X;              /* <origin>: parent link frame -> joint (child link) frame */
    double axis[3];          /* in the joint frame, default (1, 0, 0) */
    char *mimic;             /* the <mimic joint=...> it follows, or NULL */
} urdf_joint;

typedef struct {
    const char *path;
    int nl, nj;
    urdf_link *link;
    urdf_joint *joint;
} urdf_robot;

/* Parses PATH into r (r->path = path, not copied).  strict: <mimic> is an error. */
int urdf_read(const char *path, int strict, urdf_robot *r);
/* The same from a buffer of len bytes; name (not copied) stands for the file
 * in messages.  The fuzz target tests/fuzz/fuzz_urdf.c enters here. */
int urdf_read_buffer(const char *buf, size_t len, const char *name, int strict, urdf_robot *r);
void urdf_robot_free(urdf_robot *r);
/* rbd_urdf_load from a buffer (name stands for the file in messages). */
int urdf_load_buffer(const char *buf, size_t len, const char *name, int freeflyer, const rbd_model_opts *o,
                     rbd_model **out);

/* rbd_fail with "PATH:LINE: " in front (line <= 0: "PATH: "). */
int urdf_fail(const urdf_robot *r, long line, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* URDF's fixed-axis roll-pitch-yaw: R = Rz(y) Ry(p) Rx(r), row-major, child -> parent. */
void urdf_rpy_to_R(const double rpy[3], double R[9]);
/* The inverse (any rotation; at p = +-pi/2 the yaw is set to 0). */
void urdf_R_to_rpy(const double R[9], double rpy[3]);

#endif
