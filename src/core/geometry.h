/* The world's geometry, beneath both backends: the uniform grid (its dimensions, the cell of a
 * position, the block of cells around a cell in the canonical order), minimum-image offsets and
 * what the edges do to a boid that moved. The CPU reference uses these functions; the shaders
 * carry the same arithmetic (shaders/common.glsl, steer_common.glsl), so both get the same cells
 * and offsets bit for bit. */
#ifndef BOIDS_CORE_GEOMETRY_H
#define BOIDS_CORE_GEOMETRY_H

#include <math.h>

#include "boids.h"

/* Uniform grid over the (wrapped) world. Cells tile the world exactly and are at least as large
 * as the largest interaction radius divided by the span, so every neighbour within range lies in
 * the block of cells around a boid (minimum-image distances). */
typedef struct boids_grid_dims {
    uint32_t w, h;        /* cells along x and y of one replica's world, >= 1 */
    uint32_t d;           /* cells along z: 1 in a flat world, whose one layer is the grid */
    uint32_t replicas;    /* independent copies of the world, each with its w x h x d cells:
                             cell r * w * h * d + ((cz * h + cy) * w + cx) of replica r; cell
                             replicas * w * h * d is the graveyard, where dead boids go, in
                             nobody's block */
    bool wrap;            /* the block of cells around a boid wraps at the edges (torus) */
    float cell_w, cell_h; /* px */
    float inv_cell_w, inv_cell_h;
    float cell_d, inv_cell_d; /* px along z; 0 in a flat world (every z is layer 0) */
    /* cells a walk reaches beyond its own along each axis: 1 where cells are at least the
     * largest interaction radius (blocks of 3 cells an axis), 2 where they are at least half of
     * it (blocks of 5: the same reach in a smaller volume, 6.25 r^2 against 9 r^2 in 2D) */
    uint32_t span;
    /* A folded grid: the cells along x that tile the world, fine_w of them, share the grid's w
     * columns, cell i in column i mod w (so for y and z). Where a torus has more cells of the
     * radius than the cap allows (a flock in a world many times its size: open space), its cells
     * keep the radius and fold onto the grid, rather than grow: a walk's block of columns around
     * column i mod w holds cells i - span .. i + span, and the cells that share them lie a
     * whole fold away, beyond every radius, or every column is in the block (w < 2 span + 1),
     * so the walks stay exact. A compact flock narrower than w cells has its own columns: its
     * walks read what an unfolded grid's would. fine_w = w (no fold) elsewhere. */
    uint32_t fine_w, fine_h, fine_d;
} boids_grid_dims;

/* Most cells a grid may have: 4 per boid (at least 2^21), so a tiny radius in a huge world cannot
 * ask for billions of cells (cells then grow in a box and fold on a torus: both stay correct)
 * and the per-cell arrays (4 bytes a cell each) never outgrow the boids' positions (16 bytes a
 * boid): a world whose boids fit one storage block has room for its cells. At most 2^28 (1 GiB a
 * cell array, within the 2 GiB block NVIDIA's GL gives): 10^8 boids at the default density keep
 * their cells of the radius (4 * 10^7 of them) where the cap of 2^24 before coarsened them past
 * about 42 million boids. */
uint32_t boids_grid_max_cells(uint32_t count);
/* Picks the grid for a world of `replicas` copies, flat where depth is 0; min_cell is the
 * smallest acceptable cell size in px, at least half of reach, the largest interaction radius
 * (the span is 1 where min_cell >= reach, else 2); cells come out slightly larger, see the margin
 * in geometry.c. */
boids_grid_dims boids_grid_dims_for(float width, float height, float depth, float min_cell,
                                    float reach, uint32_t count, bool wrap, uint32_t replicas);

/* Cells of one replica, and of all (the graveyard's index). */
static inline uint32_t boids_grid_cells_per_replica(const boids_grid_dims *d)
{
    return d->w * d->h * d->d;
}
static inline uint32_t boids_grid_cells(const boids_grid_dims *d)
{
    return d->replicas * boids_grid_cells_per_replica(d);
}

/* Cell of a position along an axis of `fine` cells. Multiplies by the inverse cell size (never
 * divides), so both backends get the same cell bit for bit; positions outside the world (a
 * bounded world lets boids stray) go to the edge cells, as does x -> width rounding up. The
 * float is compared before the conversion, so no position, however far, converts out of
 * range. */
static inline uint32_t boids_fine_coord(float x, float inv_cell, uint32_t fine)
{
    float c = x * inv_cell;
    if (!(c >= 0.0f)) return 0; /* also catches NaN, which never enters the state anyway */
    if (c >= (float)fine) return fine - 1;
    uint32_t i = (uint32_t)c;
    return i < fine ? i : fine - 1;
}

/* The grid's column (row, layer) of a position: its cell's, folded onto the `cells` of the grid
 * (no division where the grid is not folded). */
static inline uint32_t boids_cell_coord(float x, float inv_cell, uint32_t fine, uint32_t cells)
{
    const uint32_t i = boids_fine_coord(x, inv_cell, fine);
    return i < cells ? i : i % cells;
}

/* The cell of a position in replica r (z is 0 in a flat world, whose one layer it finds). */
static inline uint32_t boids_cell_of(const boids_grid_dims *d, uint32_t replica, float x, float y,
                                     float z)
{
    const uint32_t layer = d->d > 1 ? boids_cell_coord(z, d->inv_cell_d, d->fine_d, d->d) : 0;
    return replica * boids_grid_cells_per_replica(d) +
           (layer * d->h + boids_cell_coord(y, d->inv_cell_h, d->fine_h, d->h)) * d->w +
           boids_cell_coord(x, d->inv_cell_w, d->fine_w, d->w);
}

/* The distinct cells of the block around cell (cx, cy, cz), in the canonical order both backends
 * use: layers front to back (z up), in each its rows bottom to top, in each its cells left to
 * right. 2 span + 1 cells along each axis (c - span to c + span) when the grid has that many or
 * more along it, wrapped on a torus and cut at the edges otherwise; with fewer along an axis,
 * each of them once (a wider block would visit a cell twice). A flat world has one layer: its
 * blocks are 3x3 (5x5 at span 2). Returns the number of cells written to out (at most
 * BOIDS_BLOCK_MAX). */
#define BOIDS_SPAN_MAX 2
#define BOIDS_AXIS_MAX (2 * BOIDS_SPAN_MAX + 1)            /* cells of a block along an axis */
#define BOIDS_BLOCK_ROWS (BOIDS_AXIS_MAX * BOIDS_AXIS_MAX) /* rows a block spans, its layers' */
#define BOIDS_BLOCK_MAX (BOIDS_BLOCK_ROWS * BOIDS_AXIS_MAX)
static inline uint32_t boids_grid_axis(uint32_t c, uint32_t n, bool wrap, uint32_t span,
                                       uint32_t out[BOIDS_AXIS_MAX])
{
    uint32_t k = 0;
    if (n < 2 * span + 1) {
        for (; k < n; ++k) out[k] = k;
    } else if (wrap) {
        for (uint32_t o = 0; o <= 2 * span; ++o) { /* c - span + o, wrapped without a division */
            const uint32_t v = c + o;
            out[k++] = v < span ? v + n - span : v - span >= n ? v - span - n : v - span;
        }
    } else {
        const uint32_t lo = c >= span ? c - span : 0, hi = c + span < n ? c + span : n - 1;
        for (uint32_t v = lo; v <= hi; ++v) out[k++] = v;
    }
    return k;
}

/* The rows of the block around row cy of layer cz of the replica whose first cell is base, in the
 * canonical order: the cell that starts each (at column 0) in row_base. No division (the hot
 * walks call it per group of boids). Returns the number of rows (at most BOIDS_BLOCK_ROWS). */
static inline uint32_t boids_grid_rows_around(const boids_grid_dims *d, uint32_t base, uint32_t cy,
                                              uint32_t cz, uint32_t row_base[BOIDS_BLOCK_ROWS])
{
    uint32_t ys[BOIDS_AXIS_MAX], zs[BOIDS_AXIS_MAX] = {0};
    const uint32_t ny = boids_grid_axis(cy, d->h, d->wrap, d->span, ys),
                   nz = d->d == 1 ? 1 : boids_grid_axis(cz, d->d, d->wrap, d->span, zs);
    uint32_t n = 0;
    for (uint32_t k = 0; k < nz; ++k)
        for (uint32_t j = 0; j < ny; ++j) row_base[n++] = base + (zs[k] * d->h + ys[j]) * d->w;
    return n;
}

/* The rows of the block around cell c (a cell of any replica: the block stays in c's replica),
 * as boids_grid_rows_around gives them, and the block's columns xs[0..*nx). */
static inline uint32_t boids_grid_block_rows(const boids_grid_dims *d, uint32_t c,
                                             uint32_t row_base[BOIDS_BLOCK_ROWS],
                                             uint32_t xs[BOIDS_AXIS_MAX], uint32_t *nx)
{
    const uint32_t cpr = boids_grid_cells_per_replica(d), base = c / cpr * cpr, local = c - base;
    const uint32_t row = local / d->w;
    *nx = boids_grid_axis(local - row * d->w, d->w, d->wrap, d->span, xs);
    return d->d == 1 ? boids_grid_rows_around(d, base, row, 0, row_base)
                     : boids_grid_rows_around(d, base, row % d->h, row / d->h, row_base);
}

/* The block around cell c, cell by cell. */
static inline uint32_t boids_grid_block(const boids_grid_dims *d, uint32_t c,
                                        uint32_t out[BOIDS_BLOCK_MAX])
{
    uint32_t rows[BOIDS_BLOCK_ROWS], xs[BOIDS_AXIS_MAX], nx;
    const uint32_t nr = boids_grid_block_rows(d, c, rows, xs, &nx);
    uint32_t n = 0;
    for (uint32_t j = 0; j < nr; ++j)
        for (uint32_t i = 0; i < nx; ++i) out[n++] = rows[j] + xs[i];
    return n;
}

/* block_any[c] for every cell c of dims (`cells` of them): whether c's block holds an occupied
 * cell, one with cell_start[k] < cell_start[k + 1]. For a sparse grid (predators, obstacles),
 * whose look-ups can then skip an empty block at once. The blocks are symmetric (each is every
 * cell within the span along each axis, on the torus or cut at the edges: c is in k's block
 * exactly when k is in c's), so this marks the occupied cells' blocks. */
void boids_grid_mark_blocks(const boids_grid_dims *d, const uint32_t *cell_start, uint32_t cells,
                            uint8_t *block_any);

/* Offset from a to b along an axis of length size: minimum-image where half = size / 2; plain
 * where the world does not wrap, which callers express as half = +infinity (so the neighbour loop
 * never branches on the edges; the shaders do the same with frame.half_w). */
static inline float boids_min_image(float a, float b, float size, float half)
{
    float d = b - a;
    if (d > half)
        d -= size;
    else if (d < -half)
        d += size;
    return d;
}

/* Keeps a coordinate inside [0, size): the wrap of the toroidal world, robust to any finite x. */
static inline float boids_wrap(float x, float size)
{
    if (x < 0.0f)
        x += size;
    else if (x >= size)
        x -= size;
    if (x < 0.0f || x >= size) { /* far outside, or x + size rounded up to size */
        x = x - size * floorf(x / size);
        if (!(x < size) || x < 0.0f) x = 0.0f;
    }
    return x;
}

#endif
