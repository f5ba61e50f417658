/* The random initial state of a world: what boids_world_create() starts from. */
#ifndef BOIDS_CORE_INIT_STATE_H
#define BOIDS_CORE_INIT_STATE_H

#include "boids.h"

/* Positions uniform in the world, headings uniform, speeds uniform in [min_speed, max_speed];
 * boid i in swarm i mod K; attributes at their defaults. One PCG32 stream from d->seed, consumed
 * in id order (x, y, heading, speed per boid), so a seed gives the same flock on any machine. */
void boids_init_uniform(const boids_world_def *d, boids_boid *b);

#endif
