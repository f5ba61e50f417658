/* The world the program runs, and what a user can do to it as a whole: reset it, reseed it,
 * double or halve the flock, switch the model, add or remove predators. Those recreate the world,
 * keeping the boids where it makes sense and the obstacles as they stand (a state read on the
 * user's action, never per step). */
#ifndef BOIDS_APP_SESSION_H
#define BOIDS_APP_SESSION_H

#include "boids.h"

typedef struct boids_session {
    boids_world_def def; /* what the world was made from (world size resolved) */
    boids_world *world;
    boids_tool tool;           /* carried over when the world is recreated */
    boids_obstacle *obstacles; /* carried over too (placed and removed in the viewer) */
    uint64_t steps_before;     /* steps of the worlds this one carries on from (a model switch, a
                                * resize, a predator added); 0 after a reset */
} boids_session;

/* Creates the world; `init` (id order, def->count boids) replaces the random state if not NULL. */
boids_status boids_session_create(boids_session *s, const boids_world_def *def,
                                  const boids_boid *init);
void boids_session_destroy(boids_session *s);
/* A new random flock from `seed` (the same seed: the same flock as at the start). */
boids_status boids_session_reset(boids_session *s, uint64_t seed);
/* count boids, in the same world (boids_world_set_count): the first ones keep their state, new
 * ones start as a world of count boids would; the step count goes on. */
boids_status boids_session_resize(boids_session *s, uint32_t count);
/* One more predator at (x, y), at depth z in a 3D world (models with predators), in the same world
 * (boids_world_set_params with one more, then placed): the step count and the catches go on. */
boids_status boids_session_add_predator(boids_session *s, float x, float y, float z);
/* One parameter by name from text, as --set KEY=VALUE (the panel's path): set on the running
 * world, but the number of predators, which a world fixes when it is made: for that the world
 * is made anew with the boids as they are, the first predators kept, new ones random. */
boids_status boids_session_set_param(boids_session *s, const char *key, const char *value);
/* Another model, with its preset parameters; the boids keep their state. */
boids_status boids_session_set_model(boids_session *s, boids_model model);

#endif
