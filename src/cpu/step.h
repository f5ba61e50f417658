/* One step of the CPU backend as its walks, rules and predators see it (cpu/steer.h has their
 * helpers; cpu/neighbors.h where a boid's candidates are): step t in candidate order, where step
 * t+1 goes, and the catches and events found. */
#ifndef BOIDS_CPU_STEP_H
#define BOIDS_CPU_STEP_H

#include "core/backend.h"
#include "cpu/event_sink.h"
#include "cpu/grid.h"

/* Step t in structure-of-arrays form, in the order the candidates are walked: sorted by cell for
 * the grid, id order for brute force. */
typedef struct boids_cpu_soa {
    float *x, *y, *vx, *vy;
    float *z, *vz; /* a 3D world's (NULL in a flat one) */
    uint32_t *swarm, *id;
} boids_cpu_soa;

typedef struct boids_cpu_step {
    const boids_sim *sim;
    const boids_params *params; /* &sim->def.params */
    const boids_cpu_grid *grid;
    boids_cpu_soa cand; /* step t, candidate order: a boid's own data is cand[slot] */
    const float *cur_x, *cur_y, *cur_z;     /* step t, in the backend's order (the catches come
                                               before the grid; cur_z NULL in a flat world) ... */
    const uint32_t *cur_id;                 /* ... and the ids in that order */
    float *out_x, *out_y, *out_vx, *out_vy; /* step t+1, by slot */
    float *out_z, *out_vz;                  /* (a 3D world's) */
    uint32_t *attr[BOIDS_ATTR_COUNT]; /* the model's attributes (32-bit words, id order), read and
                                        written in place: only the boid itself touches its own */
    const boids_cpu_grid *pred_grid;  /* models with predators: the predators of step t by cell */
    boids_cpu_soa pred;               /* ... in that order (swarm unused) */
    float *pred_out_x, *pred_out_y, *pred_out_vx, *pred_out_vy; /* their step t+1, id order */
    float *pred_out_z, *pred_out_vz;                            /* (a 3D world's) */
    boids_replica_record *replicas; /* catches and stop steps, per replica */
    boids_catch *catches;           /* the step's catches found (boids_cpu_catch), unordered ... */
    uint32_t *catch_count;          /* ... and how many */
    uint32_t step;                  /* this step's number, for events */
    boids_cpu_event_sink *events;
} boids_cpu_step;

#endif
