#include "core/metrics.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/interrupt.h"
#include "base/memory.h"
#include "core/ring_grid.h"

/* The memory the metrics keep from one call to the next (a million boids' grids and sums are
 * some 40 MB; a world gives its pages back between calls, boids_metrics_work_release). One grid
 * serves the nearest neighbours, then the groups (two side by side were 20 bytes a boid more),
 * and the groups' parents are the grid's scratch while it is built. */
struct boids_metrics_work {
    boids_ring_grid grid;
    double *nn;       /* by boid */
    uint32_t *parent; /* over the links grid's slots */
    size_t boids_cap;
    float *living; /* the living of a replica with dead boids: x, y, z, vx, vy, vz columns */
    size_t living_cap;
};

void boids_metrics_work_free(boids_metrics_work *w)
{
    if (!w) return;
    boids_ring_grid_free(&w->grid);
    free(w->nn), free(w->parent), free(w->living);
    free(w);
}

void boids_metrics_work_release(boids_metrics_work *w)
{
    if (!w) return;
    const boids_ring_grid *g = &w->grid;
    boids_pages_release(w->nn, sizeof *w->nn * w->boids_cap);
    boids_pages_release(w->parent, sizeof *w->parent * w->boids_cap);
    boids_pages_release(w->living, sizeof *w->living * 6 * w->living_cap);
    boids_pages_release(g->order, sizeof *g->order * g->boids_cap);
    boids_pages_release(g->pos, sizeof *g->pos * g->boids_cap);
    boids_pages_release(g->cell_of_boid, g->cell_of_boid ? sizeof(uint32_t) * g->boids_cap : 0);
    boids_pages_release(g->start, sizeof *g->start * (g->cells_cap + 1));
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

/* Slots [begin, end): each one's distance to its nearest, searched in squares of cells around its
 * own of half-size 1, 2, 4, ... until the square holds every cell or the best found is nearer
 * than any cell outside it (boids_ring_square, boids_ring_search_done). */
typedef struct near_job {
    const boids_ring_grid *g;
    float width, height, depth;
    bool wrap;
    double *nn;      /* by boid */
    const int *stop; /* boids_should_stop's request */
} near_job;

/* One search: slot i at (x, y, z), the best squared distance so far. */
typedef struct near_search {
    const near_job *j;
    uint32_t i;
    double x, y, z, best2;
    bool flat;
} near_search;

static void near_range(void *ctx, uint32_t begin, uint32_t end)
{
    near_search *n = ctx;
    const near_job *j = n->j;
    const boids_ring_pos *pos = j->g->pos;
    for (uint32_t k = begin; k < end; ++k) {
        if (k == n->i) continue;
        const double dx = boids_wrap_delta(pos[k].x - n->x, j->width, j->wrap);
        const double dy = boids_wrap_delta(pos[k].y - n->y, j->height, j->wrap);
        double d2 = dx * dx + dy * dy;
        if (!n->flat) {
            const double dz = boids_wrap_delta(pos[k].z - n->z, j->depth, j->wrap);
            d2 += dz * dz;
        }
        if (d2 < n->best2) n->best2 = d2; /* (fmin is a call into libm) */
    }
}

static double nearest_d2(const near_job *j, uint32_t i)
{
    const boids_ring_grid *g = j->g;
    int c[3];
    boids_ring_cell(g, g->pos[i], &c[0], &c[1], &c[2]);
    near_search n = {
        j, i, g->pos[i].x, g->pos[i].y, g->pos[i].z, INFINITY, g->gd == 1 && j->depth == 0};
    for (int r = 1;; r *= 2) {
        boids_ring_square(g, c, (const int[3]){r, r, r}, j->wrap, near_range, &n);
        if (boids_ring_search_done(g, c, r, g->pos[i], j->wrap, n.flat, n.best2)) return n.best2;
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
    const boids_ring_grid *g;
    float width, height, depth; /* depth 0: a flat world */
    bool wrap, whole_cells;
    int reach[3]; /* cells within reach along x, y, z: ceil(radius / the cell's side) */
    double r2;
    uint32_t *parent; /* over the grid's slots */
    const int *stop;  /* boids_should_stop's request */
} group_job;

static double slot_d2(const group_job *j, uint32_t a, uint32_t b)
{
    const boids_ring_grid *g = j->g;
    double dx = boids_wrap_delta((double)g->pos[b].x - g->pos[a].x, j->width, j->wrap);
    double dy = boids_wrap_delta((double)g->pos[b].y - g->pos[a].y, j->height, j->wrap);
    if (j->depth == 0) return dx * dx + dy * dy;
    double dz = boids_wrap_delta((double)g->pos[b].z - g->pos[a].z, j->depth, j->wrap);
    return dx * dx + dy * dy + dz * dz;
}

/* Whether cell c's boids are all within the radius of each other (its diagonal is, and it holds
 * no boid from outside a box). */
static bool cell_whole(const group_job *j, uint32_t c)
{
    const boids_ring_grid *g = j->g;
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
    const boids_ring_grid *g = j->g;
    const bool whole = c != d && cell_whole(j, c) && cell_whole(j, d);
    if (whole && find_shared(j->parent, g->start[c]) == find_shared(j->parent, g->start[d])) return;
    for (uint32_t a = g->start[c]; a < g->start[c + 1]; ++a)
        for (uint32_t b = c == d ? a + 1 : g->start[d]; b < g->start[d + 1]; ++b) {
            if (slot_d2(j, a, b) > j->r2) continue;
            unite_shared(j->parent, a, b);
            if (whole) return;
        }
}

/* Links cell c (at cx, cy, cz) with the cells after it within reach, each once: per axis its own
 * reach, and an axis shorter than the reach's span read once whole (a world 3 px wide and 10^7
 * long once read its one column's cells 35^2 times over, for seconds). */
static void link_around(const group_job *j, uint32_t c, int cx, int cy, int cz)
{
    const boids_ring_grid *g = j->g;
    int lx[2], hx[2], ly[2], hy[2], lz[2] = {0, 0}, hz[2] = {0, 0};
    const int nx = boids_axis_spans(cx, j->reach[0], g->gw, j->wrap, lx, hx);
    const int ny = boids_axis_spans(cy, j->reach[1], g->gh, j->wrap, ly, hy);
    const int nz = j->depth > 0 ? boids_axis_spans(cz, j->reach[2], g->gd, j->wrap, lz, hz) : 1;
    for (int sz = 0; sz < nz; ++sz)
        for (int z = lz[sz]; z <= hz[sz]; ++z)
            for (int sy = 0; sy < ny; ++sy)
                for (int y = ly[sy]; y <= hy[sy]; ++y)
                    for (int sx = 0; sx < nx; ++sx)
                        for (int x = lx[sx]; x <= hx[sx]; ++x) {
                            const uint32_t d = boids_ring_index(g, x, y, z);
                            if (d > c && g->start[d] < g->start[d + 1])
                                link_cells(j, c, d); /* once a pair */
                        }
}

static void group_chunk(void *ctx, uint32_t begin, uint32_t end)
{
    const group_job *j = ctx;
    const boids_ring_grid *g = j->g;
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
static double axis_centre(const float *p, size_t stride, uint32_t n, double size, bool wrap)
{
    double sum = 0, c = 0, s = 0;
    const double two_pi = 6.283185307179586, k = two_pi / size;
    for (uint32_t i = 0; i < n; ++i) {
        const float x = p[i * stride];
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
static void milling_sums(const boids_flock_view *b, uint32_t n, float width, float height,
                         float depth, bool wrap, boids_metric_sums *m)
{
    const bool three = depth > 0;
    const double cx = axis_centre(b->x, b->stride, n, width, wrap),
                 cy = axis_centre(b->y, b->stride, n, height, wrap),
                 cz = three ? axis_centre(b->z, b->stride, n, depth, wrap) : 0.0;
    double lx = 0, ly = 0, lz = 0, den = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const double rx = boids_wrap_delta(boids_view_at(b, b->x, i) - cx, width, wrap),
                     ry = boids_wrap_delta(boids_view_at(b, b->y, i) - cy, height, wrap),
                     rz = three ? boids_wrap_delta(boids_view_at(b, b->z, i) - cz, depth, wrap)
                                : 0.0;
        const double vx = boids_view_at(b, b->vx, i), vy = boids_view_at(b, b->vy, i),
                     vz = three ? boids_view_at(b, b->vz, i) : 0.0;
        lx += ry * vz - rz * vy, ly += rz * vx - rx * vz, lz += rx * vy - ry * vx;
        den += sqrt(rx * rx + ry * ry + rz * rz) * sqrt(vx * vx + vy * vy + vz * vz);
    }
    m->mill_num = sqrt(lx * lx + ly * ly + lz * lz), m->mill_den = den;
}

/* The groups over a links grid built with cells whose diagonal is at most the radius (where
 * the 4096-cell cap allows): parent[slot] ends at each group's root, its smallest slot. */
static void link_groups(const boids_ring_grid *links, float width, float height, float depth,
                        bool wrap, float group_radius, boids_pool *pool, const int *stop,
                        uint32_t *parent)
{
    const bool three = depth > 0;
    const double radius = group_radius > 0 ? group_radius : 1e-3;
    const uint32_t n = links->start[links->gw * links->gh * links->gd];
    for (uint32_t i = 0; i < n; ++i) parent[i] = i;
    const double diagonal2 =
        links->cw * links->cw + links->ch * links->ch + (three ? links->cd * links->cd : 0.0);
    group_job gj = {links,
                    width,
                    height,
                    depth,
                    wrap,
                    diagonal2 <= (double)radius * radius,
                    {boids_reach_of(radius, links->cw, links->gw),
                     boids_reach_of(radius, links->ch, links->gh),
                     three ? boids_reach_of(radius, links->cd, links->gd) : 0},
                    (double)group_radius * group_radius,
                    parent,
                    stop};
    boids_pool_run(pool, group_chunk, &gj, (uint32_t)(links->gw * links->gh * links->gd));
}

static boids_status sums_of_living(const boids_flock_view *b, uint32_t n, float width, float height,
                                   float depth, bool wrap, float group_radius, boids_pool *pool,
                                   const int *stop, boids_metrics_work *work, boids_metric_sums *m)
{
    *m = (boids_metric_sums){0};
    m->alive = n;
    if (n == 0) return BOIDS_OK;
    m->min_speed = INFINITY;
    const bool three = depth > 0;
    for (uint32_t i = 0; i < n; ++i) {
        const double vx = boids_view_at(b, b->vx, i), vy = boids_view_at(b, b->vy, i),
                     vz = three ? boids_view_at(b, b->vz, i) : 0.0;
        double s = sqrt(vx * vx + vy * vy + vz * vz);
        m->speed_sum += s;
        if (s < m->min_speed) m->min_speed = s; /* (fmin and fmax: calls into libm) */
        if (s > m->max_speed) m->max_speed = s;
        if (s > 0) {
            m->hx += vx / s;
            m->hy += vy / s;
            m->hz += vz / s;
        }
    }
    m->groups = 1;
    if (n < 2) return BOIDS_OK;
    milling_sums(b, n, width, height, depth, wrap, m);
    /* Half a boid a cell for the nearest neighbours (in a clumped flock a cell of the mean
     * density holds dozens, and the first square looked at nine cells of them); for the groups,
     * cells whose diagonal is at most the radius. */
    boids_ring_grid *grid = &work->grid;
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
    boids_status st = room && boids_ring_grid_build(grid, b, n, width, height, depth, near_cell,
                                                    false, parent, pool)
                          ? BOIDS_OK
                          : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    if (st == BOIDS_OK) {
        near_job nj = {grid, width, height, depth, wrap, nn, stop};
        boids_pool_run(pool, near_chunk, &nj, n);
        if (!boids_ring_grid_build(grid, b, n, width, height, depth,
                                   radius / sqrt(three ? 3.0 : 2.0), true, parent, pool))
            st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    }
    if (st == BOIDS_OK) {
        link_groups(grid, width, height, depth, wrap, group_radius, pool, stop, parent);
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

boids_status boids_metric_sums_compute(const boids_flock_view *b, uint32_t n, float width,
                                       float height, float depth, bool wrap, float group_radius,
                                       boids_pool *pool, const int *stop, boids_metrics_work **work,
                                       boids_metric_sums *out)
{
    boids_metrics_work *own = NULL;
    if (!work) work = &own; /* nothing to keep: freed at the end */
    if (!*work && !(*work = calloc(1, sizeof **work)))
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    boids_metrics_work *w = *work;
    /* Caught boids are gone: the observables are the living's. */
    uint32_t living = 0;
    for (uint32_t i = 0; i < n; ++i) living += boids_view_alive(b, i);
    boids_status st = BOIDS_OK;
    if (living < n && living > w->living_cap) {
        free(w->living);
        w->living = malloc(sizeof *w->living * 6 * living);
        w->living_cap = w->living ? living : 0;
        if (!w->living) st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    }
    boids_flock_view alive = *b;
    if (st == BOIDS_OK && living < n) { /* the living's columns */
        float *c = w->living;
        alive = (boids_flock_view){
            c, c + living, c + 2 * living, c + 3 * living, c + 4 * living, c + 5 * living, NULL, 1};
        for (uint32_t i = 0, k = 0; i < n; ++i)
            if (boids_view_alive(b, i)) {
                c[k] = boids_view_at(b, b->x, i), c[living + k] = boids_view_at(b, b->y, i);
                c[2 * living + k] = boids_view_at(b, b->z, i),
                               c[3 * living + k] = boids_view_at(b, b->vx, i);
                c[4 * living + k] = boids_view_at(b, b->vy, i),
                               c[5 * living + k++] = boids_view_at(b, b->vz, i);
            }
    }
    if (st == BOIDS_OK)
        st = sums_of_living(&alive, living, width, height, depth, wrap, group_radius, pool, stop, w,
                            out);
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

boids_status boids_metric_groups(const boids_flock_view *b, uint32_t n, float width, float height,
                                 float depth, bool wrap, float group_radius, boids_pool *pool,
                                 const int *stop, uint32_t *group_of, uint32_t *groups)
{
    *groups = 0;
    if (n == 0) return BOIDS_OK;
    const double radius = group_radius > 0 ? group_radius : 1e-3;
    boids_ring_grid links = {0};
    uint32_t *parent = malloc(sizeof *parent * n), *dense = malloc(sizeof *dense * n);
    boids_status st =
        parent && dense &&
                boids_ring_grid_build(&links, b, n, width, height, depth,
                                      radius / sqrt(depth > 0 ? 3.0 : 2.0), true, parent, pool)
            ? BOIDS_OK
            : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the groups");
    if (st == BOIDS_OK) {
        link_groups(&links, width, height, depth, wrap, group_radius, pool, stop, parent);
        if (boids_should_stop(stop))
            st = boids_fail(BOIDS_E_INTERRUPTED, "the groups of %u boids were stopped by %s", n,
                            boids_stop_reason());
    }
    if (st == BOIDS_OK) { /* numbered in the order of their first boid: whatever the threads */
        for (uint32_t s = 0; s < n; ++s) dense[s] = UINT32_MAX;
        for (uint32_t s = 0; s < n; ++s) group_of[links.order[s]] = find_shared(parent, s);
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t root = group_of[i];
            if (dense[root] == UINT32_MAX) dense[root] = (*groups)++;
            group_of[i] = dense[root];
        }
    }
    boids_ring_grid_free(&links);
    free(parent), free(dense);
    return st;
}
