/* What the tests that hold a model against its paper's equations share (test_vicsek,
 * test_couzin): its oracle's step (src/models/<folder>/oracle.c, with its vectors of doubles, the
 * minimum image and the rules' own noise draws: models/oracle.h), a random state at one speed, one
 * step of a world, and a sort of doubles. */
#ifndef BOIDS_TEST_ORACLE_H
#define BOIDS_TEST_ORACLE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "models/oracle.h"
#include "test.h"

static const boids_backend backends[2] = {BOIDS_BACKEND_CPU, BOIDS_BACKEND_GPU};
static const char *const names[2] = {"cpu", "gpu"};
static const double PI = 3.14159265358979324;

/* A world of model m's preset parameters on backend be: n boids in an L-box (depth D, 0: flat),
 * wrapping, seeded `seed`. */
static inline boids_world_def preset_def(boids_backend be, boids_model m, uint32_t n, float L,
                                         float D, uint64_t seed)
{
    boids_world_def d = test_def(be, n);
    d.model = m;
    d.params = boids_model_default_params(m);
    d.width = d.height = L;
    d.depth = D;
    d.seed = seed;
    return d;
}

/* d's world as its model's oracle sees it, over the boids b before the step. */
static inline boids_oracle_world oracle_world(const boids_world_def *d, const boids_boid *b)
{
    const bool per_second = boids_model_time_base(d->model) == BOIDS_TIME_PER_SECOND;
    return (boids_oracle_world){.model = d->model,
                                .params = &d->params,
                                .width = d->width,
                                .height = d->height,
                                .depth = d->depth,
                                .dt = per_second ? d->dt : 1,
                                .seed = d->seed,
                                .nearest = d->nearest,
                                .boids = b,
                                .count = d->count,
                                .obstacles = d->obstacles,
                                .obstacle_count = d->obstacle_count};
}

/* Boid i's velocity after one step of d from b, by its model's oracle (src/models/<folder>/
 * oracle.c); *near where it stands at a branch's edge (NULL: not asked). */
static inline boids_d3 oracle_velocity(const boids_world_def *d, const boids_boid *b, uint32_t i,
                                       bool *near)
{
    const boids_oracle *o = boids_oracle_of(d->model);
    if (!o) {
        CHECK_MSG(0, "no oracle for %s", boids_model_name(d->model));
        return boids_d3_of(0, 0, 0);
    }
    const boids_oracle_world w = oracle_world(d, b);
    const boids_boid e = o->step(&w, i, near);
    return boids_oracle_velocity(&e);
}

/* The worst errors of a step of d from b (out: the boids after it) against its model's oracle:
 * the velocity's (*worst_v) and the move's (*worst_p: x + dt v, dt 1 for a frame-based model,
 * through the wrap); the boids the oracle finds at a branch's edge within rounding are left out,
 * and counted (the return). */
static inline uint32_t oracle_step_errors(const boids_world_def *d, const boids_boid *b,
                                          const boids_boid *out, double *worst_v, double *worst_p)
{
    const double dt = oracle_world(d, b).dt;
    uint32_t skipped = 0;
    *worst_v = *worst_p = 0;
    for (uint32_t i = 0; i < d->count; ++i) {
        bool near = false;
        const boids_d3 e = oracle_velocity(d, b, i, &near);
        if (near) {
            ++skipped;
            continue;
        }
        *worst_v = fmax(
            *worst_v, boids_d3_len(boids_d3_of(out[i].vx - e.x, out[i].vy - e.y, out[i].vz - e.z)));
        *worst_p = fmax(
            *worst_p,
            boids_d3_len(boids_d3_of(
                boids_oracle_wrap(out[i].x - (b[i].x + dt * e.x), d->width),
                boids_oracle_wrap(out[i].y - (b[i].y + dt * e.y), d->height),
                d->depth > 0 ? boids_oracle_wrap(out[i].z - (b[i].z + dt * e.z), d->depth) : 0)));
    }
    return skipped;
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
