/* Small deterministic PRNG (PCG32 seeded through SplitMix64): the same seed gives the
 * same stream on every platform. Never rand(). */
#ifndef BOIDS_CORE_RNG_H
#define BOIDS_CORE_RNG_H

#include <stdint.h>

typedef struct boids_rng {
    uint64_t state;
    uint64_t inc;
} boids_rng;

static inline uint64_t boids_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint32_t boids_rng_u32(boids_rng *r)
{
    /* PCG32 (XSH RR). */
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ull + r->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

static inline boids_rng boids_rng_seeded(uint64_t seed)
{
    uint64_t s = seed;
    boids_rng r = {boids_splitmix64(&s), boids_splitmix64(&s) | 1u};
    boids_rng_u32(&r);
    return r;
}

/* Uniform in [0, 1), 24 random bits: exactly representable as float. */
static inline float boids_rng_float(boids_rng *r)
{
    return (float)(boids_rng_u32(r) >> 8) * 0x1p-24f;
}

#endif
