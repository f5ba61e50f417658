/* The model table, generated from the manifest (boids_models.h): names, time bases, blocks,
 * attributes, features and preset texts (params.c applies them). Nothing here is written per
 * model. */
#include "core/models.h"

#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"

typedef struct model_row {
    const char *name;
    boids_time_base time_base;
    unsigned blocks, attributes, features;
    const char *rules, *preset, *world, *summary, *at_scale;
} model_row;

static const model_row models[BOIDS_MODEL_COUNT] = {
#define BOIDS_X_MODEL_ROW(ID, name, time, blocks, rules, attrs, features, init, preset, world,     \
                          summary, at_scale)                                                       \
    [BOIDS_MODEL_##ID] = {name,                                                                    \
                          BOIDS_TIME_##time,                                                       \
                          BOIDS_BLOCKS_EVERY_MODEL | (blocks),                                     \
                          attrs,                                                                   \
                          features,                                                                \
                          #rules,                                                                  \
                          preset,                                                                  \
                          world,                                                                   \
                          summary,                                                                 \
                          at_scale},
    BOIDS_MODEL_LIST(BOIDS_X_MODEL_ROW)
#undef BOIDS_X_MODEL_ROW
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

const char *boids_model_summary(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->summary : "";
}

const char *boids_model_at_scale(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->at_scale : "";
}

const char *boids_model_rules_name(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->rules : "";
}

const char *boids_model_preset_text(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->preset : "";
}

const char *boids_model_world_text(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->world : "";
}

boids_status boids_model_from_name(const char *name, boids_model *out)
{
    BOIDS_REQUIRE(name, "name");
    BOIDS_REQUIRE(out, "out");
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        if (strcmp(models[m].name, name) == 0) {
            *out = (boids_model)m;
            return BOIDS_OK;
        }
    }
    char list[512] = "", hint[96] = "";
    boids_guess g = BOIDS_GUESS(name);
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) {
        boids_list_append(list, sizeof list, models[m].name);
        boids_guess_offer(&g, models[m].name);
    }
    if (g.best) snprintf(hint, sizeof hint, ": did you mean %s?", g.best);
    return boids_fail_key(BOIDS_E_MODEL_UNKNOWN, "model", "unknown model '%s'%s (models: %s)", name,
                          hint, list);
}

boids_time_base boids_model_time_base(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->time_base : BOIDS_TIME_PER_SECOND;
}

unsigned boids_model_blocks(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->blocks : 0;
}

unsigned boids_model_attributes(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->attributes : 0;
}

unsigned boids_model_features(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->features : 0;
}

int boids_model_count(void) { return BOIDS_MODEL_COUNT; }
