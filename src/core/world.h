/* Internal view of a world: the resolved definition, the grid geometry both backends share, and
 * the backend behind a small table of functions. The app never includes this; tests may. */
#ifndef BOIDS_CORE_WORLD_H
#define BOIDS_CORE_WORLD_H

#include <math.h>

#include "boids.h"

/* Uniform grid over the (wrapped) world. Cells tile the world exactly and are at least as large
 * as the largest interaction radius, so every neighbour within range lies in the 3x3 block of
 * cells around a boid (minimum-image distances). */
typedef struct boids_grid_dims {
    uint32_t w, h;          /* cells along x and y, >= 1 */
    bool wrap;              /* the block of cells around a boid wraps at the edges (torus) */
    float cell_w, cell_h;   /* px */
    float inv_cell_w, inv_cell_h;
} boids_grid_dims;

/* Most cells a grid may have: bounded by the boid count so a tiny radius in a huge world cannot
 * ask for billions of cells (cells then grow, which stays correct), and by the GPU scan. */
uint32_t boids_grid_max_cells(uint32_t count);
/* Picks the grid for a world; min_cell is the smallest acceptable cell size in px (the largest
 * interaction radius); cells come out slightly larger, see the margin in world.c. */
boids_grid_dims boids_grid_dims_for(float width, float height, float min_cell, uint32_t count);

/* Cell of a position. Multiplies by the inverse cell size (never divides), so both backends get
 * the same cell bit for bit; clamps the last cell against rounding at x -> width. */
static inline uint32_t boids_cell_coord(float x, float inv_cell, uint32_t cells)
{
    float c = x * inv_cell;
    if (!(c >= 0.0f)) return 0; /* also catches NaN, which never enters the state anyway */
    uint32_t i = (uint32_t)c;
    return i < cells ? i : cells - 1;
}

typedef struct boids_backend_impl boids_backend_impl;
typedef struct boids_backend_vtable {
    boids_status (*step)(boids_world *w, uint32_t steps);
    void (*finish)(boids_world *w);
    boids_status (*read)(boids_world *w, boids_boid *out);       /* id order, count entries */
    boids_status (*write)(boids_world *w, const boids_boid *in); /* id order, validated */
    /* After def.params, tool or grid changed (grid_changed: the grid's dimensions too). */
    boids_status (*configure)(boids_world *w, bool grid_changed);
    void (*destroy)(boids_world *w);
} boids_backend_vtable;

struct boids_world {
    boids_world_def def;   /* resolved: width/height/cell_size filled, params validated */
    boids_grid_dims grid;
    boids_tool tool;       /* the mouse tool (kind NONE unless set) */
    uint64_t steps;
    const char *renderer;
    const boids_backend_vtable *vt;
    boids_backend_impl *impl;
};

/* Backend constructors: set w->vt, w->impl and w->renderer, or fail leaving them NULL. */
boids_status boids_cpu_backend_create(boids_world *w);
boids_status boids_gpu_backend_create(boids_world *w);

/* Where a boid ends up after moving to (x, y), by the world's edges (BOIDS_EDGES_*): wrapped
 * into [0, size) on a torus, left alone in a bounded box, Processing's borders() at r. */
static inline float boids_wrap(float x, float size);
static inline void boids_apply_edges(unsigned edges, float border_r, float w, float h, float *x, float *y)
{
    if (edges == BOIDS_EDGES_WRAP) {
        *x = boids_wrap(*x, w);
        *y = boids_wrap(*y, h);
    } else if (edges == BOIDS_EDGES_PROCESSING) {
        /* borders(), in the sketch's order */
        if (*x < -border_r) *x = w + border_r;
        if (*y < -border_r) *y = h + border_r;
        if (*x > w + border_r) *x = -border_r;
        if (*y > h + border_r) *y = -border_r;
    }
}

/* Keeps a coordinate inside [0, size): the wrap of the toroidal world, robust to any finite x. */
static inline float boids_wrap(float x, float size)
{
    if (x < 0.0f) x += size;
    else if (x >= size) x -= size;
    if (x < 0.0f || x >= size) { /* far outside, or x + size rounded up to size */
        x = x - size * floorf(x / size);
        if (!(x < size) || x < 0.0f) x = 0.0f;
    }
    return x;
}

#endif
