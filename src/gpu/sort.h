/* The counting-sort spatial hash on the device, for any set of agents (boids or predators): the
 * four passes that put the agents of each grid cell into consecutive slots, in id order inside a
 * cell, so every later pass reads a cell's neighbours as one slot range.
 *
 *   grid_cell.comp  the cell of each agent (the graveyard for dead boids and, unless asked
 *                   otherwise, for the boids of stopped replicas), an atomic histogram whose
 *                   atomic gives each agent its rank among its cell's arrivals
 *   scan_blocks.comp  the histogram's exclusive prefix sum, in two dispatches for any number
 *   scan.comp         of cells: each block's total, the last block to finish scanning the
 *                     totals; then each block's own scan from its prefix, which zeroes the counts
 *                     behind it, ready for the next sort
 *   scatter.comp    each agent leaves its id at its cell's start plus its rank
 *   reorder.comp    the hot data moved into id order inside each cell (deterministic)
 *
 * Nothing the size of the grid is cleared in a sort: the counts are zeroed once when the grid is
 * made and by the scan after that, and the scan is the only pass whose work follows the cells. */
#ifndef BOIDS_GPU_SORT_H
#define BOIDS_GPU_SORT_H

#include <stdbool.h>

#include "boids.h"
#include "gl/gl.h"
#include "gl/timer.h"
#include "gpu/buffers.h"

/* A grid's per-cell buffers and scan plan. */
typedef struct boids_gpu_grid {
    uint32_t cells;  /* every replica's cells; the per-cell buffers hold one more: the
                        graveyard, so cell c's slots are [start[c], start[c + 1]) */
    uint32_t agents; /* the agents the per-agent buffers hold */
    /* per cell: cell_count (zero between sorts: the scan leaves it so), cell_start; per agent:
     * cell_of, cell_rank (its arrival in its cell), slot_id (the scatter's ids by slot) */
    GLuint cell_of, cell_rank, cell_count, cell_start, slot_id;
    GLuint scan_aux;      /* the scan's ticket counter, then a total (a prefix) per block */
    uint32_t scan_blocks; /* blocks of BOIDS_SCAN_BLOCK counts the scan's workgroups take */
} boids_gpu_grid;

/* Agents' hot data: vec4 position and velocity, a 3D world's vec2 (z, vz) in `depth` (0 in a
 * flat world: no block of a 2D program reads one), swarm (boids only, else 0) and id per
 * slot. Each a buffer of its own, none more than 16 bytes an agent (shaders/boids_shared.h). */
typedef struct boids_gpu_hot {
    GLuint pos_vel, depth, swarm, id;
} boids_gpu_hot;

/* Positions and velocities at `binding`, and a 3D world's depths (depth not 0) at binding_z. */
static inline void boids_gpu_bind_pos_vel(GLuint binding, GLuint binding_z, GLuint pos_vel,
                                          GLuint depth)
{
    boids_gpu_bind(binding, pos_vel);
    if (depth) boids_gpu_bind(binding_z, depth);
}

/* The sort's programs and their uniforms. */
typedef struct boids_gpu_sorter {
    GLuint prog_cell, prog_scan_blocks, prog_scan, prog_scatter, prog_reorder;
    GLint u_scan_blocks_n, u_scan_n; /* each scan program's u_n */
    struct {
        GLint cell, scatter, reorder;
    } u_agents; /* each program's u_agents: which agents it sorts */
    GLint u_keep_stopped;
} boids_gpu_sorter;

/* One sort: `count` agents (which: 0 boids, 1 predators) from `in` (any slot order) into `out` by
 * the cells of `grid` (the frame's dimensions). keep_stopped: the living boids of stopped
 * replicas keep their cells (the metrics) instead of going to the graveyard (the steps). */
typedef struct boids_gpu_sort_job {
    uint32_t which, count;
    boids_gpu_hot in, out;
    boids_gpu_grid *grid;
    bool keep_stopped;
} boids_gpu_sort_job;

/* The sort's programs, for a world of `dims` dimensions (a 3D world's cells and its z halves). */
boids_status boids_gpu_sorter_create(boids_gpu_sorter *s, int dims);
void boids_gpu_sorter_destroy(boids_gpu_sorter *s);

/* The per-cell buffers (the counts zeroed) and the scan plan of a grid of `cells`, and the
 * per-agent buffers for `agents` (each made anew where its size changes). */
boids_status boids_gpu_grid_make(boids_gpu_grid *g, uint32_t cells, uint32_t agents);
void boids_gpu_grid_free(boids_gpu_grid *g);
/* The bytes of the grid's buffers, asked of the driver. */
uint64_t boids_gpu_grid_bytes(const boids_gpu_grid *g);

/* One pass of the sort: BOIDS_PASS_GRID (each agent's cell, the histogram), SCAN, SCATTER or
 * REORDER (core/step.h), each ending in a barrier. */
void boids_gpu_sort_pass(const boids_gpu_sorter *s, const boids_gpu_sort_job *job, boids_pass pass);

/* The whole sort, its four passes in order. */
void boids_gpu_sort(const boids_gpu_sorter *s, const boids_gpu_sort_job *job);

#endif
