/* A step, as both backends run it: one table of passes in their order (as Box2D's solver runs its
 * stages), each backend giving its own implementation of each pass (cpu_passes in
 * cpu/cpu_backend.c, gpu_passes in gpu/gpu_backend.c) and looping over this table. A pass runs
 * for a model that has all the features it needs. The profile times each pass under its name
 * (BOIDS_PASS_LIST in boids.h, which also names the renderer's DRAW, no pass of a step). */
#ifndef BOIDS_CORE_STEP_H
#define BOIDS_CORE_STEP_H

#include <stdbool.h>

#include "boids.h"

typedef struct boids_step_pass {
    boids_pass pass;
    unsigned needs; /* the BOIDS_FEATURE_* a model must have for the pass to run (0: every one) */
} boids_step_pass;

enum { BOIDS_STEP_PASS_COUNT = 7 };
extern const boids_step_pass boids_step_passes[BOIDS_STEP_PASS_COUNT];

/* Whether pass k of the table runs for a model with these features. */
static inline bool boids_step_pass_runs(int k, unsigned features)
{
    return (boids_step_passes[k].needs & features) == boids_step_passes[k].needs;
}

#endif
