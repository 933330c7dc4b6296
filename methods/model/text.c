/* The one rule for a number in text (text.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rbdiff/rbd.h"
#include "model/text.h"

static size_t digits(const char *s, size_t i, size_t len)
{
    while (i < len && s[i] >= '0' && s[i] <= '9') i++;
    return i;
}

int rbd_text_number(const char *s, size_t len, double *out)
{
    size_t i = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) i++;
    static const char *const spelled[] = { "inf", "infinity", "nan" };
    for (int k = 0; k < 3; k++)
        if (len - i == strlen(spelled[k]) && !strncasecmp(s + i, spelled[k], len - i)) return RBD_ENONFINITE;
    size_t a = i, b = digits(s, i, len), f = b;
    if (b < len && s[b] == '.') f = digits(s, b + 1, len);
    if (b == a && f <= b + 1) return RBD_EPARSE;          /* no digit before or after the point */
    i = f;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = i + 1;
        if (e < len && (s[e] == '+' || s[e] == '-')) e++;
        size_t d = digits(s, e, len);
        if (d == e) return RBD_EPARSE;
        i = d;
    }
    if (i != len || len > 400) return RBD_EPARSE;
    char buf[416];
    memcpy(buf, s, len);
    buf[len] = 0;
    errno = 0;
    double x = strtod(buf, NULL);
    if (!isfinite(x)) return RBD_EPARSE;                  /* overflow: beyond double's range */
    *out = x;
    return RBD_OK;
}

/* ---- lists (text.h) */

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

void rbd_text_list_begin(rbd_text_list *l, const char *s, const char *seps, int blanks, int utf8, size_t max)
{
    memset(l, 0, sizeof *l);
    l->p = s ? s : "";
    l->seps = seps;
    l->blanks = blanks;
    l->utf8 = utf8;
    l->max = max;
    while (is_blank(*l->p)) l->p++;
}

/* Whether byte c may stand in an item; why says what it is otherwise. */
static int item_byte(const rbd_text_list *l, unsigned char c, char *why, size_t n)
{
    if (c < 0x20 || c == 0x7f) snprintf(why, n, "control byte 0x%02x", c);
    else if (c >= 0x80 && !l->utf8) snprintf(why, n, "byte 0x%02x outside ASCII", c);
    else return 1;
    return 0;
}

int rbd_text_list_next(rbd_text_list *l, const char **item, size_t *len)
{
    const char *p = l->p;
    *item = p;
    *len = 0;
    if (!*p) return 0;
    if (strchr(l->seps, *p)) {
        snprintf(l->why, sizeof l->why, "item %d is empty (a separator with nothing before it)", l->n + 1);
        return RBD_EPARSE;
    }
    const char *s = p;
    while (*p && !strchr(l->seps, *p) && !is_blank(*p)) {
        char b[48];
        if (!item_byte(l, (unsigned char)*p, b, sizeof b)) {
            snprintf(l->why, sizeof l->why, "item %d holds a %s", l->n + 1, b);
            return RBD_EPARSE;
        }
        p++;
    }
    *item = s;
    *len = (size_t)(p - s);
    size_t bad = l->utf8 ? rbd_text_utf8_bad(s, *len) : 0;
    if (bad) {
        snprintf(l->why, sizeof l->why, "item %d holds the byte 0x%02x (its byte %zu), not UTF-8", l->n + 1,
                 (unsigned char)s[bad - 1], bad);
        return RBD_EPARSE;
    }
    if (*len > l->max) {
        snprintf(l->why, sizeof l->why, "item %d is %zu bytes long (at most %zu)", l->n + 1, *len, l->max);
        return RBD_EPARSE;
    }
    int blank = 0;
    while (is_blank(*p)) { p++; blank = 1; }
    if (*p && strchr(l->seps, *p)) {
        p++;
        while (is_blank(*p)) p++;
        if (!*p || strchr(l->seps, *p)) {
            snprintf(l->why, sizeof l->why, "item %d is empty (%s)", l->n + 2,
                     *p ? "two separators with nothing between" : "a separator at the end");
            return RBD_EPARSE;
        }
    } else if (*p && (!l->blanks || !blank)) {
        snprintf(l->why, sizeof l->why, "item %d holds a blank", l->n + 1);
        return RBD_EPARSE;
    }
    l->p = p;
    l->n++;
    return 1;
}

int rbd_text_list_repeat(rbd_text_list *l, const char *item, size_t len, const char *const *earlier, int n)
{
    for (int k = 0; k < n; k++)
        if (strlen(earlier[k]) == len && !memcmp(earlier[k], item, len)) {
            snprintf(l->why, sizeof l->why, "'%.*s' is given twice", (int)(len < 60 ? len : 60), item);
            return 1;
        }
    return 0;
}

size_t rbd_text_utf8_bad(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t k = 0; k < len;) {
        unsigned c = u[k];
        if (c < 0x80) { k++; continue; }
        /* a lead byte: its sequence's length, and the range of the second
         * byte that keeps the code point in U+0080..U+10FFFF and off the
         * surrogates (RFC 3629, section 4) */
        size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
        unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
        unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
        if (!n || k + n > len || u[k + 1] < lo || u[k + 1] > hi) return k + 1;
        for (size_t j = 2; j < n; j++)
            if (u[k + j] < 0x80 || u[k + j] > 0xbf) return k + 1;
        k += n;
    }
    return 0;
}

int rbd_text_line_bytes(const char *s, size_t len, int *col, char *why, size_t whylen)
{
    for (size_t k = 0; k < len; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == '\t' || (c == '\r' && (k + 1 == len || (k + 2 == len && s[k + 1] == '\n')))) continue;
        if (c == '\n' && k + 1 == len) continue;
        if (c >= 0x20 && c != 0x7f) continue;
        *col = (int)k + 1;
        snprintf(why, whylen, c ? "control byte 0x%02x" : "NUL byte", c);
        return RBD_EPARSE;
    }
    return RBD_OK;
}
