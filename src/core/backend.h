/* The contract between the world (src/world/, the dispatcher) and a backend (src/cpu/, src/gpu/):
 * what a backend reads (boids_sim, owned by the world and valid for the backend's life) and the
 * operations it provides. Beneath both sides, so neither includes the other. */
#ifndef BOIDS_CORE_BACKEND_H
#define BOIDS_CORE_BACKEND_H

#include "boids.h"
#include "boids_shared.h" /* boids_replica_record, boids_catch: the same records on both backends */
#include "core/events.h"
#include "core/geometry.h"
#include "core/metrics.h"
#include "core/obstacles.h"

/* A world as its backend sees it. */
typedef struct boids_sim {
    boids_world_def def; /* resolved: width/height filled, params validated; def.obstacles
                            points at `obstacles` below */
    boids_grid_dims grid;
    boids_tool tool;      /* the mouse tool (kind NONE unless set) */
    uint64_t steps;       /* steps since creation or the last write: the next step's number */
    unsigned attributes;  /* the model's attributes, BOIDS_ATTR_BIT mask */
    unsigned features;    /* the model's BOIDS_FEATURE_* */
    float dt;             /* per step: def.dt for per-second models, 1 for frame-based ones */
    float half_w, half_h; /* world size / 2 where it wraps, +infinity elsewhere (geometry.h) */
    float half_d;         /* the same along z (+infinity in a flat world) */
    bool three;           /* a 3D world: def.depth > 0 */
    uint32_t per_replica; /* boids per replica (>= 1) */
    uint32_t predators_per_replica, predator_count;
    boids_obstacle *obstacles; /* every replica's, owned by the world */
    uint32_t obstacle_count;
    boids_obstacle_grid obstacle_grid;
    bool obstacle_push; /* the external-force hook pushes boids off obstacles (there are some,
                           and the model has no rule of its own for them) */
    int stop_request;   /* boids_world_interrupt's flag (atomic; base/interrupt.h's
                           boids_should_stop reads it beside the signal) */
} boids_sim;

/* Time per pass, summed over the steps timed. */
typedef struct boids_profile_acc {
    double sum_ms[BOIDS_PASS_COUNT];
    uint64_t samples[BOIDS_PASS_COUNT];
    /* the GPU's GL commands (gl/checks.h) over `steps` steps */
    uint64_t steps, dispatches, barriers, clears;
} boids_profile_acc;

/* The state's columns as the backends read them (read_columns): the fixed ones, then one per
 * attribute, BOIDS_COLUMN_ATTR + its boids_attribute. */
typedef enum boids_column {
    BOIDS_COLUMN_X,
    BOIDS_COLUMN_Y,
    BOIDS_COLUMN_VX,
    BOIDS_COLUMN_VY,
    BOIDS_COLUMN_SWARM,
    BOIDS_COLUMN_Z, /* a 3D world's */
    BOIDS_COLUMN_VZ,
    BOIDS_COLUMN_ATTR,
    BOIDS_COLUMN_COUNT = BOIDS_COLUMN_ATTR + BOIDS_ATTR_COUNT
} boids_column;

typedef struct boids_backend_ops {
    /* *done: the steps taken, all of them unless a stop (boids_should_stop with the sim's
     * stop_request) ended the call (BOIDS_E_INTERRUPTED: a CPU step under way undone, the GPU
     * looks between steps) or an error came */
    boids_status (*step)(void *impl, uint32_t steps, uint32_t *done);
    void (*finish)(void *impl);
    boids_status (*read)(void *impl, boids_boid *out);       /* id order, count entries; the
                                                                model's attributes filled */
    boids_status (*write)(void *impl, const boids_boid *in); /* id order, validated */
    /* The state by column (boids_column), id order, count entries in each array that is not
     * NULL: x, y, vx, vy (float), swarm (uint32_t), then one per attribute (its 32-bit words;
     * the model's only). */
    boids_status (*read_columns)(void *impl, void *const columns[BOIDS_COLUMN_COUNT]);
    boids_status (*read_predators)(void *impl, boids_predator *out);       /* predator_count */
    boids_status (*write_predators)(void *impl, const boids_predator *in); /* validated */
    /* The replicas' catches and stop steps (boids_replica_record per replica). */
    boids_status (*replicas)(void *impl, boids_replica_record *out);
    /* The metric sums of every replica computed on the device (only they are read back); NULL
     * where reading the state costs nothing (the CPU): the dispatcher computes them from it. */
    boids_status (*metrics)(void *impl, float group_radius, boids_metric_sums *out);
    /* After sim->def.params, the tool, the obstacles or the grid changed (grid_changed: its
     * dimensions too). */
    boids_status (*configure)(void *impl, bool grid_changed);
    /* Moves the events gathered since the last call into log (unsorted), counting lost ones. */
    boids_status (*take_events)(void *impl, boids_event_log *log);
    /* Adds the per-pass times measured so far (finished timings only; never waits). */
    void (*profile)(void *impl, boids_profile_acc *acc);
    void (*reset_profile)(void *impl);
    boids_gl_state (*gl_state)(const void *impl);
    /* The bytes of the device's buffers the backend holds for the world (the step's, and those
     * made for reads and metrics so far); NULL for a backend without a device (the CPU). */
    uint64_t (*device_bytes)(void *impl);
    /* Gives back the memory only a step uses (the next step takes it again), before a measure
     * that needs room; NULL where the backend has none to give. */
    void (*trim)(void *impl);
    /* After the outermost call on the world: lets go of the calling thread (the GPU's own
     * context current on none), so the next call may come from another; NULL where nothing ties
     * the backend to a thread. */
    void (*release)(void *impl);
    void (*destroy)(void *impl);
} boids_backend_ops;

/* Backend constructors: on success *impl is the backend's state for ops. *renderer and *device
 * (which device and why: boids_gl_device; "" for the CPU) receive texts that live as long as the
 * backend. */
typedef boids_status (*boids_backend_create_fn)(const boids_sim *sim, const boids_backend_ops **ops,
                                                void **impl, const char **renderer,
                                                const char **device, int *threads);

#endif
