/* The library's own view of its models (never installed): the manifest rows of the built-in
 * models' folders (src/models/list.h), the ids they get (BOIDS_MODEL_<ID>), their parameter
 * blocks and the named members of boids_params. The public headers take it in only where
 * BOIDS_INTERNAL is defined, as the library's own build, its tests and a loaded model's build do
 * (CMakeLists.txt, world/model_load.c); a program built against the installed headers sees
 * models and parameters by name (boids_model_from_name, boids_model_params, boids_params_set,
 * boids_world_set_param) and boids_params as a block of fixed size, so that adding a model to
 * the library changes no public type and no consumer needs a rebuild.
 *
 * ---- The manifest: one row per model, with everything about it. The rows live in the models'
 * folders (src/models/<folder>/model.h); their columns:
 *
 *   M(ID, name, time, blocks, rules, attributes, features, init, preset, world, summary,
 *     at_scale)
 *
 *   ID          BOIDS_MODEL_<ID>, the enum value
 *   name        the CLI name (--model, scenario files)
 *   time        PER_SECOND (integrates with dt) or PER_FRAME (one frame per step, dt ignored)
 *   blocks      the parameter blocks beyond those of every model (base, obstacles:
 *               below), as BOIDS_BLOCK_BIT(...)
 *   rules       its folder, whose rules.h holds the rules, one source for the CPU and the
 *               GPU (<rules>_radii and <rules>_steer, docs/writing-a-model.md); a model with
 *               its own walk (BOIDS_FEATURE_OWN_WALK) says there what one pair adds
 *               (BOIDS_FEATURE_PAIR_RULE: <rules>_pair, which the shared pair walk runs; with
 *               BOIDS_FEATURE_LANE_WALK the CPU runs it on the folder's lane groups, walk.c:
 *               kit's)
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
 * From this list come the built-in models' ids (below), the model table of src/core/models.c
 * (names, time bases, blocks, presets), the CPU backend's rules table, one GPU steering program per
 * model (generated at build time: build/.../shaders/gen/steer_<name>.comp) and the per-model test
 * lists. docs/writing-a-model.md says what a new line needs. A site that expands the list spells
 * the columns up to the last it reads and `...` for the rest (BOIDS_X_MODEL_ENUM(ID, ...)), so a
 * column added at the end touches none of them.
 *
 * ---- The parameters: each declared once, in rows of blocks. A model has the base block, the
 * obstacles' and the blocks its manifest line names. Each row is the whole declaration of one
 * parameter:
 *
 *   P(B, F, field, type, unit, min, max, slider_s, slider_f, flags, default, description)
 *
 *   B, F         the block's ID and field, passed through (so one list generates every table)
 *   field        the struct member and the name users type (--set, scenario files, the panel)
 *   type         REAL (a float) or COUNT (a whole number of things: a uint32_t, `uint` in GLSL;
 *                read and set by name as a float like the others)
 *   unit         "T" stands for the model's time unit: s for per-second models, frame for
 *                frame-based ones ("px/T^2" reads px/s^2 or px/frame^2)
 *   min, max     the valid range, inclusive
 *   slider_s/_f  the top of the viewer's slider for per-second / frame-based models
 *   flags        BOIDS_PARAM_RADIUS (the grid's cells are at least as large),
 *                BOIDS_PARAM_OBSTACLE_RADIUS (the same, where the world has obstacles),
 *                BOIDS_PARAM_GROUP_RADIUS (the model's alignment radius, which also links
 *                boids into groups for the metrics: one per model),
 *                BOIDS_PARAM_ZONE (the width of one of nested zones: the widths of a
 *                model's zones add up to an interaction radius, and to its group radius
 *                where the group flag is on one of them),
 *                BOIDS_PARAM_INTEGER (a count or a 0/1 switch), BOIDS_PARAM_SWITCH (0/1),
 *                BOIDS_PARAM_EDGES (takes wrap|bounded|processing too)
 *   default      the value of the block's source paper (cited in the description); a model's
 *                manifest line overrides some of them with its own paper's table
 *
 * From these rows come the C structs below, the GLSL structs of the shaders (generated at build
 * time by cmake/glsl_gen.c), the --set / scenario / panel tables (src/core/params.c), --help and
 * the layout test, so nothing is declared twice. Every block struct is padded to whole vec4s
 * (std140), which the union with `_std140` does without hand-written padding.
 */
#ifndef BOIDS_CORE_MANIFEST_H
#define BOIDS_CORE_MANIFEST_H

#include <stdint.h>

/* Every model: speed limits and the world's edges. Defaults: docs/models.md (shiffman-per-second)
 */
#define BOIDS_PARAMS_BASE(P, B, F)                                                                 \
    P(B, F, max_speed, REAL, "px/T", 0, 1e6f, 600, 20, 0, 180, "v_max, maximum speed")             \
    P(B, F, min_speed, REAL, "px/T", 0, 1e6f, 600, 20, 0, 54,                                      \
      "v_min, slower boids are sped up to it, along their heading (must be <= max_speed)")         \
    P(B, F, edges, REAL, "", 0, 2, 2, 2, BOIDS_PARAM_EDGES, 0,                                     \
      "0 wrap (a torus), 1 bounded (a box boids may leave), 2 processing (borders()); names work") \
    P(B, F, border_r, REAL, "px", 0, 1e4f, 20, 20, 0, 0,                                           \
      "r of Processing's borders(): a boid past -r reappears at size + r (edges = processing)")

/* Reynolds steering, as Shiffman writes it: docs/models.md (shiffman-per-second) (the Nature of
 * Code values scaled to seconds at 60 fps); the frame-based variants override them with §2's
 * tables. */
#define BOIDS_PARAMS_REYNOLDS(P, B, F)                                                             \
    P(B, F, max_force, REAL, "px/T^2", 0, 1e7f, 1000, 0.5f, 0, 180,                                \
      "f_max, each behaviour's steering force is truncated to it")                                 \
    P(B, F, sep_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 25,                     \
      "r_sep (desiredseparation), separation radius: counts every swarm")                          \
    P(B, F, align_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_GROUP_RADIUS, 50,             \
      "r_ali (neighbordist), alignment radius: same swarm only")                                   \
    P(B, F, cohesion_radius, REAL, "px", 0, 1e4f, 200, 200, BOIDS_PARAM_RADIUS, 50,                \
      "r_coh (neighbordist), cohesion radius: same swarm only")                                    \
    P(B, F, sep_weight, REAL, "", -1e3f, 1e3f, 5, 5, 0, 1.5f, "w_sep, separation weight")          \
    P(B, F, align_weight, REAL, "", -1e3f, 1e3f, 5, 5, 0, 1, "w_ali, alignment weight")            \
    P(B, F, cohesion_weight, REAL, "", -1e3f, 1e3f, 5, 5, 0, 1, "w_coh, cohesion weight")

/* Every model: obstacles, circles in the world (per replica). Each pushes the boids within
 * obstacle_radius of its centre away along the unit vector from the centre, times
 * obstacle_factor, whatever its size: eq. 4 of docs/models.md (kit), whose table 1 and
 * 2 give the defaults (the other models' presets scale them to their own forces). Models with
 * BOIDS_FEATURE_OBSTACLE_RULE use them in their own rules instead (priority and mean: in their
 * third vector). */
#define BOIDS_PARAMS_OBSTACLES(P, B, F)                                                            \
    P(B, F, obstacles, COUNT, "", 0, 100000, 50, 50, BOIDS_PARAM_INTEGER, 0,                       \
      "random obstacles per world (replaced by explicit ones: --obstacle, a scenario's obstacle)") \
    P(B, F, max_obstacle_size, REAL, "px", 0, 1e5f, 200, 200, 0, 35,                               \
      "a random obstacle's radius is uniform in [0, max_obstacle_size] (the kit paper's table 1)") \
    P(B, F, obstacle_radius, REAL, "px", 0, 1e4f, 500, 500, BOIDS_PARAM_OBSTACLE_RADIUS, 250,      \
      "R_O: boids within it of an obstacle's centre are pushed away (the kit paper's table 2)")    \
    P(B, F, obstacle_factor, REAL, "force", 0, 1e7f, 1000, 5, 0, 200,                              \
      "c_oa, the push, in the model's force unit (px/s^2; px/frame^2; kit: px/s per step)")

#include "models/list.h"

/* The blocks: X(ID, field of boids_params, row list): base and Reynolds' (shared by several
 * models), then each model folder's (src/models/list.h, in its order), then the obstacles', which
 * every model has: the order of the blocks in boids_params, in the GPU's uniform block, in --help
 * and in the viewer's panel (a model's own parameters before the obstacles'). */
#define BOIDS_X_FOLDER_BLOCKS(FOLDER, X) BOIDS_BLOCKS_##FOLDER(X)
#define BOIDS_PARAM_BLOCK_LIST(X)                                                                  \
    X(BASE, base, BOIDS_PARAMS_BASE)                                                               \
    X(REYNOLDS, reynolds, BOIDS_PARAMS_REYNOLDS)                                                   \
    BOIDS_MODEL_FOLDERS(BOIDS_X_FOLDER_BLOCKS, X)                                                  \
    X(OBSTACLES, obstacles, BOIDS_PARAMS_OBSTACLES)

/* A model loaded at run time (boids_model_load) keeps its folder's blocks in `loaded`, an area at
 * the end of boids_params: the library sees floats there, and reaches them through the model's
 * parameter table (boids_model_params) by name. The model's own units, compiled when it is loaded,
 * define BOIDS_LOADED_BLOCKS as the folder's block list before this header, and see its blocks
 * there by name, after the built-in ones (their ids follow BOIDS_BLOCK_OBSTACLES). */
#define BOIDS_PARAMS_LOADED_FLOATS 64
#ifdef BOIDS_LOADED_BLOCKS
#define BOIDS_X_EVERY_BLOCK(X) BOIDS_PARAM_BLOCK_LIST(X) BOIDS_LOADED_BLOCKS(X)
#else
#define BOIDS_X_EVERY_BLOCK(X) BOIDS_PARAM_BLOCK_LIST(X)
#endif

typedef enum boids_param_block {
#define BOIDS_X_BLOCK_ENUM(ID, field, rows) BOIDS_BLOCK_##ID,
    BOIDS_X_EVERY_BLOCK(BOIDS_X_BLOCK_ENUM)
#undef BOIDS_X_BLOCK_ENUM
        BOIDS_BLOCK_COUNT
} boids_param_block;

#define BOIDS_BLOCK_BIT(ID) (1u << BOIDS_BLOCK_##ID)
/* The blocks every model has, whatever its manifest line says: speed limits, edges, obstacles. */
#define BOIDS_BLOCKS_EVERY_MODEL (BOIDS_BLOCK_BIT(BASE) | BOIDS_BLOCK_BIT(OBSTACLES))

/* One struct per block, its members in row order, padded to whole vec4s. */
#define BOIDS_PARAM_CTYPE_REAL float
#define BOIDS_PARAM_CTYPE_COUNT uint32_t
#define BOIDS_PARAM_TYPE_FLAGS_REAL 0u
#define BOIDS_PARAM_TYPE_FLAGS_COUNT BOIDS_PARAM_COUNT
#define BOIDS_X_PARAM_MEMBER(B, F, field, type, ...) BOIDS_PARAM_CTYPE_##type field;
#define BOIDS_X_PARAM_ONE(B, ...) +1
#define BOIDS_X_BLOCK_STRUCT(ID, field, rows)                                                      \
    typedef union boids_##field##_params {                                                         \
        struct {                                                                                   \
            rows(BOIDS_X_PARAM_MEMBER, ID, field)                                                  \
        };                                                                                         \
        float _std140[((0 rows(BOIDS_X_PARAM_ONE, ID, field)) + 3) / 4 * 4];                       \
    } boids_##field##_params;
BOIDS_X_EVERY_BLOCK(BOIDS_X_BLOCK_STRUCT)
#undef BOIDS_X_BLOCK_STRUCT

/* The named members of boids_params (boids_params.h): the blocks, then the loaded area. */
#define BOIDS_X_BLOCK_FIELD(ID, field, rows) boids_##field##_params field;
#ifdef BOIDS_LOADED_BLOCKS
#define BOIDS_X_LOADED_VIEW                                                                        \
    struct {                                                                                       \
        BOIDS_LOADED_BLOCKS(BOIDS_X_BLOCK_FIELD)                                                   \
    };
#else
#define BOIDS_X_LOADED_VIEW
#endif
#define BOIDS_PARAMS_MEMBERS                                                                       \
    BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_FIELD)                                                    \
    union {                                                                                        \
        float loaded[BOIDS_PARAMS_LOADED_FLOATS]; /* a loaded model's blocks (above) */            \
        BOIDS_X_LOADED_VIEW                                                                        \
    };
/* The blocks alone, as the GPU's uniform block holds them (shaders/boids_shared.h): the part of
 * boids_params in use. */
typedef struct boids_param_blocks {
    BOIDS_PARAMS_MEMBERS
} boids_param_blocks;
_Static_assert(sizeof(boids_param_blocks) <= BOIDS_PARAMS_FLOATS * sizeof(float),
               "the parameter blocks outgrew boids_params: BOIDS_PARAMS_FLOATS is the ABI's");

/* The built-in models' ids, in the manifest's order; loaded models' follow BOIDS_MODEL_COUNT. */
#define BOIDS_X_FOLDER_MODELS(FOLDER, M) BOIDS_MODELS_##FOLDER(M)
#define BOIDS_MODEL_LIST(M) BOIDS_MODEL_FOLDERS(BOIDS_X_FOLDER_MODELS, M)
enum {
#define BOIDS_X_MODEL_ENUM(ID, ...) BOIDS_MODEL_##ID,
    BOIDS_MODEL_LIST(BOIDS_X_MODEL_ENUM)
#undef BOIDS_X_MODEL_ENUM
        BOIDS_MODEL_COUNT
};

#endif /* BOIDS_CORE_MANIFEST_H */
