/*
 * The one rule for a number in any text rbdiff reads (issue 30): state
 * files, model specs, URDF attributes, sweep configs and command-line
 * values.  A number is decimal, as %.17g writes it: [+-] digits [. digits]
 * [e [+-] digits] (or . digits), nothing before or after it.  strtod alone
 * took more: hexadecimal (0x10), leading blanks, "infinity"; each reader
 * took a different subset.  Underflow gives the nearest double (a
 * subnormal that %.17g wrote must read back); overflow is refused.
 */
#ifndef RBD_TEXT_H
#define RBD_TEXT_H

#include <stddef.h>

/* s[0..len) as a number into *out: RBD_OK; RBD_ENONFINITE for inf or nan
 * spelled out (the readers name them "not finite"); RBD_EPARSE for anything
 * else that is not a decimal number in double's range.  No message is set:
 * each reader names its file, line and field. */
int rbd_text_number(const char *s, size_t len, double *out);

#endif
