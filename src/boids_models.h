/* boids_models.h: the model manifest, one line per model with everything about it (part of the
 * public API, included by boids.h).
 *
 *   M(ID, name, time, blocks, rules, attributes, features, init, preset, world, summary,
 *     at_scale)
 *
 *   ID          BOIDS_MODEL_<ID>, the enum value
 *   name        the CLI name (--model, scenario files)
 *   time        PER_SECOND (integrates with dt) or PER_FRAME (one frame per step, dt ignored)
 *   blocks      the parameter blocks beyond those of every model (base, obstacles:
 *               boids_params.h), as BOIDS_BLOCK_BIT(...)
 *   rules       the rules: src/rules/<rules>.h, one source for the CPU and the GPU
 *               (<rules>_radii and <rules>_steer, docs/adding-a-model.md); a model with its
 *               own walk (BOIDS_FEATURE_OWN_WALK) adds it in src/cpu/rules_<rules>.c and
 *               shaders/rules_<rules>.glsl
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

/* A build configured with -DBOIDS_EXAMPLE_MODEL=ON adds the example model of examples/drag/
 * (docs/adding-a-model.md): BOIDS_EXAMPLE_MODEL names its header, which extends this list. */
#if defined(BOIDS_EXAMPLE_MODEL)
#include BOIDS_EXAMPLE_MODEL
#else
#define BOIDS_EXAMPLE_MODELS(M)
#define BOIDS_EXAMPLE_PARAM_BLOCKS(X)
#endif

#define BOIDS_MODEL_LIST(M)                                                                        \
    M(SHIFFMAN_PER_SECOND, "shiffman-per-second", PER_SECOND, BOIDS_BLOCK_BIT(REYNOLDS), shiffman, \
      0, 0, UNIFORM, "obstacle_radius=60 obstacle_factor=720", "",                                 \
      "Reynolds steering per second, each behaviour truncated to f_max (default)", "")             \
    M(ADAMS, "adams", PER_FRAME, BOIDS_BLOCK_BIT(ADAMS), adams, BOIDS_ATTR_BIT(BIAS), 0, UNIFORM,  \
      "max_speed=6 min_speed=3 edges=bounded obstacle_radius=60 obstacle_factor=0.8", "",          \
      "Adams' simple boids: raw sums onto v, margins, scout groups with a bias", "")               \
    M(SHIFFMAN_PROCESSING, "shiffman-processing", PER_FRAME, BOIDS_BLOCK_BIT(REYNOLDS), shiffman,  \
      0, 0, UNIFORM,                                                                               \
      "max_speed=2 max_force=0.03 min_speed=0 border_r=2 edges=processing obstacle_radius=60 "     \
      "obstacle_factor=0.12",                                                                      \
      "", "Processing's flocking example (table 2.6): the same rules, one frame a step", "")       \
    M(SHIFFMAN_NOC, "shiffman-noc", PER_FRAME, BOIDS_BLOCK_BIT(REYNOLDS), shiffman, 0, 0, UNIFORM, \
      "max_speed=3 max_force=0.05 min_speed=0 border_r=3 edges=processing obstacle_radius=60 "     \
      "obstacle_factor=0.2",                                                                       \
      "", "Nature of Code's flocking (table 2.7): the same rules, one frame a step", "")           \
    M(HYBRID, "hybrid", PER_SECOND, BOIDS_BLOCK_BIT(HYBRID), hybrid, 0, 0, UNIFORM,                \
      "obstacle_radius=60 obstacle_factor=720", "",                                                \
      "Adams' separation, Reynolds' alignment and cohesion, one clamp on the sum", "")             \
    M(PRIORITY, "priority", PER_SECOND, BOIDS_BLOCK_BIT(ALLOCATION), allocation, 0,                \
      BOIDS_FEATURE_OBSTACLE_RULE, UNIFORM,                                                        \
      "min_speed=90 obstacle_radius=60 obstacle_factor=2000", "",                                  \
      "Reynolds 1987 priority allocation of a maximum acceleration", "")                           \
    M(MEAN, "mean", PER_SECOND, BOIDS_BLOCK_BIT(ALLOCATION), allocation, 0,                        \
      BOIDS_FEATURE_OBSTACLE_RULE, UNIFORM,                                                        \
      "min_speed=90 obstacle_radius=60 obstacle_factor=2000", "",                                  \
      "Reynolds 1987 mean allocation: the weighted sum set to a maximum acceleration", "")         \
    M(KIT, "kit", PER_SECOND, BOIDS_BLOCK_BIT(KIT) | BOIDS_BLOCK_BIT(PREDATORS), kit,              \
      BOIDS_ATTR_BIT(AGE) | BOIDS_ATTR_BIT(ALIVE),                                                 \
      BOIDS_FEATURE_PREDATORS | BOIDS_FEATURE_OWN_WALK, CENTRE,                                    \
      "max_speed=150 min_speed=25 obstacles=4", "boids=35 world=4000x4000 dt=0.08 steps=3000",     \
      "Bruschke & Golks: view cones, predators that catch, individuality by age",                  \
      "scenarios/kit-flock.ini")                                                                   \
    M(VICSEK, "vicsek", PER_FRAME, BOIDS_BLOCK_BIT(VICSEK), vicsek, 0, 0, UNIFORM,                 \
      "max_speed=0.03 min_speed=0.03 obstacle_radius=3 max_obstacle_size=1.5 "                     \
      "obstacle_factor=0.03",                                                                      \
      "boids=4000 world=31.6x31.6 dt=1 steps=2000",                                                \
      "Vicsek et al. 1995: constant speed, the mean heading within r, a random turn",              \
      "scenarios/vicsek-flock.ini")                                                                \
    M(COUZIN, "couzin", PER_SECOND, BOIDS_BLOCK_BIT(COUZIN), couzin, 0,                            \
      BOIDS_FEATURE_OWN_WALK | BOIDS_FEATURE_NEAREST, CENTRE,                                      \
      "max_speed=3 min_speed=3 obstacle_radius=5 max_obstacle_size=2 obstacle_factor=30",          \
      "boids=100 world=100x100x100 dt=0.1 steps=3000",                                             \
      "Couzin et al. 2002: zones of repulsion, orientation and attraction, a blind volume",        \
      "scenarios/couzin-school.ini")                                                               \
    BOIDS_EXAMPLE_MODELS(M)

#endif /* BOIDS_MODELS_H */
