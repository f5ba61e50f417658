/* The models and their parameter tables: names for --set, units, ranges and the papers' values.
 * Adding a model means a row in `models` below, a rules file in src/cpu/ and one in shaders/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parse.h"

#define PARAM(field, unit, lo, hi, ui_hi, desc) {#field, offsetof(boids_params, field), unit, lo, hi, ui_hi, desc}

/* shiffman-per-second-model.md §3.6: Nature of Code values scaled to seconds at 60 fps. */
static const boids_param_info shiffman_per_second_params[] = {
    PARAM(max_speed, "px/s", 0.0f, 1e6f, 600.0f, "v_max, maximum speed"),
    PARAM(max_force, "px/s^2", 0.0f, 1e7f, 1000.0f, "f_max, each behaviour's steering force is truncated to it"),
    PARAM(min_speed, "px/s", 0.0f, 1e6f, 600.0f, "v_min, slower boids are sped up to it (must be <= max_speed)"),
    PARAM(sep_radius, "px", 0.0f, 1e4f, 200.0f, "r_sep, separation radius (counts every swarm)"),
    PARAM(align_radius, "px", 0.0f, 1e4f, 200.0f, "r_ali, alignment radius (same swarm only)"),
    PARAM(cohesion_radius, "px", 0.0f, 1e4f, 200.0f, "r_coh, cohesion radius (same swarm only)"),
    PARAM(sep_weight, "", -1e3f, 1e3f, 5.0f, "w_sep, separation weight"),
    PARAM(align_weight, "", -1e3f, 1e3f, 5.0f, "w_ali, alignment weight"),
    PARAM(cohesion_weight, "", -1e3f, 1e3f, 5.0f, "w_coh, cohesion weight"),
};

typedef struct model_row {
    const char *name;
    boids_time_base time_base;
    boids_params defaults;
    const boids_param_info *params;
    size_t param_count;
} model_row;

static const model_row models[BOIDS_MODEL_COUNT] = {
    [BOIDS_MODEL_SHIFFMAN_PER_SECOND] =
        {
            .name = "shiffman-per-second",
            .time_base = BOIDS_TIME_PER_SECOND,
            .defaults =
                {
                    .max_speed = 180.0f,
                    .max_force = 180.0f,
                    .min_speed = 54.0f,
                    .sep_radius = 25.0f,
                    .align_radius = 50.0f,
                    .cohesion_radius = 50.0f,
                    .sep_weight = 1.5f,
                    .align_weight = 1.0f,
                    .cohesion_weight = 1.0f,
                },
            .params = shiffman_per_second_params,
            .param_count = sizeof shiffman_per_second_params / sizeof shiffman_per_second_params[0],
        },
};

static const model_row *row_of(boids_model model)
{
    return (unsigned)model < BOIDS_MODEL_COUNT ? &models[model] : NULL;
}

const char *boids_model_name(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->name : NULL;
}

boids_status boids_model_from_name(const char *name, boids_model *out)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        if (strcmp(models[m].name, name) == 0) {
            *out = (boids_model)m;
            return BOIDS_OK;
        }
    }
    char list[256] = "";
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        strncat(list, m ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, models[m].name, sizeof list - strlen(list) - 1);
    }
    return boids_fail(BOIDS_ERR_INVALID, "unknown model '%s' (models: %s)", name, list);
}

boids_time_base boids_model_time_base(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->time_base : BOIDS_TIME_PER_SECOND;
}

boids_params boids_model_default_params(boids_model model)
{
    const model_row *r = row_of(model);
    boids_params p = {0};
    return r ? r->defaults : p;
}

const boids_param_info *boids_model_params(boids_model model, size_t *count)
{
    const model_row *r = row_of(model);
    *count = r ? r->param_count : 0;
    return r ? r->params : NULL;
}

static float *field(boids_params *p, const boids_param_info *info)
{
    return (float *)((char *)p + info->offset);
}

boids_status boids_params_set(boids_model model, boids_params *params, const char *key,
                              const char *value)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(info[i].name, key) != 0) continue;
        float v;
        if (!boids_parse_float(value, &v))
            return boids_fail(BOIDS_ERR_INVALID, "%s: '%s' is not a decimal number", key, value);
        if (v < info[i].min || v > info[i].max)
            return boids_fail(BOIDS_ERR_INVALID, "%s: %g is outside [%g, %g] %s", key, (double)v,
                              (double)info[i].min, (double)info[i].max, info[i].unit);
        *field(params, &info[i]) = v;
        return BOIDS_OK;
    }
    char list[512] = "";
    for (size_t i = 0; i < n; ++i) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, info[i].name, sizeof list - strlen(list) - 1);
    }
    return boids_fail(BOIDS_ERR_INVALID, "unknown parameter '%s' for model %s (parameters: %s)",
                      key, boids_model_name(model) ? boids_model_name(model) : "?", list);
}

boids_status boids_params_validate(boids_model model, const boids_params *params)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    if (!info) return boids_fail(BOIDS_ERR_INVALID, "unknown model %d", (int)model);
    for (size_t i = 0; i < n; ++i) {
        float v = *field((boids_params *)params, &info[i]);
        if (!isfinite(v) || v < info[i].min || v > info[i].max)
            return boids_fail(BOIDS_ERR_INVALID, "%s: %g is outside [%g, %g] %s", info[i].name,
                              (double)v, (double)info[i].min, (double)info[i].max, info[i].unit);
    }
    if (params->min_speed > params->max_speed)
        return boids_fail(BOIDS_ERR_INVALID, "min_speed %g is above max_speed %g",
                          (double)params->min_speed, (double)params->max_speed);
    return BOIDS_OK;
}

float boids_params_max_radius(boids_model model, const boids_params *p)
{
    (void)model; /* every model so far reads these three radii */
    return fmaxf(p->sep_radius, fmaxf(p->align_radius, p->cohesion_radius));
}
