/* Strict number parsing for every text input (CLI, --set, CSV, scenario files): plain decimal
 * only, the whole string, finite. strtof alone would also take hex, "inf", "nan" and leading
 * blanks. And the way numbers are written back in messages and files: exactly. */
#ifndef BOIDS_BASE_PARSE_H
#define BOIDS_BASE_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* [+-]digits[.digits][(e|E)[+-]digits], finite as a float. */
bool boids_parse_float(const char *s, float *out);
/* The same, saying why not: NULL, or what is wrong with s ("is not a decimal number", "is beyond
 * a float's range", "is too small for a float"), a text to follow the value in a message. */
const char *boids_parse_float_why(const char *s, float *out);
/* Decimal digits only, at most max. */
bool boids_parse_u32(const char *s, uint32_t max, uint32_t *out);
bool boids_parse_u64(const char *s, uint64_t *out);

/* The shortest decimal text that reads back as exactly v ("0.1", "1000.0001", "1e+06"), in buf
 * (32 bytes are always enough); returns buf. Messages print values this way, never rounded. */
const char *boids_float_text(float v, char buf[32]);

/* Edit distance of two short strings (insertions, deletions, substitutions; 99 past 62 bytes):
 * the "did you mean" of a mistyped flag or parameter. */
size_t boids_edit_distance(const char *a, const char *b);

/* "Did you mean": the name nearest a mistyped one among those offered, two edits at most
 * (further is no guess). Start with {key, NULL, 3}, offer each name, then read .best (NULL:
 * none near). */
typedef struct boids_guess {
    const char *key, *best;
    size_t best_d;
} boids_guess;
#define BOIDS_GUESS(key) ((boids_guess){(key), NULL, 3})
void boids_guess_offer(boids_guess *g, const char *name);

/* Appends name to the list in buf (size bytes), ", " between names, cut where it is full: the
 * lists of names an error message gives. */
void boids_list_append(char *buf, size_t size, const char *name);

#endif
