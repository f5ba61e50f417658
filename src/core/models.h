/* Internal view of the model manifest (boids_models.h): what the public functions do not say. */
#ifndef BOIDS_CORE_MODELS_H
#define BOIDS_CORE_MODELS_H

#include "boids.h"

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
