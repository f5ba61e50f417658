#include "core/metrics.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/interrupt.h"

/* Wrapped offset in double precision. */
static double wrap_delta(double d, double size, bool wrap)
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
typedef struct ring_pos {
    float x, y, z; /* z: 0 in a flat world */
} ring_pos;

/* A flat world's grid has one layer (gd = 1, its z all 0); a 3D world's, layers along z. */
typedef struct ring_grid {
    int gw, gh, gd;
    double cw, ch, cd;
    uint32_t *start;        /* cell c's slots: [start[c], start[c + 1]) */
    uint32_t *order;        /* slot -> boid */
    ring_pos *pos;          /* slot -> position */
    uint32_t *cell_of_boid; /* the build's: boid -> cell */
    size_t boids_cap, cells_cap;
} ring_grid;

static void ring_grid_free(ring_grid *g)
{
    free(g->start), free(g->order), free(g->pos), free(g->cell_of_boid);
    *g = (ring_grid){0};
}

/* The memory the metrics keep from one call to the next: a million boids' grids and sums are
 * some 60 MB, whose pages faulted in afresh at every call. */
struct boids_metrics_work {
    ring_grid near, links;
    double *nn;       /* by boid */
    uint32_t *parent; /* over the links grid's slots */
    size_t boids_cap;
    boids_boid *living; /* the living of a replica with dead boids */
    size_t living_cap;
};

void boids_metrics_work_free(boids_metrics_work *w)
{
    if (!w) return;
    ring_grid_free(&w->near);
    ring_grid_free(&w->links);
    free(w->nn), free(w->parent), free(w->living);
    free(w);
}

/* Room for n boids and `cells` cells (what the last build left is reused). */
static bool ring_grid_reserve(ring_grid *g, size_t n, size_t cells)
{
    if (n > g->boids_cap) {
        free(g->order), free(g->pos), free(g->cell_of_boid);
        g->order = malloc(sizeof *g->order * n), g->pos = malloc(sizeof *g->pos * n);
        g->cell_of_boid = malloc(sizeof *g->cell_of_boid * n);
        g->boids_cap = g->order && g->pos && g->cell_of_boid ? n : 0;
        if (!g->boids_cap) return false;
    }
    if (cells > g->cells_cap) {
        free(g->start);
        g->start = malloc(sizeof *g->start * (cells + 1));
        g->cells_cap = g->start ? cells : 0;
        if (!g->cells_cap) return false;
    }
    return true;
}

/* floor(c) clamped to [0, n - 1] (plain comparisons: fmin, fmax and floor are calls into libm
 * in a build for any x86-64, and the grids place a million boids). */
static inline int cell_of_axis(double c, int n)
{
    return c < 1.0 ? 0 : c >= n - 1 ? n - 1 : (int)c;
}

/* The cell of a position: boids outside a bounded world go in the edge cells (the ring search
 * stays exact: a ring's reach is measured from the cell, and outside boids are only farther). */
static inline void ring_cell(const ring_grid *g, ring_pos p, int *cx, int *cy, int *cz)
{
    *cx = cell_of_axis(p.x / g->cw, g->gw);
    *cy = cell_of_axis(p.y / g->ch, g->gh);
    *cz = g->gd > 1 ? cell_of_axis(p.z / g->cd, g->gd) : 0;
}

/* The index of cell (x, y, z). */
static inline uint32_t ring_index(const ring_grid *g, int x, int y, int z)
{
    return (uint32_t)((z * g->gh + y) * g->gw + x);
}

static inline ring_pos pos_of(const boids_boid *b) { return (ring_pos){b->x, b->y, b->z}; }

/* The grid's build, shared among the pool's threads without atomics (an atomic addition waits
 * for its cache miss, which serialised the scatter): each boid's cell is found in parallel;
 * then each thread counts, and later places, the boids of its own range of cells, reading every
 * boid's cell (a sequential 4 bytes a boid) and touching only its own. The counts split the
 * cells among the threads by equal shares of boids for the placing, and within a cell the boids
 * stay in id order, as one thread would place them. */
typedef struct grid_job {
    ring_grid *g;
    const boids_boid *b;
    uint32_t n;
    uint32_t *bounds; /* placing: part t's cells are [bounds[t], bounds[t + 1]) */
} grid_job;

static void cell_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const grid_job *j = ctx;
    ring_grid *g = j->g;
    for (uint32_t i = begin; i < end; ++i) {
        int cx, cy, cz;
        ring_cell(g, pos_of(&j->b[i]), &cx, &cy, &cz);
        g->cell_of_boid[i] = ring_index(g, cx, cy, cz);
    }
}

static void count_part(void *ctx, uint32_t part, uint32_t parts)
{
    const grid_job *j = ctx;
    ring_grid *g = j->g;
    uint32_t lo, hi;
    boids_pool_part_range((uint32_t)(g->gw * g->gh * g->gd), part, parts, &lo, &hi);
    for (uint32_t i = 0; i < j->n; ++i) {
        const uint32_t c = g->cell_of_boid[i];
        if (c >= lo && c < hi) g->start[c + 1]++;
    }
}

/* The first cell whose first slot is at or after `slot`. */
static uint32_t first_cell_from(const ring_grid *g, uint32_t slot)
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
    ring_grid *g = j->g;
    (void)parts;
    const uint32_t lo = j->bounds[part], hi = j->bounds[part + 1];
    for (uint32_t i = 0; i < j->n; ++i) {
        const uint32_t c = g->cell_of_boid[i];
        if (c < lo || c >= hi) continue;
        const uint32_t k = g->start[c]++; /* start[c] runs on to cell c's end */
        g->order[k] = i, g->pos[k] = pos_of(&j->b[i]);
    }
}

/* (depth 0: a flat world, one layer; a 3D world's layers at most 256 deep, so its cells stay
 * within memory) */
static bool ring_grid_build(ring_grid *g, const boids_boid *b, uint32_t n, float width,
                            float height, float depth, double cell, bool at_most, boids_pool *pool)
{
    double (*round_cells)(double) = at_most ? ceil : floor;
    const double most = depth > 0 ? 256 : 4096;
    g->gw = (int)fmax(1, fmin(most, round_cells(width / cell)));
    g->gh = (int)fmax(1, fmin(most, round_cells(height / cell)));
    g->gd = depth > 0 ? (int)fmax(1, fmin(most, round_cells(depth / cell))) : 1;
    g->cw = (double)width / g->gw, g->ch = (double)height / g->gh;
    g->cd = depth > 0 ? (double)depth / g->gd : 1.0;
    const size_t cells = (size_t)g->gw * g->gh * g->gd;
    if (!ring_grid_reserve(g, n, cells)) {
        ring_grid_free(g);
        return false;
    }
    uint32_t *start = g->start;
    memset(start, 0, sizeof *start * (cells + 1));
    const uint32_t parts = (uint32_t)boids_pool_threads(pool);
    grid_job j = {g, b, n, malloc(sizeof *j.bounds * (parts + 1))};
    if (!j.bounds) {
        ring_grid_free(g);
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

/* Union-find over the living boids, shared by the threads: a root is hooked under the smaller
 * one with a compare-and-swap, finds halve their paths, parents only ever decrease; so whatever
 * the order of the unions, each group ends with one root, its smallest index (as the GPU's
 * metrics_link.comp). */
static uint32_t find_shared(uint32_t *parent, uint32_t x)
{
    for (;;) {
        uint32_t p = __atomic_load_n(&parent[x], __ATOMIC_ACQUIRE);
        if (p == x) return x;
        uint32_t gp = __atomic_load_n(&parent[p], __ATOMIC_ACQUIRE);
        if (gp != p) /* path halving: gp is still an ancestor of x */
            __atomic_compare_exchange_n(&parent[x], &p, gp, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED);
        x = gp;
    }
}

/* Unites the sets of a and b; returns a's root as found. */
static uint32_t unite_shared(uint32_t *parent, uint32_t a, uint32_t b)
{
    for (;;) {
        a = find_shared(parent, a);
        b = find_shared(parent, b);
        if (a == b) return a;
        uint32_t hi = a > b ? a : b, lo = a > b ? b : a, expected = hi;
        if (__atomic_compare_exchange_n(&parent[hi], &expected, lo, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED))
            return lo; /* else hi gained a parent meanwhile: again */
    }
}

/* Cells [lo, hi] of an axis of n cells within r of cell c: one span, or two where a torus's span
 * crosses the seam; every cell once. A box's span is cut at its edges. Returns how many. */
static int axis_spans(int c, int r, int n, bool wrap, int lo[2], int hi[2])
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
static bool axis_covered(int c, int r, int n, bool wrap)
{
    return wrap ? 2 * r + 1 >= n : c - r <= 0 && c + r >= n - 1;
}

/* Slots [begin, end): each one's distance to its nearest, searched in squares of cells around its
 * own of half-size 1, 2, 4, ... until the square holds every cell or the best found is nearer
 * than any cell outside it. A square is read row by row, each row one range of slots (two across
 * a torus's seam; rows as wide as the grid one range together): no cell is looked at twice in a
 * square, and a boid far from the rest costs a few reads per row, not per cell. */
typedef struct near_job {
    const ring_grid *g;
    float width, height, depth;
    bool wrap;
    double *nn;      /* by boid */
    const int *stop; /* boids_should_stop's request */
} near_job;

/* How far a boid at `pos` (its cell c on an axis of n cells of `cell` px) is from the cells
 * outside the square of half-size r along that axis: from the square's borders, less a
 * millionth of a cell (a boid's cell is floor(pos / cell) in double: one rounding, far less
 * than that); +infinity on a side where a box has no cell beyond. (A boid in an edge cell from
 * outside a box is farther from the rest than its cell, which only adds to the margin.) */
static double side_reach(double pos, int c, int r, int n, double cell, bool wrap)
{
    const double below = wrap || c - r > 0 ? pos - (double)(c - r) * cell : INFINITY;
    const double above = wrap || c + r < n - 1 ? (double)(c + r + 1) * cell - pos : INFINITY;
    return (below < above ? below : above) - 1e-6 * cell;
}

static double nearest_d2(const near_job *j, uint32_t i)
{
    const ring_grid *g = j->g;
    int cx, cy, cz;
    ring_cell(g, g->pos[i], &cx, &cy, &cz);
    const double xi = g->pos[i].x, yi = g->pos[i].y, zi = g->pos[i].z;
    const bool flat = g->gd == 1 && j->depth == 0;
    double best2 = INFINITY;
    for (int r = 1;; r *= 2) {
        int ylo[2], yhi[2], xlo[2], xhi[2], zlo[2] = {0, 0}, zhi[2] = {0, 0};
        const int ny = axis_spans(cy, r, g->gh, j->wrap, ylo, yhi);
        const int nx = axis_spans(cx, r, g->gw, j->wrap, xlo, xhi);
        const int nz = flat ? 1 : axis_spans(cz, r, g->gd, j->wrap, zlo, zhi);
        const bool full = nx == 1 && xlo[0] == 0 && xhi[0] == g->gw - 1;
        for (int p = 0; p < nz; ++p)
            for (int z = zlo[p]; z <= zhi[p]; ++z)
                for (int q = 0; q < ny; ++q)
                    for (int y = ylo[q]; y <= yhi[q]; ++y) {
                        const int last = full ? yhi[q] : y;
                        for (int s = 0; s < nx; ++s) {
                            const uint32_t e = g->start[ring_index(g, xhi[s], last, z) + 1];
                            for (uint32_t k = g->start[ring_index(g, xlo[s], y, z)]; k < e; ++k) {
                                if (k == i) continue;
                                const double dx = wrap_delta(g->pos[k].x - xi, j->width, j->wrap);
                                const double dy = wrap_delta(g->pos[k].y - yi, j->height, j->wrap);
                                double d2 = dx * dx + dy * dy;
                                if (!flat) {
                                    const double dz =
                                        wrap_delta(g->pos[k].z - zi, j->depth, j->wrap);
                                    d2 += dz * dz;
                                }
                                if (d2 < best2) best2 = d2; /* (fmin is a call into libm) */
                            }
                        }
                        y = last;
                    }
        if (axis_covered(cx, r, g->gw, j->wrap) && axis_covered(cy, r, g->gh, j->wrap) &&
            (flat || axis_covered(cz, r, g->gd, j->wrap)))
            return best2;
        double reach = fmin(side_reach(xi, cx, r, g->gw, g->cw, j->wrap),
                            side_reach(yi, cy, r, g->gh, g->ch, j->wrap));
        if (!flat) reach = fmin(reach, side_reach(zi, cz, r, g->gd, g->cd, j->wrap));
        if (reach * reach >= best2) return best2;
    }
}

static void near_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const near_job *j = ctx;
    for (uint32_t i = begin; i < end; ++i) {
        if ((i & 1023u) == 0 && boids_should_stop(j->stop)) return; /* the caller sees it */
        j->nn[j->g->order[i]] = sqrt(nearest_d2(j, i));
    }
}

/* The groups, cell by cell, on a grid whose cells' diagonal is at most the radius: a cell's boids
 * are all linked (one set, no pair looked at), and two cells within reach are linked by any one
 * pair within the radius, found or ruled out once per pair of cells; cells already in one set
 * are not looked at again. So a dense flock, whose every boid once looked at the thousands
 * within its radius, costs about a pass over its cells. Edge cells of a box (which hold the
 * boids outside it) and cells larger than the radius allows (the 4096-cell cap) are linked pair
 * by pair. */
typedef struct group_job {
    const ring_grid *g;
    float width, height, depth; /* depth 0: a flat world */
    bool wrap, whole_cells;
    int reach[3]; /* cells within reach along x, y, z: ceil(radius / the cell's side) */
    double r2;
    uint32_t *parent; /* over the grid's slots */
    const int *stop;  /* boids_should_stop's request */
} group_job;

static double slot_d2(const group_job *j, uint32_t a, uint32_t b)
{
    const ring_grid *g = j->g;
    double dx = wrap_delta((double)g->pos[b].x - g->pos[a].x, j->width, j->wrap);
    double dy = wrap_delta((double)g->pos[b].y - g->pos[a].y, j->height, j->wrap);
    if (j->depth == 0) return dx * dx + dy * dy;
    double dz = wrap_delta((double)g->pos[b].z - g->pos[a].z, j->depth, j->wrap);
    return dx * dx + dy * dy + dz * dz;
}

/* Whether cell c's boids are all within the radius of each other (its diagonal is, and it holds
 * no boid from outside a box). */
static bool cell_whole(const group_job *j, uint32_t c)
{
    const ring_grid *g = j->g;
    const int cx = (int)(c % (uint32_t)g->gw), row = (int)(c / (uint32_t)g->gw), cy = row % g->gh,
              cz = row / g->gh;
    const bool edge = cx == 0 || cy == 0 || cx == g->gw - 1 || cy == g->gh - 1 ||
                      (j->depth > 0 && (cz == 0 || cz == g->gd - 1));
    return j->whole_cells && (j->wrap || !edge);
}

/* Links cells c and d (d == c: within the cell) by their pairs within the radius: between two
 * whole cells one pair is enough (and none is looked at when they are one set already). */
static void link_cells(const group_job *j, uint32_t c, uint32_t d)
{
    const ring_grid *g = j->g;
    const bool whole = c != d && cell_whole(j, c) && cell_whole(j, d);
    if (whole && find_shared(j->parent, g->start[c]) == find_shared(j->parent, g->start[d])) return;
    for (uint32_t a = g->start[c]; a < g->start[c + 1]; ++a)
        for (uint32_t b = c == d ? a + 1 : g->start[d]; b < g->start[d + 1]; ++b) {
            if (slot_d2(j, a, b) > j->r2) continue;
            unite_shared(j->parent, a, b);
            if (whole) return;
        }
}

/* Cells within `radius` along an axis of n cells of `cell` px: at most the axis (a span wider
 * than it reads it whole, axis_spans). */
static int reach_of(double radius, double cell, int n)
{
    const double r = ceil(radius / cell);
    return r < n ? (int)r : n;
}

/* Links cell c (at cx, cy, cz) with the cells after it within reach, each once: per axis its own
 * reach, and an axis shorter than the reach's span read once whole (a world 3 px wide and 10^7
 * long once read its one column's cells 35^2 times over, for seconds). */
static void link_around(const group_job *j, uint32_t c, int cx, int cy, int cz)
{
    const ring_grid *g = j->g;
    int lx[2], hx[2], ly[2], hy[2], lz[2] = {0, 0}, hz[2] = {0, 0};
    const int nx = axis_spans(cx, j->reach[0], g->gw, j->wrap, lx, hx);
    const int ny = axis_spans(cy, j->reach[1], g->gh, j->wrap, ly, hy);
    const int nz = j->depth > 0 ? axis_spans(cz, j->reach[2], g->gd, j->wrap, lz, hz) : 1;
    for (int sz = 0; sz < nz; ++sz)
        for (int z = lz[sz]; z <= hz[sz]; ++z)
            for (int sy = 0; sy < ny; ++sy)
                for (int y = ly[sy]; y <= hy[sy]; ++y)
                    for (int sx = 0; sx < nx; ++sx)
                        for (int x = lx[sx]; x <= hx[sx]; ++x) {
                            const uint32_t d = ring_index(g, x, y, z);
                            if (d > c && g->start[d] < g->start[d + 1])
                                link_cells(j, c, d); /* once a pair */
                        }
}

static void group_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const group_job *j = ctx;
    const ring_grid *g = j->g;
    for (uint32_t c = begin; c < end; ++c) {
        if ((c & 255u) == 0 && boids_should_stop(j->stop)) return; /* the caller sees it */
        const uint32_t first = g->start[c], last = g->start[c + 1];
        if (first == last) continue;
        const int cx = (int)(c % (uint32_t)g->gw), row = (int)(c / (uint32_t)g->gw),
                  cy = row % g->gh, cz = row / g->gh;
        if (cell_whole(j, c))
            for (uint32_t a = first + 1; a < last; ++a) unite_shared(j->parent, first, a);
        else
            link_cells(j, c, c);
        link_around(j, c, cx, cy, cz);
    }
}

/* The centre of positions p[0..n) along an axis of length size: on a torus the circular mean
 * (the angle of the mean of the points on a circle of that circumference), elsewhere the mean. */
static double axis_centre(const boids_boid *b, uint32_t n, size_t offset, double size, bool wrap)
{
    double sum = 0, c = 0, s = 0;
    const double two_pi = 6.283185307179586, k = two_pi / size;
    for (uint32_t i = 0; i < n; ++i) {
        float x;
        memcpy(&x, (const char *)&b[i] + offset, sizeof x);
        if (wrap)
            c += cos(k * x), s += sin(k * x);
        else
            sum += x;
    }
    if (!wrap) return sum / n;
    const double a = atan2(s, c);
    return (a < 0 ? a + two_pi : a) / k;
}

/* The milling sums: |sum of r_i x v_i| and sum of |r_i| |v_i| about the centre (boids_metrics). */
static void milling_sums(const boids_boid *b, uint32_t n, float width, float height, float depth,
                         bool wrap, boids_metric_sums *m)
{
    const bool three = depth > 0;
    const double cx = axis_centre(b, n, offsetof(boids_boid, x), width, wrap),
                 cy = axis_centre(b, n, offsetof(boids_boid, y), height, wrap),
                 cz = three ? axis_centre(b, n, offsetof(boids_boid, z), depth, wrap) : 0.0;
    double lx = 0, ly = 0, lz = 0, den = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const double rx = wrap_delta(b[i].x - cx, width, wrap),
                     ry = wrap_delta(b[i].y - cy, height, wrap),
                     rz = three ? wrap_delta(b[i].z - cz, depth, wrap) : 0.0;
        const double vx = b[i].vx, vy = b[i].vy, vz = three ? b[i].vz : 0.0;
        lx += ry * vz - rz * vy, ly += rz * vx - rx * vz, lz += rx * vy - ry * vx;
        den += sqrt(rx * rx + ry * ry + rz * rz) * sqrt(vx * vx + vy * vy + vz * vz);
    }
    m->mill_num = sqrt(lx * lx + ly * ly + lz * lz), m->mill_den = den;
}

static boids_status sums_of_living(const boids_boid *b, uint32_t n, float width, float height,
                                   float depth, bool wrap, float group_radius, boids_pool *pool,
                                   const int *stop, boids_metrics_work *work, boids_metric_sums *m)
{
    *m = (boids_metric_sums){0};
    m->alive = n;
    if (n == 0) return BOIDS_OK;
    m->min_speed = INFINITY;
    const bool three = depth > 0;
    for (uint32_t i = 0; i < n; ++i) {
        const double vz = three ? b[i].vz : 0.0;
        double s = sqrt((double)b[i].vx * b[i].vx + (double)b[i].vy * b[i].vy + vz * vz);
        m->speed_sum += s;
        if (s < m->min_speed) m->min_speed = s; /* (fmin and fmax: calls into libm) */
        if (s > m->max_speed) m->max_speed = s;
        if (s > 0) {
            m->hx += b[i].vx / s;
            m->hy += b[i].vy / s;
            m->hz += vz / s;
        }
    }
    m->groups = 1;
    if (n < 2) return BOIDS_OK;
    milling_sums(b, n, width, height, depth, wrap, m);
    /* Half a boid a cell for the nearest neighbours (in a clumped flock a cell of the mean
     * density holds dozens, and the first square looked at nine cells of them); for the groups,
     * cells whose diagonal is at most the radius. */
    ring_grid *near = &work->near, *links = &work->links;
    const double radius = group_radius > 0 ? group_radius : 1e-3;
    if (n > work->boids_cap) {
        free(work->nn), free(work->parent);
        work->nn = malloc(sizeof *work->nn * n), work->parent = malloc(sizeof *work->parent * n);
        work->boids_cap = work->nn && work->parent ? n : 0;
    }
    const bool room = work->boids_cap >= n;
    double *nn = work->nn;
    uint32_t *parent = work->parent;
    const double near_cell = three ? cbrt((double)width * height * depth / n * 0.5)
                                   : sqrt((double)width * height / n * 0.5);
    const bool built = ring_grid_build(near, b, n, width, height, depth, near_cell, false, pool) &&
                       ring_grid_build(links, b, n, width, height, depth,
                                       radius / sqrt(three ? 3.0 : 2.0), true, pool);
    bool ok = room && built;
    boids_status st = ok ? BOIDS_OK : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    if (st == BOIDS_OK) {
        for (uint32_t i = 0; i < n; ++i) parent[i] = i;
        near_job nj = {near, width, height, depth, wrap, nn, stop};
        const double diagonal2 =
            links->cw * links->cw + links->ch * links->ch + (three ? links->cd * links->cd : 0.0);
        group_job gj = {links,
                        width,
                        height,
                        depth,
                        wrap,
                        diagonal2 <= (double)radius * radius,
                        {reach_of(radius, links->cw, links->gw),
                         reach_of(radius, links->ch, links->gh),
                         three ? reach_of(radius, links->cd, links->gd) : 0},
                        (double)group_radius * group_radius,
                        parent,
                        stop};
        const uint32_t cells = (uint32_t)(links->gw * links->gh * links->gd);
        boids_pool_run(pool, near_chunk, &nj, n);
        boids_pool_run(pool, group_chunk, &gj, cells);
        if (boids_should_stop(stop))
            st = boids_fail(BOIDS_E_INTERRUPTED, "the metrics of %u boids were stopped by %s", n,
                            boids_stop_reason());
    }
    if (st == BOIDS_OK) { /* in id order: the same sums whatever the threads */
        m->groups = 0;
        for (uint32_t i = 0; i < n; ++i) {
            m->nn_sum += nn[i];
            m->groups += parent[i] == i;
        }
    }
    return st;
}

boids_status boids_metric_sums_compute(const boids_boid *b, uint32_t n, float width, float height,
                                       float depth, bool wrap, float group_radius, boids_pool *pool,
                                       const int *stop, boids_metrics_work **work,
                                       boids_metric_sums *out)
{
    boids_metrics_work *own = NULL;
    if (!work) work = &own; /* nothing to keep: freed at the end */
    if (!*work && !(*work = calloc(1, sizeof **work)))
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    boids_metrics_work *w = *work;
    /* Caught boids are gone: the observables are the living's. */
    uint32_t living = 0;
    for (uint32_t i = 0; i < n; ++i) living += b[i].alive != 0;
    boids_status st = BOIDS_OK;
    if (living < n && living > w->living_cap) {
        free(w->living);
        w->living = malloc(sizeof *w->living * living);
        w->living_cap = w->living ? living : 0;
        if (!w->living) st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    }
    if (st == BOIDS_OK && living < n)
        for (uint32_t i = 0, k = 0; i < n; ++i)
            if (b[i].alive) w->living[k++] = b[i];
    if (st == BOIDS_OK)
        st = sums_of_living(living < n ? w->living : b, living, width, height, depth, wrap,
                            group_radius, pool, stop, w, out);
    boids_metrics_work_free(own);
    return st;
}

void boids_metrics_from_sums(const boids_metric_sums *s, uint64_t step, uint32_t catches,
                             boids_metrics *out)
{
    memset(out, 0, sizeof *out); /* the padding too: a record hashes and compares whole */
    out->step = step;
    out->catches = catches;
    out->alive = s->alive;
    out->groups = s->groups;
    if (s->alive == 0) return;
    out->polarization = sqrt(s->hx * s->hx + s->hy * s->hy + s->hz * s->hz) / s->alive;
    /* |a sum of unit vectors| never exceeds their count, but the GPU's float sums of unit
     * headings (each rounded) can, by an ulp: 1.00000006 for a flock flying as one */
    if (out->polarization > 1.0) out->polarization = 1.0;
    out->mean_nn = s->nn_sum / s->alive;
    out->mean_speed = s->speed_sum / s->alive;
    out->milling = s->mill_den > 0 ? fmin(s->mill_num / s->mill_den, 1.0) : 0.0;
    out->min_speed = s->min_speed;
    out->max_speed = s->max_speed;
}
