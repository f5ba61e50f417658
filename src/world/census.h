/* What a step's walks read, counted on the host from a world's state: per living boid, the
 * candidates (the boids of the cells of the block around its cell, which the walk reads one by
 * one) and the neighbours among them (within the model's largest radius). The cells are the
 * world's own grid, the same on both backends, so a change of the grid or of the walk shows here
 * in numbers on any driver. boids-bench prints them beside each measurement. */
#ifndef BOIDS_WORLD_CENSUS_H
#define BOIDS_WORLD_CENSUS_H

#include "boids.h"

typedef struct boids_census {
    uint32_t living;   /* boids counted (the dead of kit are in no cell) */
    double candidates; /* per living boid: slots of its block, itself included */
    double neighbours; /* per living boid: others of its block within the radius */
    float radius;      /* px: the model's largest interaction radius */
} boids_census;

/* The census of the world's current state (read through boids_world_read: a GPU world copies its
 * state back once). In a world of nearest:K the search reads other cells than the block: its
 * candidates are the metric walk's (separation's) only. */
boids_status boids_world_census(boids_world *world, boids_census *out);

#endif
