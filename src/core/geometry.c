#include "core/geometry.h"

#include <string.h>

uint32_t boids_grid_max_cells(uint32_t count)
{
    uint64_t cap = 4ull * count;
    if (cap < (1u << 21)) cap = 1u << 21;
    if (cap > (1u << 28)) cap = 1u << 28;
    return (uint32_t)cap;
}

boids_grid_dims boids_grid_dims_for(float width, float height, float depth, float min_cell,
                                    float reach, uint32_t count, bool wrap, uint32_t replicas)
{
    boids_grid_dims g;
    /* Cells a hair larger than asked: the cell of a position is found with one rounded multiply,
     * which can put a boid sitting on a cell border one cell off (an error of about x * 2^-23 px),
     * and distances are compared in float; the margin keeps every neighbour within the radius
     * inside the block even then (two cells of the margin at span 2). */
    double cell = (double)min_cell * (1.0 + 1e-6) + fmax(fmax(width, height), depth) * 1e-6;
    double gw = floor(width / cell), gh = floor(height / cell),
           gd = depth > 0.0f ? floor(depth / cell) : 1;
    if (gw < 1) gw = 1;
    if (gh < 1) gh = 1;
    if (gd < 1) gd = 1;
    const double cap = boids_grid_max_cells(count);
    double fold = 1; /* fine cells a column (row, layer) of a folded grid holds */
    if (wrap) {
        /* A torus folds its cells onto the grid (boids_grid_dims' fine_w): the smallest fold
         * whose grid fits the cap, each axis by the fold or, shorter, onto one cell; the axis
         * then tiles with fold * floor(n / fold) cells, a hair larger than before. */
        const double n[3] = {gw, gh, gd};
        double cells = gw * gh * gd;
        while (cells * replicas > cap && (gw > 1 || gh > 1 || gd > 1)) {
            ++fold;
            gw = floor(n[0] / fmin(fold, n[0]));
            gh = floor(n[1] / fmin(fold, n[1]));
            gd = floor(n[2] / fmin(fold, n[2]));
            cells = gw * gh * gd;
        }
        g.fine_w = (uint32_t)(gw * fmin(fold, n[0]));
        g.fine_h = (uint32_t)(gh * fmin(fold, n[1]));
        g.fine_d = (uint32_t)(gd * fmin(fold, n[2]));
    } else {
        /* A box coarsens evenly until the cell count of every replica fits the cap (its edge
         * cells hold what strays beyond them, which a folded walk would not see). */
        while (gw * gh * gd * replicas > cap && (gw > 1 || gh > 1 || gd > 1)) {
            gw = fmax(1, floor(gw / 2));
            gh = fmax(1, floor(gh / 2));
            gd = fmax(1, floor(gd / 2));
        }
        g.fine_w = (uint32_t)gw, g.fine_h = (uint32_t)gh, g.fine_d = (uint32_t)gd;
    }
    g.w = (uint32_t)gw;
    g.h = (uint32_t)gh;
    g.d = (uint32_t)gd;
    g.replicas = replicas;
    g.wrap = wrap;
    g.cell_w = width / (float)g.fine_w;
    g.cell_h = height / (float)g.fine_h;
    /* The inverse, so each backend multiplies (never divides) to find a cell: same bits on both.
     * Cells are never smaller than `cell`: width / floor(width / cell) >= cell. */
    g.inv_cell_w = (float)g.fine_w / width;
    g.inv_cell_h = (float)g.fine_h / height;
    g.cell_d = depth > 0.0f ? depth / (float)g.fine_d : 0.0f;
    g.inv_cell_d = depth > 0.0f ? (float)g.fine_d / depth : 0.0f;
    /* (coarsened cells keep the span: larger cells only make the block reach farther) */
    g.span = min_cell >= reach ? 1 : 2;
    return g;
}

void boids_grid_mark_blocks(const boids_grid_dims *d, const uint32_t *cell_start, uint32_t cells,
                            uint8_t *block_any)
{
    memset(block_any, 0, cells);
    for (uint32_t c = 0; c < cells; ++c) {
        if (cell_start[c] == cell_start[c + 1]) continue;
        uint32_t block[BOIDS_BLOCK_MAX];
        const uint32_t n = boids_grid_block(d, c, block);
        for (uint32_t i = 0; i < n; ++i) block_any[block[i]] = 1;
    }
}
