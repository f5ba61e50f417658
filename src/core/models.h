/* Internal view of the model manifest (core/manifest.h): what the public functions do not say. */
#ifndef BOIDS_CORE_MODELS_H
#define BOIDS_CORE_MODELS_H

#include "boids.h"
#include "core/loaded.h"

/* The parameter blocks the model reads: BOIDS_BLOCK_BIT(BASE) and its manifest's blocks. */
unsigned boids_model_blocks(boids_model model);
/* The manifest's rules name ("shiffman"): src/rules/<name>.h. */
const char *boids_model_rules_name(boids_model model);
/* The manifest's preset text ("max_speed=6 min_speed=3 edges=bounded"). */
const char *boids_model_preset_text(boids_model model);
/* The manifest's world text: "boids=35 world=4000x4000 ..." or "" (core/scenario.c applies it). */
const char *boids_model_world_text(boids_model model);
/* The scenario that runs the model at a flock's scale where its world is a paper's small one
 * ("scenarios/kit-flock.ini"), else "". */
const char *boids_model_at_scale(boids_model model);
/* Applies the model's preset to params (the blocks' defaults already there); fails naming the
 * bad pair if the manifest's preset text does not parse (a test checks every model). */
boids_status boids_model_apply_preset(boids_model model, boids_params *params);
/* The model of that name, built in or loaded; false if none. */
bool boids_model_find(const char *name, boids_model *out);
/* The model's own initial layout (its manifest's init column). */
boids_layout boids_model_layout(boids_model model);
/* The folder a loaded model came from; NULL for a built-in one. */
const char *boids_model_folder(boids_model model);
/* Registers a loaded model's row (world/model_load.c), its oracle (NULL: none) and its folder's
 * digest: the next id
 * after the models there are,
 * given to publish(id, ctx) (its parameter table, its rules) before the model is visible to
 * anyone; fails where the name is taken (BOIDS_E_MODEL_DUPLICATE), the process has
 * BOIDS_LOADED_MAX loaded, or publish does. The row's strings must outlive the process's use. */
boids_status boids_model_register(const boids_manifest_row *row, const char *folder,
                                  const void *oracle, uint64_t digest,
                                  boids_status (*publish)(boids_model, void *), void *ctx,
                                  boids_model *out);
/* A loaded model's folder's files, digested (what an experiment's manifest records, so that a
 * resume after an edit of the folder is refused); 0 for a built-in model. */
uint64_t boids_model_digest(boids_model model);
/* Where a program hears of each folder a load compiled or took from the cache (NULL: nowhere;
 * the library prints nothing): the program's says so on stderr, whichever way the folder came
 * (--model-dir, BOIDS_MODEL_PATH, a scenario's model_dir, a manifest's). */
extern void (*boids_model_load_reporter)(const char *folder, const boids_model_load_info *info);
/* A loaded model's oracle, as its folder's object gave it (a `const boids_oracle *`,
 * models/oracle.h, which the library does not read), or NULL. */
const void *boids_model_oracle(boids_model model);
/* A loaded model's parameter table (at registration, world/model_load.c): the shared blocks its
 * row names, its own rows (own, n: each default in its range, no name twice) before the
 * obstacles'. Errors name the folder's model.h and the parameter. */
boids_status boids_params_add_loaded(boids_model model, const boids_manifest_row *row,
                                     const boids_param_row *own, size_t n, const char *folder);
/* A loaded model's preset applied to its defaults and validated (before it is visible); errors
 * name the folder's model.h. */
boids_status boids_params_check_preset(boids_model model, const boids_manifest_row *row,
                                       const char *folder);
/* Every block's defaults (the rows' default column). */
boids_params boids_block_defaults(void);

/* What a world takes from a model's parameters, worked out where they are checked, so a world
 * reads them in one call: the largest interaction radius (the grid's cells are at least as
 * large) without and with the obstacles' reach, and the predators and random obstacles a
 * replica has. */
typedef struct boids_params_facts {
    float radius, radius_with_obstacles;
    uint32_t predators, obstacles; /* per replica; predators 0 for a model without them */
} boids_params_facts;
/* boids_params_validate, then the facts of the valid params. */
boids_status boids_params_resolve(boids_model model, const boids_params *params,
                                  boids_params_facts *out);

#endif
