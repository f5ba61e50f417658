#include "base/parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool boids_parse_float(const char *s, float *out) { return boids_parse_float_why(s, out) == NULL; }

const char *boids_parse_float_why(const char *s, float *out)
{
    static const char *const not_number = "is not a decimal number";
    const char *p = s;
    bool nonzero = false;
    if (*p == '+' || *p == '-') ++p;
    int digits = 0;
    while (is_digit(*p)) nonzero |= *p != '0', ++p, ++digits;
    if (*p == '.') {
        ++p;
        while (is_digit(*p)) nonzero |= *p != '0', ++p, ++digits;
    }
    if (digits == 0) return not_number;
    if (*p == 'e' || *p == 'E') {
        ++p;
        if (*p == '+' || *p == '-') ++p;
        if (!is_digit(*p)) return not_number;
        while (is_digit(*p)) ++p;
    }
    if (*p != '\0') return not_number;
    errno = 0;
    float v = strtof(s, NULL);
    if ((errno == ERANGE && fabsf(v) > 1.0f) || !isfinite(v))
        return "is beyond a float's range (about 3.4e38 either way)";
    if (v == 0.0f && nonzero) /* (a tiny value that is not 0 stays, as a subnormal float) */
        return "is too small for a float: it would read as 0 (write 0 where 0 is meant)";
    *out = v;
    return NULL;
}

bool boids_parse_u64(const char *s, uint64_t *out)
{
    if (!is_digit(*s)) return false;
    uint64_t v = 0;
    for (const char *p = s; *p; ++p) {
        if (!is_digit(*p)) return false;
        uint64_t d = (uint64_t)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool boids_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
    uint64_t v;
    if (!boids_parse_u64(s, &v) || v > max) return false;
    *out = (uint32_t)v;
    return true;
}

const char *boids_float_text(float v, char buf[32])
{
    /* Plain decimals where they are short enough to read ("1000000", "0.00004"), else %g. */
    if (fabsf(v) < 1e15f && (v == 0.0f || fabsf(v) >= 1e-5f))
        for (int decimals = 0; decimals <= 12; ++decimals) {
            snprintf(buf, 32, "%.*f", decimals, (double)v);
            if (strtof(buf, NULL) == v) return buf;
        }
    for (int digits = 1; digits <= 9; ++digits) {
        snprintf(buf, 32, "%.*g", digits, (double)v);
        if (strtof(buf, NULL) == v) return buf;
    }
    return buf; /* 9 significant digits always round-trip a float */
}

size_t boids_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[64];
    if (la >= 63 || lb >= 63) return 99;
    for (size_t j = 0; j <= lb; ++j) row[j] = j;
    for (size_t i = 1; i <= la; ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; ++j) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

void boids_guess_offer(boids_guess *g, const char *name)
{
    const size_t d = boids_edit_distance(g->key, name);
    if (d < g->best_d) g->best_d = d, g->best = name;
}

void boids_list_append(char *buf, size_t size, const char *name)
{
    if (buf[0]) strncat(buf, ", ", size - strlen(buf) - 1);
    strncat(buf, name, size - strlen(buf) - 1);
}
