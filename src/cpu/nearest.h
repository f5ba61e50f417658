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

/* The nearest so far, sorted: squared distance, id, slot; and, for tests of the search's cost,
 * the cells of the block it searched and its steps over them (the layers, rows and cells it went
 * through, a run of them stepped over at once counting one). */
typedef struct boids_nearest {
    uint32_t n;
    float d2[BOIDS_MAX_NEAREST];
    uint32_t id[BOIDS_MAX_NEAREST], slot[BOIDS_MAX_NEAREST];
    uint32_t cells, steps;
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

/* A search's boid: the grid's geometry around its cell c (n cells an axis, cell px wide), its
 * replica's first cell, its id, swarm, position and velocity, and what it looks for. On a folded
 * grid (boids_grid_dims' fine_w) the rings are the grid's, around its column (row, layer) g, and
 * the distances to them the world's cells', around c of the nf that tile the world; elsewhere
 * g = c and nf = n. */
typedef struct boids_nearest_search {
    const boids_cpu_step *s;
    const boids_nearest_filter *f;
    uint32_t k, base, id, swarm;
    uint32_t c[3], n[3], g[3], nf[3];
    bool wrap;
    float cell[3], p[3], v[3];
} boids_nearest_search;

/* The candidates of cell ci offered to out. */
static inline void boids_nearest_cell(const boids_nearest_search *q, uint32_t ci,
                                      boids_nearest *out)
{
    const boids_cpu_step *s = q->s;
    const uint32_t *cs = s->grid->cell_start, *cid = s->cand.id, *cswarm = s->cand.swarm;
    for (uint32_t j = cs[ci]; j < cs[ci + 1]; ++j) {
        if (cid[j] == q->id || cswarm[j] != q->swarm) continue;
        float dx, dy;
        boids_cand_offset(s, q->p[0], q->p[1], j, &dx, &dy);
        const float dz = BOIDS_DIMS == 3 ? boids_cand_offset_z(s, q->p[2], j) : 0.0f;
        const float d2 = boids_length2(dx, dy, dz);
        if (!(d2 > 0.0f) || d2 < q->f->min_d2) continue;
        if (q->f->view && !boids_in_view(q->v[0], q->v[1], q->v[2], dx, dy, dz, d2, q->f->cos_view))
            continue;
        boids_nearest_offer(out, q->k, d2, cid[j], j);
    }
}

/* Ring r's cells, those of the block [lo, hi] outside the block before [plo, phi] (none at
 * r = 0), offered to out. A layer, or a row, outside the block before is new whole; in one inside
 * it, the cells left and right of it. The layers inside it hold none where the block grew along
 * neither x nor y, the rows inside it none where it did not grow along x: each run of them is
 * stepped over at once, so a ring costs steps in proportion to its cells (a world long along y
 * or z cost a step for every layer and row of the block each ring: 200 times as long at
 * nearest:32 as a world long along x). */
static inline void boids_nearest_ring(const boids_nearest_search *q, uint32_t r, const int32_t *lo,
                                      const int32_t *hi, const int32_t *plo, const int32_t *phi,
                                      boids_nearest *out)
{
    const bool grew_x = lo[0] < plo[0] || hi[0] > phi[0];
    const bool grew_xy = grew_x || lo[1] < plo[1] || hi[1] > phi[1];
    for (int32_t oz = lo[2]; oz <= hi[2]; ++oz) {
        ++out->steps;
        const bool z_in = r > 0 && oz >= plo[2] && oz <= phi[2];
        if (z_in && !grew_xy) {
            oz = phi[2]; /* nothing new in the layers of the block before */
            continue;
        }
        const float gz = boids_ring_gap(q->p[2], q->c[2], q->nf[2], q->wrap, q->cell[2], oz);
        for (int32_t oy = lo[1]; oy <= hi[1]; ++oy) {
            ++out->steps;
            const bool y_in = z_in && oy >= plo[1] && oy <= phi[1];
            if (y_in && !grew_x) {
                oy = phi[1]; /* nor in its rows */
                continue;
            }
            const int32_t skip_from = y_in ? plo[0] : hi[0] + 1, skip_to = y_in ? phi[0] : 0;
            const float gy = boids_ring_gap(q->p[1], q->c[1], q->nf[1], q->wrap, q->cell[1], oy);
            const float gyz = gy * gy + gz * gz;
            for (int32_t ox = lo[0]; ox <= hi[0]; ++ox) {
                ++out->steps;
                if (ox == skip_from) {
                    ox = skip_to; /* searched in an earlier ring */
                    continue;
                }
                /* a cell wholly farther than the k-th so far holds none of the k (this saved
                 * 10 to 15% of a run's time; the shader reads every cell of the ring: its
                 * lanes read a cell if any one needs it: skipping there cost llvmpipe 15%) */
                const float gx =
                    boids_ring_gap(q->p[0], q->c[0], q->nf[0], q->wrap, q->cell[0], ox);
                if (out->n == q->k && gx * gx + gyz > out->d2[q->k - 1]) continue;
                boids_nearest_cell(q,
                                   q->base +
                                       (boids_ring_cell(q->g[2], q->n[2], oz) * q->n[1] +
                                        boids_ring_cell(q->g[1], q->n[1], oy)) *
                                           q->n[0] +
                                       boids_ring_cell(q->g[0], q->n[0], ox),
                                   out);
            }
        }
    }
}

/* Whether the k nearest found after a ring whose block is [lo, hi] are the k: none nearer can lie
 * beyond the block (the k-th is nearer than its nearest face), or it covers the grid. */
static inline bool boids_nearest_done(const boids_nearest_search *q, const int32_t *lo,
                                      const int32_t *hi, const bool *full, const boids_nearest *out)
{
    if (full[0] && full[1] && full[2]) return true; /* the whole grid */
    if (out->n < q->k) return false;
    float m = INFINITY;
    for (int a = 0; a < (BOIDS_DIMS == 3 ? 3 : 2); ++a)
        m = fminf(m, boids_ring_margin(q->p[a], q->c[a], q->nf[a], q->wrap, q->cell[a], lo[a],
                                       hi[a], full[a]));
    return m > 0.0f && out->d2[q->k - 1] < m * m; /* none nearer beyond */
}

/* The k nearest of the boid in slot (k <= BOIDS_MAX_NEAREST) among the others of its replica and
 * swarm that pass f, in out, sorted. */
static inline void boids_cpu_nearest(const boids_cpu_step *s, uint32_t slot, uint32_t k,
                                     const boids_nearest_filter *f, boids_nearest *out)
{
    const boids_grid_dims *d = &s->grid->dims;
    out->n = out->cells = out->steps = 0;
    const uint32_t cell = s->grid->slot_cell[slot];
    if (cell >= boids_grid_cells(d)) return; /* the graveyard */
    const uint32_t cpr = boids_grid_cells_per_replica(d), local = cell % cpr;
    const bool three = BOIDS_DIMS == 3;
    boids_nearest_search q = {
        .s = s,
        .f = f,
        .k = k,
        .base = cell - local,
        .id = s->cand.id[slot],
        .swarm = s->cand.swarm[slot],
        .c = {local % d->w, local / d->w % d->h, local / (d->w * d->h)},
        .n = {d->w, d->h, d->d},
        .wrap = d->wrap,
        .cell = {1.0f / d->inv_cell_w, 1.0f / d->inv_cell_h,
                 d->d > 1 ? 1.0f / d->inv_cell_d : 0.0f},
        .p = {s->cand.x[slot], s->cand.y[slot], three ? s->cand.z[slot] : 0.0f},
        .v = {s->cand.vx[slot], s->cand.vy[slot], three ? s->cand.vz[slot] : 0.0f}};
    const uint32_t fine[3] = {d->fine_w, d->fine_h, d->fine_d};
    const float inv[3] = {d->inv_cell_w, d->inv_cell_h, d->inv_cell_d};
    for (int a = 0; a < 3; ++a) { /* a folded axis: the world's cell of the boid, apart */
        q.g[a] = q.c[a], q.nf[a] = fine[a];
        if (fine[a] != q.n[a]) q.c[a] = boids_fine_coord(q.p[a], inv[a], fine[a]);
    }
    int32_t plo[3] = {0, 0, 0}, phi[3] = {0, 0, 0}; /* the block before (none at r = 0) */
    for (uint32_t r = 0;; ++r) {
        int32_t lo[3], hi[3];
        bool full[3];
        for (int a = 0; a < 3; ++a)
            full[a] = boids_ring_axis(q.g[a], q.n[a], d->wrap, r, &lo[a], &hi[a]);
        boids_nearest_ring(&q, r, lo, hi, plo, phi, out);
        if (boids_nearest_done(&q, lo, hi, full, out)) {
            out->cells = (uint32_t)(hi[0] - lo[0] + 1) * (uint32_t)(hi[1] - lo[1] + 1) *
                         (uint32_t)(hi[2] - lo[2] + 1);
            return;
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
