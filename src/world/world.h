/* Internal view of a world: the state both backends read (boids_sim), the backend behind its
 * operations, and what the world keeps itself (the events handed out, the draw timings). Only
 * world.c and tests include it; everything else goes through boids.h. */
#ifndef BOIDS_WORLD_WORLD_H
#define BOIDS_WORLD_WORLD_H

#include "core/backend.h"

struct boids_world {
    boids_sim sim;
    const boids_backend_ops *ops;
    void *impl;
    const char *renderer, *device;
    int threads;
    boids_event_log taken; /* the last take's events: the array boids_world_take_events hands out */
    boids_profile_acc draw;  /* the renderer's timings (BOIDS_PASS_DRAW) */
    bool explicit_obstacles; /* given at creation or set since: params no longer redraw them */
};

/* The backend's state (tests reach into it through cpu/ and gpu/ functions). */
static inline void *boids_world_backend(const boids_world *w) { return w->impl; }

#endif
