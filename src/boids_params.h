/* boids_params.h: every model parameter, declared once (part of the public API, included by
 * boids.h).
 *
 * Parameters come in blocks: `base` (speed limits and edges, which every model has) and one block
 * per family of rules. A model has the base block and the blocks its manifest line names
 * (boids_models.h). Each row below is the whole declaration of one parameter:
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
 * (std140), which the union with `_std140` does without hand-written padding. */
#ifndef BOIDS_PARAMS_H
#define BOIDS_PARAMS_H

/* A parameter's flags: one bit each, */
#define BOIDS_PARAM_RADIUS                                                                         \
    (1u << 0) /* an interaction radius: the grid's cells are at least as large */
#define BOIDS_PARAM_INTEGER (1u << 1)     /* a whole number (a count) */
#define BOIDS_PARAM_BINARY (1u << 2)      /* 0 or 1 */
#define BOIDS_PARAM_NAMED_EDGES (1u << 3) /* also by name: wrap, bounded, processing */
/* a reach around obstacles: an interaction radius where the world has obstacles */
#define BOIDS_PARAM_OBSTACLE_RADIUS (1u << 4)
/* boids within it of each other are in one group (the metrics) */
#define BOIDS_PARAM_GROUPS (1u << 5)
/* a count (type COUNT): stored as a uint32_t, a whole number like BOIDS_PARAM_INTEGER */
#define BOIDS_PARAM_COUNT (1u << 6)
/* the width of one of nested zones (Couzin's): the zones' widths add up to an interaction radius */
#define BOIDS_PARAM_ZONE (1u << 7)
/* and the combinations the rows use */
#define BOIDS_PARAM_SWITCH (BOIDS_PARAM_INTEGER | BOIDS_PARAM_BINARY)     /* 0 or 1 */
#define BOIDS_PARAM_EDGES (BOIDS_PARAM_INTEGER | BOIDS_PARAM_NAMED_EDGES) /* BOIDS_EDGES_* */
/* the alignment radius: an interaction radius, and the groups' */
#define BOIDS_PARAM_GROUP_RADIUS (BOIDS_PARAM_RADIUS | BOIDS_PARAM_GROUPS)

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

/* The blocks: X(ID, field of boids_params, row list): base and Reynolds' (shared by several
 * models), then each model folder's (src/models/list.h, in its order), then the obstacles', which
 * every model has: the order of the blocks in boids_params, in the GPU's uniform block, in --help
 * and in the viewer's panel (a model's own parameters before the obstacles'). */
#include "models/list.h"
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

/* Every parameter of every block. A model reads only the blocks of its manifest line. Units are
 * the model's own: px, px/s and px/s^2 for per-second models, px, px/frame and px/frame^2 for
 * frame-based ones. Counts are whole numbers (uint32_t); switches and the edges are floats. */
typedef struct boids_params {
#define BOIDS_X_BLOCK_FIELD(ID, field, rows) boids_##field##_params field;
    BOIDS_PARAM_BLOCK_LIST(BOIDS_X_BLOCK_FIELD)
    union {
        float loaded[BOIDS_PARAMS_LOADED_FLOATS]; /* a loaded model's blocks (above) */
#ifdef BOIDS_LOADED_BLOCKS
        struct {
            BOIDS_LOADED_BLOCKS(BOIDS_X_BLOCK_FIELD)
        };
#endif
    };
#undef BOIDS_X_BLOCK_FIELD
} boids_params;

#endif /* BOIDS_PARAMS_H */
