/* FNV-1a, 64 bits: the one digest of bytes the program keeps (an experiment's fingerprint, a
 * loaded model's cache key and folder digest). Not a cryptographic hash: it tells an edited input
 * from the one recorded, and is no guard against a forged one. */
#ifndef BOIDS_BASE_DIGEST_H
#define BOIDS_BASE_DIGEST_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BOIDS_DIGEST_START 0xcbf29ce484222325ull /* the digest of nothing */

/* h, with n more bytes digested. */
static inline uint64_t boids_digest(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* h, with a string digested, its terminating 0 too (so "ab","c" and "a","bc" differ). */
static inline uint64_t boids_digest_text(uint64_t h, const char *s)
{
    return boids_digest(h, s, strlen(s) + 1);
}

#endif
