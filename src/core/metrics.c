#include "core/metrics.h"

#include <math.h>
#include <stdlib.h>

#include "base/error.h"

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

/* A grid of about 2 boids per cell over the living boids, for searches outwards by rings. */
typedef struct ring_grid {
    int gw, gh;
    double cw, ch;
    uint32_t *start, *order, *cell_of;
} ring_grid;

static void ring_grid_free(ring_grid *g) { free(g->start), free(g->order), free(g->cell_of); }

static bool ring_grid_build(ring_grid *g, const boids_boid *b, uint32_t n, float width,
                            float height)
{
    double cell = sqrt((double)width * height / n * 2.0);
    g->gw = (int)fmax(1, fmin(4096, floor(width / cell)));
    g->gh = (int)fmax(1, fmin(4096, floor(height / cell)));
    g->cw = (double)width / g->gw, g->ch = (double)height / g->gh;
    const size_t cells = (size_t)g->gw * g->gh;
    g->start = calloc(cells + 1, sizeof *g->start);
    g->order = malloc(sizeof *g->order * n);
    g->cell_of = malloc(sizeof *g->cell_of * n);
    uint32_t *fill = calloc(cells, sizeof *fill);
    if (!g->start || !g->order || !g->cell_of || !fill) {
        free(fill);
        ring_grid_free(g);
        return false;
    }
    for (uint32_t i = 0; i < n; ++i) {
        /* boids outside a bounded world go in the edge cells (the ring search stays exact: a
         * ring's reach is measured from the cell, and outside boids are only farther) */
        int cx = (int)fmin(g->gw - 1, fmax(0, floor(b[i].x / g->cw)));
        int cy = (int)fmin(g->gh - 1, fmax(0, floor(b[i].y / g->ch)));
        g->cell_of[i] = (uint32_t)(cy * g->gw + cx);
        g->start[g->cell_of[i] + 1]++;
    }
    for (size_t c = 0; c < cells; ++c) g->start[c + 1] += g->start[c];
    for (uint32_t i = 0; i < n; ++i) g->order[g->start[g->cell_of[i]] + fill[g->cell_of[i]]++] = i;
    free(fill);
    return true;
}

/* Calls visit(ctx, j, d2) for every other boid j in ring `ring` around boid i's cell. */
static void ring_visit(const ring_grid *g, const boids_boid *b, uint32_t i, int ring, float width,
                       float height, bool wrap, void (*visit)(void *, uint32_t, double), void *ctx)
{
    int cx = (int)(g->cell_of[i] % (uint32_t)g->gw), cy = (int)(g->cell_of[i] / (uint32_t)g->gw);
    for (int dy = -ring; dy <= ring; ++dy)
        for (int dx = -ring; dx <= ring; ++dx) {
            if (abs(dx) != ring && abs(dy) != ring) continue;
            int x = cx + dx, y = cy + dy;
            if (!wrap && (x < 0 || y < 0 || x >= g->gw || y >= g->gh)) continue;
            /* on a torus a ring wider than the grid revisits cells: harmless for a minimum and
             * for a link (a second union of a pair changes nothing) */
            x = (x % g->gw + g->gw) % g->gw;
            y = (y % g->gh + g->gh) % g->gh;
            int c = y * g->gw + x;
            for (uint32_t k = g->start[c]; k < g->start[c + 1]; ++k) {
                uint32_t j = g->order[k];
                if (j == i) continue;
                double ddx = wrap_delta((double)b[j].x - b[i].x, width, wrap);
                double ddy = wrap_delta((double)b[j].y - b[i].y, height, wrap);
                visit(ctx, j, ddx * ddx + ddy * ddy);
            }
        }
}

static void nearest(void *ctx, uint32_t j, double d2)
{
    (void)j;
    double *best2 = ctx;
    if (d2 < *best2) *best2 = d2;
}

/* Union-find over the living boids: roots are the smallest index of their set. */
typedef struct links {
    uint32_t *parent;
    uint32_t i;
    double r2;
} links;

static uint32_t find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; /* path halving */
        x = parent[x];
    }
    return x;
}

static void link(void *ctx, uint32_t j, double d2)
{
    links *l = ctx;
    if (j < l->i || d2 > l->r2) return; /* each pair once, within the radius */
    uint32_t a = find(l->parent, l->i), b = find(l->parent, j);
    if (a == b) return;
    if (a < b)
        l->parent[b] = a;
    else
        l->parent[a] = b;
}

static boids_status sums_of_living(const boids_boid *b, uint32_t n, float width, float height,
                                   bool wrap, float group_radius, boids_metric_sums *m)
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
    ring_grid g;
    uint32_t *parent = malloc(sizeof *parent * n);
    if (!parent || !ring_grid_build(&g, b, n, width, height)) {
        free(parent);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    }
    const int max_ring = (g.gw > g.gh ? g.gw : g.gh) / 2 + 1;
    const double cmin = fmin(g.cw, g.ch);
    /* Every boid in ring r is at least (r - 1) cells away: nearest neighbours search outwards
     * until a ring is farther than the best found; links search the rings that can hold a boid
     * within the radius (on a torus, no farther than the grid's half, past which rings repeat). */
    const int link_rings = (int)fmin(max_ring, ceil(group_radius / cmin) + 1);
    for (uint32_t i = 0; i < n; ++i) {
        double best2 = INFINITY;
        for (int ring = 0; ring <= max_ring; ++ring) {
            double reach = (ring - 1) * cmin;
            if (ring > 0 && reach > 0 && reach * reach > best2) break;
            ring_visit(&g, b, i, ring, width, height, wrap, nearest, &best2);
        }
        m->nn_sum += sqrt(best2);
        parent[i] = i;
    }
    links l = {parent, 0, (double)group_radius * group_radius};
    for (l.i = 0; l.i < n; ++l.i)
        for (int ring = 0; ring <= link_rings; ++ring)
            ring_visit(&g, b, l.i, ring, width, height, wrap, link, &l);
    m->groups = 0;
    for (uint32_t i = 0; i < n; ++i) m->groups += find(parent, i) == i;
    free(parent);
    ring_grid_free(&g);
    return BOIDS_OK;
}

boids_status boids_metric_sums_compute(const boids_boid *b, uint32_t n, float width, float height,
                                       bool wrap, float group_radius, boids_metric_sums *out)
{
    /* Caught boids are gone: the observables are the living's. */
    uint32_t living = 0;
    for (uint32_t i = 0; i < n; ++i) living += b[i].alive != 0;
    if (living == n) return sums_of_living(b, n, width, height, wrap, group_radius, out);
    boids_boid *alive = malloc(sizeof *alive * (living ? living : 1));
    if (!alive) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    for (uint32_t i = 0, k = 0; i < n; ++i)
        if (b[i].alive) alive[k++] = b[i];
    boids_status st = sums_of_living(alive, living, width, height, wrap, group_radius, out);
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
