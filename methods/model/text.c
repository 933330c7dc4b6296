/* The one rule for a number in text (text.h). */
#include <errno.h>
#include <math.h>
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
