/* The passes of a step (core/step.h). */
#include "core/step.h"

const boids_step_pass boids_step_passes[BOIDS_STEP_PASS_COUNT] = {
    {BOIDS_PASS_PREDATORS, BOIDS_FEATURE_PREDATORS}, /* the predators' grid, the catches */
    {BOIDS_PASS_GRID, 0},                            /* the boids' counting sort by cell ... */
    {BOIDS_PASS_SCAN, 0},
    {BOIDS_PASS_SCATTER, 0},
    {BOIDS_PASS_REORDER, 0},                    /* ... and step t in cell order */
    {BOIDS_PASS_STEER, 0},                      /* the walk and the model's rules: step t+1 */
    {BOIDS_PASS_HUNT, BOIDS_FEATURE_PREDATORS}, /* the predators' steering */
};
