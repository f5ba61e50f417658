#include "core/ring_grid.h"

#include <stdlib.h>
#include <string.h>

void boids_ring_grid_free(boids_ring_grid *g)
{
    free(g->start), free(g->order), free(g->pos), free(g->cell_of_boid);
    *g = (boids_ring_grid){0};
}

/* Room for n boids and `cells` cells (what the last build left is reused), and for their cells
 * unless the caller lends them. */
static bool ring_grid_reserve(boids_ring_grid *g, size_t n, size_t cells, bool own_cells)
{
    if (n > g->boids_cap) {
        free(g->order), free(g->pos), free(g->cell_of_boid);
        g->order = malloc(sizeof *g->order * n), g->pos = malloc(sizeof *g->pos * n);
        g->cell_of_boid = NULL;
        g->boids_cap = g->order && g->pos ? n : 0;
        if (!g->boids_cap) return false;
    }
    if (own_cells && !g->cell_of_boid &&
        !(g->cell_of_boid = malloc(sizeof *g->cell_of_boid * g->boids_cap)))
        return false;
    if (cells > g->cells_cap) {
        free(g->start);
        g->start = malloc(sizeof *g->start * (cells + 1));
        g->cells_cap = g->start ? cells : 0;
        if (!g->cells_cap) return false;
    }
    return true;
}

/* The grid's build, shared among the pool's threads without atomics (an atomic addition waits
 * for its cache miss, which serialised the scatter): each boid's cell is found in parallel;
 * then each thread counts, and later places, the boids of its own range of cells, reading every
 * boid's cell (a sequential 4 bytes a boid) and touching only its own. The counts split the
 * cells among the threads by equal shares of boids for the placing, and within a cell the boids
 * stay in id order, as one thread would place them. */
typedef struct grid_job {
    boids_ring_grid *g;
    const boids_flock_view *b;
    uint32_t n;
    uint32_t *cell;   /* boid -> cell */
    uint32_t *bounds; /* placing: part t's cells are [bounds[t], bounds[t + 1]) */
} grid_job;

static void cell_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const grid_job *j = ctx;
    boids_ring_grid *g = j->g;
    for (uint32_t i = begin; i < end; ++i) {
        int cx, cy, cz;
        boids_ring_cell(g, boids_ring_pos_of(j->b, i), &cx, &cy, &cz);
        j->cell[i] = boids_ring_index(g, cx, cy, cz);
    }
}

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    const grid_job *j = ctx;
    boids_ring_grid *g = j->g;
    uint32_t lo, hi;
    boids_pool_part_range((uint32_t)(g->gw * g->gh * g->gd), part, parts, &lo, &hi);
    for (uint32_t i = 0; i < j->n; ++i) {
        const uint32_t c = j->cell[i];
        if (c >= lo && c < hi) g->start[c + 1]++;
    }
}

/* The first cell whose first slot is at or after `slot`. */
static uint32_t first_cell_from(const boids_ring_grid *g, uint32_t slot)
{
    uint32_t lo = 0, hi = (uint32_t)(g->gw * g->gh * g->gd);
    while (lo < hi) {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (g->start[mid] < slot)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void place_part(void *ctx, uint32_t part, uint32_t parts)
{
    const grid_job *j = ctx;
    boids_ring_grid *g = j->g;
    (void)parts;
    const uint32_t lo = j->bounds[part], hi = j->bounds[part + 1];
    for (uint32_t i = 0; i < j->n; ++i) {
        const uint32_t c = j->cell[i];
        if (c < lo || c >= hi) continue;
        const uint32_t k = g->start[c]++; /* start[c] runs on to cell c's end */
        g->order[k] = i, g->pos[k] = boids_ring_pos_of(j->b, i);
    }
}

/* (a 3D world's layers at most 256 deep, so its cells stay within memory) */
bool boids_ring_grid_build(boids_ring_grid *g, const boids_flock_view *b, uint32_t n, float width,
                           float height, float depth, double cell, bool at_most, uint32_t *scratch,
                           boids_pool *pool)
{
    double (*round_cells)(double) = at_most ? ceil : floor;
    const double most = depth > 0 ? 256 : 4096;
    g->gw = (int)fmax(1, fmin(most, round_cells(width / cell)));
    g->gh = (int)fmax(1, fmin(most, round_cells(height / cell)));
    g->gd = depth > 0 ? (int)fmax(1, fmin(most, round_cells(depth / cell))) : 1;
    g->cw = (double)width / g->gw, g->ch = (double)height / g->gh;
    g->cd = depth > 0 ? (double)depth / g->gd : 1.0;
    const size_t cells = (size_t)g->gw * g->gh * g->gd;
    if (!ring_grid_reserve(g, n, cells, !scratch)) {
        boids_ring_grid_free(g);
        return false;
    }
    uint32_t *start = g->start;
    memset(start, 0, sizeof *start * (cells + 1));
    const uint32_t parts = (uint32_t)boids_pool_threads(pool);
    grid_job j = {g, b, n, scratch ? scratch : g->cell_of_boid,
                  malloc(sizeof *j.bounds * (parts + 1))};
    if (!j.bounds) {
        boids_ring_grid_free(g);
        return false;
    }
    boids_pool_run(pool, cell_chunk, &j, n);
    boids_pool_run_parts(pool, count_part, &j, n);
    for (size_t c = 0; c < cells; ++c) start[c + 1] += start[c];
    /* the cells whose first slot is in part t of the slots (found before start[] runs on) */
    for (uint32_t t = 0; t < parts; ++t) {
        uint32_t first, last;
        boids_pool_part_range(n, t, parts, &first, &last);
        j.bounds[t] = t == 0 ? 0 : first_cell_from(g, first);
    }
    j.bounds[parts] = (uint32_t)cells;
    boids_pool_run_parts(pool, place_part, &j, n);
    free(j.bounds);
    memmove(start + 1, start, sizeof *start * cells); /* each end is the next cell's start */
    start[0] = 0;
    return true;
}
