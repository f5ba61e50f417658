#include "cpu/neighbors.h"

#include <math.h>

#include "rules/simd.h"

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

/* Whether a group's candidates are all less than half a world from each of its lanes
 * (boids_cpu_group's `unwrapped`): the world does not wrap, or no lane's block wraps along any
 * axis and the columns [lo, hi], rows and layers it spans, a cell of margin added for positions on
 * a cell's edge, are at most half the world on each axis. (A 3D world of one layer is never
 * unwrapped: its boids' z wraps within the layer.) */
static bool group_unwrapped(const boids_cpu_step *s, bool wraps, uint32_t lo, uint32_t hi,
                            uint32_t cy, uint32_t cz)
{
    const boids_grid_dims *d = &s->grid->dims;
    const uint32_t sp = d->span;
    const float span_w = (float)(hi - lo + 2) * d->cell_w, span_h = (float)(2 * sp + 2) * d->cell_h,
                span_d = (float)(2 * sp + 2) * d->cell_d;
    return !d->wrap ||
           (!wraps && cy >= sp && cy + sp < d->h && span_w <= s->sim->half_w &&
            span_h <= s->sim->half_h &&
            (!s->sim->three || (cz >= sp && cz + sp < d->d && span_d <= s->sim->half_d)));
}

/* Whether a group that is not unwrapped gets its shifts (boids_cpu_group's `shifted`): on a torus
 * of unfolded cells, 2 span + 4 or more along each of its axes (z too in a 3D world, which a
 * world of one layer is not enough for: its z wraps within the layer). A lane's own candidates
 * then lie within span + 1 cells of it along each axis, at least a cell short of half the world,
 * and those beyond the end of an axis at least a cell past half of it: the minimum image's choice
 * is the same for all of them, however they stand in their cells. */
static bool shifts_apply(const boids_grid_dims *d, bool three)
{
    const uint32_t n = 2 * d->span + 4;
    return d->wrap && d->fine_w == d->w && d->fine_h == d->h && d->fine_d == d->d && d->w >= n &&
           d->h >= n && (!three || d->d >= n);
}

/* Part e's shifts: it is of row j of the block (boids_grid_rows_around's order: layers, in each
 * its rows, 2 span + 1 of each here), and of the cells at the row's high end (side 0) or from
 * column 0 (side 1) where the group's blocks run over the row's end (else side 2). The lanes
 * stand in row cy of layer cz, lane l in column cells[l] - row_begin. */
static void part_shifts(const boids_cpu_step *s, boids_cpu_group *g, uint32_t e, uint32_t j,
                        uint32_t side, const uint32_t *cells, uint32_t row_begin, uint32_t cy,
                        uint32_t cz)
{
    const boids_grid_dims *d = &s->grid->dims;
    const boids_world_def *def = &s->sim->def;
    const int64_t sp = d->span, ny = 2 * sp + 1;
    /* the row and the layer before they wrap: below 0, the cells at the axis' far end */
    const int64_t y = (int64_t)cy + (int64_t)j % ny - sp, z = (int64_t)cz + (int64_t)j / ny - sp;
    g->shift_y[e] = y < 0 ? -def->height : y >= (int64_t)d->h ? def->height : 0.0f;
    g->shift_z[e] = !s->sim->three       ? 0.0f
                    : z < 0              ? -def->depth
                    : z >= (int64_t)d->d ? def->depth
                                         : 0.0f;
    for (uint32_t l = 0; l < BOIDS_GROUP_MAX; ++l) {
        const int64_t cx = l < g->lanes ? (int64_t)cells[l] - row_begin : sp;
        g->shift_x[e][l] = side == 0 && cx < sp                    ? -def->width
                           : side == 1 && cx + sp >= (int64_t)d->w ? def->width
                                                                   : 0.0f;
    }
}

bool boids_cpu_group_lanes_on = true;
_Static_assert(BOIDS_CPU_GRID_PAD >= BOIDS_LANES, "rows_lanes loads whole vectors of the grid");

/* The rows of a group none of whose lanes' blocks runs over a row's end and whose columns' starts
 * fit a vector (hi + 2 - lo <= BOIDS_LANES: every group on a grid of span 1, whose lanes stand at
 * most BOIDS_GROUP_SPAN cells apart, reads 2 span + 2 + BOIDS_GROUP_SPAN = 7; of span 2, those
 * within 2 cells), on the lanes: lane
 * l's columns are [max(cx_l - span, 0), min(cx_l + span, w - 1)], all in one part a row, and its
 * own range there two of the row's cell starts from lo on, which one permute of those starts picks
 * for every lane. The lanes' columns ascend, so lane 0 has lo and the last lane hi. The same
 * values as rows_scalar, without its 16 loads and stores a row; lanes past the group get values
 * too (of the next slots' cells or the grid's padding), which no walk reads. */
BOIDS_SIMD_CLONES static void rows_lanes(const boids_grid_dims *d, const uint32_t *cs,
                                         const uint32_t *slot_cell, uint32_t slot,
                                         uint32_t row_begin, const uint32_t *rows, uint32_t nrows,
                                         uint32_t lo, uint32_t hi, boids_cpu_group *g)
{
    boids_vu cells, starts; /* whole vectors: the grid's arrays have room past their ends */
    __builtin_memcpy(&cells, slot_cell + slot, sizeof cells);
    const boids_vi cx = (boids_vi)(cells - boids_vu_all(row_begin));
    const boids_vi first = cx - (boids_vi)boids_vu_all(d->span), /* (may be below 0) */
        last = cx + (boids_vi)boids_vu_all(d->span), edge = (boids_vi)boids_vu_all(d->w - 1);
    const boids_vi over = last > edge;
    /* a lane's first column and its last plus one, as indices into the starts from lo */
    const boids_vu a = (boids_vu)(first & (first >= 0)) - boids_vu_all(lo);
    const boids_vu b = (boids_vu)((last & ~over) | (edge & over)) - boids_vu_all(lo - 1);
    for (uint32_t j = 0; j < nrows; ++j) {
        const uint32_t *row = cs + rows[j];
        __builtin_memcpy(&starts, row + lo, sizeof starts);
        const boids_vu own_b = boids_vu_permute(starts, a), own_e = boids_vu_permute(starts, b);
        g->begin[j] = row[lo];
        g->end[j] = row[hi + 1];
        __builtin_memcpy(g->own_begin[j], &own_b, sizeof own_b);
        __builtin_memcpy(g->own_end[j], &own_e, sizeof own_e);
    }
    g->rows = nrows;
}

/* The rows of a group the general way (boids_cpu_group_at), lane by lane: lanes whose blocks run
 * over a row's end, rows shorter than a block, and groups whose columns' starts span more than a
 * vector (grids of span 2). */
static void rows_scalar(const boids_cpu_step *s, uint32_t slot, uint32_t n, uint32_t row_begin,
                        const uint32_t *rows, uint32_t nrows, uint32_t cy, uint32_t cz,
                        boids_cpu_group *g)
{
    const boids_grid_dims *d = &s->grid->dims;
    const uint32_t *slot_cell = s->grid->slot_cell, *cs = s->grid->cell_start;
    const uint32_t w = d->w, c0 = slot_cell[slot];
    /* a lane's one range goes in part 0 in the row's upper half (where the lanes that wrap have
     * their longer part), else in part 1 */
    const uint32_t one = 2 * (c0 - row_begin) >= w ? 0 : 1;
    /* each lane's columns, and each part's union over the lanes [lo, hi] */
    uint32_t a[2][BOIDS_GROUP_MAX], b[2][BOIDS_GROUP_MAX];
    uint32_t lo0 = UINT32_MAX, hi0 = 0, lo1 = UINT32_MAX, hi1 = 0;
    bool wraps = false;
    for (uint32_t l = 0; l < n; ++l) {
        const lane_columns k = columns_of(d, slot_cell[slot + l] - row_begin, one);
        a[0][l] = k.a0, b[0][l] = k.b0, a[1][l] = k.a1, b[1][l] = k.b1;
        if (k.a0 <= k.b0) lo0 = k.a0 < lo0 ? k.a0 : lo0, hi0 = k.b0 > hi0 ? k.b0 : hi0;
        if (k.a1 <= k.b1) lo1 = k.a1 < lo1 ? k.a1 : lo1, hi1 = k.b1 > hi1 ? k.b1 : hi1;
        wraps |= k.a0 <= k.b0 && k.a1 <= k.b1;
    }
    const uint32_t lo[2] = {lo0, lo1}, hi[2] = {hi0, hi1};
    g->lanes = n;
    g->unwrapped = group_unwrapped(s, wraps, lo[one], hi[one], cy, cz);
    g->shifted = !g->unwrapped && shifts_apply(d, s->sim->three);
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
            if (g->shifted) part_shifts(s, g, e, j, 2, slot_cell + slot, row_begin, cy, cz);
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
            if (g->shifted)
                part_shifts(s, g, e, j, (uint32_t)p, slot_cell + slot, row_begin, cy, cz);
        }
    }
}

void boids_cpu_group_at(const boids_cpu_step *s, uint32_t slot, uint32_t end, uint32_t max,
                        boids_cpu_group *g)
{
    const boids_grid_dims *d = &s->grid->dims;
    const uint32_t *slot_cell = s->grid->slot_cell;
    const uint32_t cells = boids_grid_cells(d);
    g->lanes = 1;
    g->shifted = false;
    g->rows = 0;
    const uint32_t c0 = slot_cell[slot];
    if (c0 >= cells) return;
    /* The first cell's row; the others must lie in it. One division where the world has one
     * replica (integer divisions were a tenth of a step; this runs once per group). */
    const uint32_t cpr = boids_grid_cells_per_replica(d), base = c0 < cpr ? 0 : c0 / cpr * cpr,
                   row_index = (c0 - base) / d->w, row_begin = base + row_index * d->w,
                   row_end = row_begin + d->w;
    /* the lanes: the slots on from slot in cells of that row, at most BOIDS_GROUP_SPAN apart */
    if (max > BOIDS_GROUP_MAX) max = BOIDS_GROUP_MAX;
    if (max > end - slot) max = end - slot;
    uint32_t n = 1;
    while (n < max && slot_cell[slot + n] < row_end && slot_cell[slot + n] - c0 <= BOIDS_GROUP_SPAN)
        ++n; /* (sorted: each cell >= c0) */
    if (n < 2) return;
    const uint32_t cy = d->d == 1 ? row_index : row_index % d->h,
                   cz = d->d == 1 ? 0 : row_index / d->h;
    uint32_t rows[BOIDS_BLOCK_ROWS];
    const uint32_t nrows = boids_grid_rows_around(d, base, cy, cz, rows);
    const uint32_t sp = d->span, w = d->w;
    const uint32_t cx0 = c0 - row_begin, cx1 = slot_cell[slot + n - 1] - row_begin;
    const uint32_t lo = cx0 < sp ? 0 : cx0 - sp, hi = cx1 + sp >= w ? w - 1 : cx1 + sp;
    if (boids_cpu_group_lanes_on && n <= BOIDS_LANES && w >= 2 * sp + 1 &&
        hi + 2 - lo <= BOIDS_LANES &&
        !(d->wrap && (cx0 < sp || cx1 + sp >= w))) { /* no lane's block over the row's end */
        rows_lanes(d, s->grid->cell_start, slot_cell, slot, row_begin, rows, nrows, lo, hi, g);
        g->lanes = n;
        g->unwrapped = group_unwrapped(s, false, lo, hi, cy, cz);
        g->shifted = !g->unwrapped && shifts_apply(d, s->sim->three);
        for (uint32_t j = 0; g->shifted && j < nrows; ++j)
            part_shifts(s, g, j, j, 2, slot_cell + slot, row_begin, cy, cz);
        return;
    }
    rows_scalar(s, slot, n, row_begin, rows, nrows, cy, cz, g);
}
