/* The CPU reference's uniform grid: a counting sort of boids by cell (count, exclusive scan,
 * scatter), so each cell lists its boids in increasing id, the order the GPU also produces, and
 * neighbour sums run in the same order on both backends.
 *
 * The boids come as arrays in any order of ids (ids[k] is the id of entry k; NULL: entry k is
 * boid k). The CPU backend keeps its state in the last step's cell order, so the count reads it
 * in order and the scatter writes each cell's slots nearly in order; the scatter then puts each
 * cell's few newcomers among its boids by id (an insertion, rarely more than a step or two). */
#ifndef BOIDS_CPU_GRID_H
#define BOIDS_CPU_GRID_H

#include "core/geometry.h"

typedef struct boids_cpu_grid {
    boids_grid_dims dims;
    uint32_t cells;       /* cells of every replica; cell `cells` is the graveyard (dead boids) */
    uint32_t capacity;    /* boids the arrays hold */
    uint32_t *cell_count; /* [cells + 1] boids per cell, the graveyard last */
    uint32_t *cell_start; /* [cells + 2] exclusive prefix sum of cell_count: cell c holds the
                             slots [cell_start[c], cell_start[c + 1]); cell_start[cells] counts
                             the living */
    uint32_t *cell_of;    /* [capacity] cell of each entry of the arrays counted */
    uint32_t *order;      /* [capacity] id of the boid in each sorted slot */
    uint32_t *src;        /* [capacity] the entry of the arrays counted that each slot holds */
    uint32_t *slot_cell;  /* [capacity] cell of each sorted slot (cell_of[order[k]], read in
                             order where the lane groups form) */
    uint8_t *block_any;   /* [cells] or NULL: whether the block around each cell holds anyone
                             (boids_cpu_grid_track_blocks, boids_grid_mark_blocks) */
} boids_cpu_grid;

boids_status boids_cpu_grid_init(boids_cpu_grid *g, const boids_grid_dims *dims, uint32_t capacity);
void boids_cpu_grid_free(boids_cpu_grid *g);
/* Keeps block_any from the next build on: for a sparse grid (the predators'), where most blocks
 * are empty and a look-up can skip its ranges. */
boids_status boids_cpu_grid_track_blocks(boids_cpu_grid *g);
/* Sorts boids 0..n-1 at (x[id], y[id]) into cells: the three phases below in turn. */
void boids_cpu_grid_build(boids_cpu_grid *g, const float *x, const float *y, uint32_t n, uint32_t per_replica,
                          const uint8_t *dead);
/* The cell of entry k of the arrays, boid id = ids[k] (k where ids is NULL) at (x[k], y[k]) in
 * replica id / per_replica (the graveyard where dead[id], if dead is not NULL), and the histogram
 * of boids per cell. */
void boids_cpu_grid_count(boids_cpu_grid *g, const float *x, const float *y, const uint32_t *ids, uint32_t n,
                          uint32_t per_replica, const uint8_t *dead);
/* cell_start: the exclusive prefix sum of the histogram. */
void boids_cpu_grid_scan(boids_cpu_grid *g);
/* order: the boids of each cell, ids ascending; src: the entries they came from; slot_cell: their
 * cells. ids as given to the count. */
void boids_cpu_grid_scatter(boids_cpu_grid *g, const uint32_t *ids, uint32_t n);

#endif
