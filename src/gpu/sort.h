/* The counting-sort spatial hash on the device, for any set of agents (boids or predators): the
 * four passes that put the agents of each grid cell into consecutive slots, in id order inside a
 * cell, so every later pass reads a cell's neighbours as one slot range.
 *
 *   grid_cell.comp  the cell of each agent (the graveyard for dead boids and, unless asked
 *                   otherwise, for the boids of stopped replicas), an atomic histogram
 *   scan.comp       exclusive prefix sum of the histogram, level by level (scan_add.comp adds
 *                   each block's scanned total back), so any number of cells works
 *   scatter.comp    each agent takes a slot of its cell (atomic cursor) and leaves its id there
 *   reorder.comp    the hot data moved into id order inside each cell (deterministic) */
#ifndef BOIDS_GPU_SORT_H
#define BOIDS_GPU_SORT_H

#include <stdbool.h>

#include "boids.h"
#include "gpu/gl.h"
#include "gpu/timer.h"

#define BOIDS_GPU_MAX_SCAN_LEVELS 8

typedef struct boids_gpu_scan_level {
    uint32_t n;     /* values in this level */
    GLuint in, out; /* buffers: level 0 reads cell_count and writes cell_start */
    uint32_t in_off, out_off;
    uint32_t sums_off; /* where its block totals go in scan_aux (next level's values) */
} boids_gpu_scan_level;

/* A grid's per-cell buffers and scan plan. */
typedef struct boids_gpu_grid {
    uint32_t cells; /* every replica's cells; the per-cell buffers hold one more: the
                       graveyard, so cell c's slots are [start[c], start[c + 1]) */
    GLuint cell_of, cell_count, cell_start, cell_fill, slot_src, slot_id, scan_aux;
    boids_gpu_scan_level levels[BOIDS_GPU_MAX_SCAN_LEVELS];
    uint32_t level_count;
} boids_gpu_grid;

/* Agents' hot data: vec4 position and velocity, swarm (boids only, else 0) and id per slot. */
typedef struct boids_gpu_hot {
    GLuint pos_vel, swarm, id;
} boids_gpu_hot;

/* The sort's programs and their uniforms. */
typedef struct boids_gpu_sorter {
    GLuint prog_cell, prog_scan, prog_scan_add, prog_scatter, prog_reorder;
    GLint u_scan[5];   /* u_n, u_in_off, u_out_off, u_sums_off, u_write_sums */
    GLint u_add[3];    /* u_n, u_out_off, u_sums_off */
    GLint u_agents[3]; /* grid_cell, scatter, reorder: which agents */
    GLint u_keep_stopped;
} boids_gpu_sorter;

boids_status boids_gpu_sorter_create(boids_gpu_sorter *s);
void boids_gpu_sorter_destroy(boids_gpu_sorter *s);

/* The per-cell buffers and the scan plan of a grid of `cells` for `agents` (freed first if
 * present). */
boids_status boids_gpu_grid_make(boids_gpu_grid *g, uint32_t cells, uint32_t agents);
void boids_gpu_grid_free(boids_gpu_grid *g);

/* Sorts `count` agents (which: 0 boids, 1 predators) from `in` (any slot order) into `out` by the
 * cells of `grid` (the frame's dimensions). keep_stopped: the living boids of stopped replicas
 * keep their cells (the metrics) instead of going to the graveyard (the steps). Timed pass by
 * pass into timer if not NULL. */
void boids_gpu_sort(const boids_gpu_sorter *s, uint32_t which, uint32_t count, boids_gpu_hot in,
                    boids_gpu_grid *grid, boids_gpu_hot out, bool keep_stopped,
                    boids_gpu_timer *timer);

#endif
