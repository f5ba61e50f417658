/* boids-bench: how fast each backend steps each model, in ns per boid-step, against the flock's
 * size, at the default density (one boid per 1000 px^2, 16:9).
 *
 *   boids-bench [--models all|NAME,...] [--sizes 1000,10000,100000,1000000]
 *               [--backends gpu,gpu+draw,cpu-1,cpu,cpu-brute] [--starts random,steady]
 *               [--repeats 5] [--seconds 0.5] [--warmup-steps 600] [--out DIR] [--quick]
 *               [--neighbours metric|nearest:K]
 *   boids-bench --export [--sizes 100000] [--frames 60] [--size 1920x1080]
 *
 * Backends: gpu (the simulation alone: wall time from the first dispatch to glFinish, and the GL
 * timer queries of every pass), gpu+draw (each step also draws the flock offscreen at 1920x1080,
 * as the viewer and the export do), cpu-1 and cpu (one thread, every core), cpu-brute (every
 * core, O(N^2) neighbours; up to 20 000 boids). Starts: random (the random initial state) and
 * steady (the state after --warmup-steps steps, computed once per model and size on the CPU or the
 * GPU, whichever steps faster, and written into every backend's world: users watch a clumped
 * flock, which costs more). Each
 * measurement runs `repeats` times for about `seconds` each; the table gives the median and the
 * range of ns per boid-step, and for the GPU the share of each pass. Every model runs its preset,
 * but a model whose preset is a paper's small world runs its flock at scale: kit
 * (scenarios/kit-flock.ini: lengths scaled to the density, a predator per 1000 boids, an obstacle
 * per 4000), vicsek (scenarios/vicsek-flock.ini: its box scaled to N at the paper's density) and
 * couzin (scenarios/couzin-school.ini: its box scaled to N at the school's density).
 * --out DIR writes bench.csv, bench.json and the plots: bench.png for the first model,
 * bench-MODEL.png for the others (log-log, a line per backend, a panel per start). --quick: a smoke
 * test for CI (1000 and 4000 boids, short runs). A matrix of no measurement says why, writes
 * nothing and exits 2 (1 where this machine made no GPU rows).
 *
 * --export measures PNG export instead: frames per second written (rendered offscreen, read
 * back asynchronously, encoded on worker threads, renamed into place), with the simulation
 * stepping once per frame and with it paused (export alone).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "app/plot.h"
#include "app/progress.h"
#include "bench.h"
#include "boids.h"
#include "base/environment.h"
#include "base/interrupt.h"
#include "base/memory.h"
#include "base/output_file.h"
#include "core/models.h"
#include "core/scenario.h"
#include "render/boid_renderer.h"
#include "render/png_writer.h"
#include "render/target.h"

#define MAX_ROWS 4096
#define BRUTE_MAX 20000
#define DRAW_W 1920
#define DRAW_H 1080

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* What gpu+draw draws into. */
typedef struct drawer {
    boids_target target;
    boids_renderer *renderer;
    boids_camera camera;
    boids_draw_style style;
} drawer;

/* `steps` steps (each followed by a draw when d is not NULL), finished: seconds. */
static int timed_steps(boids_world *w, drawer *d, uint32_t steps, double *seconds)
{
    boids_world_finish(w);
    double t0 = now_s();
    if (!d) {
        if (boids_world_step(w, steps) != BOIDS_OK) return -1;
    } else {
        for (uint32_t i = 0; i < steps; ++i) {
            if (boids_world_step(w, 1) != BOIDS_OK) return -1;
            boids_target_bind(&d->target);
            if (boids_renderer_draw(d->renderer, w, &d->camera, &d->style) != BOIDS_OK) return -1;
        }
    }
    boids_world_finish(w);
    *seconds = now_s() - t0;
    return 0;
}

/* Steps after the timed runs, one per call, for the per-pass split. */
#define BENCH_SPLIT_STEPS 16

/* The cost of the summary a run ends with (the metrics of every replica: nearest neighbours,
 * groups, speeds), against a step's: the second of two calls (the first makes the GPU's programs
 * and buffers), from a finished step to the numbers on the host. */
static int time_metrics(boids_world *w, bench_row *row)
{
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_metrics *m = malloc(sizeof *m * info.replicas);
    if (!m) return -1;
    double t0 = 0;
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; ++i) {
        boids_world_finish(w);
        t0 = now_s();
        rc = boids_world_metrics(w, m, info.replicas) == BOIDS_OK ? 0 : -1;
    }
    row->metrics_ms = (now_s() - t0) * 1e3;
    free(m);
    return rc;
}

/* Two untimed steps (shader compilation, first touch of memory); runs of 1, 2, 4, ... steps until
 * one takes a tenth of `seconds` (the step's time then, not the compilation's; and a GPU's clock
 * up from idle); then `repeats` runs of about `seconds` each: the median, least and most seconds
 * per step; then the per-pass split. */
static int measure(boids_world *w, drawer *d, double seconds, int repeats, bench_row *row)
{
    double t;
    if (timed_steps(w, d, 2, &t) != 0) return -1;
    uint32_t probe = 1;
    for (;;) {
        if (timed_steps(w, d, probe, &t) != 0) return -1;
        if (t >= seconds / 10 || probe >= 100000 || boids_interrupted()) break;
        probe *= 2;
    }
    uint32_t steps = t > 0 ? (uint32_t)(seconds / (t / probe)) : 100;
    steps = steps < 1 ? 1 : steps > 100000 ? 100000 : steps;
    double per[100];
    for (int r = 0; r < repeats; ++r) {
        if (timed_steps(w, d, steps, &t) != 0) return -1;
        per[r] = t / steps * 1e9 / row->boids;
    }
    /* The per-pass split: the GPU backend times the first step of each call, so the runs above
     * give one sample each; BENCH_SPLIT_STEPS steps issued one per call give as many. */
    boids_world_reset_profile(w);
    for (int i = 0; i < BENCH_SPLIT_STEPS; ++i)
        if (timed_steps(w, d, 1, &t) != 0) return -1;
    qsort(per, (size_t)repeats, sizeof per[0], by_value);
    row->ns_median =
        repeats % 2 ? per[repeats / 2] : 0.5 * (per[repeats / 2 - 1] + per[repeats / 2]);
    row->ns_min = per[0];
    row->ns_max = per[repeats - 1];
    row->steps = steps;
    row->repeats = repeats;
    boids_profile prof;
    boids_world_get_profile(w, &prof);
    memcpy(row->pass_ms, prof.ms, sizeof row->pass_ms);
    row->dispatches = prof.dispatches_per_step;
    row->barriers = prof.barriers_per_step;
    row->clears = prof.clears_per_step;
    /* the census's own memory (a copy of the state, a grid) is the benchmark's, not the world's:
     * the resident peak is read before it and started again after */
    const uint64_t peak = boids_resident_peak_bytes();
    boids_census census;
    if (boids_world_census(w, &census) != BOIDS_OK) return -1;
    row->candidates = census.candidates;
    row->neighbours = census.neighbours;
    row->device_bytes = census.device_bytes;
    boids_resident_peak_reset();
    const int rc = time_metrics(w, row);
    const uint64_t after = boids_resident_peak_bytes();
    row->host_bytes = after > peak ? after : peak;
    return rc;
}

/* The world's dimension (--dims): 2, the flat world of model_def (the default density, one boid
 * per 1000 px^2, or a scenario's own: Vicsek's 4 per unit area); 3, a cube with the same spacing
 * between boids (the default: one per 1000^1.5 px^3), about twice the flat world's neighbours
 * within a radius; 3n, a cube whose boids have the flat world's neighbour count within the
 * model's group radius r (density 3 rho / (4 r) for the flat density rho); 3c, the cube of FLAME
 * GPU 2's circles benchmark (scripts/gpu-check.sh's peer): its density and radius, one agent per
 * unit volume and a radius of 2 units, so 8 boids a cube of the side of the largest radius r,
 * whose cells (of r) read 216 candidates a boid at a uniform start, as its bins do. Every model,
 * kit too (its predators and obstacles in the cube). */
static void world_in_dims(const char *dims, boids_world_def *def)
{
    const bool own = def->width > 0; /* a scenario's own density */
    const double rho = own ? def->count / ((double)def->width * def->height) : 1e-3;
    if (!strcmp(dims, "3")) {
        if (own)
            def->width = def->height = def->depth = (float)(cbrt(def->count) / sqrt(rho));
        else
            def->width = def->height = 0, def->depth = 1; /* the default cube */
    } else if (!strcmp(dims, "3n")) {
        const double r = boids_model_group_radius(def->model, &def->params);
        const double density = 3.0 * rho / (4.0 * r); /* boids per px^3 */
        def->width = def->height = def->depth = (float)cbrt(def->count / density);
        if (!own) def->width = def->height = def->depth = roundf(def->width);
    } else if (!strcmp(dims, "3c")) {
        const double r = boids_params_max_radius(def->model, &def->params, false);
        def->width = def->height = def->depth = (float)(r / 2 * cbrt(def->count));
    }
}

/* The world a model is measured in: its preset at N boids and the default density; a model whose
 * preset is a paper's small world runs its flock at scale instead (its manifest's scenario:
 * kit-flock.ini, with predators and obstacles in proportion; vicsek-flock.ini and
 * couzin-school.ini, whose boxes are scaled to N at their densities). */
static int model_def(boids_model m, uint32_t n, const char *scenario_dir, boids_world_def *def)
{
    *def = boids_default_world_def();
    const char *at_scale = boids_model_at_scale(m);
    if (*at_scale) {
        const char *file = strrchr(at_scale, '/') ? strrchr(at_scale, '/') + 1 : at_scale;
        char path[4096];
        if (scenario_dir) snprintf(path, sizeof path, "%s/%s", scenario_dir, file);
        static boids_scenario sc; /* large: obstacles and lines */
        if ((!scenario_dir && boids_scenario_locate(file, path, sizeof path) != BOIDS_OK) ||
            boids_scenario_load(path, 1, &sc) != BOIDS_OK) {
            fprintf(stderr, "boids-bench: %s: %s (--scenarios DIR names the scenarios)\n",
                    boids_model_name(m), boids_last_error());
            return -1;
        }
        *def = sc.def;
        if (def->width > 0 && def->count > 0)
            boids_world_def_scale(def, n); /* its own density, at n */
        else
            def->width = def->height = def->depth = 0; /* the default density at n */
        if (boids_model_features(m) & BOIDS_FEATURE_PREDATORS) {
            def->params.predators.predators = n / 1000 > 0 ? n / 1000 : 1;
            def->params.obstacles.obstacles = n / 4000 > 0 ? n / 4000 : 1;
        }
    } else {
        def->model = m;
        def->params = boids_model_default_params(m);
    }
    def->count = n;
    def->seed = 1;
    return 0;
}

static int parse_sizes(const char *s, uint32_t *sizes, int max)
{
    int n = 0;
    while (*s && n < max) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || errno || v == 0 || v > BOIDS_MAX_BOIDS) return -1;
        sizes[n++] = (uint32_t)v;
        s = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') return -1;
    }
    return n;
}

/* Frames per second written: F frames of w x h of an N-boid GPU world, stepping `step` steps per
 * frame. */
static int export_rate(boids_gl *gl, uint32_t n, int w, int h, unsigned frames, uint32_t step,
                       double *fps)
{
    char dir[] = "/tmp/boids-bench-frames-XXXXXX";
    if (!mkdtemp(dir)) return -1;
    boids_world_def def = boids_default_world_def();
    def.count = n;
    def.gl = gl;
    boids_world *world = NULL;
    boids_renderer *r = NULL;
    boids_png_writer *pw = NULL;
    boids_target t = {0};
    int rc = -1;
    if (boids_world_create(&def, &world) == BOIDS_OK && boids_target_create(&t, w, h) == BOIDS_OK &&
        boids_renderer_create(&r) == BOIDS_OK &&
        boids_png_writer_create(dir, w, h, 0, &pw) == BOIDS_OK) {
        boids_world_info info;
        boids_world_get_info(world, &info);
        boids_camera cam;
        boids_camera_fit(&cam, info.width, info.height, (float)w, (float)h);
        boids_draw_style style = boids_default_draw_style(world);
        boids_world_step(world, 30); /* a flock, not the random start */
        boids_world_finish(world);
        double t0 = now_s();
        rc = 0;
        for (unsigned f = 0; f < frames && rc == 0; ++f) {
            if (step && boids_world_step(world, step) != BOIDS_OK) rc = -1;
            boids_target_bind(&t);
            if (rc == 0 && boids_renderer_draw(r, world, &cam, &style) != BOIDS_OK) rc = -1;
            if (rc == 0 && boids_png_writer_capture(pw) != BOIDS_OK) rc = -1;
        }
        if (rc == 0 && boids_png_writer_finish(pw) != BOIDS_OK) rc = -1;
        *fps = frames / (now_s() - t0);
    }
    if (rc != 0) fprintf(stderr, "boids-bench: export: %s\n", boids_last_error());
    boids_png_writer_destroy(pw);
    boids_renderer_destroy(r);
    boids_target_destroy(&t);
    boids_world_destroy(world);
    for (unsigned f = 0; f < frames; ++f) {
        char path[128];
        snprintf(path, sizeof path, "%s/frame_%06u.png", dir, f);
        remove(path);
    }
    rmdir(dir);
    return rc;
}

/* The steady state of (model, n): --warmup-steps steps from seed 1, on the CPU (every core) or
 * on the GPU, whichever steps this world faster (measured, never guessed from the renderer: a GPU
 * makes 10 million boids steady in seconds where the CPU takes minutes, llvmpipe is slower than
 * the CPU). Both start from the same state; the bits differ only where a real GPU rounds its own
 * way, as any run's do. */
typedef struct steady {
    boids_boid *boids;
    boids_predator *predators;
    uint32_t predators_n;
    const char *made_on; /* "cpu" or "gpu" */
} steady;

/* A world of d on the CPU (gl NULL) or the GPU, and the seconds its 2 steps after 2 take. */
static boids_world *warmup_world(const boids_world_def *base, boids_gl *gl, double *seconds)
{
    boids_world_def d = *base;
    d.backend = gl ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
    d.threads = 0;
    d.gl = gl;
    boids_world *w = NULL;
    if (boids_world_create(&d, &w) != BOIDS_OK) return NULL;
    double t = 0;
    if (timed_steps(w, NULL, 2, &t) != 0 || timed_steps(w, NULL, 2, &t) != 0) {
        boids_world_destroy(w);
        return NULL;
    }
    *seconds = t;
    return w;
}

static int make_steady(const boids_world_def *base, uint32_t warmup, boids_gl *gl, steady *out)
{
    memset(out, 0, sizeof *out);
    double t_cpu = 0, t_gpu = 0;
    boids_world *w = warmup_world(base, NULL, &t_cpu);
    if (!w) return -1;
    out->made_on = "cpu";
    boids_world *g = gl && warmup > 4 ? warmup_world(base, gl, &t_gpu) : NULL;
    if (g && t_gpu < t_cpu) {
        boids_world_destroy(w);
        w = g, out->made_on = "gpu";
    } else if (g) {
        boids_world_destroy(g);
    }
    boids_world_info info;
    boids_world_get_info(w, &info);
    const uint32_t done = (uint32_t)info.steps; /* the 4 timed */
    out->boids = malloc(sizeof *out->boids * (info.count ? info.count : 1));
    out->predators_n = info.predators;
    out->predators = malloc(sizeof *out->predators * (info.predators ? info.predators : 1));
    int rc = out->boids && out->predators &&
                     boids_world_step(w, warmup > done ? warmup - done : 0) == BOIDS_OK &&
                     boids_world_read(w, out->boids, info.count) == BOIDS_OK &&
                     (!info.predators ||
                      boids_world_read_predators(w, out->predators, info.predators) == BOIDS_OK)
                 ? 0
                 : -1;
    boids_world_destroy(w);
    return rc;
}

static void usage(FILE *f)
{
    fprintf(
        f,
        "usage: boids-bench [--models all|NAME,...] [--sizes 1000,10000,100000,1000000]\n"
        "                   [--backends gpu,gpu+draw,cpu-1,cpu,cpu-brute] [--starts "
        "random,steady]\n"
        "                   [--repeats 5] [--seconds 0.5] [--warmup-steps 600] [--out DIR]\n"
        "                   [--scenarios DIR] [--dims 2|3|3n|3c] [--neighbours metric|nearest:K]\n"
        "                   [--cells 1|2] [--quick]\n"
        "       boids-bench --export [--sizes 100000] [--frames 60] [--size 1920x1080]\n"
        "Measures ns per boid-step of every model (--models), flock size (--sizes), backend\n"
        "(--backends: gpu, gpu+draw, cpu-1 one thread, cpu every core, cpu-brute O(N^2) up to "
        "20000)\n"
        "and start (--starts: random, or steady after --warmup-steps steps): --repeats runs of "
        "about\n"
        "--seconds each, the median and the range. The defaults measure every model at 4 sizes "
        "on 5\n"
        "backends from 2 starts: some 360 measurements, which took about an hour on a 2-core\n"
        "machine with llvmpipe. The matrix and a floor of its time are printed before it starts\n"
        "(a run lasts at least one step, which for a large flock on llvmpipe outlasts\n"
        "--seconds), and a progress line runs on a terminal.\n"
        "--quick is CI's smoke test: 1000 and 4000 boids, one short run each.\n"
        "--dims 3 measures every model in 3D worlds, the default cube: the flat default's\n"
        "spacing between boids, so about twice its neighbours; --dims 3n a cube of the flat\n"
        "world's neighbour count within the model's group radius; --dims 3c the cube of FLAME GPU\n"
        "2's circles benchmark (one agent per unit volume, radius 2 units: 8 boids a cube of the\n"
        "model's radius).\n"
        "--neighbours nearest:K measures each boid flocking with its K nearest (kit, which has\n"
        "no such reading, is left out); the tables' nearest column says which.\n"
        "--cells 2 measures grids of cells of half the model's largest radius (world_def's\n"
        "cell_size; blocks of 5 cells an axis), 1 (the default) of the radius.\n"
        "--out DIR writes bench.csv and bench.json after every row (Ctrl-C keeps every row "
        "measured\n"
        "so far, and the plots of them), and bench.png / bench-MODEL.png. A matrix of no\n"
        "measurement (cpu-brute alone at sizes above 20000, say) says why, writes nothing and\n"
        "exits 2 (1 where it is this machine's: the GPU rows skipped).\n");
}

/* A comma-separated list: true if `item` is in it. */
static int listed(const char *list, const char *item)
{
    size_t n = strlen(item);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, item, n) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

static void write_csv(FILE *f, const bench_row *rows, int n, const char *renderer)
{
    fprintf(f,
            "model,backend,start,threads,boids,width,height,depth,steps,repeats,ns_median,ns_min,"
            "ns_max");
    for (int p = 0; p < BOIDS_PASS_COUNT; ++p) fprintf(f, ",%s_ms", boids_pass_name((boids_pass)p));
    fprintf(f, ",metrics_ms,renderer,nearest,candidates,neighbours,dispatches,barriers,clears,"
               "device_bytes,cells_per_radius,host_bytes\n");
    for (int i = 0; i < n; ++i) {
        const bench_row *r = &rows[i];
        fprintf(f, "%s,%s,%s,%d,%u,%g,%g,%g,%u,%d,%.3f,%.3f,%.3f", r->model, r->backend, r->start,
                r->threads, r->boids, (double)r->width, (double)r->height, (double)r->depth,
                r->steps, r->repeats, r->ns_median, r->ns_min, r->ns_max);
        for (int p = 0; p < BOIDS_PASS_COUNT; ++p) fprintf(f, ",%.4f", r->pass_ms[p]);
        fprintf(f, ",%.3f,\"%s\",%u,%.2f,%.2f,%.2f,%.2f,%.2f,%" PRIu64 ",%u,%" PRIu64 "\n",
                r->metrics_ms, strncmp(r->backend, "gpu", 3) == 0 ? renderer : "CPU reference",
                r->nearest, r->candidates, r->neighbours, r->dispatches, r->barriers, r->clears,
                r->device_bytes, r->cells, r->host_bytes);
    }
}

static void write_json(FILE *f, const bench_row *rows, int n, const char *renderer,
                       const char *machine)
{
    fprintf(f, "{\n  \"machine\": \"%s\",\n  \"gpu\": \"%s\",\n  \"rows\": [\n", machine, renderer);
    for (int i = 0; i < n; ++i) {
        const bench_row *r = &rows[i];
        fprintf(f,
                "    {\"model\": \"%s\", \"backend\": \"%s\", \"start\": \"%s\", \"threads\": %d, "
                "\"boids\": %u, \"depth\": %g, "
                "\"steps\": %u, \"repeats\": %d, \"ns_median\": %.3f, \"ns_min\": %.3f, "
                "\"ns_max\": %.3f, \"pass_ms\": {",
                r->model, r->backend, r->start, r->threads, r->boids, (double)r->depth, r->steps,
                r->repeats, r->ns_median, r->ns_min, r->ns_max);
        for (int p = 0; p < BOIDS_PASS_COUNT; ++p)
            fprintf(f, "%s\"%s\": %.4f", p ? ", " : "", boids_pass_name((boids_pass)p),
                    r->pass_ms[p]);
        fprintf(f,
                "}, \"metrics_ms\": %.3f, \"nearest\": %u, \"candidates\": %.2f, "
                "\"neighbours\": %.2f, \"gl_per_step\": {\"dispatches\": %.2f, \"barriers\": %.2f, "
                "\"clears\": %.2f}, \"device_bytes\": %" PRIu64 ", \"cells_per_radius\": %u, "
                "\"host_bytes\": %" PRIu64 "}%s\n",
                r->metrics_ms, r->nearest, r->candidates, r->neighbours, r->dispatches, r->barriers,
                r->clears, r->device_bytes, r->cells, r->host_bytes, i + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

/* A one-line name of this machine's CPU, for the outputs. */
static void machine_name(char *buf, size_t size)
{
    snprintf(buf, size, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
            char *v = strchr(line, ':') + 2;
            v[strcspn(v, "\n")] = '\0';
            snprintf(buf, size, "%s, %ld cores", v, sysconf(_SC_NPROCESSORS_ONLN));
            break;
        }
    fclose(f);
}

/* What the command line asked for. */
typedef struct bench_opts {
    uint32_t sizes[16];
    int nsizes, repeats;
    double seconds;
    uint32_t warmup;
    const char *models, *backends, *starts, *out_dir, *scenario_dir;
    const char *dims; /* 2, 3, 3n or 3c (world_in_dims) */
    uint32_t nearest; /* --neighbours nearest:K (0: metric) */
    uint32_t cells;   /* --cells: cells per largest radius, 1 or 2 (world_def.cell_size) */
    int export_mode, ew, eh, sizes_given;
    unsigned eframes;
} bench_opts;

static const char *const all_backends[] = {"gpu", "gpu+draw", "cpu-1", "cpu", "cpu-brute"};
static const char *const all_starts[] = {"random", "steady"};

/* Every name of a list option (--backends, --starts) one of `names` (an empty one is none): 0,
 * or 2 (the exit status) after saying which is not. */
static int check_names(const char *flag, const char *list, const char *const *names, int n)
{
    for (const char *p = list; p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int known = 0;
        for (int k = 0; k < n; ++k) known |= strlen(names[k]) == len && !strncmp(p, names[k], len);
        if (!known) {
            fprintf(stderr, "boids-bench: %s: '%.*s' is none of", flag, (int)len, p);
            for (int k = 0; k < n; ++k) fprintf(stderr, "%s %s", k ? "," : "", names[k]);
            fputc('\n', stderr);
            return 2;
        }
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* --backends and --starts, checked: 0, or 2 (the exit status) after saying which name is wrong. */
static int check_lists(const bench_opts *o)
{
    if (check_names("--backends", o->backends, all_backends, 5) ||
        check_names("--starts", o->starts, all_starts, 2))
        return 2;
    return 0;
}

/* A numeric value of an option, checked: 0, or 2 (the exit status) after saying why. */
static int number(const char *flag, const char *v, double lo, double hi, double *out)
{
    char *end;
    *out = v ? strtod(v, &end) : 0;
    if (v && *v && !*end && *out >= lo && *out <= hi) return 0;
    fprintf(stderr, "boids-bench: %s: '%s' is not a number in [%g, %g]\n", flag, v ? v : "", lo,
            hi);
    return 2;
}

/* --neighbours metric|nearest:K into *nearest (0: metric); 0, or 2 (the exit status) after
 * saying what it should be. */
static int neighbours(const char *v, uint32_t *nearest)
{
    unsigned k = 0;
    char end = 0;
    if (!strcmp(v, "metric")) {
        *nearest = 0;
        return 0;
    }
    if (sscanf(v, "nearest:%u%c", &k, &end) == 1 && k >= 1 && k <= BOIDS_MAX_NEAREST) {
        *nearest = k;
        return 0;
    }
    fprintf(stderr, "boids-bench: --neighbours: '%s' is not metric or nearest:K (K in [1, %u])\n",
            v, BOIDS_MAX_NEAREST);
    return 2;
}

static int parse_args(int argc, char **argv, bench_opts *o)
{
    *o = (bench_opts){{1000, 10000, 100000, 1000000},
                      4,
                      5,
                      0.5,
                      600,
                      "all",
                      "gpu,gpu+draw,cpu-1,cpu,cpu-brute",
                      "random,steady",
                      NULL,
                      NULL,
                      "2",
                      0,
                      1,
                      0,
                      1920,
                      1080,
                      0,
                      60};
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x;
        int rc = 0, takes = 1;
        if (!strcmp(a, "--sizes") && v) {
            o->nsizes = parse_sizes(v, o->sizes, 16), o->sizes_given = 1;
            if (o->nsizes <= 0)
                fprintf(stderr, "boids-bench: --sizes: '%s' is not a list like 10000,100000\n", v),
                    rc = 2;
        } else if (!strcmp(a, "--seconds")) {
            rc = number(a, v, 1e-3, 3600, &o->seconds);
        } else if (!strcmp(a, "--repeats")) {
            rc = number(a, v, 1, 100, &x), o->repeats = (int)x;
        } else if (!strcmp(a, "--warmup-steps")) {
            rc = number(a, v, 1, 1000000, &x), o->warmup = (uint32_t)x;
        } else if (!strcmp(a, "--frames")) {
            rc = number(a, v, 1, 100000, &x), o->eframes = (unsigned)x;
        } else if (!strcmp(a, "--models") && v)
            o->models = v;
        else if (!strcmp(a, "--backends") && v)
            o->backends = v;
        else if (!strcmp(a, "--starts") && v)
            o->starts = v;
        else if (!strcmp(a, "--out") && v)
            o->out_dir = v;
        else if (!strcmp(a, "--scenarios") && v)
            o->scenario_dir = v;
        else if (!strcmp(a, "--dims") && v) {
            o->dims = v;
            if (strcmp(v, "2") && strcmp(v, "3") && strcmp(v, "3n") && strcmp(v, "3c"))
                fprintf(stderr, "boids-bench: --dims: '%s' is not 2, 3, 3n or 3c\n", v), rc = 2;
        } else if (!strcmp(a, "--neighbours") && v) {
            rc = neighbours(v, &o->nearest);
        } else if (!strcmp(a, "--cells") && v) {
            o->cells = !strcmp(v, "1") ? 1 : !strcmp(v, "2") ? 2 : 0;
            if (!o->cells) fprintf(stderr, "boids-bench: --cells: '%s' is not 1 or 2\n", v), rc = 2;
        } else if (!strcmp(a, "--size") && v) {
            if (sscanf(v, "%dx%d", &o->ew, &o->eh) != 2 || o->ew < 1 || o->eh < 1 ||
                o->ew > 16384 || o->eh > 16384)
                fprintf(stderr, "boids-bench: --size: '%s' is not WxH\n", v), rc = 2;
        } else {
            takes = 0;
            if (!strcmp(a, "--quick")) {
                o->sizes[0] = 1000, o->sizes[1] = 4000, o->nsizes = 2, o->sizes_given = 1;
                o->repeats = 1, o->seconds = 0.02, o->warmup = 20;
            } else if (!strcmp(a, "--export"))
                o->export_mode = 1;
            else if (!strcmp(a, "-h") || !strcmp(a, "--help"))
                return usage(stdout), -1;
            else
                return fprintf(stderr,
                               "boids-bench: unknown or incomplete option '%s' (see --help)\n", a),
                       2;
        }
        if (rc) return rc;
        i += takes;
    }
    if (boids_environment_check() != BOIDS_OK) /* a bad BOIDS_* setting, whatever the rows */
        return fprintf(stderr, "boids-bench: %s\n", boids_last_error()), 2;
    return check_lists(o);
}

/* --export: PNG export's frames per second. */
static int run_export(const bench_opts *o, boids_gl *gl)
{
    if (!gl) return 1;
    uint32_t sizes[16];
    int nsizes = o->sizes_given ? o->nsizes : 1;
    memcpy(sizes, o->sizes, sizeof sizes);
    if (!o->sizes_given) sizes[0] = 100000;
    printf("PNG export, %dx%d, %u frames, GPU: %s\n", o->ew, o->eh, o->eframes,
           boids_gl_renderer(gl));
    printf("%9s %22s %22s\n", "boids", "frames/s (1 step each)", "frames/s (export only)");
    int status = 0;
    for (int s = 0; s < nsizes && !boids_interrupted(); ++s) {
        double with_sim = 0, alone = 0;
        if (export_rate(gl, sizes[s], o->ew, o->eh, o->eframes, 1, &with_sim) != 0 ||
            export_rate(gl, sizes[s], o->ew, o->eh, o->eframes, 0, &alone) != 0)
            status = 1;
        printf("%9u %22.1f %22.1f\n", sizes[s], with_sim, alone);
    }
    return status;
}

/* Writes bench.csv, bench.json (after every row) and, at the end, the plots: 0 or 1. */
static int write_outputs(const bench_opts *o, const bench_row *rows, int nrows,
                         const char *renderer, const char *machine, const boids_model *models,
                         int nmodels, bool plots)
{
    int status = 0;
    char path[1200];
    boids_output_file f;
    snprintf(path, sizeof path, "%s/bench.csv", o->out_dir);
    if (boids_output_open(&f, path) == BOIDS_OK) write_csv(f.f, rows, nrows, renderer);
    if (!f.f || boids_output_commit(&f) != BOIDS_OK)
        fprintf(stderr, "boids-bench: %s\n", boids_last_error()), status = 1;
    snprintf(path, sizeof path, "%s/bench.json", o->out_dir);
    if (boids_output_open(&f, path) == BOIDS_OK) write_json(f.f, rows, nrows, renderer, machine);
    if (!f.f || boids_output_commit(&f) != BOIDS_OK)
        fprintf(stderr, "boids-bench: %s\n", boids_last_error()), status = 1;
    if (!plots) return status;
    if (boids_plot_available() != BOIDS_OK) { /* the tables are the results: not a failure */
        fprintf(stderr, "boids-bench: no plots: %s\n", boids_last_error());
        printf("wrote %s/bench.csv, bench.json (%d rows)\n", o->out_dir, nrows);
        return status;
    }
    char title[512];
    snprintf(title, sizeof title, "%s; GPU: %s", machine, renderer);
    bool drawn = true;
    for (int mi = 0; mi < nmodels; ++mi) { /* bench-MODEL.png, and bench.png for the first */
        const char *name = boids_model_name(models[mi]);
        snprintf(path, sizeof path, mi ? "%s/bench-%s.png" : "%s/bench.png", o->out_dir, name);
        if (nrows && bench_plot(path, rows, nrows, name, title) != 0) status = 1, drawn = false;
    }
    printf("wrote %s/bench.csv, bench.json%s%s (%d rows)\n", o->out_dir, drawn ? ", bench.png" : "",
           drawn && nmodels > 1 ? ", bench-MODEL.png" : "", nrows);
    return status;
}

/* The matrix: how many measurements, and about how long they take here (each measurement: its
 * repeats, a second of set-up and the split; each model and size: the steady state's warm-up on
 * the CPU at about 100 ns per boid-step). */
static int plan(const bench_opts *o, int nmodels, bool gpu, bool drawer, double *seconds)
{
    int n = 0, nb = 0, nstarts = listed(o->starts, "random") + listed(o->starts, "steady");
    double t = 0;
    for (int b = 0; b < 5; ++b)
        nb += listed(o->backends, all_backends[b]) && (b > 1 || gpu) && (b != 1 || drawer);
    for (int si = 0; si < o->nsizes; ++si) {
        int here = nb - (listed(o->backends, "cpu-brute") && o->sizes[si] > BRUTE_MAX);
        n += nmodels * nstarts * here;
        t += nmodels * (nstarts * here * (o->repeats * o->seconds + 1.0) +
                        (listed(o->starts, "steady") ? o->warmup * o->sizes[si] * 100e-9 : 0));
    }
    *seconds = t;
    return n;
}

/* The sizes cpu-brute (O(N^2)) is not measured at: said, or their rows would be missing
 * without a word. */
static void say_brute_limit(const bench_opts *o)
{
    for (int si = 0; si < o->nsizes; ++si)
        if (listed(o->backends, "cpu-brute") && o->sizes[si] > BRUTE_MAX)
            printf("(cpu-brute, O(N^2), runs up to %d boids: not at %u)\n", BRUTE_MAX,
                   o->sizes[si]);
}

/* Why the matrix holds no measurement, said (nothing is written): the exit status, 2 (bad usage)
 * where the options leave nothing on any machine (cpu-brute's sizes), else 1 (this machine made
 * no GPU rows). */
static int say_nothing(const bench_opts *o, int nmodels)
{
    double t;
    if (plan(o, nmodels, true, true, &t) == 0) {
        fprintf(stderr,
                "boids-bench: nothing to measure: cpu-brute (O(N^2)) runs up to %d boids, and "
                "every size of --sizes is above it\n",
                BRUTE_MAX);
        return 2;
    }
    fprintf(stderr,
            "boids-bench: nothing to measure here: the GPU rows were skipped (above), and "
            "--backends %s names no CPU backend that runs at --sizes\n",
            o->backends);
    return 1;
}

/* The models of --models, less those that --neighbours nearest:K cannot measure (kit: its walk
 * has no such reading): their number, 0 after saying why none is left. */
static int pick_models(const bench_opts *o, boids_model *models)
{
    int n = 0;
    char left_out[256] = "";
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        const char *name = boids_model_name((boids_model)m);
        const unsigned f = boids_model_features((boids_model)m);
        if (strcmp(o->models, "all") && !listed(o->models, name)) continue;
        if (o->nearest && (f & BOIDS_FEATURE_OWN_WALK) && !(f & BOIDS_FEATURE_NEAREST)) {
            const size_t len = strlen(left_out);
            snprintf(left_out + len, sizeof left_out - len, "%s%s", len ? ", " : "", name);
            continue;
        }
        models[n++] = (boids_model)m;
    }
    if (n == 0 && *left_out)
        fprintf(stderr,
                "boids-bench: nothing to measure: %s has no nearest:K reading "
                "(--neighbours)\n",
                left_out);
    else if (n == 0)
        fprintf(stderr, "boids-bench: --models: '%s' names no model (see boids --help)\n",
                o->models);
    return n;
}

/* One measurement into *row: the world of (base, backend b, start), measured. 0 or -1. */
static int measure_one(const bench_opts *o, const boids_world_def *base, int b, bool steady_start,
                       const steady *st, boids_gl *gl, drawer *dr, bench_row *row)
{
    const bool gpu = b <= 1;
    boids_world_def d = *base;
    d.backend = gpu ? BOIDS_BACKEND_GPU : BOIDS_BACKEND_CPU;
    d.gl = gpu ? gl : NULL;
    d.threads = b == 2 ? 1 : 0;
    d.neighbors = b == 4 ? BOIDS_NEIGHBORS_BRUTE : BOIDS_NEIGHBORS_GRID;
    boids_world *w = NULL;
    /* the world's resident memory: the peak of its life above what was resident before */
    const uint64_t before = boids_resident_bytes();
    const bool peak_known = boids_resident_peak_reset() && before > 0;
    int rc = boids_world_create(&d, &w) == BOIDS_OK ? 0 : -1;
    if (rc == 0 && steady_start) {
        rc = boids_world_write(w, st->boids, d.count) == BOIDS_OK ? 0 : -1;
        if (rc == 0 && st->predators_n)
            rc =
                boids_world_write_predators(w, st->predators, st->predators_n) == BOIDS_OK ? 0 : -1;
    }
    if (rc == 0) {
        boids_world_info info;
        boids_world_get_info(w, &info);
        row->threads = info.threads;
        row->width = info.width, row->height = info.height, row->depth = info.depth;
        if (b == 1 && info.dims == 3) {
            boids_camera_fit_3d(&dr->camera, info.width, info.height, info.depth, DRAW_W, DRAW_H);
            dr->style = boids_default_draw_style(w);
        } else if (b == 1) {
            boids_camera_fit(&dr->camera, info.width, info.height, DRAW_W, DRAW_H);
            dr->style = boids_default_draw_style(w);
        }
        rc = measure(w, b == 1 ? dr : NULL, o->seconds, o->repeats, row);
    }
    row->host_bytes = !gpu && peak_known && row->host_bytes > before ? row->host_bytes - before : 0;
    boids_world_destroy(w);
    return rc;
}

static void print_row(const bench_row *row, bool gpu)
{
    char range[64], passes[512] = "";
    snprintf(range, sizeof range, "[%.1f, %.1f]", row->ns_min, row->ns_max);
    double step_ms = 0;
    for (int p = 0; p < BOIDS_PASS_DRAW; ++p) step_ms += row->pass_ms[p];
    if (gpu && step_ms > 0)
        for (int p = 0; p < BOIDS_PASS_DRAW; ++p)
            if (row->pass_ms[p] > 0) {
                size_t len = strlen(passes);
                snprintf(passes + len, sizeof passes - len, " %s %.0f%%",
                         boids_pass_name((boids_pass)p), 100.0 * row->pass_ms[p] / step_ms);
            }
    /* the metrics in steps: what the summary a run ends with costs, against its steps */
    const double step_wall_ms = row->ns_median * row->boids * 1e-6;
    char metrics[32];
    snprintf(metrics, sizeof metrics, "%.1f",
             step_wall_ms > 0 ? row->metrics_ms / step_wall_ms : 0);
    char census[32], gl[32] = "", bytes[32] = "";
    snprintf(census, sizeof census, "%.0f/%.0f", row->candidates, row->neighbours);
    if (gpu) snprintf(gl, sizeof gl, "%.0f/%.0f/%.0f", row->dispatches, row->barriers, row->clears);
    if (row->boids && (gpu ? row->device_bytes : row->host_bytes))
        snprintf(bytes, sizeof bytes, "%.0f",
                 (double)(gpu ? row->device_bytes : row->host_bytes) / row->boids);
    printf("%-20s %-9s %-7s %8u %7d %10.1f %21s %8s %9s %8s %6s  %s\n", row->model, row->backend,
           row->start, row->boids, row->threads, row->ns_median, range, metrics, census, gl, bytes,
           passes);
    fflush(stdout);
}

/* Every (model, size, start, backend) in turn, each row kept (and written out with --out) as
 * soon as it is measured; stops at Ctrl-C. Returns the rows. */
static int run_matrix(const bench_opts *o, const boids_model *models, int nmodels, boids_gl *gl,
                      drawer *dr, bool have_drawer, bench_row *rows, int *status,
                      const char *machine, boids_progress *pr)
{
    int nrows = 0, done = 0;
    const char *renderer = gl ? boids_gl_renderer(gl) : "none";
    for (int mi = 0; mi < nmodels && !boids_interrupted(); ++mi)
        for (int si = 0; si < o->nsizes && !boids_interrupted(); ++si) {
            boids_world_def base;
            if (model_def(models[mi], o->sizes[si], o->scenario_dir, &base) != 0) {
                *status = 1;
                continue;
            }
            world_in_dims(o->dims, &base);
            base.nearest = o->nearest;
            if (o->cells == 2) /* cells of half the largest radius (the obstacles' too) */
                base.cell_size =
                    0.5f * boids_params_max_radius(base.model, &base.params,
                                                   base.params.obstacles.obstacles > 0 ||
                                                       base.obstacle_count > 0);
            steady st = {0};
            for (int start = 0; start < 2 && !boids_interrupted(); ++start) {
                if (!listed(o->starts, start ? "steady" : "random")) continue;
                const bool gpu_measured =
                    listed(o->backends, "gpu") || listed(o->backends, "gpu+draw");
                if (start && !st.boids) {
                    const double t0 = now_s();
                    if (make_steady(&base, o->warmup, gpu_measured ? gl : NULL, &st) != 0) {
                        fprintf(stderr, "boids-bench: %s at %u: steady state: %s\n",
                                boids_model_name(base.model), o->sizes[si], boids_last_error());
                        *status = 1;
                        break;
                    }
                    boids_progress_end(pr);
                    printf("(%s at %u: its steady state, %u steps, made on the %s in %.1f s)\n",
                           boids_model_name(base.model), o->sizes[si], o->warmup, st.made_on,
                           now_s() - t0);
                }
                for (int b = 0; b < 5 && nrows < MAX_ROWS && !boids_interrupted(); ++b) {
                    if (!listed(o->backends, all_backends[b])) continue;
                    if ((b <= 1 && !gl) || (b == 1 && !have_drawer) ||
                        (b == 4 && o->sizes[si] > BRUTE_MAX))
                        continue;
                    bench_row *row = &rows[nrows];
                    memset(row, 0, sizeof *row);
                    row->model = boids_model_name(base.model);
                    row->nearest = base.nearest;
                    row->cells = o->cells;
                    row->backend = all_backends[b];
                    row->start = start ? "steady" : "random";
                    row->boids = o->sizes[si];
                    boids_progress_update(pr, (uint64_t)done++);
                    if (measure_one(o, &base, b, start, &st, gl, dr, row) != 0) {
                        fprintf(stderr, "boids-bench: %s, %s, %u boids: %s\n", row->model,
                                row->backend, row->boids, boids_last_error());
                        *status = 1;
                        continue;
                    }
                    boids_progress_end(pr);
                    print_row(row, b <= 1);
                    ++nrows;
                    if (o->out_dir)
                        write_outputs(o, rows, nrows, renderer, machine, models, nmodels, false);
                }
            }
            free(st.boids);
            free(st.predators);
        }
    return nrows;
}

/* The matrix, its measurements and its time printed before the first. */
static void print_plan(const bench_opts *o, const char *machine, const char *renderer, int planned,
                       int nmodels, double estimate)
{
    char t[32];
    printf("boids-bench: %s; GPU: %s\n", machine, renderer);
    printf("%d measurements (%d model%s x %d size%s x backends %s x starts %s), at least %s%s\n",
           planned, nmodels, nmodels == 1 ? "" : "s", o->nsizes, o->nsizes == 1 ? "" : "s",
           o->backends, o->starts, boids_duration_text(estimate, t, sizeof t),
           o->out_dir ? "; every row is written as it comes" : "");
    say_brute_limit(o);
    printf("ns per boid-step at the default density: median [least, most] of %d runs of ~%g s; "
           "steady = "
           "after %u steps\n",
           o->repeats, o->seconds, o->warmup);
    if (o->nearest)
        printf("each boid flocks with its %u nearest (--neighbours); kit, which has no such "
               "reading, is left out\n",
               o->nearest);
    printf("cand/nbr: candidates and neighbours per boid (its walk's cells, within the model's "
           "radius); GL d/b/c: the GPU's dispatches, barriers and clears a step; B/boid: the "
           "GPU's buffers a boid, or the CPU's resident set at its peak (the world made, stepped "
           "and measured)\n");
    printf("%-20s %-9s %-7s %8s %7s %10s %21s %8s %9s %8s %6s   %s\n", "model", "backend", "start",
           "boids", "threads", "ns", "range", "metrics", "cand/nbr", "GL d/b/c", "B/boid",
           "GPU passes (share of a step)");
}

/* The matrix measured: planned and said, every row printed (and written with --out), the plots
 * at the end. A matrix of no measurement, or a run that measured none, writes nothing. The exit
 * status: 0; 1 (a measurement failed, or none could be made here); 2 (the options leave nothing
 * to measure, or --out cannot be made); Ctrl-C's. */
static int run_bench(const bench_opts *o, const boids_model *models, int nmodels, boids_gl *gl,
                     drawer *dr, bool have_drawer)
{
    double estimate;
    const int planned = plan(o, nmodels, gl != NULL, have_drawer, &estimate);
    if (planned == 0) return say_nothing(o, nmodels);
    const bool made_out = o->out_dir && mkdir(o->out_dir, 0777) == 0;
    if (o->out_dir && !made_out && errno != EEXIST)
        return fprintf(stderr, "boids-bench: --out: cannot create %s: %s\n", o->out_dir,
                       strerror(errno)),
               2;
    char machine[256];
    machine_name(machine, sizeof machine);
    const char *renderer = gl ? boids_gl_renderer(gl) : "none";
    print_plan(o, machine, renderer, planned, nmodels, estimate);
    static bench_row rows[MAX_ROWS];
    int status = 0;
    boids_progress pr;
    boids_progress_start(&pr, (uint64_t)planned, "measurements");
    const int nrows =
        run_matrix(o, models, nmodels, gl, dr, have_drawer, rows, &status, machine, &pr);
    boids_progress_end(&pr);
    if (o->out_dir && nrows &&
        write_outputs(o, rows, nrows, renderer, machine, models, nmodels, true) != 0)
        status = 1;
    if (made_out && nrows == 0) rmdir(o->out_dir); /* made for tables of no row */
    if (boids_interrupted()) {
        fprintf(stderr, "boids-bench: interrupted after %d of %d measurements%s\n", nrows, planned,
                o->out_dir && nrows ? "; the rows measured are written" : "");
        return boids_interrupt_exit_code();
    }
    if (nrows == 0)
        fprintf(stderr, "boids-bench: no measurement was made%s\n",
                o->out_dir ? ": nothing written" : "");
    return nrows ? status : 1;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
    /* Every array of 128 KiB or more its own mapping, given back when freed: glibc raises this
     * threshold as large blocks are freed (up to 32 MiB), and then a freed row's arrays stayed
     * resident in the heap and counted in the next row's bytes a boid. */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    boids_interrupt_install();
    bench_opts o;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    boids_model models[BOIDS_MODEL_COUNT];
    const int nmodels = pick_models(&o, models);
    if (nmodels == 0) return 2;
    boids_gl *gl = NULL;
    if (boids_gl_create_headless(&gl) != BOIDS_OK)
        fprintf(stderr, "boids-bench: GPU rows skipped: %s\n", boids_last_error());
    if (o.export_mode) {
        int status = run_export(&o, gl);
        boids_gl_destroy(gl);
        return boids_interrupted() ? boids_interrupt_exit_code() : status;
    }
    drawer dr = {0};
    bool have_drawer = false;
    if (gl && listed(o.backends, "gpu+draw")) {
        have_drawer = boids_target_create(&dr.target, DRAW_W, DRAW_H) == BOIDS_OK &&
                      boids_renderer_create(&dr.renderer) == BOIDS_OK;
        if (!have_drawer)
            fprintf(stderr, "boids-bench: gpu+draw skipped: %s\n", boids_last_error());
    }
    const int status = run_bench(&o, models, nmodels, gl, &dr, have_drawer);
    if (have_drawer) boids_renderer_destroy(dr.renderer);
    boids_target_destroy(&dr.target);
    boids_gl_destroy(gl);
    return status;
}
