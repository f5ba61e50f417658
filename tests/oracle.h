/* What the tests that hold a model against its paper's equations share (test_vicsek,
 * test_couzin): vectors of doubles, the minimum image, the rules' own noise draws (which an oracle
 * takes as given: test_noise holds them equal on both backends), a random state at one speed, one
 * step of a world, and a sort of doubles. */
#ifndef BOIDS_TEST_ORACLE_H
#define BOIDS_TEST_ORACLE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "rules/common.h"
#include "test.h"

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
static const char *const names[2] = {"cpu", "gpu"};
static const double PI = 3.14159265358979324;

typedef struct d3 {
    double x, y, z;
} d3;
static inline d3 d3_of(double x, double y, double z) { return (d3){x, y, z}; }
static inline double d3_dot(d3 a, d3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline double d3_len(d3 a) { return sqrt(d3_dot(a, a)); }
static inline d3 d3_mul(d3 a, double s) { return d3_of(a.x * s, a.y * s, a.z * s); }
static inline d3 d3_add(d3 a, d3 b) { return d3_of(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline d3 d3_unit(d3 a) { return d3_len(a) > 0 ? d3_mul(a, 1 / d3_len(a)) : a; }
static inline d3 velocity_of(const boids_boid *b) { return d3_of(b->vx, b->vy, b->vz); }

/* d brought within [-size/2, size/2] (the minimum image on a torus of that size; 0: none). */
static inline double wrapd(double d, double size)
{
    return size <= 0 ? 0 : d > size / 2 ? d - size : d < -size / 2 ? d + size : d;
}

/* Draw k of boid id in the first step of a world seeded `seed`: the rules' own noise
 * (rules/common.h). */
static inline double draw(uint64_t seed, uint32_t id, uint32_t k)
{
    const boids_rules_ctx c = {.seed = (uint32_t)seed,
                               .seed_hi = (uint32_t)(seed >> 32),
                               .step = 0,
                               .per_replica = 1u << 30},
                          *ctx = &c;
    return noise(ctx, boids_vu_all(id), boids_vu_all(k))[0];
}

/* d's boids spread uniformly over its world at speed max_speed, headings all around (flat: in
 * the plane), boid i in swarm i mod swarms, alive. */
static inline void random_state(const boids_world_def *d, boids_boid *b, uint64_t seed)
{
    boids_rng rng = boids_rng_seeded(seed);
    const float v = d->params.base.max_speed;
    for (uint32_t i = 0; i < d->count; ++i) {
        memset(&b[i], 0, sizeof b[i]);
        b[i].x = boids_rng_float(&rng) * d->width, b[i].y = boids_rng_float(&rng) * d->height;
        const float a = boids_rng_float(&rng) * 6.2831853f;
        if (d->depth > 0) {
            b[i].z = boids_rng_float(&rng) * d->depth;
            const float z = 2 * boids_rng_float(&rng) - 1, h = sqrtf(1 - z * z);
            b[i].vx = v * h * cosf(a), b[i].vy = v * h * sinf(a), b[i].vz = v * z;
        } else {
            b[i].vx = v * cosf(a), b[i].vy = v * sinf(a);
        }
        b[i].swarm = i % (d->swarms ? d->swarms : 1);
        b[i].alive = 1;
    }
}

/* One step of d from b, on the backend of d: the boids after it in out. */
static inline void step_once(const boids_world_def *d, const boids_boid *b, boids_boid *out)
{
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(d, &w));
    REQUIRE_OK(boids_world_write(w, b, d->count));
    REQUIRE_OK(boids_world_step(w, 1));
    REQUIRE_OK(boids_world_read(w, out, d->count));
    boids_world_destroy(w);
}

/* qsort's comparison of doubles. */
static inline int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
