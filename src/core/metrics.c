#include "core/metrics.h"

#include <math.h>
#include <stdlib.h>

#include "core/error.h"

/* Wrapped offset in double precision. */
static double wrap_delta(double d, double size, bool wrap)
{
    if (!wrap) return d;
    if (d > 0.5 * size) d -= size;
    else if (d < -0.5 * size) d += size;
    return d;
}

static boids_status metrics_of_living(const boids_boid *b, uint32_t n, float width, float height, bool wrap,
                                     boids_metrics *out);

boids_status boids_metrics_compute(const boids_boid *b, uint32_t n, float width, float height, bool wrap,
                                   boids_metrics *out)
{
    /* Caught boids are gone: the observables are the living's. */
    uint32_t living = 0;
    for (uint32_t i = 0; i < n; ++i) living += b[i].alive != 0;
    if (living == n) return metrics_of_living(b, n, width, height, wrap, out);
    boids_boid *alive = malloc(sizeof *alive * (living ? living : 1));
    if (!alive) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
    for (uint32_t i = 0, k = 0; i < n; ++i)
        if (b[i].alive) alive[k++] = b[i];
    boids_status st = metrics_of_living(alive, living, width, height, wrap, out);
    free(alive);
    return st;
}

static boids_status metrics_of_living(const boids_boid *b, uint32_t n, float width, float height, bool wrap,
                                     boids_metrics *out)
{
    boids_metrics m = {0};
    m.alive = n;
    if (n == 0) {
        *out = m;
        return BOIDS_OK;
    }
    double hx = 0, hy = 0, speed_sum = 0;
    m.min_speed = INFINITY;
    for (uint32_t i = 0; i < n; ++i) {
        double s = sqrt((double)b[i].vx * b[i].vx + (double)b[i].vy * b[i].vy);
        speed_sum += s;
        if (s < m.min_speed) m.min_speed = s;
        if (s > m.max_speed) m.max_speed = s;
        if (s > 0) {
            hx += b[i].vx / s;
            hy += b[i].vy / s;
        }
    }
    m.polarization = sqrt(hx * hx + hy * hy) / n;
    m.mean_speed = speed_sum / n;

    /* Nearest neighbours through a grid of about 2 boids per cell, searching rings of cells
     * outwards until the ring is farther than the best distance found. */
    if (n >= 2) {
        double cell = sqrt((double)width * height / n * 2.0);
        int gw = (int)fmax(1, floor(width / cell)), gh = (int)fmax(1, floor(height / cell));
        double cw = (double)width / gw, ch = (double)height / gh;
        uint32_t *start = calloc((size_t)gw * gh + 1, sizeof *start);
        uint32_t *order = malloc(sizeof *order * n);
        uint32_t *cellof = malloc(sizeof *cellof * n);
        if (!start || !order || !cellof) {
            free(start), free(order), free(cellof);
            return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
        }
        for (uint32_t i = 0; i < n; ++i) {
            /* boids outside a bounded world go in the edge cells (the ring search stays exact: a
             * ring's reach is measured from the cell, and outside boids are only farther) */
            int cx = (int)fmin(gw - 1, fmax(0, floor(b[i].x / cw)));
            int cy = (int)fmin(gh - 1, fmax(0, floor(b[i].y / ch)));
            cellof[i] = (uint32_t)(cy * gw + cx);
            start[cellof[i] + 1]++;
        }
        for (int c = 0; c < gw * gh; ++c) start[c + 1] += start[c];
        uint32_t *fill = calloc((size_t)gw * gh, sizeof *fill);
        if (!fill) {
            free(start), free(order), free(cellof);
            return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for metrics");
        }
        for (uint32_t i = 0; i < n; ++i) order[start[cellof[i]] + fill[cellof[i]]++] = i;
        free(fill);

        double nn_sum = 0;
        int max_ring = (gw > gh ? gw : gh) / 2 + 1;
        for (uint32_t i = 0; i < n; ++i) {
            int cx = (int)(cellof[i] % (uint32_t)gw), cy = (int)(cellof[i] / (uint32_t)gw);
            double best2 = INFINITY;
            for (int ring = 0; ring <= max_ring; ++ring) {
                /* Every boid in ring r is at least (r - 1) cells away. */
                double reach = (ring - 1) * fmin(cw, ch);
                if (ring > 0 && reach > 0 && reach * reach > best2) break;
                for (int dy = -ring; dy <= ring; ++dy) {
                    for (int dx = -ring; dx <= ring; ++dx) {
                        if (abs(dx) != ring && abs(dy) != ring) continue;
                        /* Rings wider than the grid would revisit cells: harmless for a minimum. */
                        int x = cx + dx, y = cy + dy;
                        if (!wrap && (x < 0 || y < 0 || x >= gw || y >= gh)) continue;
                        x = (x % gw + gw) % gw;
                        y = (y % gh + gh) % gh;
                        int c = y * gw + x;
                        for (uint32_t k = start[c]; k < start[c + 1]; ++k) {
                            uint32_t j = order[k];
                            if (j == i) continue;
                            double ddx = wrap_delta((double)b[j].x - b[i].x, width, wrap);
                            double ddy = wrap_delta((double)b[j].y - b[i].y, height, wrap);
                            double d2 = ddx * ddx + ddy * ddy;
                            if (d2 < best2) best2 = d2;
                        }
                    }
                }
            }
            nn_sum += sqrt(best2);
        }
        m.mean_nn = nn_sum / n;
        free(start), free(order), free(cellof);
    }
    *out = m;
    return BOIDS_OK;
}
