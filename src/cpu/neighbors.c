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

/* A lane's columns in a row: the block's 2 span + 1 cells along x, at most two ranges. Where the
 * row wraps and the boid is within the span of an end, the block runs over that end: its cells
 * at the row's high end come first in the canonical order (c - span to c + span, wrapped), then
 * those from column 0 (parts 0 and 1). Otherwise one range (cut at the row's ends where it does
 * not wrap, the whole row where the row has fewer cells than a block) in part `one`, the part the
 * group's other lanes use most. An empty part has a > b. (Scalars, not arrays indexed by the
 * part: those went through memory, and their stores and loads stalled each other.) */
typedef struct lane_columns {
    uint32_t a0, b0, a1, b1;
} lane_columns;
static inline lane_columns columns_of(const boids_grid_dims *d, uint32_t cx, uint32_t one)
{
    const uint32_t sp = d->span, w = d->w;
    if (w >= 2 * sp + 1 && d->wrap && (cx < sp || cx + sp >= w))
        return (lane_columns){cx < sp ? cx + w - sp : cx - sp, w - 1, 0,
                              cx < sp ? cx + sp : cx + sp - w};
    const uint32_t a = w < 2 * sp + 1 || cx < sp ? 0 : cx - sp,
                   b = w < 2 * sp + 1 || cx + sp >= w ? w - 1 : cx + sp;
    return one == 0 ? (lane_columns){a, b, 1, 0} : (lane_columns){1, 0, a, b};
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
    /* The first cell's row; the others must lie in it. One division where the world has one
     * replica (integer divisions were a tenth of a step; this runs once per group). */
    const uint32_t cpr = boids_grid_cells_per_replica(d), base = c0 < cpr ? 0 : c0 / cpr * cpr,
                   row_index = (c0 - base) / d->w, row_begin = base + row_index * d->w,
                   row_end = row_begin + d->w;
    /* a lane's one range goes in part 0 in the row's upper half (where the lanes that wrap have
     * their longer part), else in part 1 */
    const uint32_t one = 2 * (c0 - row_begin) >= d->w ? 0 : 1;
    /* each lane's columns, and each part's union over the lanes [lo, hi] */
    uint32_t a[2][BOIDS_GROUP_MAX], b[2][BOIDS_GROUP_MAX];
    uint32_t lo0 = UINT32_MAX, hi0 = 0, lo1 = UINT32_MAX, hi1 = 0;
    bool wraps = false;
    uint32_t n = 0;
    if (max > BOIDS_GROUP_MAX) max = BOIDS_GROUP_MAX;
    while (n < max && slot + n < end) {
        const uint32_t c = slot_cell[slot + n]; /* sorted: c >= c0 */
        if (c >= row_end || c - c0 > BOIDS_GROUP_SPAN) break;
        const lane_columns k = columns_of(d, c - row_begin, one);
        a[0][n] = k.a0, b[0][n] = k.b0, a[1][n] = k.a1, b[1][n] = k.b1;
        if (k.a0 <= k.b0) lo0 = k.a0 < lo0 ? k.a0 : lo0, hi0 = k.b0 > hi0 ? k.b0 : hi0;
        if (k.a1 <= k.b1) lo1 = k.a1 < lo1 ? k.a1 : lo1, hi1 = k.b1 > hi1 ? k.b1 : hi1;
        wraps |= k.a0 <= k.b0 && k.a1 <= k.b1;
        ++n;
    }
    const uint32_t lo[2] = {lo0, lo1}, hi[2] = {hi0, hi1};
    if (n < 2) return;
    const uint32_t cy = d->d == 1 ? row_index : row_index % d->h,
                   cz = d->d == 1 ? 0 : row_index / d->h;
    uint32_t rows[BOIDS_BLOCK_ROWS];
    const uint32_t nrows = boids_grid_rows_around(d, base, cy, cz, rows);
    /* Unwrapped: the world does not wrap (the offsets are plain anyway), or no lane's block wraps
     * along any axis and the columns, rows and layers it spans, a cell of margin added for
     * positions on a cell's edge, are at most half the world on each axis. */
    const uint32_t sp = d->span;
    const float span_w = (float)(hi[one] - lo[one] + 2) * d->cell_w,
                span_h = (float)(2 * sp + 2) * d->cell_h, span_d = (float)(2 * sp + 2) * d->cell_d;
    g->unwrapped =
        !d->wrap || (!wraps && cy >= sp && cy + sp < d->h && span_w <= s->sim->half_w &&
                     span_h <= s->sim->half_h &&
                     (d->d == 1 || (cz >= sp && cz + sp < d->d && span_d <= s->sim->half_d)));
    /* each row's parts, in the canonical order: the row's high end, then from column 0 */
    for (uint32_t j = 0; j < nrows; ++j) {
        const uint32_t *row = cs + rows[j];
        if (!wraps) { /* (most groups) one part, every lane in it */
            const uint32_t e = g->rows++;
            g->begin[e] = row[lo[one]];
            g->end[e] = row[hi[one] + 1];
            for (uint32_t l = 0; l < n; ++l) {
                g->own_begin[e][l] = row[a[one][l]];
                g->own_end[e][l] = row[b[one][l] + 1];
            }
            continue;
        }
        for (int p = 0; p < 2; ++p) {
            if (lo[p] > hi[p]) continue; /* no lane's block has this part */
            const uint32_t e = g->rows++;
            g->begin[e] = row[lo[p]];
            g->end[e] = row[hi[p] + 1];
            for (uint32_t l = 0; l < n; ++l) {
                const bool has = a[p][l] <= b[p][l];
                g->own_begin[e][l] = has ? row[a[p][l]] : 0;
                g->own_end[e][l] = has ? row[b[p][l] + 1] : 0;
            }
        }
    }
    g->lanes = n;
}
