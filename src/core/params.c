/* The models and their parameter tables: names for --set, units, ranges and the papers' values.
 * Adding a model means a row in `models` below, a rules file in src/cpu/ and one in shaders/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parse.h"

#define P(name, field, unit, lo, hi, ui_hi, flags, desc)                                            \
    {name, offsetof(boids_params, field), unit, lo, hi, ui_hi, flags, desc}
#define R BOIDS_PARAM_RADIUS
#define I BOIDS_PARAM_INTEGER
#define EDGES P("edges", edges, "", 0, 2, 2, I, "0 wrap (torus), 1 bounded box, 2 Processing's borders(); names work too")

/* shiffman-per-second-model.md §3.6: Nature of Code values scaled to seconds at 60 fps. */
static const boids_param_info shiffman_per_second_params[] = {
    P("max_speed", max_speed, "px/s", 0, 1e6f, 600, 0, "v_max, maximum speed"),
    P("max_force", max_force, "px/s^2", 0, 1e7f, 1000, 0, "f_max, each behaviour's steering force is truncated to it"),
    P("min_speed", min_speed, "px/s", 0, 1e6f, 600, 0, "v_min, slower boids are sped up to it (must be <= max_speed)"),
    P("sep_radius", sep_radius, "px", 0, 1e4f, 200, R, "r_sep, separation radius (counts every swarm)"),
    P("align_radius", align_radius, "px", 0, 1e4f, 200, R, "r_ali, alignment radius (same swarm only)"),
    P("cohesion_radius", cohesion_radius, "px", 0, 1e4f, 200, R, "r_coh, cohesion radius (same swarm only)"),
    P("sep_weight", sep_weight, "", -1e3f, 1e3f, 5, 0, "w_sep, separation weight"),
    P("align_weight", align_weight, "", -1e3f, 1e3f, 5, 0, "w_ali, alignment weight"),
    P("cohesion_weight", cohesion_weight, "", -1e3f, 1e3f, 5, 0, "w_coh, cohesion weight"),
    EDGES,
};

/* shiffman-per-second-model.md §2: frame-based, Processing's borders(). */
static const boids_param_info shiffman_frame_params[] = {
    P("max_speed", max_speed, "px/frame", 0, 1e4f, 10, 0, "v_max, maximum speed"),
    P("max_force", max_force, "px/frame^2", 0, 1e4f, 0.5f, 0, "f_max, each behaviour's steering force is truncated to it"),
    P("min_speed", min_speed, "px/frame", 0, 1e4f, 10, 0, "v_min (not in the sketch: 0)"),
    P("sep_radius", sep_radius, "px", 0, 1e4f, 200, R, "desiredseparation"),
    P("align_radius", align_radius, "px", 0, 1e4f, 200, R, "neighbordist for alignment (same swarm only)"),
    P("cohesion_radius", cohesion_radius, "px", 0, 1e4f, 200, R, "neighbordist for cohesion (same swarm only)"),
    P("sep_weight", sep_weight, "", -1e3f, 1e3f, 5, 0, "separation weight"),
    P("align_weight", align_weight, "", -1e3f, 1e3f, 5, 0, "alignment weight"),
    P("cohesion_weight", cohesion_weight, "", -1e3f, 1e3f, 5, 0, "cohesion weight"),
    P("border_r", border_r, "px", 0, 1e4f, 20, 0, "r, the boid's drawn size: borders() wraps at -r and size + r"),
    EDGES,
};

/* adams-simple-boids.md, "Recommended parameter values"; frame-based. */
static const boids_param_info adams_params[] = {
    P("protected_range", sep_radius, "px", 0, 1e4f, 50, R, "protectedRange: separation sums raw offsets inside it"),
    P("visual_range", align_radius, "px", 0, 1e4f, 200, R, "visualRange: alignment and cohesion average inside it"),
    P("avoid_factor", avoid_factor, "", -1e3f, 1e3f, 0.5f, 0, "avoidfactor"),
    P("matching_factor", matching_factor, "", -1e3f, 1e3f, 0.5f, 0, "matchingfactor"),
    P("centering_factor", centering_factor, "", -1e3f, 1e3f, 0.01f, 0, "centeringfactor"),
    P("turn_factor", turn_factor, "px/frame^2", -1e3f, 1e3f, 2, 0, "turnfactor, applied past a margin"),
    P("margin", margin, "px", 0, 1e6f, 400, 0, "distance of the margins from the edges"),
    P("max_speed", max_speed, "px/frame", 0, 1e4f, 20, 0, "maxspeed"),
    P("min_speed", min_speed, "px/frame", 0, 1e4f, 20, 0, "minspeed (must be <= max_speed)"),
    P("include_protected", include_protected, "", 0, 1, 1, I,
      "1: boids in the protected range also count in the visual averages (the §1 formalism); 0: else-if, as the pseudocode"),
    P("scout1_count", scout1_count, "boids", 0, 16776960, 1000, I, "scout group 1 (ids from 0), biased to the right"),
    P("scout2_count", scout2_count, "boids", 0, 16776960, 1000, I, "scout group 2 (the next ids), biased to the left"),
    P("bias", bias, "", 0, 1, 0.05f, 0, "biasval: static, or where the dynamic one starts"),
    P("max_bias", max_bias, "", 0, 1, 0.05f, 0, "maxbias of the dynamic bias"),
    P("bias_increment", bias_increment, "", 0, 1, 0.001f, 0, "bias_increment of the dynamic bias"),
    P("dynamic_bias", dynamic_bias, "", 0, 1, 1, I, "1: each scout's bias grows while it heads its way (ECE 5730)"),
    EDGES,
};

/* hybrid-model.md §3.6 (the "new" defaults). */
static const boids_param_info hybrid_params[] = {
    P("max_speed", max_speed, "px/s", 0, 1e6f, 600, 0, "v_max"),
    P("max_force", max_force, "px/s^2", 0, 1e7f, 1000, 0, "F_max, the total force is truncated to it"),
    P("min_speed", min_speed, "px/s", 0, 1e6f, 600, 0, "v_min (must be <= max_speed)"),
    P("sep_radius", sep_radius, "px", 0, 1e4f, 200, R, "r_p: separation sums raw offsets inside it (every swarm)"),
    P("align_radius", align_radius, "px", 0, 1e4f, 200, R, "r_v for alignment (same swarm only)"),
    P("cohesion_radius", cohesion_radius, "px", 0, 1e4f, 200, R, "r_v for cohesion (same swarm only)"),
    P("sep_weight", sep_weight, "1/s^2", -1e3f, 1e3f, 5, 0, "w_sep"),
    P("align_weight", align_weight, "1/s", -1e3f, 1e3f, 5, 0, "w_ali"),
    P("cohesion_weight", cohesion_weight, "1/s", -1e3f, 1e3f, 5, 0, "w_coh"),
    EDGES,
};

/* priority-allocation.md gives no values: these are ours (see README). */
static const boids_param_info allocation_params[] = {
    P("max_accel", max_force, "px/s^2", 0, 1e7f, 1000, 0, "the maximum acceleration"),
    P("max_speed", max_speed, "px/s", 0, 1e6f, 600, 0, "a speed limit (ours: the paper has none)"),
    P("sep_radius", sep_radius, "px", 0, 1e4f, 200, R, "the difference radius of vector 3"),
    P("neighbor_radius", align_radius, "px", 0, 1e4f, 200, R, "the local neighbourhood of vectors 1 and 2"),
    P("sep_weight", sep_weight, "px^2/s^2", -1e7f, 1e7f, 10000, 0, "weight of vector 3, sum of (p - p_j)/d^2 (priority 1)"),
    P("align_weight", align_weight, "1/s", -1e3f, 1e3f, 10, 0, "weight of vector 2, mean velocity - v (priority 2)"),
    P("cohesion_weight", cohesion_weight, "1/s^2", -1e3f, 1e3f, 10, 0, "weight of vector 1, mean position - p (priority 3)"),
    P("mean_set_length", mean_set_length, "", 0, 1, 1, I,
      "mean allocation: 1 sets the sum's length to max_accel, 0 only truncates to it"),
    EDGES,
};

#undef P
#undef R
#undef I
#undef EDGES
#define TABLE(t) t, sizeof t / sizeof t[0]

typedef struct model_row {
    const char *name;
    boids_time_base time_base;
    boids_params defaults;
    const boids_param_info *params;
    size_t param_count;
} model_row;

static const model_row models[BOIDS_MODEL_COUNT] = {
    [BOIDS_MODEL_SHIFFMAN_PER_SECOND] = {"shiffman-per-second", BOIDS_TIME_PER_SECOND,
                                         {.max_speed = 180, .max_force = 180, .min_speed = 54,
                                          .sep_radius = 25, .align_radius = 50, .cohesion_radius = 50,
                                          .sep_weight = 1.5f, .align_weight = 1, .cohesion_weight = 1,
                                          .edges = BOIDS_EDGES_WRAP},
                                         TABLE(shiffman_per_second_params)},
    [BOIDS_MODEL_ADAMS] = {"adams", BOIDS_TIME_PER_FRAME,
                           {.sep_radius = 8, .align_radius = 40, .avoid_factor = 0.05f,
                            .matching_factor = 0.05f, .centering_factor = 0.0005f, .turn_factor = 0.2f,
                            .margin = 100, .max_speed = 6, .min_speed = 3, .include_protected = 0,
                            .scout1_count = 0, .scout2_count = 0, .bias = 0.001f, .max_bias = 0.01f,
                            .bias_increment = 0.00004f, .dynamic_bias = 0, .edges = BOIDS_EDGES_BOUNDED},
                           TABLE(adams_params)},
    [BOIDS_MODEL_SHIFFMAN_PROCESSING] = {"shiffman-processing", BOIDS_TIME_PER_FRAME,
                                         {.max_speed = 2, .max_force = 0.03f, .min_speed = 0,
                                          .sep_radius = 25, .align_radius = 50, .cohesion_radius = 50,
                                          .sep_weight = 1.5f, .align_weight = 1, .cohesion_weight = 1,
                                          .border_r = 2, .edges = BOIDS_EDGES_PROCESSING},
                                         TABLE(shiffman_frame_params)},
    [BOIDS_MODEL_SHIFFMAN_NOC] = {"shiffman-noc", BOIDS_TIME_PER_FRAME,
                                  {.max_speed = 3, .max_force = 0.05f, .min_speed = 0, .sep_radius = 25,
                                   .align_radius = 50, .cohesion_radius = 50, .sep_weight = 1.5f,
                                   .align_weight = 1, .cohesion_weight = 1, .border_r = 3,
                                   .edges = BOIDS_EDGES_PROCESSING},
                                  TABLE(shiffman_frame_params)},
    [BOIDS_MODEL_HYBRID] = {"hybrid", BOIDS_TIME_PER_SECOND,
                            {.max_speed = 180, .max_force = 180, .min_speed = 54, .sep_radius = 12,
                             .align_radius = 50, .cohesion_radius = 50, .sep_weight = 1.5f,
                             .align_weight = 1, .cohesion_weight = 1, .edges = BOIDS_EDGES_WRAP},
                            TABLE(hybrid_params)},
    [BOIDS_MODEL_PRIORITY] = {"priority", BOIDS_TIME_PER_SECOND,
                              {.max_force = 180, .max_speed = 180, .sep_radius = 25, .align_radius = 50,
                               .sep_weight = 2000, .align_weight = 2, .cohesion_weight = 4,
                               .mean_set_length = 0, .edges = BOIDS_EDGES_WRAP},
                              TABLE(allocation_params)},
    [BOIDS_MODEL_MEAN] = {"mean", BOIDS_TIME_PER_SECOND,
                          {.max_force = 180, .max_speed = 180, .sep_radius = 25, .align_radius = 50,
                           .sep_weight = 2000, .align_weight = 2, .cohesion_weight = 4,
                           .mean_set_length = 0, .edges = BOIDS_EDGES_WRAP},
                          TABLE(allocation_params)},
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

bool boids_edges_from_name(const char *name, float *out)
{
    static const char *const names[] = {"wrap", "bounded", "processing"};
    for (int i = 0; i < 3; ++i)
        if (strcmp(name, names[i]) == 0) {
            *out = (float)i;
            return true;
        }
    return false;
}

const char *boids_edges_name(float edges)
{
    return edges == BOIDS_EDGES_BOUNDED ? "bounded" : edges == BOIDS_EDGES_PROCESSING ? "processing" : "wrap";
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
        if (info[i].offset == offsetof(boids_params, edges) && boids_edges_from_name(value, &v)) {
            /* edges=wrap|bounded|processing */
        } else if (!boids_parse_float(value, &v)) {
            return boids_fail(BOIDS_ERR_INVALID, "%s: '%s' is not a decimal number", key, value);
        }
        if ((info[i].flags & BOIDS_PARAM_INTEGER) && v != floorf(v))
            return boids_fail(BOIDS_ERR_INVALID, "%s: %g is not a whole number", key, (double)v);
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
    int has_min = 0;
    for (size_t i = 0; i < n; ++i) {
        float v = *field((boids_params *)params, &info[i]);
        if (!isfinite(v) || v < info[i].min || v > info[i].max)
            return boids_fail(BOIDS_ERR_INVALID, "%s: %g is outside [%g, %g] %s", info[i].name,
                              (double)v, (double)info[i].min, (double)info[i].max, info[i].unit);
        if ((info[i].flags & BOIDS_PARAM_INTEGER) && v != floorf(v))
            return boids_fail(BOIDS_ERR_INVALID, "%s: %g is not a whole number", info[i].name, (double)v);
        has_min |= info[i].offset == offsetof(boids_params, min_speed);
    }
    if (has_min && params->min_speed > params->max_speed)
        return boids_fail(BOIDS_ERR_INVALID, "min_speed %g is above max_speed %g",
                          (double)params->min_speed, (double)params->max_speed);
    return BOIDS_OK;
}

float boids_params_max_radius(boids_model model, const boids_params *p)
{
    size_t n;
    const boids_param_info *info = boids_model_params(model, &n);
    float r = 0.0f;
    for (size_t i = 0; i < n; ++i)
        if (info[i].flags & BOIDS_PARAM_RADIUS) r = fmaxf(r, *field((boids_params *)p, &info[i]));
    return r;
}
