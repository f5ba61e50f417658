/* A boid's K nearest neighbours (boids_world_def.nearest: topological neighbours, Ballerini et al.
 * 2008), found on the grid as shaders/nearest.glsl finds them: the cells in rings of growing
 * Chebyshev radius around the boid's cell, until K are found and none nearer can lie beyond the
 * rings searched (the K-th is nearer than the block's nearest face), or the rings cover the grid;
 * here a cell wholly farther than the K-th so far is passed over.
 * Candidates are ordered by their squared distance, ties by id, so the K chosen are the same on
 * both backends whatever the order the cells are visited in; the sums over them are then added
 * in that order, which makes them the same bits too.
 *
 * Included by cpu/lanes.h, so compiled once per dimension with the rules (BOIDS_DIMS). */
#ifndef BOIDS_CPU_NEAREST_H
#define BOIDS_CPU_NEAREST_H

#include <math.h>

#include "cpu/steer.h"

/* The nearest so far, sorted: squared distance, id, slot. */
typedef struct boids_nearest {
    uint32_t n;
    float d2[BOIDS_MAX_NEAREST];
    uint32_t id[BOIDS_MAX_NEAREST], slot[BOIDS_MAX_NEAREST];
} boids_nearest;

/* Who may be among them, besides the boid's own swarm and a distance above 0: those at least
 * min_d2 away (Couzin's repulsion zone is metric), within the view cone of half-angle cosine
 * cos_view around the heading where `view`. */
typedef struct boids_nearest_filter {
    float min_d2;
    bool view;
    float cos_view;
} boids_nearest_filter;

static inline bool boids_nearest_before(float d2, uint32_t id, float d2b, uint32_t idb)
{
    return d2 < d2b || (d2 == d2b && id < idb);
}

/* A candidate offered to the list of at most k: kept if among the k first so far. */
static inline void boids_nearest_offer(boids_nearest *b, uint32_t k, float d2, uint32_t id,
                                       uint32_t slot)
{
    if (b->n == k && !boids_nearest_before(d2, id, b->d2[k - 1], b->id[k - 1])) return;
    uint32_t i = b->n < k ? b->n++ : k - 1;
    for (; i > 0 && boids_nearest_before(d2, id, b->d2[i - 1], b->id[i - 1]); --i)
        b->d2[i] = b->d2[i - 1], b->id[i] = b->id[i - 1], b->slot[i] = b->slot[i - 1];
    b->d2[i] = d2, b->id[i] = id, b->slot[i] = slot;
}

/* Ring r's block along one axis of n cells around cell c: the offsets [*lo, *hi] (on a torus at
 * most the n cells once each; in a box, cut at the ends); whether it spans the axis. */
static inline bool boids_ring_axis(uint32_t c, uint32_t n, bool wrap, uint32_t r, int32_t *lo,
                                   int32_t *hi)
{
    if (wrap) {
        const uint32_t below = (n - 1) / 2, above = n - 1 - below;
        *lo = -(int32_t)(r < below ? r : below), *hi = (int32_t)(r < above ? r : above);
        return 2 * r + 1 >= n;
    }
    *lo = -(int32_t)(r < c ? r : c), *hi = (int32_t)(r < n - 1 - c ? r : n - 1 - c);
    return *lo == -(int32_t)c && *hi == (int32_t)(n - 1 - c);
}

/* The cell at offset o from cell c along an axis of n cells (wrapped: boids_ring_axis keeps o
 * within one turn, and within the axis in a box). */
static inline uint32_t boids_ring_cell(uint32_t c, uint32_t n, int32_t o)
{
    const int32_t v = (int32_t)c + o;
    return (uint32_t)(v < 0 ? v + (int32_t)n : v >= (int32_t)n ? v - (int32_t)n : v);
}

/* What the search's distances to cell faces leave for rounding, at x on a `cell`-wide axis of n
 * cells: a thousandth of a cell and a millionth of the axis and of |x| (the rounding of x's cell
 * and of the face are both ~1e-7 of the larger; |x| counts for a boid far beyond a box's edge,
 * where x - face rounds at x's scale). */
static inline float boids_ring_slack(float x, uint32_t n, float cell)
{
    return 1e-3f * cell + 1e-6f * ((float)n * cell + fabsf(x));
}

/* How far x, in cell c of a `cell`-wide axis of n cells, lies inside the block [c + lo, c + hi]:
 * the distance to its nearer face, less the slack (a face at a box's end, or a block spanning the
 * axis, is no face: nothing lies beyond). */
static inline float boids_ring_margin(float x, uint32_t c, uint32_t n, bool wrap, float cell,
                                      int32_t lo, int32_t hi, bool full)
{
    if (full) return INFINITY;
    float m = INFINITY;
    if (wrap || (int32_t)c + lo > 0) m = fminf(m, x - (float)((int32_t)c + lo) * cell);
    if (wrap || (int32_t)c + hi < (int32_t)n - 1)
        m = fminf(m, (float)((int32_t)c + hi + 1) * cell - x);
    return m - boids_ring_slack(x, n, cell);
}

/* At least how far x, in cell c of a `cell`-wide axis of n cells, lies from any boid of the cell
 * at offset o along the axis, less the slack (0 where one may be as near as x's own cell). On a
 * torus the nearer of the cell's two images (|o| is at most half a turn); in a box an end cell also
 * holds the boids beyond the end, which lie farther out than its inner face. */
static inline float boids_ring_gap(float x, uint32_t c, uint32_t n, bool wrap, float cell,
                                   int32_t o)
{
    if (o == 0) return 0.0f;
    const int32_t at = (int32_t)c + o, nn = (int32_t)n;
    float g = o > 0 ? (float)at * cell - x : x - (float)(at + 1) * cell;
    if (wrap) {
        const float h = o > 0 ? x - (float)(at + 1 - nn) * cell : (float)(at + nn) * cell - x;
        g = h < g ? h : g;
    }
    g -= boids_ring_slack(x, n, cell);
    return g > 0.0f ? g : 0.0f;
}

/* The k nearest of the boid in slot (k <= BOIDS_MAX_NEAREST) among the others of its replica and
 * swarm that pass f, in out, sorted. */
static inline void boids_cpu_nearest(const boids_cpu_step *s, uint32_t slot, uint32_t k,
                                     const boids_nearest_filter *f, boids_nearest *out)
{
    const boids_grid_dims *d = &s->grid->dims;
    const uint32_t *cs = s->grid->cell_start, *cid = s->cand.id, *cswarm = s->cand.swarm;
    out->n = 0;
    const uint32_t cell = s->grid->slot_cell[slot];
    if (cell >= boids_grid_cells(d)) return; /* the graveyard */
    const uint32_t cpr = boids_grid_cells_per_replica(d), base = cell / cpr * cpr;
    const uint32_t local = cell - base,
                   c[3] = {local % d->w, local / d->w % d->h, local / (d->w * d->h)};
    const uint32_t n[3] = {d->w, d->h, d->d};
    const float cell_size[3] = {1.0f / d->inv_cell_w, 1.0f / d->inv_cell_h,
                                d->d > 1 ? 1.0f / d->inv_cell_d : 0.0f};
    const uint32_t id = cid[slot], swarm = cswarm[slot];
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    const float z = BOIDS_DIMS == 3 ? s->cand.z[slot] : 0.0f;
    const float vx = s->cand.vx[slot], vy = s->cand.vy[slot];
    const float vz = BOIDS_DIMS == 3 ? s->cand.vz[slot] : 0.0f;
    const float pos[3] = {x, y, z};
    int32_t plo[3] = {0, 0, 0}, phi[3] = {0, 0, 0}; /* the block before (none at r = 0) */
    for (uint32_t r = 0;; ++r) {
        int32_t lo[3], hi[3];
        bool full[3];
        for (int a = 0; a < 3; ++a)
            full[a] = boids_ring_axis(c[a], n[a], d->wrap, r, &lo[a], &hi[a]);
        /* the ring's cells only: a layer, or a row, outside the block before is new whole; in
         * one inside it, the cells left and right of it */
        for (int32_t oz = lo[2]; oz <= hi[2]; ++oz) {
            const bool z_in = r > 0 && oz >= plo[2] && oz <= phi[2];
            const float gz = boids_ring_gap(z, c[2], n[2], d->wrap, cell_size[2], oz);
            for (int32_t oy = lo[1]; oy <= hi[1]; ++oy) {
                const bool y_in = z_in && oy >= plo[1] && oy <= phi[1];
                const int32_t skip_from = y_in ? plo[0] : hi[0] + 1, skip_to = y_in ? phi[0] : 0;
                const float gy = boids_ring_gap(y, c[1], n[1], d->wrap, cell_size[1], oy);
                const float gyz = gy * gy + gz * gz;
                for (int32_t ox = lo[0]; ox <= hi[0]; ++ox) {
                    if (ox == skip_from) {
                        ox = skip_to; /* searched in an earlier ring */
                        continue;
                    }
                    /* a cell wholly farther than the k-th so far holds none of the k (this saved
                     * 10 to 15% of a run's time; the shader reads every cell of the ring: its
                     * lanes read a cell if any one needs it: skipping there cost llvmpipe 15%) */
                    const float gx = boids_ring_gap(x, c[0], n[0], d->wrap, cell_size[0], ox);
                    if (out->n == k && gx * gx + gyz > out->d2[k - 1]) continue;
                    const uint32_t ci =
                        base +
                        (boids_ring_cell(c[2], n[2], oz) * n[1] + boids_ring_cell(c[1], n[1], oy)) *
                            n[0] +
                        boids_ring_cell(c[0], n[0], ox);
                    for (uint32_t j = cs[ci]; j < cs[ci + 1]; ++j) {
                        if (cid[j] == id || cswarm[j] != swarm) continue;
                        float dx, dy;
                        boids_cand_offset(s, x, y, j, &dx, &dy);
                        const float dz = BOIDS_DIMS == 3 ? boids_cand_offset_z(s, z, j) : 0.0f;
                        const float d2 = boids_length2(dx, dy, dz);
                        if (!(d2 > 0.0f) || d2 < f->min_d2) continue;
                        if (f->view && !boids_in_view(vx, vy, vz, dx, dy, dz, d2, f->cos_view))
                            continue;
                        boids_nearest_offer(out, k, d2, cid[j], j);
                    }
                }
            }
        }
        if (full[0] && full[1] && full[2]) return; /* the whole grid */
        if (out->n == k) {
            float m = INFINITY;
            for (int a = 0; a < (BOIDS_DIMS == 3 ? 3 : 2); ++a)
                m = fminf(m, boids_ring_margin(pos[a], c[a], n[a], d->wrap, cell_size[a], lo[a],
                                               hi[a], full[a]));
            if (m > 0.0f && out->d2[k - 1] < m * m) return; /* none nearer beyond */
        }
        for (int a = 0; a < 3; ++a) plo[a] = lo[a], phi[a] = hi[a];
    }
}

/* Lane l of a Reynolds walk's sums with alignment and cohesion over the boid's nearest instead:
 * the sum of their velocities and of the offsets to them, added nearest first, and their count
 * (separation keeps its radius). */
static inline void boids_cpu_nearest_flock(const boids_cpu_step *s, uint32_t slot,
                                           boids_cpu_lane_sums *m, uint32_t l)
{
    const boids_nearest_filter f = {0.0f, false, 0.0f};
    boids_nearest nb;
    boids_cpu_nearest(s, slot, s->sim->def.nearest, &f, &nb);
    const float x = s->cand.x[slot], y = s->cand.y[slot];
    const float z = BOIDS_DIMS == 3 ? s->cand.z[slot] : 0.0f;
    float ax = 0.0f, ay = 0.0f, az = 0.0f, ox = 0.0f, oy = 0.0f, oz = 0.0f;
    for (uint32_t i = 0; i < nb.n; ++i) {
        const uint32_t j = nb.slot[i];
        float dx, dy;
        boids_cand_offset(s, x, y, j, &dx, &dy);
        ax += s->cand.vx[j], ay += s->cand.vy[j], ox += dx, oy += dy;
        if (BOIDS_DIMS == 3) az += s->cand.vz[j], oz += boids_cand_offset_z(s, z, j);
    }
    m->ali_x[l] = ax, m->ali_y[l] = ay, m->coh_x[l] = ox, m->coh_y[l] = oy;
    m->ali_n[l] = m->coh_n[l] = nb.n;
#if BOIDS_DIMS == 3
    m->ali_z[l] = az, m->coh_z[l] = oz;
#else
    (void)az, (void)oz;
#endif
}

#endif
