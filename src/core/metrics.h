/* Flock observables, the way long runs are compared (trajectories are chaotic, these are not). */
#ifndef BOIDS_CORE_METRICS_H
#define BOIDS_CORE_METRICS_H

#include "boids.h"

typedef struct boids_metrics {
    uint32_t alive;      /* the living boids, whom the rest is about (caught boids are gone) */
    double polarization; /* |sum of unit headings| / N, in [0, 1]; 1 = all aligned */
    double mean_nn;      /* mean distance to the nearest other boid (minimum image), px */
    double mean_speed;   /* px/s or px/frame */
    double min_speed, max_speed;
} boids_metrics;

/* Observables of the living boids of a state in a width x height world (wrap: distances are minimum-image; else
 * plain, and boids outside the world count where they are). 0 for fields that need more boids. */
boids_status boids_metrics_compute(const boids_boid *b, uint32_t n, float width, float height, bool wrap,
                                   boids_metrics *out);

#endif
