/* The world API, the dispatcher above both backends: validates definitions and states, plans the
 * grid, builds the initial flock, and forwards to the backend. What the backends share
 * (geometry, the initial state, the tables) lives beneath both in src/core/. */
#define _POSIX_C_SOURCE 200809L /* recursive mutexes, getpid */
#include "world/world.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/attributes.h"
#include "base/error.h"
#include "base/memory.h"
#include "core/init_state.h"
#include "core/models.h"
#include "base/parse.h"
#include "cpu/cpu_backend.h"
#include "gpu/gpu_backend.h"

/* Where the streams of obstacles drawn anew in a running world start (seed + this + replica):
 * the replicas' own streams are seed + replica, below BOIDS_MAX_BOIDS. */
#define BOIDS_OBSTACLE_STREAM 0x0b57ac1e5ull

/* Largest side of a world, px. */
#define BOIDS_MAX_WORLD 1e7f

static const boids_backend_create_fn backend_create[2] = {
    [BOIDS_BACKEND_GPU] = boids_gpu_backend_create,
    [BOIDS_BACKEND_CPU] = boids_cpu_backend_create,
};

/* The world's predators and random obstacles in all (per replica times the replicas, in 64
 * bits) within their limits: the one check, whether the counts come with a definition or as
 * parameters later (boids_world_set_params, by name, a scenario, the panel). */
static boids_status check_totals(const boids_world_def *d, const boids_params_facts *f,
                                 bool explicit_obstacles)
{
    uint64_t predators = (uint64_t)d->replicas * f->predators;
    if (predators > BOIDS_MAX_PREDATORS)
        return boids_fail_key(BOIDS_E_PARAM_RANGE, "predators",
                              "%llu predators in all (%u replicas): at most %u",
                              (unsigned long long)predators, d->replicas, BOIDS_MAX_PREDATORS);
    uint64_t obstacles =
        explicit_obstacles ? d->obstacle_count : (uint64_t)d->replicas * f->obstacles;
    if (obstacles > BOIDS_MAX_OBSTACLES)
        return boids_fail_key(BOIDS_E_PARAM_RANGE, "obstacles",
                              "%llu obstacles in all (%u replicas): at most %u",
                              (unsigned long long)obstacles, d->replicas, BOIDS_MAX_OBSTACLES);
    return BOIDS_OK;
}

static boids_status validate_def(const boids_world_def *d, boids_params_facts *facts)
{
    char a[32], b[32], c[32];
    if ((unsigned)d->model >= (unsigned)boids_model_count())
        return boids_fail_key(BOIDS_E_DEF_MODEL, "model", "unknown model %d", (int)d->model);
    if (d->backend != BOIDS_BACKEND_GPU && d->backend != BOIDS_BACKEND_CPU)
        return boids_fail_key(BOIDS_E_DEF_BACKEND, "backend", "unknown backend %d",
                              (int)d->backend);
    if (d->count > BOIDS_MAX_BOIDS)
        return boids_fail_key(BOIDS_E_DEF_COUNT, "count", "%u exceeds the maximum of %u", d->count,
                              BOIDS_MAX_BOIDS);
    if (d->swarms < 1 || d->swarms > BOIDS_MAX_SWARMS)
        return boids_fail_key(BOIDS_E_DEF_SWARMS, "swarms", "%u is outside [1, %u]", d->swarms,
                              BOIDS_MAX_SWARMS);
    if (!isfinite(d->width) || !isfinite(d->height) || d->width < 0 || d->height < 0 ||
        d->width > BOIDS_MAX_WORLD || d->height > BOIDS_MAX_WORLD ||
        ((d->width == 0) != (d->height == 0)))
        return boids_fail_key(BOIDS_E_DEF_WORLD, "world",
                              "%sx%s is not a size in (0, %s] px (or 0x0 for the default)",
                              boids_float_text(d->width, a), boids_float_text(d->height, b),
                              boids_float_text(BOIDS_MAX_WORLD, c));
    if (!isfinite(d->depth) || d->depth < 0 || d->depth > BOIDS_MAX_WORLD)
        return boids_fail_key(BOIDS_E_DEF_WORLD, "world",
                              "depth %s is not in (0, %s] px (or 0 for a flat world)",
                              boids_float_text(d->depth, a), boids_float_text(BOIDS_MAX_WORLD, c));
    if (!isfinite(d->dt) || d->dt <= 0.0f || d->dt > 1.0f)
        return boids_fail_key(BOIDS_E_DEF_DT, "dt", "%s s is outside (0, 1]",
                              boids_float_text(d->dt, a));
    if (!isfinite(d->cell_size) || d->cell_size < 0.0f)
        return boids_fail_key(BOIDS_E_DEF_CELL_SIZE, "cell_size", "%s is not >= 0",
                              boids_float_text(d->cell_size, a));
    if (d->neighbors != BOIDS_NEIGHBORS_GRID && d->neighbors != BOIDS_NEIGHBORS_BRUTE)
        return boids_fail_key(BOIDS_E_DEF_NEIGHBORS, "neighbors", "unknown neighbour search %d",
                              (int)d->neighbors);
    if (d->threads < 0 || d->threads > 256)
        return boids_fail_key(BOIDS_E_DEF_THREADS, "threads", "%d is outside [0, 256]", d->threads);
    if (d->event_capacity < 1 || d->event_capacity > BOIDS_MAX_EVENT_CAPACITY)
        return boids_fail_key(BOIDS_E_DEF_EVENTS, "event_capacity", "%u is outside [1, %u]",
                              d->event_capacity, BOIDS_MAX_EVENT_CAPACITY);
    if ((unsigned)d->layout >= BOIDS_LAYOUT_COUNT)
        return boids_fail_key(BOIDS_E_DEF_LAYOUT, "layout", "unknown layout %d", (int)d->layout);
    if (d->replicas < 1 || d->replicas > BOIDS_MAX_REPLICAS || d->count % d->replicas != 0)
        return boids_fail_key(BOIDS_E_DEF_REPLICAS, "replicas",
                              "%u is not in [1, %u] or does not divide %u boids", d->replicas,
                              BOIDS_MAX_REPLICAS, d->count);
    if (d->nearest > BOIDS_MAX_NEAREST)
        return boids_fail_key(BOIDS_E_DEF_NEAREST, "nearest",
                              "nearest:%u: at most %u nearest neighbours", d->nearest,
                              BOIDS_MAX_NEAREST);
    if (d->nearest > 0 && (boids_model_features(d->model) & BOIDS_FEATURE_OWN_WALK) &&
        !(boids_model_features(d->model) & BOIDS_FEATURE_NEAREST))
        return boids_fail_key(BOIDS_E_DEF_NEAREST, "nearest",
                              "%s walks its own neighbourhood (its view field), which has no "
                              "nearest:K reading: neighbours = metric",
                              boids_model_name(d->model));
    if (d->obstacle_count > 0 && !d->obstacles)
        return boids_fail_key(BOIDS_E_DEF_OBSTACLE, "obstacles", "%u obstacles but no list",
                              d->obstacle_count);
    boids_status st = boids_params_resolve(d->model, &d->params, facts);
    if (st != BOIDS_OK) return st;
    return check_totals(d, facts, d->obstacles != NULL);
}

boids_status boids_world_validate_state(const boids_world *w, const boids_boid *b, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(b || n == 0, "in");
    const boids_world_def *d = &w->sim.def;
    char s1[32], s2[32], s3[32], s4[32];
    if (n != d->count)
        return boids_fail(BOIDS_E_STATE_COUNT, "state has %zu boids, the world has %u", n,
                          d->count);
    const bool wrap = d->params.base.edges == BOIDS_EDGES_WRAP;
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(b[i].x) || !isfinite(b[i].y) || !isfinite(b[i].vx) || !isfinite(b[i].vy))
            return boids_fail_boid(BOIDS_E_STATE_NOT_FINITE, i, "",
                                   "position and velocity must be finite");
        if (wrap && (b[i].x < 0 || b[i].x >= d->width || b[i].y < 0 || b[i].y >= d->height))
            return boids_fail_boid(BOIDS_E_STATE_OUTSIDE, i, "",
                                   "position (%s, %s) is outside the world [0, %s) x [0, %s)",
                                   boids_float_text(b[i].x, s1), boids_float_text(b[i].y, s2),
                                   boids_float_text(d->width, s3), boids_float_text(d->height, s4));
        /* Where nothing wraps, boids may stray outside; not to absurd distances. */
        if (fabsf(b[i].x) > (float)BOIDS_MAX_POSITION || fabsf(b[i].y) > (float)BOIDS_MAX_POSITION)
            return boids_fail_boid(BOIDS_E_STATE_OUTSIDE, i, "",
                                   "position (%s, %s) is beyond +-%s px",
                                   boids_float_text(b[i].x, s1), boids_float_text(b[i].y, s2),
                                   boids_float_text((float)BOIDS_MAX_POSITION, s3));
        if (fabsf(b[i].vx) > BOIDS_MAX_STATE_SPEED || fabsf(b[i].vy) > BOIDS_MAX_STATE_SPEED)
            return boids_fail_boid(BOIDS_E_STATE_SPEED, i, "",
                                   "velocity (%s, %s) has a component beyond +-%s",
                                   boids_float_text(b[i].vx, s1), boids_float_text(b[i].vy, s2),
                                   boids_float_text(BOIDS_MAX_STATE_SPEED, s3));
        if (w->sim.three) { /* (a flat world ignores z and vz) */
            if (!isfinite(b[i].z) || !isfinite(b[i].vz))
                return boids_fail_boid(BOIDS_E_STATE_NOT_FINITE, i, "",
                                       "position and velocity must be finite");
            if ((wrap && (b[i].z < 0 || b[i].z >= d->depth)) ||
                fabsf(b[i].z) > (float)BOIDS_MAX_POSITION)
                return boids_fail_boid(
                    BOIDS_E_STATE_OUTSIDE, i, "z", "%s is outside the world's depth [0, %s)",
                    boids_float_text(b[i].z, s1), boids_float_text(d->depth, s2));
            if (fabsf(b[i].vz) > BOIDS_MAX_STATE_SPEED)
                return boids_fail_boid(BOIDS_E_STATE_SPEED, i, "vz", "%s is beyond +-%s",
                                       boids_float_text(b[i].vz, s1),
                                       boids_float_text(BOIDS_MAX_STATE_SPEED, s2));
        }
        if (b[i].swarm >= d->swarms)
            return boids_fail_boid(BOIDS_E_STATE_SWARM, i, "swarm", "%u is not below swarms = %u",
                                   b[i].swarm, d->swarms);
        for (int a = 0; a < BOIDS_ATTR_COUNT; ++a) {
            if (!(w->sim.attributes & (1u << a))) continue; /* not the model's: ignored */
            const boids_attribute_info *ai = boids_attribute_info_of((boids_attribute)a);
            double v = boids_boid_attr_value(&b[i], (boids_attribute)a);
            if (!isfinite(v) || v < ai->min || v > ai->max)
                return boids_fail_boid(BOIDS_E_STATE_ATTRIBUTE, i, ai->name,
                                       "%.9g is outside [%s, %s]", v, boids_float_text(ai->min, s1),
                                       boids_float_text(ai->max, s2));
        }
    }
    return BOIDS_OK;
}

/* The side of a cell that holds about K/4 boids at the mean density (plan_grid): an axis shorter
 * than that side is taken whole, and the side found over the others (a world 3 px thick took the
 * cube root of its thin volume: cells far smaller than the K nearest's distance across it, so a
 * GPU's search read ten thousand of them and ran past llvmpipe's loop count). */
static double nearest_cell_side(const boids_world_def *d)
{
    double axes[3] = {d->width, d->height, d->depth};
    const int dims = d->depth > 0.0f ? 3 : 2;
    for (int i = 1; i < dims; ++i) /* shortest first */
        for (int j = i; j > 0 && axes[j] < axes[j - 1]; --j) {
            const double t = axes[j];
            axes[j] = axes[j - 1], axes[j - 1] = t;
        }
    const double per = (double)d->count / d->replicas;
    double room =
        dims == 3 ? (double)d->width * d->height * d->depth : (double)d->width * d->height;
    room = room * d->nearest / 4 / per; /* a cell's room */
    double side = 0.0;
    for (int i = 0; i < dims; ++i) {
        side = pow(room, 1.0 / (dims - i));
        if (side <= axes[i] || i == dims - 1) break;
        room /= axes[i]; /* this axis whole: the rest over the others */
    }
    return side;
}

/* The grid for parameters p (with their facts f) in the (resolved) world d with `obstacles`
 * obstacles, after the checks that depend on both. */
static boids_status plan_grid(const boids_world_def *d, const boids_params *p,
                              const boids_params_facts *f, uint32_t obstacles,
                              boids_grid_dims *grid)
{
    char a[32], b[32], c[32];
    const float radius = obstacles > 0 ? f->radius_with_obstacles : f->radius;
    if (d->cell_size > 0.0f && d->cell_size < 0.5f * radius)
        return boids_fail_key(BOIDS_E_DEF_CELL_SIZE, "cell_size",
                              "%s px is below half the largest interaction radius %s px",
                              boids_float_text(d->cell_size, a), boids_float_text(radius, b));
    /* A step must not carry a boid across more than the world (the wrap undoes one lap). */
    int per_second = boids_model_time_base(d->model) == BOIDS_TIME_PER_SECOND;
    float step = per_second ? p->base.max_speed * d->dt : p->base.max_speed;
    const float smallest =
        d->depth > 0.0f ? fminf(fminf(d->width, d->height), d->depth) : fminf(d->width, d->height);
    if (p->base.edges == BOIDS_EDGES_WRAP && step >= smallest) {
        char depth[40] = ""; /* the whole size: WxH, or WxHxD */
        if (d->depth > 0.0f) snprintf(depth, sizeof depth, "x%s", boids_float_text(d->depth, a));
        return boids_fail_keys(
            BOIDS_E_DEF_STEP_TOO_LONG, "max_speed", per_second ? "dt,world" : "world",
            per_second ? "max_speed * dt = %s px per step is not below the world size %sx%s%s"
                       : "%s px per step is not below the world size %sx%s%s",
            boids_float_text(step, a), boids_float_text(d->width, b),
            boids_float_text(d->height, c), depth);
    }
    float min_cell = d->cell_size > 0.0f ? d->cell_size : radius;
    if (d->nearest > 0 && d->cell_size == 0.0f && d->count > 0) {
        /* the K nearest are searched in rings of cells: cells that hold about K/4 boids at the
         * mean density keep the rings few where the radii are small for the spacing, and no
         * larger where they are not (a clumped flock's cells hold many more: larger cells cost
         * more than the rings they save). The cell size changes no result: the nearest are the
         * nearest. */
        min_cell = fmaxf(min_cell, (float)nearest_cell_side(d));
    }
    *grid = boids_grid_dims_for(d->width, d->height, d->depth, min_cell, radius, d->count,
                                p->base.edges == BOIDS_EDGES_WRAP, d->replicas);
    return BOIDS_OK;
}

/* The derived values of sim that follow from its definition and obstacles. */
static void derive(boids_sim *sim)
{
    const bool wrap = sim->def.params.base.edges == BOIDS_EDGES_WRAP;
    sim->dt = boids_model_time_base(sim->def.model) == BOIDS_TIME_PER_SECOND ? sim->def.dt : 1.0f;
    sim->half_w = wrap ? sim->def.width * 0.5f : INFINITY;
    sim->half_h = wrap ? sim->def.height * 0.5f : INFINITY;
    sim->three = sim->def.depth > 0.0f;
    sim->half_d = wrap && sim->three ? sim->def.depth * 0.5f : INFINITY;
    sim->obstacle_push = sim->obstacle_count > 0 && !(sim->features & BOIDS_FEATURE_OBSTACLE_RULE);
    sim->predators_per_replica =
        sim->features & BOIDS_FEATURE_PREDATORS ? sim->def.params.predators.predators : 0;
    sim->predator_count = sim->predators_per_replica * sim->def.replicas;
    sim->def.obstacles = sim->obstacles;
    sim->def.obstacle_count = sim->obstacle_count;
}

/* The random obstacles of every replica: each replica's stream, after its boids and predators
 * (init_flock draws them in that order). */
static void random_obstacles(boids_world *w, boids_rng *streams)
{
    const uint32_t per = w->sim.def.params.obstacles.obstacles;
    for (uint32_t r = 0; r < w->sim.def.replicas; ++r)
        boids_obstacles_random(&w->sim.def, r, &streams[r], per, &w->sim.obstacles[r * per]);
}

/* Moves the world to params/grid/obstacles (obstacles: a new list, owned; NULL keeps the list),
 * telling the backend; on failure everything stays as it was. */
static boids_status reconfigure(boids_world *w, const boids_params *params,
                                const boids_params_facts *facts, boids_obstacle *obstacles,
                                uint32_t n)
{
    boids_grid_dims grid;
    boids_status st =
        plan_grid(&w->sim.def, params, facts, obstacles ? n : w->sim.obstacle_count, &grid);
    if (st != BOIDS_OK) return st;
    boids_obstacle_grid og = {0};
    st = boids_obstacle_grid_build(&og, &grid, obstacles ? obstacles : w->sim.obstacles,
                                   obstacles ? n : w->sim.obstacle_count);
    if (st != BOIDS_OK) return st;
    bool grid_changed = grid.w != w->sim.grid.w || grid.h != w->sim.grid.h ||
                        grid.d != w->sim.grid.d || grid.wrap != w->sim.grid.wrap ||
                        grid.span != w->sim.grid.span;
    boids_sim old = w->sim;
    w->sim.def.params = *params;
    w->sim.grid = grid;
    w->sim.obstacle_grid = og;
    if (obstacles) {
        w->sim.obstacles = obstacles;
        w->sim.obstacle_count = n;
    }
    derive(&w->sim);
    st = w->ops->configure(w->impl, grid_changed);
    if (st != BOIDS_OK) { /* keep the world as it was */
        w->sim = old;
        w->ops->configure(w->impl, grid_changed);
        boids_obstacle_grid_free(&og);
        return st;
    }
    boids_obstacle_grid_free(&old.obstacle_grid);
    if (obstacles) free(old.obstacles);
    w->facts = *facts;
    return BOIDS_OK;
}

/* The predators after their number per replica changes from the world's to params': each
 * replica keeps its first ones, and the others are those a world made with these parameters
 * would start with (its replica's stream, after its boids, as boids_world_create draws them). */
static boids_status predators_for(const boids_world *w, const boids_params *params,
                                  boids_predator **before, boids_predator **out)
{
    const boids_sim *sim = &w->sim;
    boids_world_def d = sim->def;
    d.params = *params;
    const uint32_t R = d.replicas, per = sim->per_replica, was = sim->predators_per_replica;
    const uint32_t now = params->predators.predators, keep = was < now ? was : now;
    boids_predator *old = malloc(sizeof *old * (sim->predator_count ? sim->predator_count : 1));
    boids_predator *list = malloc(sizeof *list * (now * R > 0 ? now * R : 1));
    boids_boid *scratch = malloc(sizeof *scratch * per);
    boids_status st =
        old && list && scratch
            ? BOIDS_OK
            : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u predators", now * R);
    if (st == BOIDS_OK && sim->predator_count) st = w->ops->read_predators(w->impl, old);
    for (uint32_t r = 0; st == BOIDS_OK && r < R; ++r) {
        boids_rng rng = boids_rng_seeded(d.seed + r);
        boids_layout_init(d.layout, d.model)(&d, &rng, d.count ? per : 0, scratch, now,
                                             &list[r * now]);
        memcpy(&list[r * now], &old[r * was], sizeof *list * keep);
    }
    free(scratch);
    if (st != BOIDS_OK) free(old), free(list), old = list = NULL;
    *before = old;
    *out = list;
    return st;
}

boids_status boids_world_set_params(boids_world *w, const boids_params *params)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(params, "params");
    boids_params_facts facts; /* what the world takes from params, in one call */
    boids_status st = boids_params_resolve(w->sim.def.model, params, &facts);
    if (st != BOIDS_OK) return st;
    const boids_params *p = &w->sim.def.params;
    st = check_totals(&w->sim.def, &facts, w->explicit_obstacles);
    if (st != BOIDS_OK) return st;
    /* Another number of predators: the world keeps each replica's first ones and adds new ones
     * (or drops the last), its backend sized for them by reconfigure(). */
    boids_predator *before = NULL, *predators = NULL;
    const uint32_t had = w->sim.predator_count;
    const bool new_predators = facts.predators != w->facts.predators;
    if (new_predators && (st = predators_for(w, params, &before, &predators)) != BOIDS_OK)
        return st;
    /* Another random obstacle count or size: new random obstacles, from the world's seed. */
    bool new_obstacles = !w->explicit_obstacles &&
                         (facts.obstacles != w->facts.obstacles ||
                          params->obstacles.max_obstacle_size != p->obstacles.max_obstacle_size);
    boids_obstacle *list = NULL;
    uint32_t n = 0;
    if (new_obstacles) {
        boids_world_def d = w->sim.def;
        d.params = *params;
        uint32_t per = facts.obstacles;
        n = per * d.replicas;
        list = malloc(sizeof *list * (n ? n : 1));
        if (!list) st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u obstacles", n);
        for (uint32_t r = 0; st == BOIDS_OK && r < d.replicas; ++r) {
            /* a stream of their own, apart from the replicas' (seed + r) by a constant far above
             * any replica count, so new obstacles redraw neither the flock nor the others */
            boids_rng rng = boids_rng_seeded(d.seed + r + BOIDS_OBSTACLE_STREAM);
            boids_obstacles_random(&d, r, &rng, per, &list[r * per]);
        }
    }
    if (st == BOIDS_OK) st = reconfigure(w, params, &facts, list, n);
    if (st != BOIDS_OK) {
        free(list);
        if (new_predators && had) /* sized back by reconfigure(): the predators as they were */
            w->ops->write_predators(w->impl, before);
    } else if (new_predators && w->sim.predator_count) {
        st = w->ops->write_predators(w->impl, predators);
    }
    free(before);
    free(predators);
    return st;
}

/* The boids after their number changes from the world's to count: each replica keeps its first
 * ones (by id) and gains those a world of count boids would start with (its replica's stream, as
 * boids_world_create draws them), or drops its last ones. *old: the state as it was. */
static boids_status boids_for(const boids_world *w, uint32_t count, boids_boid **old,
                              boids_boid **out)
{
    const boids_sim *sim = &w->sim;
    boids_world_def d = sim->def;
    d.count = count;
    const uint32_t R = d.replicas, was = sim->def.count / R, now = count / R;
    const uint32_t keep = was < now ? was : now, pp = sim->predators_per_replica;
    *old = malloc(sizeof **old * (sim->def.count ? sim->def.count : 1));
    *out = malloc(sizeof **out * (count ? count : 1));
    boids_predator *scratch = malloc(sizeof *scratch * (pp ? pp : 1));
    boids_status st = *old && *out && scratch
                          ? BOIDS_OK
                          : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids", count);
    if (st == BOIDS_OK && sim->def.count) st = w->ops->read(w->impl, *old);
    for (uint32_t r = 0; st == BOIDS_OK && r < R && now > 0; ++r) {
        boids_rng rng = boids_rng_seeded(d.seed + r);
        boids_layout_init(d.layout, d.model)(&d, &rng, now, &(*out)[r * now], pp, scratch);
        memcpy(&(*out)[r * now], &(*old)[r * was], sizeof **out * keep);
    }
    free(scratch);
    if (st != BOIDS_OK) free(*old), free(*out), *old = *out = NULL;
    return st;
}

boids_status boids_world_set_count(boids_world *w, uint32_t count)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    const boids_world_def *d = &w->sim.def;
    if (count == d->count) return BOIDS_OK;
    if (count > BOIDS_MAX_BOIDS)
        return boids_fail_key(BOIDS_E_DEF_COUNT, "count", "%u exceeds the maximum of %u", count,
                              BOIDS_MAX_BOIDS);
    if (count % d->replicas != 0)
        return boids_fail_key(BOIDS_E_DEF_COUNT, "count",
                              "%u boids do not divide among %u replicas", count, d->replicas);
    /* The world as it will be: the same size, parameters, obstacles, predators and step count. */
    boids_sim next = w->sim;
    next.def.count = count;
    next.per_replica = count / d->replicas ? count / d->replicas : 1;
    next.obstacle_grid = (boids_obstacle_grid){0};
    boids_status st =
        plan_grid(&next.def, &next.def.params, &w->facts, next.obstacle_count, &next.grid);
    if (st == BOIDS_OK)
        st = boids_obstacle_grid_build(&next.obstacle_grid, &next.grid, next.obstacles,
                                       next.obstacle_count);
    boids_boid *old = NULL, *boids = NULL;
    boids_predator *predators =
        malloc(sizeof *predators * (w->sim.predator_count ? w->sim.predator_count : 1));
    if (st == BOIDS_OK && !predators)
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the predators");
    if (st == BOIDS_OK) st = boids_for(w, count, &old, &boids);
    if (st == BOIDS_OK && w->sim.predator_count) st = w->ops->read_predators(w->impl, predators);
    if (st != BOIDS_OK) {
        boids_obstacle_grid_free(&next.obstacle_grid);
        free(predators);
        return st;
    }
    /* A backend of the new size beside the old one (which reads nothing of the world until it is
     * destroyed), so that on failure the old one goes on untouched. */
    boids_sim was = w->sim;
    w->sim = next;
    const boids_backend_ops *ops = NULL;
    void *impl = NULL;
    const char *renderer = NULL, *device = NULL;
    int threads = 0;
    st = backend_create[next.def.backend](&w->sim, &ops, &impl, &renderer, &device, &threads);
    if (st == BOIDS_OK) st = ops->write(impl, boids);
    if (st == BOIDS_OK && w->sim.predator_count) st = ops->write_predators(impl, predators);
    if (st != BOIDS_OK) {
        if (impl) ops->destroy(impl);
        boids_obstacle_grid_free(&w->sim.obstacle_grid);
        w->sim = was;
    } else { /* the old backend's events so far go out at the next take; then it goes */
        /* A take that fails (the old backend's context gone) drops only those events: the new
         * count stands, and the new backend reports what it meets itself. */
        (void)w->ops->take_events(w->impl, &w->held);
        w->ops->destroy(w->impl);
        boids_obstacle_grid_free(&was.obstacle_grid);
        w->ops = ops, w->impl = impl, w->renderer = renderer, w->device = device;
        w->threads = threads;
    }
    free(old);
    free(boids);
    free(predators);
    return st;
}

boids_status boids_world_set_obstacles(boids_world *w, const boids_obstacle *in, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(in || n == 0, "list");
    boids_status st = boids_obstacles_validate(in, n, w->sim.def.width, w->sim.def.height,
                                               w->sim.def.depth, w->sim.def.replicas);
    if (st != BOIDS_OK) return st;
    boids_obstacle *list = malloc(sizeof *list * (n ? n : 1));
    if (!list) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %zu obstacles", n);
    if (n) memcpy(list, in, sizeof *list * n); /* (memcpy from NULL, even of 0 bytes: UB) */
    st = reconfigure(w, &w->sim.def.params, &w->facts, list, (uint32_t)n);
    if (st != BOIDS_OK)
        free(list);
    else
        w->explicit_obstacles = true;
    return st;
}

boids_status boids_world_read_obstacles(const boids_world *w, boids_obstacle *out, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out || n == 0, "out");
    if (n != w->sim.obstacle_count)
        return boids_fail(BOIDS_E_ARGUMENT, "read of %zu obstacles from a world of %u", n,
                          w->sim.obstacle_count);
    if (n) memcpy(out, w->sim.obstacles, sizeof *out * n);
    return BOIDS_OK;
}

boids_status boids_world_set_tool(boids_world *w, const boids_tool *tool)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(tool, "tool");
    if (tool->kind > BOIDS_TOOL_REPEL)
        return boids_fail_key(BOIDS_E_TOOL, "tool", "unknown kind %u", tool->kind);
    if (!isfinite(tool->x) || !isfinite(tool->y) || (w->sim.three && !isfinite(tool->z)) ||
        !isfinite(tool->radius) || !isfinite(tool->strength) || tool->radius < 0.0f ||
        fabsf(tool->strength) > 1e7f)
        return boids_fail_key(BOIDS_E_TOOL, "tool",
                              "position, radius >= 0 and |strength| <= 1e7 must be finite");
    w->sim.tool = *tool;
    if (w->sim.def.params.base.edges == BOIDS_EDGES_WRAP) {
        w->sim.tool.x = boids_wrap(tool->x, w->sim.def.width);
        w->sim.tool.y = boids_wrap(tool->y, w->sim.def.height);
        w->sim.tool.z = w->sim.three ? boids_wrap(tool->z, w->sim.def.depth) : 0.0f;
    }
    return w->ops->configure(w->impl, false);
}

boids_world_call boids_world_call_begin(const boids_world *cw)
{
    boids_world *w = (boids_world *)cw; /* its lock is all a call on a const world changes */
    if (!w) return (boids_world_call){NULL, boids_fail_null("world")};
    if (w->pid != getpid())
        return (boids_world_call){
            NULL, boids_fail(BOIDS_E_FORKED,
                             "this world belongs to process %d, and a forked child has neither "
                             "its threads nor its GPU context: create worlds in the child "
                             "(Python: multiprocessing's 'spawn' or 'forkserver' start method)",
                             (int)w->pid)};
    pthread_mutex_lock(&w->lock);
    w->depth++;
    return (boids_world_call){w, BOIDS_OK};
}

void boids_world_call_end(boids_world_call *call)
{
    boids_world *w = call->w;
    if (!w) return;
    if (--w->depth == 0 && w->ops && w->ops->release) w->ops->release(w->impl);
    pthread_mutex_unlock(&w->lock);
}

boids_status boids_world_lock(boids_world *w)
{
    boids_world_call call = boids_world_call_begin(w); /* ended by boids_world_unlock */
    if (!call.w) return call.status;
    w->locks++;
    return BOIDS_OK;
}

boids_status boids_world_unlock(boids_world *w)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    /* (the lock is recursive: this call got it at once on the thread that holds it, and waited
     * for another thread's to end, when there are none of this thread's to end) */
    if (w->locks == 0)
        return boids_fail(BOIDS_E_ARGUMENT,
                          "boids_world_unlock: this thread holds no boids_world_lock on the world");
    w->locks--;
    boids_world_call_end(&(boids_world_call){w, BOIDS_OK}); /* the one the lock began */
    return BOIDS_OK;
}

boids_status boids_world_def_validate(const boids_world_def *def)
{
    if (!def) return boids_fail(BOIDS_E_DEF_NULL, "world definition is NULL");
    boids_params_facts facts;
    boids_status st = validate_def(def, &facts);
    if (st != BOIDS_OK) return st;
    boids_world_def d = *def;
    boids_world_def_resolve_size(&d);
    /* what boids_world_create checks of the grid too (a cell_size below half the radius was
     * taken here and refused there: a sweep made its directory, then failed at run 0) */
    boids_grid_dims grid;
    const uint32_t obstacles =
        def->obstacles ? def->obstacle_count : def->params.obstacles.obstacles * def->replicas;
    st = plan_grid(&d, &def->params, &facts, obstacles, &grid);
    if (st != BOIDS_OK || !def->obstacles) return st;
    return boids_obstacles_validate(d.obstacles, d.obstacle_count, d.width, d.height, d.depth,
                                    d.replicas);
}

boids_status boids_world_create(const boids_world_def *def, boids_world **out)
{
    BOIDS_REQUIRE(out, "out");
    *out = NULL;
    if (!def) return boids_fail(BOIDS_E_DEF_NULL, "world definition is NULL");
    boids_params_facts facts;
    boids_status st = validate_def(def, &facts);
    if (st != BOIDS_OK) return st;

    boids_world *w = calloc(1, sizeof *w);
    if (!w) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory allocating the world");
    pthread_mutexattr_t recursive;
    pthread_mutexattr_init(&recursive);
    pthread_mutexattr_settype(&recursive, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&w->lock, &recursive);
    pthread_mutexattr_destroy(&recursive);
    w->pid = getpid();
    boids_sim *sim = &w->sim;
    sim->def = *def;
    boids_world_def_resolve_size(&sim->def);
    sim->attributes = boids_model_attributes(def->model);
    sim->features = boids_model_features(def->model);
    sim->tool.kind = BOIDS_TOOL_NONE;
    sim->per_replica = def->count / def->replicas ? def->count / def->replicas : 1;
    /* Obstacles: the explicit list (the same wherever it says), or random ones per replica. */
    w->explicit_obstacles = def->obstacles != NULL;
    sim->obstacle_count =
        def->obstacles ? def->obstacle_count : def->params.obstacles.obstacles * def->replicas;
    sim->obstacles =
        malloc(sizeof *sim->obstacles * (sim->obstacle_count ? sim->obstacle_count : 1));
    st = sim->obstacles
             ? BOIDS_OK
             : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u obstacles", sim->obstacle_count);
    if (st == BOIDS_OK && def->obstacles) {
        memcpy(sim->obstacles, def->obstacles, sizeof *sim->obstacles * def->obstacle_count);
        st = boids_obstacles_validate(sim->obstacles, sim->obstacle_count, sim->def.width,
                                      sim->def.height, sim->def.depth, def->replicas);
    }
    derive(sim);
    if (st == BOIDS_OK)
        st = plan_grid(&sim->def, &def->params, &facts, sim->obstacle_count, &sim->grid);
    w->facts = facts;
    if (st == BOIDS_OK) st = boids_event_log_init(&w->taken, def->event_capacity);
    if (st == BOIDS_OK) st = boids_event_log_init(&w->held, def->event_capacity);

    /* The initial flock, replica by replica, each from its own stream (seed + replica): boids,
     * predators, then the random obstacles. */
    const uint32_t n = def->count, per = sim->per_replica, pp = sim->predators_per_replica;
    boids_boid *b = malloc(sizeof *b * (n ? n : 1));
    boids_predator *pr = malloc(sizeof *pr * (sim->predator_count ? sim->predator_count : 1));
    boids_rng *streams = malloc(sizeof *streams * def->replicas);
    if (st == BOIDS_OK && (!b || !pr || !streams))
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids", n);
    if (st == BOIDS_OK) {
        for (uint32_t r = 0; r < def->replicas; ++r) {
            streams[r] = boids_rng_seeded(def->seed + r);
            boids_layout_init(def->layout, def->model)(&sim->def, &streams[r], n ? per : 0,
                                                       &b[r * per], pp, &pr[r * pp]);
        }
        if (!def->obstacles) random_obstacles(w, streams);
        st = boids_obstacle_grid_build(&sim->obstacle_grid, &sim->grid, sim->obstacles,
                                       sim->obstacle_count);
    }
    if (st == BOIDS_OK)
        st = backend_create[def->backend](sim, &w->ops, &w->impl, &w->renderer, &w->device,
                                          &w->threads);
    if (st == BOIDS_OK) st = w->ops->write(w->impl, b);
    if (st == BOIDS_OK && sim->predator_count) st = w->ops->write_predators(w->impl, pr);
    free(b);
    free(pr);
    free(streams);
    if (st != BOIDS_OK) {
        boids_world_destroy(w);
        return st;
    }
    if (w->ops->release) w->ops->release(w->impl); /* the next call may come from any thread */
    *out = w;
    return BOIDS_OK;
}

void boids_world_destroy(boids_world *w)
{
    /* A forked child's copy is left as it is: its threads and context are the parent's. */
    if (!w || w->pid != getpid()) return;
    /* a call under way on another thread ends before its world goes (Python's close() from one
     * thread while another steps freed the world under the step) */
    pthread_mutex_lock(&w->lock);
    if (w->ops) w->ops->destroy(w->impl);
    boids_event_log_free(&w->taken);
    boids_event_log_free(&w->held);
    boids_metrics_work_free(w->metrics_work);
    free(w->metrics_columns);
    boids_obstacle_grid_free(&w->sim.obstacle_grid);
    free(w->sim.obstacles);
    for (; w->locks > 0; w->locks--) pthread_mutex_unlock(&w->lock); /* the destroyer's locks */
    pthread_mutex_unlock(&w->lock);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

static boids_status validate_predators(const boids_world *w, const boids_predator *p, size_t n)
{
    const boids_world_def *d = &w->sim.def;
    char s1[32], s2[32], s3[32], s4[32];
    if (n != w->sim.predator_count)
        return boids_fail(w->sim.features & BOIDS_FEATURE_PREDATORS ? BOIDS_E_PREDATOR_STATE
                                                                    : BOIDS_E_NO_PREDATORS,
                          "%zu predators for a world of %u", n, w->sim.predator_count);
    const bool wrap = d->params.base.edges == BOIDS_EDGES_WRAP;
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(p[i].x) || !isfinite(p[i].y) || !isfinite(p[i].vx) || !isfinite(p[i].vy))
            return boids_fail_index(BOIDS_E_PREDATOR_STATE, i, "",
                                    "predator %zu: position and velocity must be finite", i);
        if ((wrap && (p[i].x < 0 || p[i].x >= d->width || p[i].y < 0 || p[i].y >= d->height)) ||
            fabsf(p[i].x) > (float)BOIDS_MAX_POSITION || fabsf(p[i].y) > (float)BOIDS_MAX_POSITION)
            return boids_fail_index(
                BOIDS_E_PREDATOR_STATE, i, "",
                "predator %zu: position (%s, %s) is outside the world [0, %s) x [0, %s)", i,
                boids_float_text(p[i].x, s1), boids_float_text(p[i].y, s2),
                boids_float_text(d->width, s3), boids_float_text(d->height, s4));
        if (fabsf(p[i].vx) > BOIDS_MAX_STATE_SPEED || fabsf(p[i].vy) > BOIDS_MAX_STATE_SPEED)
            return boids_fail_index(BOIDS_E_PREDATOR_STATE, i, "",
                                    "predator %zu: velocity beyond +-%s", i,
                                    boids_float_text(BOIDS_MAX_STATE_SPEED, s1));
        if (!w->sim.three) continue; /* (a flat world ignores z and vz) */
        if (!isfinite(p[i].z) || !isfinite(p[i].vz))
            return boids_fail_index(BOIDS_E_PREDATOR_STATE, i, "",
                                    "predator %zu: position and velocity must be finite", i);
        if ((wrap && (p[i].z < 0 || p[i].z >= d->depth)) ||
            fabsf(p[i].z) > (float)BOIDS_MAX_POSITION)
            return boids_fail_index(BOIDS_E_PREDATOR_STATE, i, "z",
                                    "predator %zu: z %s is outside the world's depth [0, %s)", i,
                                    boids_float_text(p[i].z, s1), boids_float_text(d->depth, s2));
        if (fabsf(p[i].vz) > BOIDS_MAX_STATE_SPEED)
            return boids_fail_index(BOIDS_E_PREDATOR_STATE, i, "vz", "predator %zu: vz beyond +-%s",
                                    i, boids_float_text(BOIDS_MAX_STATE_SPEED, s1));
    }
    return BOIDS_OK;
}

boids_status boids_world_read_predators(boids_world *w, boids_predator *out, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out || n == 0, "out");
    if (n != w->sim.predator_count)
        return boids_fail(BOIDS_E_ARGUMENT, "read of %zu predators from a world of %u", n,
                          w->sim.predator_count);
    return n ? w->ops->read_predators(w->impl, out) : BOIDS_OK;
}

boids_status boids_world_write_predators(boids_world *w, const boids_predator *in, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(in || n == 0, "in");
    boids_status st = validate_predators(w, in, n);
    if (st != BOIDS_OK) return st;
    return n ? w->ops->write_predators(w->impl, in) : BOIDS_OK;
}

boids_status boids_world_replicas(boids_world *w, boids_replica_status *out, size_t n,
                                  bool *all_stopped)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out, "out");
    const uint32_t R = w->sim.def.replicas;
    if (n != R)
        return boids_fail(BOIDS_E_ARGUMENT, "status of %zu replicas from a world of %u", n, R);
    boids_replica_record *rs = malloc(sizeof *rs * R);
    if (!rs) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u replicas", R);
    boids_status st = w->ops->replicas(w->impl, rs);
    bool all = true;
    for (uint32_t r = 0; st == BOIDS_OK && r < R; ++r) {
        out[r].catches = rs[r].catches;
        out[r].stopped = rs[r].stop_step != BOIDS_RUNNING;
        out[r].stop_step = out[r].stopped ? rs[r].stop_step : 0;
        all &= out[r].stopped;
    }
    free(rs);
    if (all_stopped) *all_stopped = st == BOIDS_OK && all;
    return st;
}

/* The metric sums of every replica from the state read by column (a backend without metrics of
 * its own: the CPU's). */
static boids_status metrics_on_host(boids_world *w, float radius, boids_metric_sums *sums)
{
    const uint32_t R = w->sim.def.replicas, per = w->sim.per_replica;
    /* the columns measured, 16 bytes a boid of a flat world, where its whole records were 40;
     * the step's own memory given back first (the backend's trim) */
    if (w->ops->trim) w->ops->trim(w->impl);
    const uint32_t count = w->sim.def.count;
    const bool three = w->sim.three, alive = (w->sim.attributes & (1u << BOIDS_ATTR_ALIVE)) != 0;
    const size_t words = (size_t)count * ((three ? 6 : 4) + alive);
    /* kept from call to call, their pages given back after each (the steps take them) */
    if (words > w->metrics_columns_cap) {
        free(w->metrics_columns);
        w->metrics_columns = malloc(sizeof(uint32_t) * words);
        w->metrics_columns_cap = w->metrics_columns ? words : 0;
    }
    uint32_t *c = w->metrics_columns;
    void *columns[BOIDS_COLUMN_COUNT] = {0};
    const boids_column order[] = {BOIDS_COLUMN_X,  BOIDS_COLUMN_Y, BOIDS_COLUMN_VX,
                                  BOIDS_COLUMN_VY, BOIDS_COLUMN_Z, BOIDS_COLUMN_VZ};
    for (size_t k = 0; c && k < (three ? 6u : 4u); ++k) columns[order[k]] = c + k * count;
    if (c && alive) columns[BOIDS_COLUMN_ATTR + BOIDS_ATTR_ALIVE] = c + (words - count);
    boids_status st = c ? w->ops->read_columns(w->impl, columns)
                        : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the metrics");
    const boids_flock_view view = {columns[BOIDS_COLUMN_X],
                                   columns[BOIDS_COLUMN_Y],
                                   columns[BOIDS_COLUMN_Z],
                                   columns[BOIDS_COLUMN_VX],
                                   columns[BOIDS_COLUMN_VY],
                                   columns[BOIDS_COLUMN_VZ],
                                   columns[BOIDS_COLUMN_ATTR + BOIDS_ATTR_ALIVE],
                                   1};
    /* every core on a large replica (threads for a small one cost more than they save) */
    boids_pool *pool = per >= 20000 && w->threads > 1 ? boids_pool_create(w->threads) : NULL;
    for (uint32_t r = 0; st == BOIDS_OK && r < R; ++r) {
        const boids_flock_view replica = boids_view_from(view, r * per);
        st = boids_metric_sums_compute(&replica, per, w->sim.def.width, w->sim.def.height,
                                       w->sim.def.depth,
                                       w->sim.def.params.base.edges == BOIDS_EDGES_WRAP, radius,
                                       pool, &w->sim.stop_request, &w->metrics_work, &sums[r]);
    }
    boids_pool_destroy(pool);
    boids_pages_release(w->metrics_columns, sizeof(uint32_t) * w->metrics_columns_cap);
    boids_metrics_work_release(w->metrics_work);
    return st;
}

boids_status boids_world_metrics(boids_world *w, boids_metrics *out, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out, "out");
    const uint32_t R = w->sim.def.replicas;
    if (n != R)
        return boids_fail(BOIDS_E_ARGUMENT, "metrics of %zu replicas from a world of %u", n, R);
    const float radius = boids_model_group_radius(w->sim.def.model, &w->sim.def.params);
    boids_metric_sums *sums = calloc(R, sizeof *sums);
    boids_replica_record *rs = malloc(sizeof *rs * R);
    boids_status st =
        sums && rs ? BOIDS_OK : boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u replicas", R);
    if (st == BOIDS_OK && w->ops->metrics) {
        st = w->ops->metrics(w->impl, radius, sums);
    } else if (st == BOIDS_OK && w->sim.def.count) {
        st = metrics_on_host(w, radius, sums);
    }
    if (st == BOIDS_OK) st = w->ops->replicas(w->impl, rs);
    for (uint32_t r = 0; st == BOIDS_OK && r < R; ++r)
        boids_metrics_from_sums(&sums[r], w->sim.steps, rs[r].catches, &out[r]);
    free(sums);
    free(rs);
    return st;
}

boids_status boids_world_step(boids_world *w, uint32_t steps)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    if (steps == 0 || w->sim.def.count == 0) {
        w->sim.steps += steps;
        return BOIDS_OK;
    }
    uint32_t done = 0;
    boids_status st = w->ops->step(w->impl, steps, &done);
    w->sim.steps += done;
    return st;
}

/* Takes no lock: it is called while the call it stops holds the world's. */
void boids_world_interrupt(boids_world *w, bool on)
{
    if (w) __atomic_store_n(&w->sim.stop_request, on ? 1 : 0, __ATOMIC_RELAXED);
}

void boids_world_finish(boids_world *w)
{
    BOIDS_WORLD_CALL(w, );
    w->ops->finish(w->impl);
}

boids_status boids_world_read(boids_world *w, boids_boid *out, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out || n == 0, "out");
    if (n != w->sim.def.count)
        return boids_fail(BOIDS_E_ARGUMENT, "read of %zu boids from a world of %u", n,
                          w->sim.def.count);
    if (n == 0) return BOIDS_OK;
    boids_status st = w->ops->read(w->impl, out);
    if (st != BOIDS_OK) return st;
    /* The rules cannot produce inf or NaN from a valid state; if one ever does, say so rather
     * than hand it on (a dump of it could not be read back). */
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(out[i].x) || !isfinite(out[i].y) || !isfinite(out[i].vx) ||
            !isfinite(out[i].vy))
            return boids_fail_boid(BOIDS_E_STATE_CORRUPT, i, "", "non-finite state after step %llu",
                                   (unsigned long long)w->sim.steps);
        boids_boid_default_attrs(&out[i], w->sim.attributes, &w->sim.def.params);
    }
    return BOIDS_OK;
}

boids_status boids_world_write(boids_world *w, const boids_boid *in, size_t n)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    boids_status st = boids_world_validate_state(w, in, n);
    if (st != BOIDS_OK) return st;
    st = w->ops->write(w->impl, in);
    if (st == BOIDS_OK) {
        w->sim.steps = 0;
        boids_event_log_clear(&w->taken);
    }
    return st;
}

boids_status boids_world_take_events(boids_world *w, boids_events *out)
{
    BOIDS_WORLD_CALL(w, BOIDS_WORLD_REFUSED);
    BOIDS_REQUIRE(out, "out");
    boids_event_log_clear(&w->taken);
    for (size_t i = 0; i < w->held.count; ++i) boids_event_log_push(&w->taken, &w->held.events[i]);
    w->taken.lost += w->held.lost;
    boids_event_log_clear(&w->held);
    boids_status st = w->ops->take_events(w->impl, &w->taken);
    boids_event_log_sort(&w->taken);
    out->events = w->taken.events;
    out->count = w->taken.count;
    out->lost = w->taken.lost;
    if (st == BOIDS_OK && w->taken.lost > 0)
        st = boids_fail(BOIDS_E_EVENTS_LOST,
                        "%llu events were lost: more than event_capacity = %zu "
                        "between two takes (take them more often, or raise it)",
                        (unsigned long long)w->taken.lost, w->taken.capacity);
    return st;
}

int boids_pass_count(void) { return BOIDS_PASS_COUNT; }

const char *boids_pass_name(boids_pass pass)
{
    static const char *const names[BOIDS_PASS_COUNT] = {
#define BOIDS_X_PASS_NAME(ID, name, desc) [BOIDS_PASS_##ID] = name,
        BOIDS_PASS_LIST(BOIDS_X_PASS_NAME)
#undef BOIDS_X_PASS_NAME
    };
    return (unsigned)pass < BOIDS_PASS_COUNT ? names[pass] : "?";
}

void boids_world_profile_add(boids_world *w, boids_pass pass, double sum_ms, uint64_t samples)
{
    BOIDS_WORLD_CALL(w, );
    if ((unsigned)pass >= BOIDS_PASS_COUNT || !(sum_ms >= 0) || !isfinite(sum_ms)) {
        boids_fail_key(BOIDS_E_ARGUMENT, "pass", "pass %d or time %g ms out of range (ignored)",
                       (int)pass, sum_ms);
        return;
    }
    w->draw.sum_ms[pass] += sum_ms;
    w->draw.samples[pass] += samples;
}

void boids_world_get_profile(boids_world *w, boids_profile *out)
{
    if (out) memset(out, 0, sizeof *out);
    BOIDS_WORLD_CALL(w, );
    if (!out) return (void)boids_fail_null("out");
    boids_profile_acc acc = w->draw;
    w->ops->profile(w->impl, &acc);
    for (int p = 0; p < BOIDS_PASS_COUNT; ++p) {
        out->samples[p] = acc.samples[p];
        out->ms[p] = acc.samples[p] ? acc.sum_ms[p] / (double)acc.samples[p] : 0.0;
        if (p != BOIDS_PASS_DRAW) out->step_ms += out->ms[p];
    }
    if (acc.steps) {
        out->dispatches_per_step = (double)acc.dispatches / (double)acc.steps;
        out->barriers_per_step = (double)acc.barriers / (double)acc.steps;
        out->clears_per_step = (double)acc.clears / (double)acc.steps;
    }
}

void boids_world_reset_profile(boids_world *w)
{
    BOIDS_WORLD_CALL(w, );
    memset(&w->draw, 0, sizeof w->draw);
    w->ops->reset_profile(w->impl);
}

boids_gl_state boids_world_gl_state(const boids_world *w)
{
    BOIDS_WORLD_CALL(w, (boids_gl_state){0});
    return w->ops->gl_state(w->impl);
}

void boids_world_get_info(const boids_world *w, boids_world_info *info)
{
    if (info) memset(info, 0, sizeof *info);
    BOIDS_WORLD_CALL(w, );
    if (!info) return (void)boids_fail_null("info");
    const boids_world_def *d = &w->sim.def;
    info->model = d->model;
    info->backend = d->backend;
    info->count = d->count;
    info->swarms = d->swarms;
    info->width = d->width;
    info->height = d->height;
    info->grid_w = w->sim.grid.w;
    info->grid_h = w->sim.grid.h;
    info->cell_w = w->sim.grid.cell_w;
    info->cell_h = w->sim.grid.cell_h;
    info->dims = w->sim.three ? 3 : 2;
    info->depth = d->depth;
    info->grid_d = w->sim.grid.d;
    info->cell_d = w->sim.grid.cell_d;
    info->fine_w = w->sim.grid.fine_w;
    info->fine_h = w->sim.grid.fine_h;
    info->fine_d = w->sim.grid.fine_d;
    info->threads = w->threads;
    info->renderer = w->renderer ? w->renderer : "";
    info->device = w->device ? w->device : "";
    info->steps = w->sim.steps;
    info->replicas = d->replicas;
    info->predators = w->sim.predator_count;
    info->obstacles = w->sim.obstacle_count;
    info->params = d->params;
    info->dt = d->dt;
    info->seed = d->seed;
}

double boids_world_neighbors_per_agent(const boids_world *w)
{
    BOIDS_WORLD_CALL(w, 0.0);
    /* every agent checks the agents of the 3x3 cells around it, spread evenly over its replica */
    const boids_world_def *d = &w->sim.def;
    const double cells = (double)w->sim.grid.w * w->sim.grid.h, block = cells < 9 ? cells : 9;
    const double agents = ((double)d->count + w->sim.predator_count) / d->replicas;
    return cells > 0 ? block * agents / cells : 0.0;
}
