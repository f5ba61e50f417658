#include "core/init_state.h"

#include <math.h>

#include "core/attributes.h"
#include "core/geometry.h"
#include "core/rng.h"

void boids_init_uniform(const boids_world_def *d, boids_boid *b)
{
    boids_rng rng = boids_rng_seeded(d->seed);
    const float two_pi = 6.28318530717958647692f;
    const float vmin = d->params.base.min_speed, vmax = d->params.base.max_speed;
    for (uint32_t i = 0; i < d->count; ++i) {
        float x = boids_rng_float(&rng) * d->width;
        float y = boids_rng_float(&rng) * d->height;
        float a = boids_rng_float(&rng) * two_pi;
        float s = vmin + boids_rng_float(&rng) * (vmax - vmin);
        b[i].x = boids_wrap(x, d->width);
        b[i].y = boids_wrap(y, d->height);
        b[i].vx = s * cosf(a);
        b[i].vy = s * sinf(a);
        b[i].swarm = i % d->swarms;
        boids_boid_default_attrs(&b[i], 0, &d->params);
    }
}
