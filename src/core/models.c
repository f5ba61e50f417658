/* The model registry: one table of rows, the built-in models' first (their ids are the
 * manifest's order, core/manifest.h), then those loaded at run time (world/model_load.c). Every
 * row comes the same way: a manifest row made by BOIDS_X_MANIFEST_ROW from a folder's model.h
 * (compiled into the library, or into a loaded folder's object), written by register_row; the
 * built-in ones at first use, a loaded one by boids_model_register. Names, time bases, blocks,
 * attributes, features, layouts and preset texts (params.c applies them); nothing here is written
 * per model. A row is written before the count that makes it visible grows, and never changes
 * after, so readers take no lock. */
#include "core/models.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/parse.h"

typedef struct model_row {
    boids_manifest_row m;
    const char *folder; /* a loaded model's folder; NULL for a built-in one */
    const void *oracle; /* a loaded model's oracle (models/oracle.h), or NULL */
    uint64_t digest;    /* a loaded model's folder's files, digested (0: a built-in model) */
} model_row;

static const boids_manifest_row builtin[BOIDS_MODEL_COUNT] = {
    BOIDS_MODEL_LIST(BOIDS_X_MANIFEST_ROW)};
static model_row rows[BOIDS_MODEL_SLOTS];
static atomic_int row_count;
static pthread_once_t builtin_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t register_lock = PTHREAD_MUTEX_INITIALIZER;
/* The row being registered, which its registering thread sees (its preset's messages name it). */
static _Thread_local int pending = -1;

void (*boids_model_load_reporter)(const char *folder, const boids_model_load_info *info);

/* Writes row n; the caller makes it visible (row_count) once the model is whole. */
static void register_row(int n, const boids_manifest_row *r, const char *folder, const void *oracle,
                         uint64_t digest)
{
    rows[n] = (model_row){.m = *r, .folder = folder, .oracle = oracle, .digest = digest};
    rows[n].m.blocks |= BOIDS_BLOCKS_EVERY_MODEL;
}

static void register_builtin(void)
{
    for (int m = 0; m < BOIDS_MODEL_COUNT; ++m) register_row(m, &builtin[m], NULL, NULL, 0);
    atomic_store(&row_count, BOIDS_MODEL_COUNT);
}

static const model_row *row_of(boids_model model)
{
    pthread_once(&builtin_once, register_builtin);
    const unsigned k = (unsigned)model;
    return k < (unsigned)atomic_load(&row_count) || (pending >= 0 && k == (unsigned)pending)
               ? &rows[k]
               : NULL;
}

boids_status boids_model_register(const boids_manifest_row *r, const char *folder,
                                  const void *oracle, uint64_t digest,
                                  boids_status (*publish)(boids_model, void *), void *ctx,
                                  boids_model *out)
{
    pthread_once(&builtin_once, register_builtin);
    pthread_mutex_lock(&register_lock);
    const int n = atomic_load(&row_count);
    boids_status st = BOIDS_OK;
    boids_model taken;
    if (boids_model_find(r->name, &taken))
        st = boids_fail_key(BOIDS_E_MODEL_DUPLICATE, r->name,
                            "%s: model name '%s' is taken (by %s)", folder, r->name,
                            row_of(taken)->folder ? row_of(taken)->folder : "a built-in model");
    else if (n == BOIDS_MODEL_SLOTS)
        st = boids_fail_key(BOIDS_E_MODEL_FOLDER, r->name,
                            "%s: %d models loaded already, the most"
                            " a process can",
                            folder, BOIDS_LOADED_MAX);
    if (st == BOIDS_OK) {
        register_row(n, r, folder, oracle, digest);
        *out = (boids_model)n;
        pending = n;
        st = publish(*out, ctx); /* its parameter table and rules, before anyone can see it */
        pending = -1;
        if (st == BOIDS_OK) atomic_store(&row_count, n + 1);
    }
    pthread_mutex_unlock(&register_lock);
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
    return r ? r->m.init : BOIDS_LAYOUT_UNIFORM;
}

bool boids_model_find(const char *name, boids_model *out)
{
    for (int m = 0; m < boids_model_count(); ++m) {
        if (strcmp(row_of((boids_model)m)->m.name, name) == 0) {
            *out = (boids_model)m;
            return true;
        }
    }
    return false;
}

const char *boids_model_name(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.name : NULL;
}

const char *boids_model_summary(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.summary : "";
}

const char *boids_model_at_scale(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.at_scale : "";
}

const char *boids_model_rules_name(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.rules : "";
}

const char *boids_model_preset_text(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.preset : "";
}

const char *boids_model_world_text(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.world : "";
}

boids_status boids_model_from_name(const char *name, boids_model *out)
{
    BOIDS_REQUIRE(name, "name");
    BOIDS_REQUIRE(out, "out");
    if (boids_model_find(name, out)) return BOIDS_OK;
    char list[1024] = "", hint[96] = "";
    boids_guess g = BOIDS_GUESS(name);
    for (int m = 0; m < boids_model_count(); ++m) {
        boids_list_append(list, sizeof list, row_of((boids_model)m)->m.name);
        boids_guess_offer(&g, row_of((boids_model)m)->m.name);
    }
    if (g.best) snprintf(hint, sizeof hint, ": did you mean %s?", g.best);
    return boids_fail_key(BOIDS_E_MODEL_UNKNOWN, "model",
                          "unknown model '%s'%s (models: %s; a model of your own is loaded from "
                          "its folder first: --model-dir DIR, docs/writing-a-model.md)",
                          name, hint, list);
}

boids_time_base boids_model_time_base(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.time_base : BOIDS_TIME_PER_SECOND;
}

unsigned boids_model_blocks(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.blocks : 0;
}

unsigned boids_model_attributes(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.attributes : 0;
}

unsigned boids_model_features(boids_model model)
{
    const model_row *r = row_of(model);
    return r ? r->m.features : 0;
}

int boids_model_count(void)
{
    pthread_once(&builtin_once, register_builtin);
    return atomic_load(&row_count);
}
