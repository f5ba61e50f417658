/* The CPU reference's uniform grid: a counting sort of boids by cell (count, exclusive scan,
 * scatter), so each cell lists its boids in increasing id, the order the GPU also produces, and
 * neighbour sums run in the same order on both backends.
 *
 * The boids come as arrays in any order of ids (ids[k] is the id of entry k; NULL: entry k is
 * boid k), split into `parts` parts that are counted and scattered apart, one per thread. Each
 * cell's slots are then sorted by id (boids_cpu_grid_sort_cells), which makes the order the
 * entries came in, and the parts, irrelevant to the result. The CPU backend keeps its state in the
 * last step's cell order: the count reads it in order, the scatter writes each cell's slots nearly
 * in order, and the sort only moves each cell's few newcomers (an insertion). */
#ifndef BOIDS_CPU_GRID_H
#define BOIDS_CPU_GRID_H

#include "core/geometry.h"

/* Words past the end of cell_start and slot_cell: a lane group's most (BOIDS_GROUP_MAX). */
#define BOIDS_CPU_GRID_PAD 8u

typedef struct boids_cpu_grid {
    boids_grid_dims dims;
    uint32_t cells;       /* cells of every replica; cell `cells` is the graveyard (dead boids) */
    uint32_t capacity;    /* boids the arrays hold */
    uint32_t parts;       /* parts of the entries, counted and scattered apart */
    uint32_t *part_count; /* [parts][cells + 1] each part's boids per cell, then its cursor */
    uint32_t *cell_start; /* [cells + 2] exclusive prefix sum of the boids per cell (the
                             graveyard last): cell c holds the slots [cell_start[c],
                             cell_start[c + 1]); cell_start[cells] counts the living
                             (and BOIDS_CPU_GRID_PAD zeros past its end, as slot_cell) */
    uint32_t *cell_of;    /* [capacity] cell of each entry of the arrays counted */
    uint32_t *order;      /* [capacity] id of the boid in each sorted slot */
    uint32_t *src;        /* [capacity] the entry of the arrays counted that each slot holds */
    uint32_t *slot_cell;  /* [capacity] cell of each sorted slot (cell_of[order[k]], read in
                             order where the lane groups form), and BOIDS_CPU_GRID_PAD zeros
                             past its end: a vector of a lane group's cells or of a row's
                             starts loads whole there (cpu/neighbors.c's rows_lanes) */
    uint8_t *block_any;   /* [cells] or NULL: whether the block around each cell holds anyone
                             (boids_cpu_grid_track_blocks, boids_grid_mark_blocks) */
} boids_cpu_grid;

/* Whether the count of a flat world of one replica takes the SIMD lanes where AVX-512 does not
 * (default true): the same cells and counts either way, which test_grid holds. */
extern bool boids_cpu_count_lanes_on;

boids_status boids_cpu_grid_init(boids_cpu_grid *g, const boids_grid_dims *dims, uint32_t capacity,
                                 uint32_t parts);
void boids_cpu_grid_free(boids_cpu_grid *g);
/* Keeps block_any from the next build on: for a sparse grid (the predators'), where most blocks
 * are empty and a look-up can skip its ranges. */
boids_status boids_cpu_grid_track_blocks(boids_cpu_grid *g);
/* Sorts boids 0..n-1 at (x[id], y[id], z[id]) into cells (z NULL in a flat world): the phases
 * below in turn. */
void boids_cpu_grid_build(boids_cpu_grid *g, const float *x, const float *y, const float *z,
                          uint32_t n, uint32_t per_replica, const uint8_t *dead);
/* For the entries of one part (boids_pool_part_range of n into parts): the cell of entry k, boid id
 * = ids[k] (k where ids is NULL) at (x[k], y[k], z[k]) (z NULL: a flat world) in replica id /
 * per_replica (the graveyard where dead[id], if dead is not NULL), and the part's histogram of
 * boids per cell. Parts may be counted at the same time. */
void boids_cpu_grid_count(boids_cpu_grid *g, uint32_t part, const float *x, const float *y,
                          const float *z, const uint32_t *ids, uint32_t n, uint32_t per_replica,
                          const uint8_t *dead);
/* cell_start from the parts' histograms, and each part's first slot in each cell. */
void boids_cpu_grid_scan(boids_cpu_grid *g);
/* For the entries of one part: order (ids as given to the count), src (the entries) and
 * slot_cell. Parts may be scattered at the same time. Within a cell the part's entries keep their
 * order, after those of the parts before: ids ascend in each cell where the entries came in
 * ascending id; otherwise boids_cpu_grid_sort_cells sorts them. */
void boids_cpu_grid_scatter(boids_cpu_grid *g, uint32_t part, const uint32_t *ids, uint32_t n);
/* The slots [*from, *to) of the cells whose first slot lies in [begin, end) (begin < end <= the
 * boids scattered): the spans of ranges that tile the slots tile them too, each cell in one. */
void boids_cpu_grid_cell_span(const boids_cpu_grid *g, uint32_t begin, uint32_t end, uint32_t *from,
                              uint32_t *to);
/* Sorts the cells in slots [from, to) (whole cells, as boids_cpu_grid_cell_span gives) by id. */
void boids_cpu_grid_sort_cells(boids_cpu_grid *g, uint32_t from, uint32_t to);
/* Slots [from, to) of the arrays dst[0..n) from the entries they hold: dst[a][k] =
 * src[a][src_of_k], src_of_k being the grid's src[k] (the boids' data into the sorted order). */
void boids_cpu_grid_gather(const boids_cpu_grid *g, uint32_t from, uint32_t to, uint32_t n,
                           float *const dst[], const float *const src[]);

#endif
