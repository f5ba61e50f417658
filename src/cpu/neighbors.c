#include "cpu/neighbors.h"

#include <math.h>

void boids_cpu_ranges_near(const boids_grid_dims *dims, const uint32_t *cell_start, uint32_t cell,
                           boids_cpu_ranges *r)
{
    r->count = 0;
    if (cell >= boids_grid_cells(dims)) return; /* the graveyard: a dead boid has no neighbours */
    uint32_t cells[BOIDS_BLOCK_MAX];
    uint32_t n = boids_grid_block(dims, cell, cells);
    /* Cells next to each other in memory become one range (the order is unchanged). */
    for (uint32_t k = 0; k < n; ++k) {
        if (k > 0 && cells[k] == cells[k - 1] + 1) {
            r->end[r->count - 1] = cell_start[cells[k] + 1];
        } else {
            r->begin[r->count] = cell_start[cells[k]];
            r->end[r->count] = cell_start[cells[k] + 1];
            r->count++;
        }
    }
}

void boids_cpu_candidates(const boids_cpu_step *s, uint32_t slot, boids_cpu_ranges *r)
{
    boids_cpu_ranges_near(&s->grid->dims, s->grid->cell_start, s->grid->slot_cell[slot], r);
}

void boids_cpu_obstacle_push(const boids_cpu_step *s, uint32_t replica, float x, float y, float z,
                             float reach, bool over_d2, float *px, float *py, float *pz)
{
    const boids_obstacle_grid *og = &s->sim->obstacle_grid;
    const boids_sim *sim = s->sim;
    const float r2 = reach * reach;
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    boids_cpu_ranges r;
    boids_cpu_obstacles_near(s, replica, x, y, sim->three ? z : 0.0f, &r);
    for (uint32_t q = 0; q < r.count; ++q)
        for (uint32_t k = r.begin[q]; k < r.end[q]; ++k) {
            const float *o = &og->sorted[4 * k]; /* x, y, radius, z */
            float dx = boids_min_image(x, o[0], sim->def.width, sim->half_w);
            float dy = boids_min_image(y, o[1], sim->def.height, sim->half_h);
            float dz = 0.0f, d2 = dx * dx + dy * dy;
            if (sim->three) { /* z's square added to y's first, as the rules' length2() */
                dz = boids_min_image(z, o[3], sim->def.depth, sim->half_d);
                d2 = dx * dx + (dy * dy + dz * dz);
            }
            if (!(d2 > 0.0f && d2 <= r2)) continue;
            float w = over_d2 ? d2 : sqrtf(d2);
            sx -= dx / w;
            sy -= dy / w;
            sz -= dz / w;
        }
    *px = sx;
    *py = sy;
    *pz = sz;
}

/* The x-cells of a block are plain (cx - span to cx + span, clipped at the row's ends, in that
 * order) where the row does not wrap, or the boid is not within the span of an end, or the row
 * has fewer than 2 span + 1 cells (then every block spans the whole row). */
static bool plain_row(const boids_grid_dims *d, uint32_t cx)
{
    return d->w < 2 * d->span + 1 || !d->wrap || (cx >= d->span && cx + d->span < d->w);
}

void boids_cpu_group_at(const boids_cpu_step *s, uint32_t slot, uint32_t end, uint32_t max,
                        boids_cpu_group *g)
{
    const boids_grid_dims *d = &s->grid->dims;
    const uint32_t *slot_cell = s->grid->slot_cell, *cs = s->grid->cell_start;
    const uint32_t cells = boids_grid_cells(d);
    g->lanes = 1;
    g->rows = 0;
    const uint32_t c0 = slot_cell[slot];
    if (c0 >= cells) return;
    /* The first cell's row; the others must lie in it (no division per lane: this runs once
     * per group, and integer divisions were a tenth of a step). */
    const uint32_t row_begin = c0 - c0 % d->w, row_end = row_begin + d->w;
    if (!plain_row(d, c0 - row_begin)) return;
    /* each lane's columns [a, b] (clipped at the row's ends); their union is [a[0], b[n - 1]] */
    uint32_t a[BOIDS_GROUP_MAX], b[BOIDS_GROUP_MAX];
    uint32_t n = 0;
    if (max > BOIDS_GROUP_MAX) max = BOIDS_GROUP_MAX;
    while (n < max && slot + n < end) {
        const uint32_t c = slot_cell[slot + n]; /* sorted: c >= c0 */
        if (c >= row_end || c - c0 > BOIDS_GROUP_SPAN || !plain_row(d, c - row_begin)) break;
        const uint32_t cx = c - row_begin, sp = d->span;
        a[n] = d->w < 2 * sp + 1 ? 0 : cx >= sp ? cx - sp : 0;
        b[n] = d->w < 2 * sp + 1 ? d->w - 1 : cx + sp < d->w ? cx + sp : d->w - 1;
        ++n;
    }
    if (n < 2) return;
    /* (one division for a flat world's row, as before its third dimension; two more in 3D) */
    const uint32_t cpr = boids_grid_cells_per_replica(d), base = c0 / cpr * cpr,
                   row_index = (row_begin - base) / d->w,
                   cy = d->d == 1 ? row_index : row_index % d->h,
                   cz = d->d == 1 ? 0 : row_index / d->h;
    uint32_t rows[BOIDS_BLOCK_ROWS];
    g->rows = boids_grid_rows_around(d, base, cy, cz, rows);
    /* Unwrapped: the world does not wrap (the offsets are plain anyway), or the block's rows and
     * layers do not wrap and the columns, rows and layers it spans, a cell of margin added for
     * positions on a cell's edge, are at most half the world on each axis. */
    const uint32_t sp = d->span;
    const float span_w = (float)(b[n - 1] - a[0] + 2) * d->cell_w,
                span_h = (float)(2 * sp + 2) * d->cell_h, span_d = (float)(2 * sp + 2) * d->cell_d;
    g->unwrapped =
        !d->wrap ||
        (cy >= sp && cy + sp < d->h && span_w <= s->sim->half_w && span_h <= s->sim->half_h &&
         (d->d == 1 || (cz >= sp && cz + sp < d->d && span_d <= s->sim->half_d)));
    for (uint32_t j = 0; j < g->rows; ++j) {
        const uint32_t *row = cs + rows[j];
        g->begin[j] = row[a[0]];
        g->end[j] = row[b[n - 1] + 1];
        for (uint32_t l = 0; l < n; ++l) {
            g->own_begin[j][l] = row[a[l]];
            g->own_end[j][l] = row[b[l] + 1];
        }
    }
    g->lanes = n;
}
