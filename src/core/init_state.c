#include "core/init_state.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/attributes.h"
#include "base/error.h"
#include "base/parse.h"
#include "core/geometry.h"
#include "core/models.h"

static float uniform(boids_rng *rng, float lo, float hi)
{
    return lo + boids_rng_float(rng) * (hi - lo);
}

/* A 3D world's boids: positions uniform in the box, headings uniform on the sphere (cos of the
 * polar angle uniform in [-1, 1]), speeds uniform in [v_min, v_max]. */
static void uniform_3d(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *b)
{
    const float two_pi = 6.28318530717958647692f;
    const float vmin = d->params.base.min_speed, vmax = d->params.base.max_speed;
    for (uint32_t i = 0; i < n; ++i) {
        float x = boids_rng_float(rng) * d->width;
        float y = boids_rng_float(rng) * d->height;
        float z = boids_rng_float(rng) * d->depth;
        float u = 2.0f * boids_rng_float(rng) - 1.0f, a = boids_rng_float(rng) * two_pi;
        float s = vmin + boids_rng_float(rng) * (vmax - vmin), r = sqrtf(fmaxf(0.0f, 1 - u * u));
        b[i].x = boids_wrap(x, d->width);
        b[i].y = boids_wrap(y, d->height);
        b[i].z = boids_wrap(z, d->depth);
        b[i].vx = s * r * cosf(a);
        b[i].vy = s * r * sinf(a);
        b[i].vz = s * u;
        b[i].swarm = i % d->swarms;
        boids_boid_default_attrs(&b[i], 0, &d->params);
    }
}

void boids_init_uniform(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *b,
                        uint32_t p, boids_predator *predators)
{
    const float two_pi = 6.28318530717958647692f;
    const float vmin = d->params.base.min_speed, vmax = d->params.base.max_speed;
    if (d->depth > 0.0f) uniform_3d(d, rng, n, b);
    for (uint32_t i = 0; d->depth == 0.0f && i < n; ++i) {
        float x = boids_rng_float(rng) * d->width;
        float y = boids_rng_float(rng) * d->height;
        float a = boids_rng_float(rng) * two_pi;
        float s = vmin + boids_rng_float(rng) * (vmax - vmin);
        b[i].x = boids_wrap(x, d->width);
        b[i].y = boids_wrap(y, d->height);
        b[i].vx = s * cosf(a);
        b[i].vy = s * sinf(a);
        b[i].z = b[i].vz = 0.0f;
        b[i].swarm = i % d->swarms;
        boids_boid_default_attrs(&b[i], 0, &d->params);
    }
    /* Individuality (the kit model): ages after the flock, so models without them draw as before.
     */
    if (boids_model_attributes(d->model) & BOIDS_ATTR_BIT(AGE))
        for (uint32_t i = 0; i < n; ++i) b[i].age = boids_rng_float(rng);
    /* Predators: as the flat boids, and in a 3D world a depth and a heading's polar angle drawn
     * after those (cos uniform in [-1, 1], as uniform_3d's), so flat worlds draw as before. */
    for (uint32_t i = 0; i < p; ++i) {
        float x = boids_rng_float(rng) * d->width, y = boids_rng_float(rng) * d->height;
        float a = boids_rng_float(rng) * two_pi;
        float s =
            uniform(rng, d->params.predators.pred_min_speed, d->params.predators.pred_max_speed);
        predators[i] = (boids_predator){boids_wrap(x, d->width),
                                        boids_wrap(y, d->height),
                                        s * cosf(a),
                                        s * sinf(a),
                                        0.0f,
                                        0.0f};
        if (d->depth > 0.0f) {
            float z = boids_rng_float(rng) * d->depth, u = 2.0f * boids_rng_float(rng) - 1.0f;
            float r = sqrtf(fmaxf(0.0f, 1 - u * u));
            predators[i].z = boids_wrap(z, d->depth);
            predators[i].vx *= r, predators[i].vy *= r, predators[i].vz = s * u;
        }
    }
}

/* The kit paper's start, in any model's speeds: its velocity components are uniform in [-50, 50]
 * px/s at kit's top speed of 150 px/s, so here in [-m, m] with m = 50 max_speed / 150 (kit's own
 * start is the paper's, bit for bit); a model that moves at one speed (min_speed = max_speed:
 * vicsek, couzin, gregoire-chate) starts at it, heading as drawn. (Every model drew [-50, 50]:
 * gregoire-chate's particles, whose v_0 is 0.05, started 70 to 1 400 times too fast.) */
static void centre_velocity(const boids_params *prm, boids_rng *rng, bool deep, boids_boid *b)
{
    const float m = 50.0f * (prm->base.max_speed / 150.0f), v0 = prm->base.max_speed;
    b->vx = uniform(rng, -m, m);
    b->vy = uniform(rng, -m, m);
    b->vz = deep ? uniform(rng, -m, m) : 0.0f;
    if (prm->base.min_speed != v0) return;
    const float len = sqrtf(b->vx * b->vx + b->vy * b->vy + b->vz * b->vz);
    if (len > 0.0f)
        b->vx *= v0 / len, b->vy *= v0 / len, b->vz *= v0 / len;
    else
        b->vx = v0; /* a draw of exactly 0: along +x */
}

void boids_init_centre(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *b,
                       uint32_t p, boids_predator *predators)
{
    const float W = d->width, H = d->height, D = d->depth;
    for (uint32_t i = 0; i < n; ++i) {
        b[i].x = boids_wrap(uniform(rng, 3 * W / 8, 5 * W / 8), W);
        b[i].y = boids_wrap(uniform(rng, 3 * H / 8, 5 * H / 8), H);
        b[i].z = D > 0.0f ? boids_wrap(uniform(rng, 3 * D / 8, 5 * D / 8), D) : 0.0f;
        centre_velocity(&d->params, rng, D > 0.0f, &b[i]);
        b[i].swarm = i % d->swarms;
        boids_boid_default_attrs(&b[i], 0, &d->params);
        b[i].age = boids_rng_float(rng);
    }
    /* Predators in the corner squares (a 3D world's corner cubes: the depth drawn after the
     * flat values, so flat worlds draw as before). */
    for (uint32_t i = 0; i < p; ++i) {
        float x0 = boids_rng_float(rng) < 0.5f ? W / 8 : 6 * W / 8;
        float y0 = boids_rng_float(rng) < 0.5f ? H / 8 : 6 * H / 8;
        float x = uniform(rng, x0, x0 + W / 8), y = uniform(rng, y0, y0 + H / 8);
        predators[i] = (boids_predator){boids_wrap(x, W),
                                        boids_wrap(y, H),
                                        uniform(rng, -50, 50),
                                        uniform(rng, -50, 50),
                                        0.0f,
                                        0.0f};
        if (D > 0.0f) {
            float z0 = boids_rng_float(rng) < 0.5f ? D / 8 : 6 * D / 8;
            predators[i].z = boids_wrap(uniform(rng, z0, z0 + D / 8), D);
            predators[i].vz = uniform(rng, -50, 50);
        }
    }
}

/* A flock in a world four times its side, which stands in for open space while it stays apart
 * from itself across the seams. */
void boids_init_flock(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *b,
                      uint32_t p, boids_predator *predators)
{
    boids_init_uniform(d, rng, n, b, p, predators);
    for (uint32_t i = 0; i < n; ++i) {
        b[i].x = 0.375f * d->width + 0.25f * b[i].x;
        b[i].y = 0.375f * d->height + 0.25f * b[i].y;
        b[i].z = 0.375f * d->depth + 0.25f * b[i].z;
        b[i].vx = b[0].vx, b[i].vy = b[0].vy, b[i].vz = b[0].vz;
    }
}

static const boids_init_fn layouts[BOIDS_LAYOUT_COUNT] = {
#define BOIDS_X_LAYOUT_FN(ID, name, desc) [BOIDS_LAYOUT_##ID] = boids_init_##name,
    BOIDS_LAYOUT_LIST(BOIDS_X_LAYOUT_FN)
#undef BOIDS_X_LAYOUT_FN
};

boids_init_fn boids_layout_init(boids_layout layout, boids_model model)
{
    if (layout == BOIDS_LAYOUT_MODEL) layout = boids_model_layout(model);
    return layouts[layout];
}

static const char *const layout_names[BOIDS_LAYOUT_COUNT] = {[BOIDS_LAYOUT_MODEL] = "model",
#define BOIDS_X_LAYOUT_NAME(ID, name, desc) [BOIDS_LAYOUT_##ID] = #name,
                                                             BOIDS_LAYOUT_LIST(BOIDS_X_LAYOUT_NAME)
#undef BOIDS_X_LAYOUT_NAME
};

const char *boids_layout_name(boids_layout layout)
{
    return (unsigned)layout < BOIDS_LAYOUT_COUNT ? layout_names[layout] : "?";
}

boids_status boids_layout_from_name(const char *name, boids_layout *out)
{
    BOIDS_REQUIRE(name, "name");
    BOIDS_REQUIRE(out, "out");
    boids_guess g = BOIDS_GUESS(name);
    char list[128] = "", hint[64] = "";
    for (int l = 0; l < BOIDS_LAYOUT_COUNT; ++l) {
        if (strcmp(name, layout_names[l]) == 0) {
            *out = (boids_layout)l;
            return BOIDS_OK;
        }
        boids_guess_offer(&g, layout_names[l]);
        boids_list_append(list, sizeof list, layout_names[l]);
    }
    if (g.best) snprintf(hint, sizeof hint, ": did you mean %s?", g.best);
    return boids_fail_key(BOIDS_E_DEF_LAYOUT, "layout", "unknown layout '%s'%s (layouts: %s)", name,
                          hint, list);
}
