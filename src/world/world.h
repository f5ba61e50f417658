/* Internal view of a world: the state both backends read (boids_sim), the backend behind its
 * operations, and what the world keeps itself (the events handed out, the draw timings). Only
 * world.c, its census (census.c) and tests include it; everything else goes through boids.h. */
#ifndef BOIDS_WORLD_WORLD_H
#define BOIDS_WORLD_WORLD_H

#include <pthread.h>
#include <sys/types.h>

#include "core/backend.h"
#include "core/models.h"

struct boids_world {
    boids_sim sim;
    const boids_backend_ops *ops;
    void *impl;
    const char *renderer, *device;
    int threads;
    boids_event_log taken; /* the last take's events: the array boids_world_take_events hands out */
    boids_event_log held;  /* events a backend gathered before a change of count replaced it,
                              handed out at the next take */
    boids_profile_acc draw;   /* the renderer's timings (BOIDS_PASS_DRAW) */
    bool explicit_obstacles;  /* given at creation or set since: params no longer redraw them */
    boids_params_facts facts; /* of sim.def.params (core/models.h) */
    /* what the CPU's metrics keep between calls (core/metrics.h), and the state they read */
    boids_metrics_work *metrics_work;
    void *metrics_columns;      /* x, y, vx, vy, z, vz (3D), alive (kit): count words each */
    size_t metrics_columns_cap; /* words */
    pthread_mutex_t lock;       /* held through every public call (recursive: calls nest) */
    int depth;                  /* public calls in progress on the holding thread */
    int locks; /* boids_world_lock's on it not yet unlocked (by the holding thread) */
    pid_t pid; /* the creating process: a forked child's copy is refused */
};

/* A public call on a world, from BOIDS_WORLD_CALL to the end of the enclosing block. */
typedef struct boids_world_call {
    boids_world *w;      /* NULL: refused (status says why) */
    boids_status status; /* BOIDS_OK, or why the call cannot be made */
} boids_world_call;
boids_world_call boids_world_call_begin(const boids_world *w);
void boids_world_call_end(boids_world_call *call);

/* Every public function on a world starts with this: a NULL world (BOIDS_E_ARGUMENT) or one a
 * forked child inherited (BOIDS_E_FORKED) returns `refused` (a status: BOIDS_WORLD_REFUSED; a
 * value; nothing for void). Otherwise the world's lock is held until the block ends, so calls
 * from several threads take turns, and after the outermost call the world lets go of the calling
 * thread (a GPU world's own context is current on no thread), so the next may come from any. */
#define BOIDS_WORLD_CALL(world, refused)                                                           \
    __attribute__((cleanup(boids_world_call_end))) boids_world_call boids_call_ =                  \
        boids_world_call_begin(world);                                                             \
    if (!boids_call_.w) return refused
#define BOIDS_WORLD_REFUSED boids_call_.status

/* The backend's state (tests reach into it through cpu/ and gpu/ functions). */
static inline void *boids_world_backend(const boids_world *w) { return w->impl; }

#endif
