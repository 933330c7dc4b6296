/*
 * The lists of a sweep config and of the flags (sweepconf.h), all read by
 * one rule (model/text.h, rbd_text_list): items separated by ',' or blanks;
 * an empty item, a control byte, a byte outside ASCII (except in paths),
 * an item longer than SWEEP_NAME_MAX (SWEEP_PATH_MAX for paths) and an item
 * given twice are refused, each message "WHERE: KEY: 'VALUE': what".
 */
#ifndef RBD_SWEEPLISTS_H
#define RBD_SWEEPLISTS_H

#include "plan/sweepconf.h"

#define SWEEP_NAME_MAX 128      /* a method, peer or robot name, a number or range */
#define SWEEP_PATH_MAX 4096     /* a path (robots: a URDF file) */

enum { SWEEP_LIST_PATHS = 1,    /* items may be paths: longer, any byte >= 0x80 */
       SWEEP_LIST_REPEATS = 2 };  /* the caller checks repeats itself (robots: by the spec) */

/* The items of v as new strings (sweep_strs_free), by the rule above. */
int sweep_list_items(const char *v, const char *where, const char *key, int flags, char ***out, int *n);
/* RBD_EPARSE with "WHERE: KEY: 'VALUE': why" (VALUE cut at 120 bytes, marked). */
int sweep_list_fail(const char *why, const char *where, const char *key, const char *v);
void sweep_strs_free(char **s, int n);

/* The list keys of sweepconf.c's table. */
int sweep_set_methods(sweep_config *c, const char *v, const char *where);
/* so_methods = none | all | second-order methods (rbd_so_methods) */
int sweep_set_so_methods(sweep_config *c, const char *v, const char *where);
int sweep_set_robot_methods(sweep_config *c, const char *v, const char *where);
int sweep_set_robots(sweep_config *c, const char *v, const char *where);
int sweep_set_peers(sweep_config *c, const char *v, const char *where);

#endif
