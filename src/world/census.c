#include "boids.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"
#include "cpu/grid.h"
#include "world/world.h"

/* The squared distance from boid a to boid b, minimum image where the world wraps. */
static float distance2(const boids_sim *s, const float *x, const float *y, const float *z,
                       uint32_t a, uint32_t b)
{
    const float dx = boids_min_image(x[a], x[b], s->def.width, s->half_w);
    const float dy = boids_min_image(y[a], y[b], s->def.height, s->half_h);
    const float dz = z ? boids_min_image(z[a], z[b], s->def.depth, s->half_d) : 0.0f;
    return dx * dx + dy * dy + dz * dz;
}

static void count(const boids_sim *s, const boids_cpu_grid *g, const float *x, const float *y,
                  const float *z, boids_census *out)
{
    const float r2 = out->radius * out->radius;
    uint64_t candidates = 0, neighbours = 0;
    const uint32_t living = g->cell_start[g->cells];
    for (uint32_t k = 0; k < living; ++k) { /* the slots in cell order: the living only */
        const uint32_t me = g->order[k];
        uint32_t block[BOIDS_BLOCK_MAX];
        const uint32_t cells = boids_grid_block(&g->dims, g->slot_cell[k], block);
        for (uint32_t i = 0; i < cells; ++i)
            for (uint32_t t = g->cell_start[block[i]]; t < g->cell_start[block[i] + 1]; ++t) {
                ++candidates;
                const uint32_t other = g->order[t];
                neighbours += other != me && distance2(s, x, y, z, me, other) <= r2;
            }
    }
    out->living = living;
    out->candidates = living ? (double)candidates / living : 0.0;
    out->neighbours = living ? (double)neighbours / living : 0.0;
}

boids_status boids_world_census(boids_world *w, boids_census *out)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    if (!out) return boids_fail_null("out");
    *out = (boids_census){0};
    const boids_sim *s = &w->sim;
    const uint32_t n = s->def.count;
    out->radius = boids_params_max_radius(s->def.model, &s->def.params, false);
    if (w->ops->device_bytes) out->device_bytes = w->ops->device_bytes(w->impl);
    boids_boid *state = malloc(sizeof *state * (n ? n : 1));
    float *xyz = malloc(sizeof(float) * 3 * (n ? n : 1));
    uint8_t *dead = malloc(n ? n : 1);
    boids_cpu_grid g = {0};
    boids_status st =
        state && xyz && dead
            ? BOIDS_OK
            : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for a census of %u boids", n);
    if (st == BOIDS_OK) st = boids_world_read(w, state, n);
    if (st == BOIDS_OK) st = boids_cpu_grid_init(&g, &s->grid, n, 1);
    if (st == BOIDS_OK) {
        float *x = xyz, *y = xyz + n, *z = xyz + 2 * (size_t)n;
        const bool alive = s->attributes & (1u << BOIDS_ATTR_ALIVE);
        for (uint32_t i = 0; i < n; ++i) {
            x[i] = state[i].x, y[i] = state[i].y, z[i] = state[i].z;
            dead[i] = alive && !state[i].alive;
        }
        boids_cpu_grid_build(&g, x, y, s->three ? z : NULL, n, s->per_replica, dead);
        count(s, &g, x, y, s->three ? z : NULL, out);
    }
    boids_cpu_grid_free(&g);
    free(state), free(xyz), free(dead);
    return st;
}
