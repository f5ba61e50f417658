#include "core/metrics.h"

#include <math.h>
#include <stdlib.h>

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
 * by side in memory (read in id order, each candidate was a cache miss). */
typedef struct ring_grid {
    int gw, gh;
    double cw, ch;
    uint32_t *start;   /* cell c's slots: [start[c], start[c + 1]) */
    uint32_t *order;   /* slot -> boid */
    uint32_t *cell_of; /* slot -> cell */
    float *x, *y;      /* slot -> position */
} ring_grid;

static void ring_grid_free(ring_grid *g)
{
    free(g->start), free(g->order), free(g->cell_of), free(g->x), free(g->y);
    *g = (ring_grid){0}; /* freed twice (a build that failed, then the caller's) is harmless */
}

static bool ring_grid_build(ring_grid *g, const boids_boid *b, uint32_t n, float width,
                            float height, double cell, bool at_most)
{
    double (*round_cells)(double) = at_most ? ceil : floor;
    g->gw = (int)fmax(1, fmin(4096, round_cells(width / cell)));
    g->gh = (int)fmax(1, fmin(4096, round_cells(height / cell)));
    g->cw = (double)width / g->gw, g->ch = (double)height / g->gh;
    const size_t cells = (size_t)g->gw * g->gh;
    g->start = calloc(cells + 1, sizeof *g->start);
    g->order = malloc(sizeof *g->order * n);
    g->cell_of = malloc(sizeof *g->cell_of * n);
    g->x = malloc(sizeof *g->x * n), g->y = malloc(sizeof *g->y * n);
    uint32_t *fill = calloc(cells, sizeof *fill), *cell_of_boid = malloc(sizeof *cell_of_boid * n);
    if (!g->start || !g->order || !g->cell_of || !g->x || !g->y || !fill || !cell_of_boid) {
        free(fill), free(cell_of_boid);
        ring_grid_free(g);
        return false;
    }
    for (uint32_t i = 0; i < n; ++i) {
        /* boids outside a bounded world go in the edge cells (the ring search stays exact: a
         * ring's reach is measured from the cell, and outside boids are only farther) */
        int cx = (int)fmin(g->gw - 1, fmax(0, floor(b[i].x / g->cw)));
        int cy = (int)fmin(g->gh - 1, fmax(0, floor(b[i].y / g->ch)));
        cell_of_boid[i] = (uint32_t)(cy * g->gw + cx);
        g->start[cell_of_boid[i] + 1]++;
    }
    for (size_t c = 0; c < cells; ++c) g->start[c + 1] += g->start[c];
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t c = cell_of_boid[i], k = g->start[c] + fill[c]++;
        g->order[k] = i, g->cell_of[k] = c, g->x[k] = b[i].x, g->y[k] = b[i].y;
    }
    free(fill), free(cell_of_boid);
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
    float width, height;
    bool wrap;
    double cmin;
    double *nn; /* by boid */
} near_job;

static double nearest_d2(const near_job *j, uint32_t i)
{
    const ring_grid *g = j->g;
    const int cx = (int)(g->cell_of[i] % (uint32_t)g->gw);
    const int cy = (int)(g->cell_of[i] / (uint32_t)g->gw);
    const double xi = g->x[i], yi = g->y[i];
    double best2 = INFINITY;
    for (int r = 1;; r *= 2) {
        int ylo[2], yhi[2], xlo[2], xhi[2];
        const int ny = axis_spans(cy, r, g->gh, j->wrap, ylo, yhi);
        const int nx = axis_spans(cx, r, g->gw, j->wrap, xlo, xhi);
        const bool full = nx == 1 && xlo[0] == 0 && xhi[0] == g->gw - 1;
        for (int q = 0; q < ny; ++q)
            for (int y = ylo[q]; y <= yhi[q]; ++y) {
                const int last = full ? yhi[q] : y;
                for (int s = 0; s < nx; ++s) {
                    const uint32_t e = g->start[last * g->gw + xhi[s] + 1];
                    for (uint32_t k = g->start[y * g->gw + xlo[s]]; k < e; ++k) {
                        if (k == i) continue;
                        const double dx = wrap_delta(g->x[k] - xi, j->width, j->wrap);
                        const double dy = wrap_delta(g->y[k] - yi, j->height, j->wrap);
                        best2 = fmin(best2, dx * dx + dy * dy);
                    }
                }
                y = last;
            }
        /* every cell outside the square is r cells from the boid's own (a quarter of a cell
         * kept for a boid on a cell's edge) */
        const double reach = (r - 0.25) * j->cmin;
        if ((axis_covered(cx, r, g->gw, j->wrap) && axis_covered(cy, r, g->gh, j->wrap)) ||
            reach * reach >= best2)
            return best2;
    }
}

static void near_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const near_job *j = ctx;
    for (uint32_t i = begin; i < end; ++i) {
        if ((i & 1023u) == 0 && boids_interrupted()) return; /* the caller looks after the run */
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
    float width, height;
    bool wrap, whole_cells;
    int reach; /* cells within reach: the (2 reach + 1)^2 block */
    double r2;
    uint32_t *parent; /* over the grid's slots */
} group_job;

static double slot_d2(const group_job *j, uint32_t a, uint32_t b)
{
    const ring_grid *g = j->g;
    double dx = wrap_delta((double)g->x[b] - g->x[a], j->width, j->wrap);
    double dy = wrap_delta((double)g->y[b] - g->y[a], j->height, j->wrap);
    return dx * dx + dy * dy;
}

/* Whether cell c's boids are all within the radius of each other (its diagonal is, and it holds
 * no boid from outside a box). */
static bool cell_whole(const group_job *j, uint32_t c)
{
    const int cx = (int)(c % (uint32_t)j->g->gw), cy = (int)(c / (uint32_t)j->g->gw);
    const bool edge = cx == 0 || cy == 0 || cx == j->g->gw - 1 || cy == j->g->gh - 1;
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

static void group_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const group_job *j = ctx;
    const ring_grid *g = j->g;
    for (uint32_t c = begin; c < end; ++c) {
        if ((c & 255u) == 0 && boids_interrupted()) return; /* the caller looks after the run */
        const uint32_t first = g->start[c], last = g->start[c + 1];
        if (first == last) continue;
        const int cx = (int)(c % (uint32_t)g->gw), cy = (int)(c / (uint32_t)g->gw);
        if (cell_whole(j, c))
            for (uint32_t a = first + 1; a < last; ++a) unite_shared(j->parent, first, a);
        else
            link_cells(j, c, c);
        for (int dy = -j->reach; dy <= j->reach; ++dy)
            for (int dx = -j->reach; dx <= j->reach; ++dx) {
                int x = cx + dx, y = cy + dy;
                if (!j->wrap && (x < 0 || y < 0 || x >= g->gw || y >= g->gh)) continue;
                x = (x % g->gw + g->gw) % g->gw;
                y = (y % g->gh + g->gh) % g->gh;
                const uint32_t d = (uint32_t)(y * g->gw + x);
                if (d > c && g->start[d] < g->start[d + 1]) link_cells(j, c, d); /* once a pair */
            }
    }
}

static boids_status sums_of_living(const boids_boid *b, uint32_t n, float width, float height,
                                   bool wrap, float group_radius, boids_pool *pool,
                                   boids_metric_sums *m)
{
    *m = (boids_metric_sums){0};
    m->alive = n;
    if (n == 0) return BOIDS_OK;
    m->min_speed = INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
        double s = sqrt((double)b[i].vx * b[i].vx + (double)b[i].vy * b[i].vy);
        m->speed_sum += s;
        m->min_speed = fmin(m->min_speed, s);
        m->max_speed = fmax(m->max_speed, s);
        if (s > 0) {
            m->hx += b[i].vx / s;
            m->hy += b[i].vy / s;
        }
    }
    m->groups = 1;
    if (n < 2) return BOIDS_OK;
    /* About 2 boids a cell for the nearest neighbours; for the groups, cells whose diagonal is
     * at most the radius. */
    ring_grid near = {0}, links = {0};
    const double radius = group_radius > 0 ? group_radius : 1e-3;
    double *nn = malloc(sizeof *nn * n);
    uint32_t *parent = malloc(sizeof *parent * n);
    bool ok = nn && parent &&
              ring_grid_build(&near, b, n, width, height, sqrt((double)width * height / n * 2.0),
                              false) &&
              ring_grid_build(&links, b, n, width, height, radius / sqrt(2.0), true);
    boids_status st = ok ? BOIDS_OK : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    if (st == BOIDS_OK) {
        for (uint32_t i = 0; i < n; ++i) parent[i] = i;
        near_job nj = {&near, width, height, wrap, fmin(near.cw, near.ch), nn};
        const double cmin = fmin(links.cw, links.ch);
        group_job gj = {&links,
                        width,
                        height,
                        wrap,
                        links.cw * links.cw + links.ch * links.ch <= (double)radius * radius,
                        (int)ceil(radius / cmin),
                        (double)group_radius * group_radius,
                        parent};
        const uint32_t cells = (uint32_t)(links.gw * links.gh);
        if (pool) {
            boids_pool_run(pool, near_chunk, &nj, n);
            boids_pool_run(pool, group_chunk, &gj, cells);
        } else {
            near_chunk(&nj, 0, n);
            group_chunk(&gj, 0, cells);
        }
        if (boids_interrupted())
            st = boids_fail(BOIDS_E_INTERRUPTED, "the metrics of %u boids were stopped", n);
    }
    if (st == BOIDS_OK) { /* in id order: the same sums whatever the threads */
        m->groups = 0;
        for (uint32_t i = 0; i < n; ++i) {
            m->nn_sum += nn[i];
            m->groups += parent[i] == i;
        }
    }
    free(nn);
    free(parent);
    ring_grid_free(&near);
    ring_grid_free(&links);
    return st;
}

boids_status boids_metric_sums_compute(const boids_boid *b, uint32_t n, float width, float height,
                                       bool wrap, float group_radius, boids_pool *pool,
                                       boids_metric_sums *out)
{
    /* Caught boids are gone: the observables are the living's. */
    uint32_t living = 0;
    for (uint32_t i = 0; i < n; ++i) living += b[i].alive != 0;
    if (living == n) return sums_of_living(b, n, width, height, wrap, group_radius, pool, out);
    boids_boid *alive = malloc(sizeof *alive * (living ? living : 1));
    if (!alive) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    for (uint32_t i = 0, k = 0; i < n; ++i)
        if (b[i].alive) alive[k++] = b[i];
    boids_status st = sums_of_living(alive, living, width, height, wrap, group_radius, pool, out);
    free(alive);
    return st;
}

boids_metrics boids_metrics_from_sums(const boids_metric_sums *s, uint64_t step, uint32_t catches)
{
    boids_metrics m = {0};
    m.step = step;
    m.catches = catches;
    m.alive = s->alive;
    m.groups = s->groups;
    if (s->alive == 0) return m;
    m.polarization = sqrt(s->hx * s->hx + s->hy * s->hy) / s->alive;
    /* |a sum of unit vectors| never exceeds their count, but the GPU's float sums of unit
     * headings (each rounded) can, by an ulp: 1.00000006 for a flock flying as one */
    if (m.polarization > 1.0) m.polarization = 1.0;
    m.mean_nn = s->nn_sum / s->alive;
    m.mean_speed = s->speed_sum / s->alive;
    m.min_speed = s->min_speed;
    m.max_speed = s->max_speed;
    return m;
}
