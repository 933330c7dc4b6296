/* Error codes, the per-thread message of the last failure, and the memory
 * check that refuses an allocation the machine cannot hold. */
#define _GNU_SOURCE         /* sysconf(_SC_PHYS_PAGES) */
#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include "rbdiff/rbd.h"

static _Thread_local char last_msg[1024];

const char *rbd_strerror(int code)
{
    switch (code) {
    case RBD_OK: return "success";
    case RBD_EINVAL: return "invalid argument or model data";
    case RBD_ENOMEM: return "out of memory";
    case RBD_EIO: return "input/output error";
    case RBD_ENOTSUP: return "not supported for this model";
    case RBD_EPARSE: return "malformed input";
    case RBD_ESINGULAR: return "mass matrix is singular";
    case RBD_ENONFINITE: return "non-finite value";
    default: return "unknown error";
    }
}

const char *rbd_last_error(void) { return last_msg; }

void rbd_clear_error(void) { last_msg[0] = 0; }

int rbd_fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof last_msg, fmt, ap);
    va_end(ap);
    return code;
}

int rbd_check_memory(const char *what, double bytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psize <= 0) return RBD_OK;     /* unknown: let malloc decide */
    double phys = (double)pages * (double)psize;
    if (bytes <= phys) return RBD_OK;
    return rbd_fail(RBD_ENOMEM, "%s needs %.1f GiB, more than this machine's %.1f GiB of memory", what,
                    bytes / 1073741824.0, phys / 1073741824.0);
}
