/* The benchmark's figure, with PLplot's cairo PNG device (as the experiments' plots): ns per
 * boid-step against the number of boids, both axes logarithmic, one line per backend through the
 * medians, a vertical mark for each measurement's range over the repeats; one panel per start
 * (random, steady), in the palette of app/plot.h. A flat line is linear scaling; the floor of the
 * panel is the faster. A benchmark of one size has no scaling to show: bars per backend then. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/plot.h"
#include "bench.h"

static const char *const backends[] = {"gpu", "gpu+draw", "cpu-1", "cpu", "cpu-brute"};
#define NBACKENDS 5

/* One panel of bars: each backend's median at the one size, its range over the repeats as a
 * line, the value written above it; the axis logarithmic, since the backends differ by orders of
 * magnitude (a linear one hid the CPU's 130 ns beside llvmpipe's 10 000); a backend not measured
 * here says "not run". */
static void bars(const bench_row *rows, int nrows, const char *model, const char *start, double hi,
                 const char *title, uint32_t boids)
{
    double lo = hi;
    for (int i = 0; i < nrows; ++i)
        if (!strcmp(rows[i].model, model) && rows[i].ns_min > 0) lo = fmin(lo, rows[i].ns_min);
    const double y0 = floor(log10(lo)) - 0.2, y1 = log10(hi) + 0.35;
    pladv(0);
    plschr(0, 0.9);
    plvpor(0.15, 0.97, 0.13, 0.80);
    plwind(-0.5, NBACKENDS - 0.5, y0, y1);
    plcol0(2);
    plbox("", 0, 0, "gl", 0, 0);
    plcol0(1);
    plbox("bc", 0, 0, "bcnstvl", 0, 0);
    char t[256];
    snprintf(t, sizeof t, "%s, %s start, %u boids", model, start, boids);
    pllab("", "ns per boid-step", "");
    plmtex("t", 1.2, 0.5, 0.5, t);
    if (title) {
        plschr(0, 0.65);
        plmtex("t", 3.2, 0.5, 0.5, title);
        plschr(0, 0.9);
    }
    for (int b = 0; b < NBACKENDS; ++b) {
        plcol0(1);
        plmtex("b", 1.5, (b + 0.5) / NBACKENDS, 0.5, backends[b]);
        bool measured = false;
        for (int i = 0; i < nrows; ++i) {
            const bench_row *r = &rows[i];
            if (strcmp(r->model, model) || strcmp(r->backend, backends[b]) ||
                strcmp(r->start, start) || !(r->ns_median > 0))
                continue;
            measured = true;
            const double top = log10(r->ns_median);
            PLFLT x[4] = {b - 0.3, b - 0.3, b + 0.3, b + 0.3}, y[4] = {y0, top, top, y0};
            plcol0(3 + b);
            plfill(4, x, y);
            PLFLT ex[2] = {b, b}, ey[2] = {log10(r->ns_min), log10(r->ns_max)};
            plcol0(1);
            plline(2, ex, ey);
            char v[32];
            snprintf(v, sizeof v, "%.0f", r->ns_median);
            plptex(b, log10(r->ns_max) + 0.06, 1, 0, 0.5, v);
        }
        plcol0(10);
        if (!measured) plptex(b, y0 + 0.15, 1, 0, 0.5, "not run");
    }
}

int bench_plot(const char *path, const bench_row *rows, int nrows, const char *model,
               const char *title)
{
    static const char *const starts[2] = {"random", "steady"};
    double lo = INFINITY, hi = 0, nlo = INFINITY, nhi = 0;
    for (int i = 0; i < nrows; ++i) {
        if (strcmp(rows[i].model, model) != 0 || !(rows[i].ns_min > 0)) continue;
        lo = fmin(lo, rows[i].ns_min), hi = fmax(hi, rows[i].ns_max);
        nlo = fmin(nlo, rows[i].boids), nhi = fmax(nhi, rows[i].boids);
    }
    if (!(hi > 0)) return -1;
    boids_output_file out;
    if (boids_plot_begin(&out, path, 1400, 620, 2, 1) != BOIDS_OK) {
        fprintf(stderr, "boids-bench: %s\n", boids_last_error());
        return -1;
    }
    if (nlo == nhi) { /* one size: bars */
        for (int s = 0; s < 2; ++s) bars(rows, nrows, model, starts[s], hi, title, (uint32_t)nlo);
        return boids_plot_end(&out) == BOIDS_OK ? 0 : -1;
    }
    const double x0 = floor(log10(nlo)) - 0.1, x1 = ceil(log10(nhi)) + 0.1;
    const double y0 = floor(log10(lo) * 2) / 2 - 0.05, y1 = ceil(log10(hi) * 2) / 2 + 0.05;
    for (int s = 0; s < 2; ++s) {
        pladv(0);
        plschr(0, 0.9);
        plvpor(0.15, 0.97, 0.13, 0.80);
        plwind(x0, x1, y0, y1);
        plcol0(2);
        plbox("gl", 0, 0, "gl", 0, 0);
        plcol0(1);
        plbox("bcnstl", 0, 0, "bcnstvl", 0, 0);
        char t[256];
        snprintf(t, sizeof t, "%s, %s start", model, starts[s]);
        pllab("boids", "ns per boid-step", "");
        plmtex("t", 1.2, 0.5, 0.5, t);
        if (title) {
            plschr(0, 0.65);
            plmtex("t", 3.2, 0.5, 0.5, title);
            plschr(0, 0.9);
        }
        double ly = 0.95;
        for (int b = 0; b < NBACKENDS; ++b) {
            PLFLT xs[32], ys[32];
            int k = 0;
            for (int i = 0; i < nrows && k < 32; ++i) {
                const bench_row *r = &rows[i];
                if (strcmp(r->model, model) || strcmp(r->backend, backends[b]) ||
                    strcmp(r->start, starts[s]) || !(r->ns_median > 0))
                    continue;
                xs[k] = log10(r->boids), ys[k] = log10(r->ns_median);
                plcol0(3 + b);
                PLFLT ex[2] = {xs[k], xs[k]}, ey[2] = {log10(r->ns_min), log10(r->ns_max)};
                plwidth(1);
                plline(2, ex, ey);
                ++k;
            }
            if (k == 0) continue;
            plcol0(3 + b);
            plwidth(2.5);
            plline(k, xs, ys);
            plpoin(k, xs, ys, 17);
            /* the legend, top right inside the panel */
            PLFLT lx[2] = {x1 - (x1 - x0) * 0.30, x1 - (x1 - x0) * 0.22}, lyy[2];
            lyy[0] = lyy[1] = y0 + (y1 - y0) * ly;
            plline(2, lx, lyy);
            plcol0(1);
            plschr(0, 0.75);
            plptex(x1 - (x1 - x0) * 0.20, lyy[0], 1, 0, 0, backends[b]);
            plschr(0, 0.9);
            ly -= 0.06;
        }
        plwidth(1);
    }
    return boids_plot_end(&out) == BOIDS_OK ? 0 : -1;
}
