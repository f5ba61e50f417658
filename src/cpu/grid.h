/* The CPU reference's uniform grid: a counting sort of boids by cell (count, exclusive scan,
 * stable scatter), so each cell lists its boids in increasing id, the order the GPU also
 * produces, and neighbour sums run in the same order on both backends. */
#ifndef BOIDS_CPU_GRID_H
#define BOIDS_CPU_GRID_H

#include "core/world.h"

typedef struct boids_cpu_grid {
    boids_grid_dims dims;
    uint32_t cells;       /* dims.w * dims.h */
    uint32_t capacity;    /* boids the arrays hold */
    uint32_t *cell_count; /* [cells] boids per cell */
    uint32_t *cell_start; /* [cells + 1] exclusive prefix sum of cell_count */
    uint32_t *cell_of;    /* [capacity] cell of each boid, by id */
    uint32_t *order;      /* [capacity] id of the boid in each sorted slot */
} boids_cpu_grid;

boids_status boids_cpu_grid_init(boids_cpu_grid *g, const boids_grid_dims *dims, uint32_t capacity);
void boids_cpu_grid_free(boids_cpu_grid *g);
/* Sorts boids b[0..n) (id order) into cells. */
void boids_cpu_grid_build(boids_cpu_grid *g, const boids_boid *b, uint32_t n);

/* The distinct cells of the block around cell (cx, cy), in the canonical order both backends use:
 * rows bottom to top, cells left to right. A 3x3 block when the grid has 3 or more cells along
 * an axis, wrapped on a torus and cut at the edges otherwise; with 1 or 2 cells along an axis,
 * each of them once (a 3-wide block would visit a cell twice). Returns the number of cells
 * written to out (at most 9). */
static inline uint32_t boids_grid_axis(uint32_t c, uint32_t n, bool wrap, uint32_t out[3])
{
    uint32_t k = 0;
    if (n < 3) {
        for (; k < n; ++k) out[k] = k;
    } else if (wrap) {
        out[k++] = c == 0 ? n - 1 : c - 1;
        out[k++] = c;
        out[k++] = c + 1 == n ? 0 : c + 1;
    } else {
        if (c > 0) out[k++] = c - 1;
        out[k++] = c;
        if (c + 1 < n) out[k++] = c + 1;
    }
    return k;
}

static inline uint32_t boids_cpu_grid_block(const boids_grid_dims *d, uint32_t cx, uint32_t cy,
                                            uint32_t out[9])
{
    uint32_t xs[3], ys[3];
    uint32_t nx = boids_grid_axis(cx, d->w, d->wrap, xs), ny = boids_grid_axis(cy, d->h, d->wrap, ys);
    uint32_t n = 0;
    for (uint32_t j = 0; j < ny; ++j)
        for (uint32_t i = 0; i < nx; ++i) out[n++] = ys[j] * d->w + xs[i];
    return n;
}

/* Minimum-image offset from a to b along one wrapped axis of length size (half = size / 2). */
static inline float boids_min_image(float a, float b, float size, float half)
{
    float d = b - a;
    if (d > half) d -= size;
    else if (d < -half) d += size;
    return d;
}

#endif
