/* Obstacles beneath both backends: the random ones of a replica, and the obstacle grid, the
 * obstacles sorted by the cell of their centre on the boids' grid, so a boid finds the obstacles
 * near it in its block of cells like its neighbours (never a loop over all of them). Built on the
 * host when the obstacles change (they stand still); the GPU gets a copy. */
#ifndef BOIDS_CORE_OBSTACLES_H
#define BOIDS_CORE_OBSTACLES_H

#include "boids.h"
#include "core/geometry.h"
#include "core/rng.h"

typedef struct boids_obstacle_grid {
    uint32_t cells; /* as the boids' grid (every replica's cells) */
    uint32_t count;
    uint32_t *cell_start; /* [cells + 1]: cell c's obstacles are sorted[cell_start[c] ..
                             cell_start[c+1]) */
    float *sorted;      /* [4 count]: x, y, radius, z (0 in a flat world) of each obstacle, by cell,
                           then list order */
    uint8_t *block_any; /* [cells]: whether a cell's block holds an obstacle (most do not) */
} boids_obstacle_grid;

/* `count` random obstacles of replica r, from rng: centre uniform in the world, radius uniform in
 * [0, max_obstacle_size] (the kit paper's layout), in that order per obstacle (a 3D world's z
 * after them). */
void boids_obstacles_random(const boids_world_def *d, uint32_t replica, boids_rng *rng,
                            uint32_t count, boids_obstacle *out);
/* Checks a list against the world: finite, centre inside [0, W) x [0, H) (x [0, D) where depth
 * D > 0), radius in [0, 1e7], replica < replicas. Errors name the obstacle. */
boids_status boids_obstacles_validate(const boids_obstacle *list, size_t n, float width,
                                      float height, float depth, uint32_t replicas);
/* (Re)builds the grid of `list` for dims (frees the old one). */
boids_status boids_obstacle_grid_build(boids_obstacle_grid *g, const boids_grid_dims *dims,
                                       const boids_obstacle *list, uint32_t n);
void boids_obstacle_grid_free(boids_obstacle_grid *g);

#endif
