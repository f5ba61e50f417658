/* An experiment's figures, drawn with PLplot through its cairo PNG device (Debian's libplplot-dev
 * and plplot-driver-cairo), from the finished tables:
 *
 *   ages.png     the ages of the caught boids (events.csv), 10 bins over [0, 1], one panel per
 *                combination of the sweeps; the dashed line is what uniform ages would give,
 *                and the title gives the share beyond 0.25 of 0.5 (a uniform age: 50 %)
 *   metrics.png  polarization, mean nearest neighbour, groups and living boids (models with
 *                predators; else the mean speed) against time
 *                (metrics.csv, the rows at multiples of --metrics-every): for each combination
 *                the mean over the runs still running at that time, with a band of one standard
 *                deviation either side */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/experiment/plots.h"
#include "app/plot.h"
#include "base/error.h"
#include "base/parse.h"

/* A table of numbers read back from a CSV we wrote (every field a number). */
typedef struct table {
    size_t rows, cols;
    double *v; /* rows x cols */
} table;

/* A table's first `cols` columns as numbers; the `sweeps` columns after run and seed are the
 * sweeps' values, text where a world setting is swept ("nearest:7"): read as NaN (a combination
 * is known by its run). */
static boids_status table_read(const char *path, size_t cols, size_t sweeps, table *t)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    FILE *f = fopen(path, "r");
    if (!f) return boids_fail_file(BOIDS_E_FILE_READ, path, 0, "cannot read: %s", strerror(errno));
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    boids_status st = BOIDS_OK;
    for (long n = 0; getline(&line, &cap, f) > 0; ++n) {
        if (n == 0) continue; /* the header */
        if (t->rows == alloc) {
            alloc = alloc ? alloc * 2 : 1024;
            double *more = realloc(t->v, sizeof *t->v * alloc * cols);
            if (!more) {
                st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory reading %s", path);
                break;
            }
            t->v = more;
        }
        char *p = line;
        for (size_t c = 0; c < cols; ++c) {
            char *end = p;
            if (c >= 2 && c < 2 + sweeps) {
                end += strcspn(p, ",\n");
                t->v[t->rows * cols + c] = NAN;
            } else {
                t->v[t->rows * cols + c] = strtod(p, &end);
            }
            if (end == p) {
                st = boids_fail_file(BOIDS_E_FILE_READ, path, n + 1, "not a table of %zu numbers",
                                     cols);
                break;
            }
            p = *end == ',' ? end + 1 : end;
        }
        if (st != BOIDS_OK) break;
        t->rows++;
    }
    free(line);
    fclose(f);
    return st;
}

static double at(const table *t, size_t r, size_t c) { return t->v[r * t->cols + c]; }

/* The colours: 0 background, 1 ink, 2 grid, 3.. series. */
/* A panel's frame: window, grid, box, labels, and a title of one or two lines (subtitle: the
 * lower one, or NULL); the plotted area ends at `right` of the panel's width (room for a key). */
static void frame(double x0, double x1, double y0, double y1, const char *xl, const char *yl,
                  const char *title, const char *subtitle, double right)
{
    pladv(0);
    plschr(0, 0.85);
    plvpor(0.19, right, 0.17, 0.82);
    plwind(x0, x1, y0, y1);
    plcol0(2);
    plbox("g", 0, 0, "g", 0, 0);
    plcol0(1);
    plbox("bcnst", 0, 0, "bcnstv", 0, 0);
    pllab(xl, yl, "");
    plschr(0, 0.8);
    plmtex("t", subtitle ? 2.6 : 1.2, 0.5, 0.5, title);
    plschr(0, 0.7);
    if (subtitle) plmtex("t", 1.1, 0.5, 0.5, subtitle);
}

static boids_status plot_ages(const char *dir, const boids_experiment *e, const table *ev,
                              bool *drew)
{
    const size_t age_col =
        2 + (size_t)e->nsweeps + 3; /* run, seed, sweeps, step, time, boid, age */
    const uint32_t panels = e->combos < 36 ? e->combos : 36;
    uint32_t *bins = calloc((size_t)panels * 10, sizeof *bins),
             *total = calloc(panels, sizeof *total);
    uint32_t *extreme = calloc(panels, sizeof *extreme);
    if (!bins || !total || !extreme) {
        free(bins), free(total), free(extreme);
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the histogram");
    }
    for (size_t r = 0; r < ev->rows; ++r) {
        uint32_t combo = (uint32_t)(at(ev, r, 0) / e->runs);
        double age = at(ev, r, age_col);
        if (combo >= panels || !(age >= 0 && age <= 1)) continue;
        int b = (int)(age * 10);
        bins[combo * 10 + (b > 9 ? 9 : b)]++;
        total[combo]++;
        extreme[combo] += fabs(age - 0.5) > 0.25;
    }
    uint32_t top = 1;
    for (size_t i = 0; i < (size_t)panels * 10; ++i) top = bins[i] > top ? bins[i] : top;
    const int nx = panels < 3 ? (int)panels : 3, ny = (int)((panels + 2) / 3);
    char path[4200];
    snprintf(path, sizeof path, "%s/ages.png", dir);
    boids_output_file out;
    boids_status st = boids_plot_begin(&out, path, 520 * nx, 420 * ny, nx, ny);
    for (uint32_t c = 0; st == BOIDS_OK && c < panels; ++c) {
        char label[512], stats[256];
        boids_experiment_label(e, c, label, sizeof label);
        snprintf(stats, sizeof stats, "%u catches, %.0f %% aged < 0.25 or > 0.75", total[c],
                 total[c] ? 100.0 * extreme[c] / total[c] : 0.0);
        frame(0, 1, 0, top * 1.15, "age of the caught boid", "catches", label[0] ? label : stats,
              label[0] ? stats : NULL, 0.95);
        for (int b = 0; b < 10; ++b) {
            PLFLT x[4] = {b / 10.0 + 0.005, b / 10.0 + 0.005, (b + 1) / 10.0 - 0.005,
                          (b + 1) / 10.0 - 0.005};
            PLFLT y[4] = {0, bins[c * 10 + b], bins[c * 10 + b], 0};
            plcol0(3);
            plfill(4, x, y);
        }
        PLFLT ux[2] = {0, 1}, uy[2] = {total[c] / 10.0, total[c] / 10.0};
        plcol0(4);
        pllsty(2);
        plline(2, ux, uy);
        pllsty(1);
    }
    if (st == BOIDS_OK && (st = boids_plot_end(&out)) == BOIDS_OK) {
        *drew = true;
        printf("  %s: caught ages, %u panel%s%s\n", path, panels, panels == 1 ? "" : "s",
               panels < e->combos ? " (the first 36 combinations)" : "");
    }
    free(bins), free(total), free(extreme);
    return st;
}

/* The mean over the runs of one metric at one point in time, for one combination: n, sum, sum of
 * squares. */
typedef struct moments {
    double n, sum, sq;
} moments;

/* One series: the mean as a line (dashed where fewer than half the combination's runs still run,
 * so a tail resting on a few runs shows as one), a band of one standard deviation. */
static void draw_series(const moments *m, size_t points, double t_step, uint32_t runs, int colour,
                        PLFLT *x, PLFLT *y, PLFLT *px, PLFLT *py)
{
    size_t n = 0;
    double sd[4096];
    for (size_t p = 0; p < points && n < 4096; ++p) {
        if (m[p].n == 0) continue;
        x[n] = (double)p * t_step;
        y[n] = m[p].sum / m[p].n;
        sd[n] = sqrt(fmax(0, m[p].sq / m[p].n - y[n] * y[n]));
        ++n;
    }
    if (n == 0) return;
    for (size_t i = 0; i < n; ++i) { /* the band: the upper edge out, the lower one back */
        px[i] = x[i], py[i] = y[i] + sd[i];
        px[n + i] = x[n - 1 - i], py[n + i] = y[n - 1 - i] - sd[n - 1 - i];
    }
    boids_plot_colour(colour, 0.22);
    plfill((PLINT)(2 * n), px, py);
    boids_plot_colour(colour, 1.0);
    plwidth(2);
    for (size_t i = 0, k = 0; i + 1 < n; ++i) { /* segment by segment: solid or dashed */
        while (k < points && (m[k].n == 0 || (double)k * t_step < x[i + 1])) ++k;
        const bool few = m[k < points ? k : points - 1].n * 2 < runs;
        pllsty(few ? 2 : 1);
        plline(2, &x[i], &y[i]);
    }
    pllsty(1);
    plwidth(1);
}

static boids_status plot_metrics(const char *dir, const boids_experiment *e, const table *me)
{
    /* metrics.csv: run, seed, sweeps, then step,time,alive,polarization,mean_nn,mean_speed,
     * min_speed,max_speed,groups,catches,milling */
    const size_t base = 2 + (size_t)e->nsweeps;
    /* the fourth panel: the living boids where boids die, else the mean speed */
    const bool dying = (boids_model_features(e->def.model) & BOIDS_FEATURE_PREDATORS) != 0;
    const bool per_s = boids_model_time_base(e->def.model) == BOIDS_TIME_PER_SECOND;
    const size_t cols[4] = {base + 3, base + 4, base + 8, dying ? base + 2 : base + 5};
    const char *names[4] = {"polarization", "nearest neighbour (px)", "groups",
                            dying   ? "living boids"
                            : per_s ? "mean speed (px/s)"
                                    : "mean speed (px/frame)"};
    const uint32_t K = e->metrics_every,
                   series = e->combos < BOIDS_PLOT_SERIES ? e->combos : BOIDS_PLOT_SERIES;
    double last = 0;
    for (size_t r = 0; r < me->rows; ++r) last = fmax(last, at(me, r, base));
    if (last == 0) { /* every run ended at its first row: a point, no curve */
        printf("  %s/metrics.png: not drawn (every run has one point in time, at step 0)\n", dir);
        return BOIDS_OK;
    }
    const size_t points = (size_t)(last / K) + 1;
    double dt = 0; /* time per step, from a row past step 0 */
    for (size_t r = 0; r < me->rows && dt == 0; ++r)
        if (at(me, r, base) > 0) dt = at(me, r, base + 1) / at(me, r, base);
    moments *sum = calloc(points * series * 4, sizeof *sum);
    if (!sum) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the metrics plot");
    for (size_t r = 0; r < me->rows; ++r) {
        double step = at(me, r, base);
        uint32_t combo = (uint32_t)(at(me, r, 0) / e->runs);
        if (combo >= series || fmod(step, K) != 0) continue; /* a run's last row, off the grid */
        size_t p = (size_t)(step / K);
        for (int q = 0; q < 4; ++q) {
            moments *m = &sum[((size_t)combo * 4 + (size_t)q) * points + p];
            double v = at(me, r, cols[q]);
            m->n += 1, m->sum += v, m->sq += v * v;
        }
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/metrics.png", dir);
    boids_output_file out;
    const bool key = e->nsweeps > 0; /* a key of the series, right of each panel, off the curves */
    boids_status st = boids_plot_begin(&out, path, key ? 1600 : 1300, 900, 2, 2);
    PLFLT *x = malloc(sizeof *x * points), *y = malloc(sizeof *y * points);
    PLFLT *px = malloc(sizeof *px * points * 2), *py = malloc(sizeof *py * points * 2);
    if (st == BOIDS_OK && (!x || !y || !px || !py))
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory");
    const double t_step = K * (dt > 0 ? dt : 1);
    for (int q = 0; st == BOIDS_OK && q < 4; ++q) {
        double lo = INFINITY, hi = -INFINITY;
        for (uint32_t c = 0; c < series; ++c)
            for (size_t p = 0; p < points; ++p) {
                const moments *m = &sum[((size_t)c * 4 + (size_t)q) * points + p];
                if (m->n == 0) continue;
                double mean = m->sum / m->n, dev = sqrt(fmax(0, m->sq / m->n - mean * mean));
                lo = fmin(lo, mean - dev), hi = fmax(hi, mean + dev);
            }
        if (!(hi > lo)) lo = isfinite(lo) ? lo - 1 : 0, hi = isfinite(hi) ? hi + 1 : 1;
        frame(
            0, last * (dt > 0 ? dt : 1), lo, hi + (hi - lo) * 0.08, dt > 0 ? "time (s)" : "step",
            names[q], names[q],
            "the runs' mean and one standard deviation; dashed: fewer than half the runs still run",
            key ? 0.72 : 0.95);
        for (uint32_t c = 0; c < series; ++c) {
            draw_series(&sum[((size_t)c * 4 + (size_t)q) * points], points, t_step, e->runs,
                        3 + (int)c, x, y, px, py);
            if (key) { /* the key, in the series' colour, outside the plotted area */
                char label[512];
                boids_experiment_label(e, c, label, sizeof label);
                plcol0(3 + (int)c);
                plschr(0, 0.7);
                plmtex("rv", 1.0, 0.95 - 0.07 * c, 0.0, label);
            }
        }
    }
    if (st == BOIDS_OK && (st = boids_plot_end(&out)) == BOIDS_OK)
        printf("  %s: metrics over time%s\n", path,
               series < e->combos ? " (the first 10 combinations)" : "");
    free(x), free(y), free(px), free(py), free(sum);
    return st;
}

boids_status boids_exp_plot(const char *dir, const boids_experiment *e)
{
    if (boids_plot_available() != BOIDS_OK) { /* the tables are the results: not a failure */
        fprintf(stderr,
                "boids: no plots: %s; the tables are complete (`boids experiment-merge "
                "NEW %s` draws them where PLplot is installed)\n",
                boids_last_error(), dir);
        return BOIDS_OK;
    }
    char path[4200];
    const size_t prefix = 2 + (size_t)e->nsweeps;
    table ev;
    snprintf(path, sizeof path, "%s/events.csv", dir);
    boids_status st = table_read(path, prefix + 5, (size_t)e->nsweeps, &ev);
    bool drew = false;
    if (st == BOIDS_OK && ev.rows && (boids_model_attributes(e->def.model) & BOIDS_ATTR_BIT(AGE)))
        st = plot_ages(dir, e, &ev, &drew);
    free(ev.v);
    if (st == BOIDS_OK && e->metrics_every) {
        table me;
        snprintf(path, sizeof path, "%s/metrics.csv", dir);
        st = table_read(path, prefix + 10, (size_t)e->nsweeps, &me);
        if (st == BOIDS_OK && me.rows) st = plot_metrics(dir, e, &me);
        free(me.v);
    }
    return st;
}
