/* Strict number parsing for every text input (CLI, --set, CSV, scenario files): plain decimal
 * only, the whole string, finite. strtof alone would also take hex, "inf", "nan" and leading
 * blanks. */
#ifndef BOIDS_CORE_PARSE_H
#define BOIDS_CORE_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/* [+-]digits[.digits][(e|E)[+-]digits], finite as a float. */
bool boids_parse_float(const char *s, float *out);
/* Decimal digits only, at most max. */
bool boids_parse_u32(const char *s, uint32_t max, uint32_t *out);
bool boids_parse_u64(const char *s, uint64_t *out);

#endif
