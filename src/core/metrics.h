/* Flock observables (boids_metrics in boids.h), the CPU's way: the sums a backend gathers for one
 * replica, and the one place that turns sums into the metrics (both backends call it, so the
 * formulas exist once). The GPU gathers the same sums in its metrics passes (metrics_*.comp). */
#ifndef BOIDS_CORE_METRICS_H
#define BOIDS_CORE_METRICS_H

#include "boids.h"
#include "base/thread_pool.h"
#include "core/flock_view.h"

/* The grids and buffers the metrics keep between calls (boids_metrics_work_free frees them). */
typedef struct boids_metrics_work boids_metrics_work;
void boids_metrics_work_free(boids_metrics_work *work);
/* Gives their pages back, keeping the arrays: a world's steps take them between its measures. */
void boids_metrics_work_release(boids_metrics_work *work);

/* What the metrics are made of, for the living boids of one replica. */
typedef struct boids_metric_sums {
    uint32_t alive;   /* living boids */
    uint32_t groups;  /* connected components of the living linked within the group radius */
    double nn_sum;    /* sum of each living boid's distance to its nearest living neighbour
                         (0 with fewer than 2) */
    double speed_sum; /* sum of speeds */
    double hx, hy;    /* sum of unit headings (a boid at rest adds nothing) */
    double min_speed, max_speed; /* 0 when none lives */
    double hz;                   /* a 3D world's third component of the headings' sum */
    double mill_num, mill_den;   /* |sum of r_i x v_i| and sum of |r_i| |v_i| about the centre
                                    (boids_metrics.milling is their ratio) */
} boids_metric_sums;

/* The sums of the living boids among b[0..n) (one replica's, in id order) in a width x height
 * world (x depth where depth > 0: a 3D world, its boids' z and vz counted): distances minimum-image
 * where wrap, plain elsewhere (boids outside a bounded world count where they are); groups link
 * boids at distance <= group_radius. Double precision; exact nearest neighbours and groups (grids
 * searched outwards until nothing nearer can exist), the boids shared among the pool's threads
 * (NULL: this one), the same bits whatever the threads. A stop (base/interrupt.h's
 * boids_should_stop: a signal, or *stop set) ends it within a few thousand boids:
 * BOIDS_E_INTERRUPTED. *work (made at the first call where NULL; work NULL: none kept) holds the
 * memory the next call reuses. */
boids_status boids_metric_sums_compute(const boids_flock_view *b, uint32_t n, float width,
                                       float height, float depth, bool wrap, float group_radius,
                                       boids_pool *pool, const int *stop, boids_metrics_work **work,
                                       boids_metric_sums *out);

/* The groups of b[0..n) (the living: the caller leaves out the caught) as the sums count them:
 * group_of[i] in [0, *groups), the groups numbered in the order of their first boid. */
boids_status boids_metric_groups(const boids_flock_view *b, uint32_t n, float width, float height,
                                 float depth, bool wrap, float group_radius, boids_pool *pool,
                                 const int *stop, uint32_t *group_of, uint32_t *groups);

/* The metrics from the sums into *out, its padding zeroed: polarization = |sum of headings| /
 * alive, mean_nn = nn_sum / alive, mean_speed = speed_sum / alive (0 where none lives). */
void boids_metrics_from_sums(const boids_metric_sums *s, uint64_t step, uint32_t catches,
                             boids_metrics *out);

#endif
