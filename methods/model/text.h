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

/*
 * The one rule for a list in any text rbdiff reads (issue 30): the sweep
 * config's and the flags' lists (N = 1, 2, 5:5:50; methods; robots;
 * peers), the options of a model spec (urdf:PATH,freeflyer,strict;
 * autotree:N=3,bf=2) and of a robot (panda:freeflyer:strict).  Items are
 * separated by one of seps, with blanks around a separator ignored, and,
 * where blanks is set, by blanks alone ("1 2, 3").  Refused, each with the
 * reason in l->why: an empty item (",1", "1,,2", "1,": a typo, never
 * nothing), an item longer than max bytes (sweepconf cut them at 127
 * silently), a control byte anywhere, a byte outside ASCII unless utf8 is
 * set (paths: then bytes that are not UTF-8), and a name given twice
 * (rbd_text_list_repeat).
 */
typedef struct {
    const char *p;          /* the text not yet read */
    const char *seps;       /* the separators, e.g. "," or ":" */
    int blanks;             /* blanks alone separate items too */
    int utf8;               /* UTF-8 beyond ASCII is allowed in an item */
    size_t max;             /* the longest item, in bytes */
    int n;                  /* items read so far */
    char why[96];           /* what is wrong, once next returned RBD_EPARSE */
} rbd_text_list;

void rbd_text_list_begin(rbd_text_list *l, const char *s, const char *seps, int blanks, int utf8, size_t max);
/* 1 and the next item in *item, *len; 0 at the end of the list; RBD_EPARSE
 * with l->why set (no message is set: the reader names file, line, field
 * and value). */
int rbd_text_list_next(rbd_text_list *l, const char **item, size_t *len);
/* 1 (and l->why set) if item equals one of the n earlier items, each
 * compared in full: a name given twice is a typo whose rows would collide
 * after a long run, or an option whose second mention says nothing. */
int rbd_text_list_repeat(rbd_text_list *l, const char *item, size_t len, const char *const *earlier, int n);

/* 0 when s[0..len) is well-formed UTF-8 (RFC 3629: no overlong form, no
 * surrogate, nothing beyond U+10FFFF), else the 1-based position of the
 * first byte that starts no valid sequence.  A path or spec that rbdiff
 * records in its tables and JSON (both UTF-8) must pass: a Latin-1 name
 * made jansson drop the benchmark's "name" without a word. */
size_t rbd_text_utf8_bad(const char *s, size_t len);

/* The bytes of one line of a text file: NUL and control bytes other than
 * tab (and a CR before the end of the line) are refused, *col the 1-based
 * column of the first and why what it is.  RBD_OK or RBD_EPARSE. */
int rbd_text_line_bytes(const char *s, size_t len, int *col, char *why, size_t whylen);

#endif
