/* boids_models.h: the model manifest, one row per model with everything about it (part of the
 * public API, included by boids.h). The rows live in the models' folders (src/models/<folder>/
 * model.h, named by src/models/list.h); this file says what their columns mean.
 *
 *   M(ID, name, time, blocks, rules, attributes, features, init, preset, world, summary,
 *     at_scale)
 *
 *   ID          BOIDS_MODEL_<ID>, the enum value
 *   name        the CLI name (--model, scenario files)
 *   time        PER_SECOND (integrates with dt) or PER_FRAME (one frame per step, dt ignored)
 *   blocks      the parameter blocks beyond those of every model (base, obstacles:
 *               boids_params.h), as BOIDS_BLOCK_BIT(...)
 *   rules       its folder, whose rules.h holds the rules, one source for the CPU and the
 *               GPU (<rules>_radii and <rules>_steer, docs/adding-a-model.md); a model with
 *               its own walk (BOIDS_FEATURE_OWN_WALK) says there what one pair adds
 *               (BOIDS_FEATURE_PAIR_RULE: <rules>_pair, which the shared pair walk runs), or
 *               adds its walks, walk.c (the CPU's) and walk.glsl (the GPU's: kit's lane groups)
 *   attributes  the per-boid attributes it reads or writes (boids_attributes.h), BOIDS_ATTR_BIT
 *   features    BOIDS_FEATURE_* it has
 *   init        its random initial layout (BOIDS_LAYOUT_<init>, boids_layout in boids.h)
 *   preset      its paper's values where they differ from the blocks' defaults, as the text of
 *               --set KEY=VALUE pairs (one parameter table, no second copy of the defaults)
 *   world       its paper's world where that is not the default one (100 000 boids at one per
 *               1000 px^2, dt 1/60, 600 steps), as scenario KEY=VALUE pairs (boids, world, dt,
 *               steps): what --model and a scenario's `model =` bring along
 *   summary     one line for --help
 *   at_scale    where its world is a paper's small one: the scenario that runs it at a flock's
 *               scale, which the note on a costly world names ("" where there is none)
 *
 * From this list come the boids_model enum, the model table of src/core/models.c (names, time
 * bases, blocks, presets), the CPU backend's rules table, one GPU steering program per model
 * (generated at build time: build/.../shaders/gen/steer_<name>.comp) and the per-model test
 * lists. docs/adding-a-model.md says what a new line needs. A site that expands the list spells
 * the columns up to the last it reads and `...` for the rest (BOIDS_X_MODEL_ENUM(ID, ...)), so a
 * column added at the end touches none of them. */
#ifndef BOIDS_MODELS_H
#define BOIDS_MODELS_H

/* Features a model may have (the features column). */
/* predators that hunt and catch: the predator state, catch events, dead boids, stop_after_catches
 */
#define BOIDS_FEATURE_PREDATORS 1u
/* the rules treat obstacles themselves (the external-force hook leaves its generic push out) */
#define BOIDS_FEATURE_OBSTACLE_RULE 2u
/* the rules walk the neighbours their own way instead of taking the Reynolds walk's sums */
#define BOIDS_FEATURE_OWN_WALK 4u
/* an own walk that reads the world's nearest:K (boids_world_def.nearest); a model on the
 * Reynolds walk reads it there */
#define BOIDS_FEATURE_NEAREST 8u
/* an own walk that is the shared pair walk (rules/common.h, "the pair walk"): the model's rules.h
 * says what one pair adds to its sums (<rules>_pair), and has no walk.c or walk.glsl */
#define BOIDS_FEATURE_PAIR_RULE 16u

/* The manifest: every folder's rows (src/models/list.h), in its order. */
#include "models/list.h"
#define BOIDS_X_FOLDER_MODELS(FOLDER, M) BOIDS_MODELS_##FOLDER(M)
#define BOIDS_MODEL_LIST(M) BOIDS_MODEL_FOLDERS(BOIDS_X_FOLDER_MODELS, M)

#endif /* BOIDS_MODELS_H */
