#include "core/obstacles.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"

void boids_obstacles_random(const boids_world_def *d, uint32_t replica, boids_rng *rng,
                            uint32_t count, boids_obstacle *out)
{
    for (uint32_t i = 0; i < count; ++i) {
        float x = boids_rng_float(rng) * d->width, y = boids_rng_float(rng) * d->height;
        float r = boids_rng_float(rng) * d->params.obstacles.max_obstacle_size;
        /* a 3D world's z drawn last, so a flat world's obstacles are as before */
        float z = d->depth > 0.0f ? boids_wrap(boids_rng_float(rng) * d->depth, d->depth) : 0.0f;
        out[i] = (boids_obstacle){boids_wrap(x, d->width), boids_wrap(y, d->height), r, replica, z};
    }
}

boids_status boids_obstacles_validate(const boids_obstacle *list, size_t n, float width,
                                      float height, float depth, uint32_t replicas)
{
    char a[32], b[32], c[32], d[32];
    if (n > BOIDS_MAX_OBSTACLES)
        return boids_fail_key(BOIDS_E_DEF_OBSTACLE, "obstacles", "%zu obstacles: at most %u", n,
                              BOIDS_MAX_OBSTACLES);
    for (size_t i = 0; i < n; ++i) {
        const boids_obstacle *o = &list[i];
        if (!isfinite(o->x) || !isfinite(o->y) || o->x < 0 || o->y < 0 || o->x >= width ||
            o->y >= height)
            return boids_fail_index(BOIDS_E_DEF_OBSTACLE, i, "obstacle",
                                    "obstacle %zu: centre (%s, %s) is outside the world "
                                    "[0, %s) x [0, %s)",
                                    i, boids_float_text(o->x, a), boids_float_text(o->y, b),
                                    boids_float_text(width, c), boids_float_text(height, d));
        if (depth > 0 && isnan(o->z))
            return boids_fail_index(BOIDS_E_DEF_OBSTACLE, i, "obstacle",
                                    "obstacle %zu has no centre z: a 3D world's obstacle is "
                                    "X,Y,Z,R, a sphere",
                                    i);
        if (depth > 0 && (!isfinite(o->z) || o->z < 0 || o->z >= depth))
            return boids_fail_index(BOIDS_E_DEF_OBSTACLE, i, "obstacle",
                                    "obstacle %zu: centre z %s is outside the 3D world's [0, %s) "
                                    "(a 3D world's obstacle is X,Y,Z,R)",
                                    i, boids_float_text(o->z, a), boids_float_text(depth, c));
        if (!isfinite(o->radius) || o->radius < 0 || o->radius > 1e7f)
            return boids_fail_index(BOIDS_E_DEF_OBSTACLE, i, "obstacle",
                                    "obstacle %zu: radius %s is outside [0, 10000000]", i,
                                    boids_float_text(o->radius, a));
        if (o->replica >= replicas)
            return boids_fail_index(BOIDS_E_DEF_OBSTACLE, i, "obstacle",
                                    "obstacle %zu: replica %u is not below %u", i, o->replica,
                                    replicas);
    }
    return BOIDS_OK;
}

void boids_obstacle_grid_free(boids_obstacle_grid *g)
{
    free(g->cell_start);
    free(g->sorted);
    free(g->block_any);
    memset(g, 0, sizeof *g);
}

boids_status boids_obstacle_grid_build(boids_obstacle_grid *g, const boids_grid_dims *dims,
                                       const boids_obstacle *list, uint32_t n)
{
    boids_obstacle_grid_free(g);
    g->cells = boids_grid_cells(dims);
    g->count = n;
    g->cell_start = calloc((size_t)g->cells + 1, sizeof *g->cell_start);
    g->sorted = malloc(sizeof(float) * 4 * (n ? n : 1));
    g->block_any = malloc(g->cells ? g->cells : 1);
    uint32_t *cell = malloc(sizeof *cell * (n ? n : 1));
    if (!g->cell_start || !g->sorted || !g->block_any || !cell) {
        free(cell);
        boids_obstacle_grid_free(g);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u obstacles", n);
    }
    /* A stable counting sort: cell_start counts, then holds each cell's start. */
    for (uint32_t i = 0; i < n; ++i) {
        cell[i] = boids_cell_of(dims, list[i].replica, list[i].x, list[i].y,
                                dims->cell_d > 0 ? list[i].z : 0.0f);
        g->cell_start[cell[i] + 1]++;
    }
    for (uint32_t c = 0; c < g->cells; ++c) g->cell_start[c + 1] += g->cell_start[c];
    uint32_t *fill = calloc(g->cells ? g->cells : 1, sizeof *fill);
    if (!fill) {
        free(cell);
        boids_obstacle_grid_free(g);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u obstacles", n);
    }
    for (uint32_t i = 0; i < n; ++i) {
        float *o = &g->sorted[4 * (g->cell_start[cell[i]] + fill[cell[i]]++)];
        o[0] = list[i].x;
        o[1] = list[i].y;
        o[2] = list[i].radius;
        o[3] = dims->cell_d > 0 ? list[i].z : 0.0f; /* (cell_d: 0 in a flat world) */
    }
    free(fill);
    free(cell);
    boids_grid_mark_blocks(dims, g->cell_start, g->cells, g->block_any);
    return BOIDS_OK;
}
