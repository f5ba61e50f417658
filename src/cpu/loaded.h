/* A loaded model's object (world/model_load.c) and the CPU backend: its manifest, the one symbol
 * it exports (BOIDS_LOADED_SYMBOL), with its CPU rules, and the library's functions those call,
 * through `imports` (core/loaded.h says why). */
#ifndef BOIDS_CPU_LOADED_H
#define BOIDS_CPU_LOADED_H

#include "core/loaded.h"
#include "cpu/steer.h"

#define BOIDS_LOADED_ABI 2u
#define BOIDS_LOADED_SYMBOL "boids_loaded_manifest_v1"

/* The library's functions the CPU rules call (cpu/neighbors.h, cpu/steer.h). */
typedef struct boids_cpu_imports {
    __typeof__(boids_cpu_candidates) *candidates;
    __typeof__(boids_cpu_group_at) *group_at;
    __typeof__(boids_cpu_obstacle_push) *obstacle_push;
    __typeof__(boids_cpu_ranges_near) *ranges_near;
    __typeof__(boids_cpu_walk_reynolds) *walk_reynolds;
    __typeof__(boids_model_features) *model_features; /* (the oracle's, models/oracle.h) */
} boids_cpu_imports;

typedef struct boids_loaded_manifest {
    unsigned abi;         /* BOIDS_LOADED_ABI */
    size_t params_size;   /* sizeof(boids_param_blocks) as the object sees it */
    unsigned first_block; /* the id of its first block: the library's BOIDS_BLOCK_COUNT */
    const boids_manifest_row *rows;
    size_t row_count;
    const boids_loaded_block *blocks;
    size_t block_count;
    const boids_param_row *params;
    size_t param_count;
    boids_cpu_rules_fn rules, rules3; /* flat and 3D worlds */
    boids_cpu_imports *imports;       /* the library fills it */
} boids_loaded_manifest;

/* The trampolines: the library's functions, by their own names, through the object's imports
 * (its one unit that defines BOIDS_LOADED_IMPORTS has them). */
#define BOIDS_LOADED_TRAMPOLINES(imports)                                                          \
    void boids_cpu_candidates(const boids_cpu_step *s, uint32_t slot, boids_cpu_ranges *r)         \
    {                                                                                              \
        (imports).candidates(s, slot, r);                                                          \
    }                                                                                              \
    void boids_cpu_group_at(const boids_cpu_step *s, uint32_t slot, uint32_t end, uint32_t max,    \
                            boids_cpu_group *g)                                                    \
    {                                                                                              \
        (imports).group_at(s, slot, end, max, g);                                                  \
    }                                                                                              \
    void boids_cpu_ranges_near(const boids_grid_dims *dims, const uint32_t *cell_start,            \
                               uint32_t cell, boids_cpu_ranges *r)                                 \
    {                                                                                              \
        (imports).ranges_near(dims, cell_start, cell, r);                                          \
    }                                                                                              \
    void boids_cpu_obstacle_push(const boids_cpu_step *s, uint32_t replica, float x, float y,      \
                                 float z, float reach, bool over_d2, float *px, float *py,         \
                                 float *pz)                                                        \
    {                                                                                              \
        (imports).obstacle_push(s, replica, x, y, z, reach, over_d2, px, py, pz);                  \
    }                                                                                              \
    uint32_t boids_cpu_walk_reynolds(const boids_cpu_step *s, uint32_t slot, uint32_t end,         \
                                     const reynolds_radii *radii, boids_cpu_lane_sums *out)        \
    {                                                                                              \
        return (imports).walk_reynolds(s, slot, end, radii, out);                                  \
    }                                                                                              \
    unsigned boids_model_features(boids_model model) { return (imports).model_features(model); }

#endif
