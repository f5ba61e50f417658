/* The model table: the built-in models', generated from the manifest (boids_models.h), and after
 * them those loaded at run time (world/model_load.c registers them here): names, time bases,
 * blocks, attributes, features, layouts and preset texts (params.c applies them). Nothing here is
 * written per model. A loaded row is written before the count that makes it visible grows, and
 * never changes after, so readers take no lock. */
#include "core/models.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"

typedef struct model_row {
    const char *name;
    boids_time_base time_base;
    unsigned blocks, attributes, features;
    const char *rules, *preset, *world, *summary, *at_scale;
    boids_layout init;
    const char *folder; /* a loaded model's folder; NULL for a built-in one */
    const void *oracle; /* a loaded model's oracle (models/oracle.h), or NULL */
    uint64_t digest;    /* a loaded model's folder's files, digested (0: a built-in model) */
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
                          at_scale,                                                                \
                          BOIDS_LAYOUT_##init,                                                     \
                          NULL,                                                                    \
                          NULL,                                                                    \
                          0},
    BOIDS_MODEL_LIST(BOIDS_X_MODEL_ROW)
#undef BOIDS_X_MODEL_ROW
};

static model_row loaded[BOIDS_LOADED_MAX];
static atomic_int loaded_count;
static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;
/* The row being registered, which its registering thread sees (its preset's messages name it). */
static _Thread_local int pending = -1;

void (*boids_model_load_reporter)(const char *folder, const boids_model_load_info *info);

static const model_row *row_of(boids_model model)
{
    if ((unsigned)model < BOIDS_MODEL_COUNT) return &models[model];
    const unsigned k = (unsigned)model - BOIDS_MODEL_COUNT;
    return k < (unsigned)atomic_load(&loaded_count) || (int)k == pending ? &loaded[k] : NULL;
}

boids_status boids_model_register(const boids_loaded_row *r, const char *folder, const void *oracle,
                                  uint64_t digest, boids_status (*publish)(boids_model, void *),
                                  void *ctx, boids_model *out)
{
    pthread_mutex_lock(&loaded_lock);
    const int n = atomic_load(&loaded_count);
    boids_status st = BOIDS_OK;
    boids_model taken;
    if (boids_model_find(r->name, &taken))
        st = boids_fail_key(BOIDS_E_MODEL_DUPLICATE, r->name,
                            "%s: model name '%s' is taken (by %s)", folder, r->name,
                            row_of(taken)->folder ? row_of(taken)->folder : "a built-in model");
    else if (n == BOIDS_LOADED_MAX)
        st = boids_fail_key(BOIDS_E_MODEL_FOLDER, r->name,
                            "%s: %d models loaded already, the most"
                            " a process can",
                            folder, BOIDS_LOADED_MAX);
    if (st == BOIDS_OK) {
        loaded[n] = (model_row){.name = r->name,
                                .time_base = r->time_base,
                                .blocks = BOIDS_BLOCKS_EVERY_MODEL | r->blocks,
                                .attributes = r->attributes,
                                .features = r->features,
                                .rules = r->rules,
                                .preset = r->preset,
                                .world = r->world,
                                .summary = r->summary,
                                .at_scale = r->at_scale,
                                .init = r->init,
                                .folder = folder,
                                .oracle = oracle,
                                .digest = digest};
        *out = (boids_model)(BOIDS_MODEL_COUNT + n);
        pending = n;
        st = publish(*out, ctx); /* its parameter table and rules, before anyone can see it */
        pending = -1;
        if (st == BOIDS_OK) atomic_store(&loaded_count, n + 1);
    }
    pthread_mutex_unlock(&loaded_lock);
    return st;
}

const char *boids_model_folder(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->folder : NULL;
}

uint64_t boids_model_digest(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->digest : 0;
}

const void *boids_model_oracle(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->oracle : NULL;
}

boids_layout boids_model_layout(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->init : BOIDS_LAYOUT_UNIFORM;
}

bool boids_model_find(const char *name, boids_model *out)
{
    for (int m = 0; m < boids_model_count(); ++m) {
        if (strcmp(row_of((boids_model)m)->name, name) == 0) {
            *out = (boids_model)m;
            return true;
        }
    }
    return false;
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
    if (boids_model_find(name, out)) return BOIDS_OK;
    char list[1024] = "", hint[96] = "";
    boids_guess g = BOIDS_GUESS(name);
    for (int m = 0; m < boids_model_count(); ++m) {
        boids_list_append(list, sizeof list, row_of((boids_model)m)->name);
        boids_guess_offer(&g, row_of((boids_model)m)->name);
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

int boids_model_count(void) { return BOIDS_MODEL_COUNT + atomic_load(&loaded_count); }
