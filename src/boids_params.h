/* boids_params.h: a model's parameters as the public API holds them (included by boids.h).
 *
 * boids_params is a block of BOIDS_PARAMS_FLOATS floats whose layout is the library's own: a
 * program reaches a parameter by its name, through the model's table (boids_model_params,
 * boids_model_param, boids_param_get, boids_params_set) or a world's (boids_world_get_param,
 * boids_world_set_param), never by a member. Its size is fixed by the ABI (BOIDS_VERSION_MINOR
 * while the version is 0.x), so a model added to the library, or one loaded at run time
 * (boids_model_load), changes no public type. The parameters themselves, each declared once with
 * its unit, range and source, are in `boids --help MODEL` and docs/models.md.
 */
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

/* The parameters: a block of fixed size, reached by name. (The library's own build sees its
 * blocks by name too: src/core/manifest.h.) */
#define BOIDS_PARAMS_FLOATS 1024
#ifdef BOIDS_INTERNAL
#include "core/manifest.h"
#endif
typedef union boids_params {
#ifdef BOIDS_INTERNAL
    struct {
        BOIDS_PARAMS_MEMBERS
    };
#endif
    float opaque_[BOIDS_PARAMS_FLOATS];
} boids_params;

#endif /* BOIDS_PARAMS_H */
