/* Scenario files: a world definition in INI form (read with Debian's libinih), e.g.
 *
 *   ; adams-simple-boids.md, "Recommended parameter values"
 *   model = adams
 *   boids = 20000
 *   world = 1920x1080
 *   steps = 600
 *   visual_range = 40
 *
 * Keys: model, boids, swarms, world (WxH), seed, steps, dt, and every parameter of the model by
 * its --set name (edges among them). The model is read first wherever it stands; the others are
 * applied over its preset. An unknown key, a bad value or a section is an error naming the file
 * and line. */
#ifndef BOIDS_CORE_SCENARIO_H
#define BOIDS_CORE_SCENARIO_H

#include "boids.h"

#define BOIDS_SCENARIO_STEPS 1u   /* which keys the file gave: */
#define BOIDS_SCENARIO_COUNT 2u
#define BOIDS_SCENARIO_SWARMS 4u
#define BOIDS_SCENARIO_WORLD 8u

/* Fills def (from boids_default_world_def() and the model's preset) and *steps from the file.
 * BOIDS_ERR_PARSE "FILE:LINE: ..." for bad content, BOIDS_ERR_IO if it cannot be read. */
boids_status boids_scenario_load(const char *path, boids_world_def *def, uint32_t *steps, unsigned *given);

#endif
