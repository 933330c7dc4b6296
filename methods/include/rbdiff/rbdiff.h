/* librbdiff's public API in one include: models (rbd.h), state and block
 * files (rbd_io.h), base dynamics (dynamics.h), the derivative methods and
 * base algorithms (method.h) and the checked calls (check.h).  Link with
 * `pkg-config --libs rbdiff` or the CMake package's rbdiff::rbdiff_lib. */
#ifndef RBDIFF_H
#define RBDIFF_H

#include "rbd.h"
#include "rbd_io.h"
#include "dynamics.h"
#include "method.h"
#include "check.h"

#endif
