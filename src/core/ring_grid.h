/* A grid over one replica's boids for the exact searches of the flock measures (core/metrics.c,
 * core/field.c): double-precision offsets, the minimum image on a torus, cells searched in
 * squares (cubes in 3D) around a boid's own, out to a reach. Not the step's grid (cpu/grid.h),
 * whose cells follow the model's radius: these follow what is searched for. */
#ifndef BOIDS_CORE_RING_GRID_H
#define BOIDS_CORE_RING_GRID_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boids.h"
#include "base/thread_pool.h"
#include "core/flock_view.h"

/* An offset d along an axis of `size`, the minimum image where it wraps, in double. */
static inline double boids_wrap_delta(double d, double size, bool wrap)
{
    if (!wrap) return d;
    if (d > 0.5 * size)
        d -= size;
    else if (d < -0.5 * size)
        d += size;
    return d;
}

/* A grid over the living boids: cells of at least `cell` px (at_most: of at most), at most 4096
 * along an axis; the boids' positions copied into slots in cell order, so a cell's boids lie side
 * by side in memory (read in id order, each candidate was a cache miss). A slot's position is
 * one 8-byte record and the counts turn into the starts in place: placing a boid in random order
 * touches three cache lines, not six. */
typedef struct boids_ring_pos {
    float x, y, z; /* z: 0 in a flat world */
} boids_ring_pos;

/* A flat world's grid has one layer (gd = 1, its z all 0); a 3D world's, layers along z. */
typedef struct boids_ring_grid {
    int gw, gh, gd;
    double cw, ch, cd;
    uint32_t *start;        /* cell c's slots: [start[c], start[c + 1]) */
    uint32_t *order;        /* slot -> boid */
    boids_ring_pos *pos;    /* slot -> position */
    uint32_t *cell_of_boid; /* the build's: boid -> cell (where the caller lends none) */
    size_t boids_cap, cells_cap;
} boids_ring_grid;

void boids_ring_grid_free(boids_ring_grid *g);

/* Builds g over b[0..n) (their positions, in a width x height world, x depth where depth > 0):
 * cells of at least `cell` px (at_most: of at most), at most 4096 along an axis (256 in 3D); g's
 * memory reused from its last build. Within a cell the boids stay in index order, whatever the
 * pool's threads. scratch: n words the build may write (NULL: g's own). false: out of memory (g
 * freed). */
bool boids_ring_grid_build(boids_ring_grid *g, const boids_flock_view *b, uint32_t n, float width,
                           float height, float depth, double cell, bool at_most, uint32_t *scratch,
                           boids_pool *pool);

/* floor(c) clamped to [0, n - 1] (plain comparisons: fmin, fmax and floor are calls into libm
 * in a build for any x86-64, and the grids place a million boids). */
static inline int boids_ring_axis_cell(double c, int n)
{
    return c < 1.0 ? 0 : c >= n - 1 ? n - 1 : (int)c;
}

/* The cell of a position: boids outside a bounded world go in the edge cells (the ring search
 * stays exact: a ring's reach is measured from the cell, and outside boids are only farther). */
static inline void boids_ring_cell(const boids_ring_grid *g, boids_ring_pos p, int *cx, int *cy,
                                   int *cz)
{
    *cx = boids_ring_axis_cell(p.x / g->cw, g->gw);
    *cy = boids_ring_axis_cell(p.y / g->ch, g->gh);
    *cz = g->gd > 1 ? boids_ring_axis_cell(p.z / g->cd, g->gd) : 0;
}

/* The index of cell (x, y, z). */
static inline uint32_t boids_ring_index(const boids_ring_grid *g, int x, int y, int z)
{
    return (uint32_t)((z * g->gh + y) * g->gw + x);
}

static inline boids_ring_pos boids_ring_pos_of(const boids_flock_view *b, uint32_t i)
{
    return (boids_ring_pos){boids_view_at(b, b->x, i), boids_view_at(b, b->y, i),
                            boids_view_at(b, b->z, i)};
}

/* Cells [lo, hi] of an axis of n cells within r of cell c: one span, or two where a torus's span
 * crosses the seam; every cell once. A box's span is cut at its edges. Returns how many. */
static inline int boids_axis_spans(int c, int r, int n, bool wrap, int lo[2], int hi[2])
{
    if (!wrap || 2 * r + 1 >= n) {
        lo[0] = wrap || c - r < 0 ? 0 : c - r;
        hi[0] = wrap || c + r > n - 1 ? n - 1 : c + r;
        return 1;
    }
    lo[0] = c - r, hi[0] = c + r; /* 2r + 1 < n: at most one end is past the seam */
    if (lo[0] < 0) {
        lo[1] = lo[0] + n, hi[1] = n - 1, lo[0] = 0;
        return 2;
    }
    if (hi[0] >= n) {
        lo[1] = 0, hi[1] = hi[0] - n, hi[0] = n - 1;
        return 2;
    }
    return 1;
}

/* Whether the cells within r of c are every cell of the axis. */
static inline bool boids_axis_covered(int c, int r, int n, bool wrap)
{
    return wrap ? 2 * r + 1 >= n : c - r <= 0 && c + r >= n - 1;
}

/* How far a boid at `pos` (its cell c on an axis of n cells of `cell` px) is from the cells
 * outside the square of half-size r along that axis: from the square's borders, less a
 * millionth of a cell (a boid's cell is floor(pos / cell) in double: one rounding, far less
 * than that); +infinity on a side where a box has no cell beyond. (A boid in an edge cell from
 * outside a box is farther from the rest than its cell, which only adds to the margin.) */
static inline double boids_side_reach(double pos, int c, int r, int n, double cell, bool wrap)
{
    const double below = wrap || c - r > 0 ? pos - (double)(c - r) * cell : INFINITY;
    const double above = wrap || c + r < n - 1 ? (double)(c + r + 1) * cell - pos : INFINITY;
    return (below < above ? below : above) - 1e-6 * cell;
}

/* The slots of the cells within reach[a] cells of cell c along each axis a (one layer in a flat
 * grid), row by row: visit(ctx, begin, end) once per row's range of slots (two ranges across a
 * torus's seam; rows as wide as the grid, one range together), so no cell is read twice and a
 * boid far from the rest costs a few reads per row, not per cell. (Inline: with visit known at
 * the call, the compiler calls it directly, in the measures' hot loops.) */
static inline void boids_ring_square(const boids_ring_grid *g, const int c[3], const int reach[3],
                                     bool wrap, void (*visit)(void *ctx, uint32_t, uint32_t),
                                     void *ctx)
{
    int xl[2], xh[2], yl[2], yh[2], zl[2] = {0, 0}, zh[2] = {0, 0};
    const int nx = boids_axis_spans(c[0], reach[0], g->gw, wrap, xl, xh);
    const int ny = boids_axis_spans(c[1], reach[1], g->gh, wrap, yl, yh);
    const int nz = g->gd > 1 ? boids_axis_spans(c[2], reach[2], g->gd, wrap, zl, zh) : 1;
    const bool full = nx == 1 && xl[0] == 0 && xh[0] == g->gw - 1;
    for (int p = 0; p < nz; ++p)
        for (int z = zl[p]; z <= zh[p]; ++z)
            for (int q = 0; q < ny; ++q)
                for (int y = yl[q]; y <= yh[q]; ++y) {
                    const int last = full ? yh[q] : y;
                    for (int s = 0; s < nx; ++s)
                        visit(ctx, g->start[boids_ring_index(g, xl[s], y, z)],
                              g->start[boids_ring_index(g, xh[s], last, z) + 1]);
                    y = last;
                }
}

/* Whether a search in squares of half-size 1, 2, 4, ... cells around cell c (a boid at pos) is
 * over after the square of half-size r: it holds every cell, or what is still wanted lies within
 * sqrt(bound2) of the boid, nearer than any cell outside the square (flat: along x and y). */
static inline bool boids_ring_search_done(const boids_ring_grid *g, const int c[3], int r,
                                          boids_ring_pos pos, bool wrap, bool flat, double bound2)
{
    if (boids_axis_covered(c[0], r, g->gw, wrap) && boids_axis_covered(c[1], r, g->gh, wrap) &&
        (flat || boids_axis_covered(c[2], r, g->gd, wrap)))
        return true;
    double reach = fmin(boids_side_reach(pos.x, c[0], r, g->gw, g->cw, wrap),
                        boids_side_reach(pos.y, c[1], r, g->gh, g->ch, wrap));
    if (!flat) reach = fmin(reach, boids_side_reach(pos.z, c[2], r, g->gd, g->cd, wrap));
    return reach * reach >= bound2;
}

/* Cells within `radius` along an axis of n cells of `cell` px: at most the axis (a span wider
 * than it reads it whole, boids_axis_spans). */
static inline int boids_reach_of(double radius, double cell, int n)
{
    const double r = ceil(radius / cell);
    return r < n ? (int)r : n;
}

#endif
