/* Where a boid's candidates are (cpu/neighbors.c): the slot ranges of the block of cells around
 * it, on the boids' grid, the predators' or the obstacles', and the lane groups that walk theirs
 * together; and the obstacles' push. As the candidate walk of steer_common.glsl. */
#ifndef BOIDS_CPU_NEIGHBORS_H
#define BOIDS_CPU_NEIGHBORS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/step.h"

/* The candidate ranges [begin[r], end[r]) of one boid, r < count. */
typedef struct boids_cpu_ranges {
    uint32_t count;
    uint32_t begin[BOIDS_BLOCK_MAX], end[BOIDS_BLOCK_MAX];
} boids_cpu_ranges;

/* The slot ranges of the block of cells around `cell` on a grid of dims (cell_start as
 * boids_cpu_grid's): the canonical order, cells next to each other in memory merged. None for the
 * graveyard. */
void boids_cpu_ranges_near(const boids_grid_dims *dims, const uint32_t *cell_start, uint32_t cell,
                           boids_cpu_ranges *r);

/* Consecutive slots whose candidates can be walked together, one boid per SIMD lane: boids in
 * cells of one row of one replica (at most BOIDS_GROUP_SPAN cells apart). The walk covers, part
 * of a row by part, the union of their blocks' ranges, in the order each lane's own walk has: a
 * block that runs over the row's end (a torus, a boid within the span of an end) is two ranges
 * in each row, the cells at the row's high end first, then those from column 0, and each is a
 * part of its own. Lane l takes only the candidates of its own block, [own_begin[part][l],
 * own_end[part][l]), so it sees exactly its scalar walk's candidates in the scalar order (the
 * others add masked +0s, which leave its sums' bits alone). */
#define BOIDS_GROUP_MAX 8
#define BOIDS_GROUP_SPAN 3
#define BOIDS_GROUP_PARTS (2 * BOIDS_BLOCK_ROWS)
typedef struct boids_cpu_group {
    uint32_t lanes; /* slots in the group, from the first */
    uint32_t rows;  /* parts of cell rows walked (up to two a row of the block) */
    bool unwrapped; /* every candidate is less than half a world from every lane on
                       all axes: the minimum image would return the plain offsets
                       unchanged, so the walk may skip it (most groups) */
    /* A group that is not unwrapped, on a torus of unfolded cells with 2 span + 4 or more along
     * each axis, z too in a 3D world (a cell of margin each way): there the minimum image of a
     * lane's offset to any candidate of its own block in a part is the plain offset plus one shift,
     * the same for all of them: shift_x[part][lane] (a lane whose block runs over a row's end sees
     * the cells beyond that end a world's width away), shift_y[part] and shift_z[part] (the same
     * for every lane: they share a row). A walk that reads them (shifted) adds them where they are
     * not 0, the same sums as the minimum image's, with none of its compares; else it takes it. */
    bool shifted;
    float shift_x[BOIDS_GROUP_PARTS][BOIDS_GROUP_MAX], shift_y[BOIDS_GROUP_PARTS],
        shift_z[BOIDS_GROUP_PARTS];
    /* the union of the lanes' ranges in each part */
    uint32_t begin[BOIDS_GROUP_PARTS], end[BOIDS_GROUP_PARTS];
    uint32_t own_begin[BOIDS_GROUP_PARTS][BOIDS_GROUP_MAX],
        own_end[BOIDS_GROUP_PARTS][BOIDS_GROUP_MAX];
} boids_cpu_group;
/* Whether boids_cpu_group_at forms the rows of most groups on the SIMD lanes (default true); the
 * same groups either way, which test_grid holds by forming each both ways. */
extern bool boids_cpu_group_lanes_on;
/* The group that starts at slot (slots before `end`, at most `max` of them); lanes = 1 where the
 * slot's boid cannot share its walk (the caller then walks it alone). */
void boids_cpu_group_at(const boids_cpu_step *s, uint32_t slot, uint32_t end, uint32_t max,
                        boids_cpu_group *g);

/* The neighbour candidates of the boid in slot: the ranges around its cell (its replica's only). */
void boids_cpu_candidates(const boids_cpu_step *s, uint32_t slot, boids_cpu_ranges *r);

/* boids_cpu_ranges_near on a sparse grid that marks which blocks hold anyone (block_any, from
 * boids_grid_mark_blocks; NULL: not marked): none, at once, where the block is empty. */
static inline void boids_cpu_ranges_near_sparse(const boids_grid_dims *dims,
                                                const uint32_t *cell_start,
                                                const uint8_t *block_any, uint32_t cell,
                                                boids_cpu_ranges *r)
{
    if (block_any && !block_any[cell]) {
        r->count = 0;
        return;
    }
    boids_cpu_ranges_near(dims, cell_start, cell, r);
}

/* The predators' slot ranges around (x, y, z) in replica r, on their grid (models with predators;
 * most boids have none near; a flat world's grid ignores z). */
static inline void boids_cpu_predators_near(const boids_cpu_step *s, uint32_t replica, float x,
                                            float y, float z, boids_cpu_ranges *r)
{
    const boids_cpu_grid *g = s->pred_grid;
    boids_cpu_ranges_near_sparse(&g->dims, g->cell_start, g->block_any,
                                 boids_cell_of(&g->dims, replica, x, y, z), r);
}

/* The obstacles' slot ranges (in sim->obstacle_grid.sorted) around (x, y) in replica r (most
 * boids have none near). */
static inline void boids_cpu_obstacles_near(const boids_cpu_step *s, uint32_t replica, float x,
                                            float y, float z, boids_cpu_ranges *r)
{
    const boids_obstacle_grid *og = &s->sim->obstacle_grid;
    boids_cpu_ranges_near_sparse(&s->sim->grid, og->cell_start, og->block_any,
                                 boids_cell_of(&s->sim->grid, replica, x, y, z), r);
}

/* The push of the obstacles within `reach` of (x, y) in replica r (x, y, z in a 3D world, whose
 * obstacles are spheres; a flat world passes z = 0 and gets *pz = 0): the sum of the unit vectors
 * from their centres (eq. 4 of the kit paper without its factor), or with over_d2 of the offsets
 * from them over d^2 (the allocation models' "differences from stationary objects"). As
 * push_from() in neighbors.glsl. */
void boids_cpu_obstacle_push(const boids_cpu_step *s, uint32_t replica, float x, float y, float z,
                             float reach, bool over_d2, float *px, float *py, float *pz);

#endif
