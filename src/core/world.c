/* The world API: validates definitions and states, builds the initial flock, and forwards to
 * the backend. Everything the two backends share (defaults, grid geometry, initial state,
 * validation of written states) lives here, so they cannot disagree on it. */
#include "core/world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/rng.h"

/* Largest N: the GPU dispatches one invocation per boid in 1-D (65535 workgroups of 256). */
#define BOIDS_MAX_COUNT (65535u * BOIDS_WG_SIZE)
#define BOIDS_MAX_WORLD 1e7f

boids_world_def boids_default_world_def(void)
{
    boids_world_def def;
    memset(&def, 0, sizeof def);
    def.model = BOIDS_MODEL_SHIFFMAN_PER_SECOND;
    def.params = boids_model_default_params(def.model);
    def.backend = BOIDS_BACKEND_GPU;
    def.count = 100000;
    def.swarms = 1;
    def.width = 0.0f;
    def.height = 0.0f;
    def.dt = 1.0f / 60.0f;
    def.seed = 1;
    def.cell_size = 0.0f;
    def.neighbors = BOIDS_NEIGHBORS_GRID;
    def.threads = 0;
    def.gl = NULL;
    return def;
}

void boids_default_world_size(uint32_t n, float *width, float *height)
{
    /* 16:9 with area n * 1000 px^2; at least the area of one boid so n = 0 still has a world. */
    double area = 1000.0 * (n > 0 ? n : 1);
    double w = sqrt(area * 16.0 / 9.0);
    *width = (float)fmax(1.0, round(w));
    *height = (float)fmax(1.0, round(w * 9.0 / 16.0));
}

uint32_t boids_grid_max_cells(uint32_t count)
{
    uint64_t cap = 4ull * count;
    if (cap < (1u << 21)) cap = 1u << 21;
    if (cap > (1u << 24)) cap = 1u << 24;
    return (uint32_t)cap;
}

boids_grid_dims boids_grid_dims_for(float width, float height, float min_cell, uint32_t count)
{
    boids_grid_dims g;
    /* Cells a hair larger than asked: the cell of a position is found with one rounded multiply,
     * which can put a boid sitting on a cell border one cell off (an error of about x * 2^-23 px),
     * and distances are compared in float; the margin keeps every neighbour within the radius
     * inside the 3x3 block even then. */
    double cell = (double)min_cell * (1.0 + 1e-6) + fmax(width, height) * 1e-6;
    double gw = floor(width / cell), gh = floor(height / cell);
    if (gw < 1) gw = 1;
    if (gh < 1) gh = 1;
    /* Coarsen evenly until the cell count fits the cap. */
    double cap = boids_grid_max_cells(count);
    while (gw * gh > cap) {
        gw = fmax(1, floor(gw / 2));
        gh = fmax(1, floor(gh / 2));
    }
    g.w = (uint32_t)gw;
    g.h = (uint32_t)gh;
    g.wrap = true;
    g.cell_w = width / (float)g.w;
    g.cell_h = height / (float)g.h;
    /* The inverse, so each backend multiplies (never divides) to find a cell: same bits on both.
     * Cells are never smaller than `cell`: width / floor(width / cell) >= cell. */
    g.inv_cell_w = (float)g.w / width;
    g.inv_cell_h = (float)g.h / height;
    return g;
}

static boids_status validate_def(const boids_world_def *d)
{
    if ((unsigned)d->model >= BOIDS_MODEL_COUNT)
        return boids_fail(BOIDS_ERR_INVALID, "unknown model %d", (int)d->model);
    if (d->backend != BOIDS_BACKEND_GPU && d->backend != BOIDS_BACKEND_CPU)
        return boids_fail(BOIDS_ERR_INVALID, "unknown backend %d", (int)d->backend);
    if (d->count > BOIDS_MAX_COUNT)
        return boids_fail(BOIDS_ERR_INVALID, "boids: %u exceeds the maximum of %u", d->count,
                          BOIDS_MAX_COUNT);
    if (d->swarms < 1 || d->swarms > BOIDS_MAX_SWARMS)
        return boids_fail(BOIDS_ERR_INVALID, "swarms: %u is outside [1, %u]", d->swarms,
                          BOIDS_MAX_SWARMS);
    if (!isfinite(d->width) || !isfinite(d->height) || d->width < 0 || d->height < 0 ||
        d->width > BOIDS_MAX_WORLD || d->height > BOIDS_MAX_WORLD ||
        ((d->width == 0) != (d->height == 0)))
        return boids_fail(BOIDS_ERR_INVALID,
                          "world: %gx%g is not a size in (0, %g] px (or 0x0 for the default)",
                          (double)d->width, (double)d->height, (double)BOIDS_MAX_WORLD);
    if (!isfinite(d->dt) || d->dt <= 0.0f || d->dt > 1.0f)
        return boids_fail(BOIDS_ERR_INVALID, "dt: %g s is outside (0, 1]", (double)d->dt);
    if (!isfinite(d->cell_size) || d->cell_size < 0.0f)
        return boids_fail(BOIDS_ERR_INVALID, "cell_size: %g is not >= 0", (double)d->cell_size);
    if (d->neighbors != BOIDS_NEIGHBORS_GRID && d->neighbors != BOIDS_NEIGHBORS_BRUTE)
        return boids_fail(BOIDS_ERR_INVALID, "unknown neighbour search %d", (int)d->neighbors);
    if (d->threads < 0 || d->threads > 256)
        return boids_fail(BOIDS_ERR_INVALID, "threads: %d is outside [0, 256]", d->threads);
    return boids_params_validate(d->model, &d->params);
}

/* Random initial state: positions uniform in the world, headings uniform, speeds uniform in
 * [min_speed, max_speed]; boid i in swarm i mod K. One stream, consumed in id order. */
static void random_state(const boids_world_def *d, boids_boid *b)
{
    boids_rng rng = boids_rng_seeded(d->seed);
    const float two_pi = 6.28318530717958647692f;
    for (uint32_t i = 0; i < d->count; ++i) {
        float x = boids_rng_float(&rng) * d->width;
        float y = boids_rng_float(&rng) * d->height;
        float a = boids_rng_float(&rng) * two_pi;
        float s = d->params.min_speed +
                  boids_rng_float(&rng) * (d->params.max_speed - d->params.min_speed);
        b[i].x = boids_wrap(x, d->width);
        b[i].y = boids_wrap(y, d->height);
        b[i].vx = s * cosf(a);
        b[i].vy = s * sinf(a);
        b[i].swarm = i % d->swarms;
        b[i].bias = d->params.bias; /* Adams' scouts start from the static value */
    }
}

boids_status boids_world_validate_state(const boids_world *w, const boids_boid *b, size_t n,
                                        size_t *bad)
{
    const boids_world_def *d = &w->def;
    size_t unused;
    if (!bad) bad = &unused;
    *bad = SIZE_MAX;
    if (n != d->count)
        return boids_fail(BOIDS_ERR_INVALID, "state has %zu boids, the world has %u", n, d->count);
    for (size_t i = 0; i < n; ++i) {
        *bad = i;
        if (!isfinite(b[i].x) || !isfinite(b[i].y) || !isfinite(b[i].vx) || !isfinite(b[i].vy))
            return boids_fail(BOIDS_ERR_INVALID, "boid %zu: position and velocity must be finite", i);
        if (d->params.edges == BOIDS_EDGES_WRAP &&
            (b[i].x < 0 || b[i].x >= d->width || b[i].y < 0 || b[i].y >= d->height))
            return boids_fail(BOIDS_ERR_INVALID,
                              "boid %zu: position (%g, %g) is outside the world [0, %g) x [0, %g)",
                              i, (double)b[i].x, (double)b[i].y, (double)d->width,
                              (double)d->height);
        /* Where nothing wraps, boids may stray outside; not to absurd distances. */
        if (fabsf(b[i].x) > BOIDS_MAX_WORLD * 2 || fabsf(b[i].y) > BOIDS_MAX_WORLD * 2)
            return boids_fail(BOIDS_ERR_INVALID, "boid %zu: position (%g, %g) is beyond +-%g px", i,
                              (double)b[i].x, (double)b[i].y, (double)(BOIDS_MAX_WORLD * 2));
        if (!isfinite(b[i].bias) || b[i].bias < 0 || b[i].bias > 1)
            return boids_fail(BOIDS_ERR_INVALID, "boid %zu: bias %g is outside [0, 1]", i, (double)b[i].bias);
        if (fabsf(b[i].vx) > BOIDS_MAX_STATE_SPEED || fabsf(b[i].vy) > BOIDS_MAX_STATE_SPEED)
            return boids_fail(BOIDS_ERR_INVALID,
                              "boid %zu: velocity (%g, %g) has a component beyond +-%g", i,
                              (double)b[i].vx, (double)b[i].vy, (double)BOIDS_MAX_STATE_SPEED);
        if (b[i].swarm >= d->swarms)
            return boids_fail(BOIDS_ERR_INVALID, "boid %zu: swarm %u is not below swarms = %u", i,
                              b[i].swarm, d->swarms);
    }
    *bad = SIZE_MAX;
    return BOIDS_OK;
}

/* The grid for parameters p in the (resolved) world d, after the checks that depend on both. */
static boids_status plan_grid(const boids_world_def *d, const boids_params *p, boids_grid_dims *grid)
{
    float radius = boids_params_max_radius(d->model, p);
    if (d->cell_size > 0.0f && d->cell_size < radius)
        return boids_fail(BOIDS_ERR_INVALID,
                          "cell_size: %g px is below the largest interaction radius %g px",
                          (double)d->cell_size, (double)radius);
    /* A step must not carry a boid across more than the world (the wrap undoes one lap). */
    int per_second = boids_model_time_base(d->model) == BOIDS_TIME_PER_SECOND;
    float step = per_second ? p->max_speed * d->dt : p->max_speed;
    if (p->edges == BOIDS_EDGES_WRAP && step >= fminf(d->width, d->height))
        return boids_fail(BOIDS_ERR_INVALID,
                          per_second ? "max_speed * dt = %g px per step is not below the world size %gx%g"
                                     : "max_speed = %g px per step is not below the world size %gx%g",
                          (double)step, (double)d->width, (double)d->height);
    float min_cell = d->cell_size > 0.0f ? d->cell_size : radius;
    *grid = boids_grid_dims_for(d->width, d->height, min_cell, d->count);
    grid->wrap = p->edges == BOIDS_EDGES_WRAP;
    return BOIDS_OK;
}

boids_status boids_world_set_params(boids_world *w, const boids_params *params)
{
    boids_status st = boids_params_validate(w->def.model, params);
    if (st != BOIDS_OK) return st;
    boids_grid_dims grid;
    st = plan_grid(&w->def, params, &grid);
    if (st != BOIDS_OK) return st;
    bool grid_changed = grid.w != w->grid.w || grid.h != w->grid.h || grid.wrap != w->grid.wrap;
    boids_params old_params = w->def.params;
    boids_grid_dims old_grid = w->grid;
    w->def.params = *params;
    w->grid = grid;
    st = w->vt->configure(w, grid_changed);
    if (st != BOIDS_OK) { /* keep the world as it was */
        w->def.params = old_params;
        w->grid = old_grid;
        w->vt->configure(w, grid_changed);
    }
    return st;
}

boids_status boids_world_set_tool(boids_world *w, const boids_tool *tool)
{
    if (tool->kind > BOIDS_TOOL_REPEL)
        return boids_fail(BOIDS_ERR_INVALID, "tool: unknown kind %u", tool->kind);
    if (!isfinite(tool->x) || !isfinite(tool->y) || !isfinite(tool->radius) ||
        !isfinite(tool->strength) || tool->radius < 0.0f || fabsf(tool->strength) > 1e7f)
        return boids_fail(BOIDS_ERR_INVALID, "tool: position, radius >= 0 and |strength| <= 1e7 "
                                             "must be finite");
    w->tool = *tool;
    if (w->def.params.edges == BOIDS_EDGES_WRAP) {
        w->tool.x = boids_wrap(tool->x, w->def.width);
        w->tool.y = boids_wrap(tool->y, w->def.height);
    }
    return w->vt->configure(w, false);
}

boids_status boids_world_create(const boids_world_def *def, boids_world **out)
{
    *out = NULL;
    if (!def) return boids_fail(BOIDS_ERR_INVALID, "world definition is NULL");
    boids_status st = validate_def(def);
    if (st != BOIDS_OK) return st;

    boids_world *w = calloc(1, sizeof *w);
    if (!w) return boids_fail(BOIDS_ERR_NO_MEMORY, "out of memory allocating the world");
    w->def = *def;
    if (w->def.width == 0.0f) boids_default_world_size(def->count, &w->def.width, &w->def.height);

    st = plan_grid(&w->def, &def->params, &w->grid);
    if (st != BOIDS_OK) {
        free(w);
        return st;
    }

    st = def->backend == BOIDS_BACKEND_GPU ? boids_gpu_backend_create(w) : boids_cpu_backend_create(w);
    if (st != BOIDS_OK) {
        free(w);
        return st;
    }

    boids_boid *b = malloc(sizeof *b * (def->count ? def->count : 1));
    if (!b) {
        boids_world_destroy(w);
        return boids_fail(BOIDS_ERR_NO_MEMORY, "out of memory for %u boids", def->count);
    }
    random_state(&w->def, b);
    st = w->vt->write(w, b);
    free(b);
    if (st != BOIDS_OK) {
        boids_world_destroy(w);
        return st;
    }
    *out = w;
    return BOIDS_OK;
}

void boids_world_destroy(boids_world *w)
{
    if (!w) return;
    if (w->vt) w->vt->destroy(w);
    free(w);
}

boids_status boids_world_step(boids_world *w, uint32_t steps)
{
    if (steps == 0 || w->def.count == 0) {
        w->steps += steps;
        return BOIDS_OK;
    }
    boids_status st = w->vt->step(w, steps);
    if (st == BOIDS_OK) w->steps += steps;
    return st;
}

void boids_world_finish(boids_world *w) { w->vt->finish(w); }

boids_status boids_world_read(boids_world *w, boids_boid *out, size_t n)
{
    if (n != w->def.count)
        return boids_fail(BOIDS_ERR_INVALID, "read of %zu boids from a world of %u", n, w->def.count);
    if (n == 0) return BOIDS_OK;
    boids_status st = w->vt->read(w, out);
    if (st != BOIDS_OK) return st;
    /* The rules cannot produce inf or NaN from a valid state; if one ever does, say so rather
     * than hand it on (a dump of it could not be read back). */
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(out[i].x) || !isfinite(out[i].y) || !isfinite(out[i].vx) || !isfinite(out[i].vy))
            return boids_fail(BOIDS_ERR_INTERNAL, "boid %zu has a non-finite state after step %llu", i,
                              (unsigned long long)w->steps);
    return BOIDS_OK;
}

boids_status boids_world_write(boids_world *w, const boids_boid *in, size_t n)
{
    boids_status st = boids_world_validate_state(w, in, n, NULL);
    if (st != BOIDS_OK) return st;
    st = w->vt->write(w, in);
    if (st == BOIDS_OK) w->steps = 0;
    return st;
}

void boids_world_get_info(const boids_world *w, boids_world_info *info)
{
    info->model = w->def.model;
    info->backend = w->def.backend;
    info->count = w->def.count;
    info->swarms = w->def.swarms;
    info->width = w->def.width;
    info->height = w->def.height;
    info->grid_w = w->grid.w;
    info->grid_h = w->grid.h;
    info->cell_w = w->grid.cell_w;
    info->cell_h = w->grid.cell_h;
    info->threads = w->def.threads;
    info->renderer = w->renderer ? w->renderer : "";
    info->steps = w->steps;
    info->params = w->def.params;
    info->dt = w->def.dt;
    info->seed = w->def.seed;
}
