#include "app/session.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "core/geometry.h"
#include "core/scenario.h"

/* Replaces the session's world by one made from def, whose first `keep` boids take `state`. On
 * failure the old world stays. */
static boids_status replace(boids_session *s, boids_world_def def, const boids_boid *state,
                            uint32_t keep)
{
    /* The obstacles as they stand: the next world has them too. */
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    boids_obstacle *obstacles = malloc(sizeof *obstacles * (info.obstacles + 1));
    if (!obstacles)
        return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u obstacles", info.obstacles);
    boids_status st = boids_world_read_obstacles(s->world, obstacles, info.obstacles);
    def.obstacles = obstacles;
    def.obstacle_count = info.obstacles;
    boids_world *w = NULL;
    if (st == BOIDS_OK) st = boids_world_create(&def, &w);
    if (st != BOIDS_OK) {
        free(obstacles);
        return st;
    }
    if (state && keep > 0) {
        boids_boid *all = malloc(sizeof *all * def.count);
        if (!all) st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u boids", def.count);
        if (st == BOIDS_OK) st = boids_world_read(w, all, def.count);
        if (st == BOIDS_OK) {
            memcpy(all, state, sizeof *all * keep);
            st = boids_world_write(w, all, def.count);
        }
        free(all);
    }
    if (st == BOIDS_OK) st = boids_world_set_tool(w, &s->tool);
    if (st != BOIDS_OK) {
        boids_world_destroy(w);
        free(obstacles);
        return st;
    }
    s->steps_before = state ? s->steps_before + info.steps : 0; /* a fresh flock counts from 0 */
    boids_world_destroy(s->world);
    free(s->obstacles);
    s->world = w;
    s->def = def;
    s->obstacles = obstacles;
    return BOIDS_OK;
}

boids_status boids_session_create(boids_session *s, const boids_world_def *def,
                                  const boids_boid *init)
{
    memset(s, 0, sizeof *s);
    s->tool.kind = BOIDS_TOOL_NONE;
    boids_world_def d = *def;
    boids_status st = boids_world_create(&d, &s->world);
    if (st != BOIDS_OK) return st;
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    d.width = info.width; /* resolved: later worlds keep this size */
    d.height = info.height;
    d.depth = info.depth;
    s->def = d;
    if (init) st = boids_world_write(s->world, init, d.count);
    if (st != BOIDS_OK) boids_session_destroy(s);
    return st;
}

void boids_session_destroy(boids_session *s)
{
    boids_world_destroy(s->world);
    s->world = NULL;
    free(s->obstacles);
    s->obstacles = NULL;
}

/* The current state, malloc'ed (free it). */
static boids_status current(boids_session *s, boids_boid **out)
{
    *out = malloc(sizeof **out * (s->def.count ? s->def.count : 1));
    if (!*out) return boids_fail(BOIDS_E_NO_MEMORY, "out of memory for the state");
    boids_status st = boids_world_read(s->world, *out, s->def.count);
    if (st != BOIDS_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

static boids_params live_params(const boids_session *s)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    return info.params; /* the panel may have changed them since creation */
}

boids_status boids_session_reset(boids_session *s, uint64_t seed)
{
    boids_world_def d = s->def;
    d.params = live_params(s);
    d.seed = seed;
    return replace(s, d, NULL, 0);
}

boids_status boids_session_resize(boids_session *s, uint32_t count)
{
    boids_status st = boids_world_set_count(s->world, count); /* the world resizes itself */
    if (st == BOIDS_OK) s->def.count = count;
    return st;
}

/* The step of a model's world (its manifest's: kit's 0.08 s), else the default 1/60 s. */
static float model_dt(boids_model model)
{
    float dt = boids_default_world_def().dt;
    boids_scenario *sc = malloc(sizeof *sc);
    if (!sc) return dt;
    boids_scenario_init(sc, 0);
    if (boids_scenario_set(sc, "model", boids_model_name(model)) == BOIDS_OK) dt = sc->def.dt;
    free(sc);
    return dt;
}

boids_status boids_session_set_model(boids_session *s, boids_model model)
{
    boids_boid *state;
    boids_status st = current(s, &state);
    if (st != BOIDS_OK) return st;
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    boids_world_def d = s->def;
    d.model = model;
    d.params = boids_model_default_params(model);
    /* the new model's step (kit's 0.08 s once stayed with the next model), and the obstacles
     * as they stand, which the world keeps, counted in its parameters (the panel said 0) */
    d.dt = model_dt(model);
    d.params.obstacles.obstacles = info.obstacles;
    /* Boids that strayed out of a bounded world come back in where the new one wraps. Speeds
     * keep their direction and are brought to the new model's limits by its first step. */
    if (d.params.base.edges == BOIDS_EDGES_WRAP)
        for (uint32_t i = 0; i < d.count; ++i) {
            state[i].x = boids_wrap(state[i].x, d.width);
            state[i].y = boids_wrap(state[i].y, d.height);
        }
    st = replace(s, d, state, d.count);
    free(state);
    return st;
}

boids_status boids_session_add_predator(boids_session *s, float x, float y, float z)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    if (!(boids_model_features(info.model) & BOIDS_FEATURE_PREDATORS))
        return boids_fail(BOIDS_E_NO_PREDATORS, "model %s has no predators",
                          boids_model_name(info.model));
    /* one more predator (the world adds it), then put where the user clicked, heading along +x
     * at its lowest speed */
    boids_params p = info.params;
    p.predators.predators += 1;
    boids_status st = boids_world_set_params(s->world, &p);
    const uint32_t n = info.predators + 1;
    boids_predator *all = st == BOIDS_OK ? malloc(sizeof *all * n) : NULL;
    if (st == BOIDS_OK && !all)
        st = boids_fail(BOIDS_E_NO_MEMORY, "out of memory for %u predators", n);
    if (st == BOIDS_OK) st = boids_world_read_predators(s->world, all, n);
    if (st == BOIDS_OK) {
        all[n - 1] = (boids_predator){boids_wrap(x, info.width),
                                      boids_wrap(y, info.height),
                                      fmaxf(info.params.predators.pred_min_speed, 1.0f),
                                      0.0f,
                                      info.dims == 3 ? boids_wrap(z, info.depth) : 0.0f,
                                      0.0f};
        st = boids_world_write_predators(s->world, all, n);
    }
    free(all);
    return st;
}

boids_status boids_session_set_param(boids_session *s, const char *key, const char *value)
{
    boids_world_info info;
    boids_world_get_info(s->world, &info);
    boids_params p = info.params;
    boids_status st = boids_params_set(info.model, &p, key, value);
    if (st != BOIDS_OK) return st;
    return boids_world_set_params(s->world, &p); /* the world resizes what a count changes */
}
