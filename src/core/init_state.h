/* The random initial states of a world: one function per layout of BOIDS_LAYOUT_LIST
 * (boids_init_<name>); a model's default is its manifest line's. Each fills one replica: its n
 * boids (local ids 0..n-1, boid i in swarm i mod K, attributes at their defaults unless the layout
 * says) and its p predators, from rng, which the world seeds with seed + replica, so a replica
 * starts as a world of its own with that seed would. */
#ifndef BOIDS_CORE_INIT_STATE_H
#define BOIDS_CORE_INIT_STATE_H

#include "boids.h"
#include "core/rng.h"

typedef void (*boids_init_fn)(const boids_world_def *d, boids_rng *rng, uint32_t n,
                              boids_boid *boids, uint32_t p, boids_predator *predators);

/* Positions uniform in the world, headings uniform, speeds uniform in [min_speed, max_speed]
 * (x, y, heading, speed per boid, in id order); predators likewise in [pred_min_speed,
 * pred_max_speed]; ages (where the model has them) uniform in [0, 1] after the flock. */
void boids_init_uniform(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *boids,
                        uint32_t p, boids_predator *predators);
/* The kit paper's layout, from the authors' code: boids uniform in the centre square [3/8, 5/8]
 * of each axis, velocity components uniform in [-50, 50] px/s, age uniform in [0, 1] (x, y, vx,
 * vy, age per boid); each predator uniform in one of the four corner squares ([1/8, 2/8] or
 * [6/8, 7/8] of each axis, chosen at random), velocity components in [-50, 50]. Another model's
 * boids draw their components in [-50, 50] times its max_speed / 150 (kit's top speed), and one
 * that moves at one speed (min_speed = max_speed) starts at it. */
void boids_init_centre(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *boids,
                       uint32_t p, boids_predator *predators);
/* A formed flock: uniform's draws, the boids then squeezed into the centre square (cube) [3/8,
 * 5/8] of each axis, all with the first boid's velocity; the predators uniform's. */
void boids_init_flock(const boids_world_def *d, boids_rng *rng, uint32_t n, boids_boid *boids,
                      uint32_t p, boids_predator *predators);

/* The function of a layout (BOIDS_LAYOUT_MODEL: the model's). */
boids_init_fn boids_layout_init(boids_layout layout, boids_model model);

#endif
