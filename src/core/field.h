/* The field measures (boids_field in boids.h) of one replica, the CPU's way: the pair correlations
 * C(r) with their first zeros, and the neighbours' anisotropy gamma(n) with n_c, from the boids'
 * state in double precision. Both backends' worlds call it (a GPU world on its state read back). */
#ifndef BOIDS_CORE_FIELD_H
#define BOIDS_CORE_FIELD_H

#include "boids.h"
#include "base/thread_pool.h"

/* What is measured, resolved (every default filled, the bounds checked by the caller). */
typedef struct boids_field_setup {
    float width, height, depth; /* depth 0: a flat world */
    bool wrap;                  /* distances minimum-image */
    double r_max;               /* > 0 */
    uint32_t bins, ranks;       /* [1, BOIDS_FIELD_BINS], [1, BOIDS_FIELD_RANKS] */
    double margin;
    uint32_t flock;     /* BOIDS_FIELD_FLOCK_* */
    double xi_from;     /* >= 0 */
    float group_radius; /* BOIDS_FIELD_FLOCK_GROUP's */
} boids_field_setup;

/* The measures of the living among b[0..n) (one replica's, in id order) into *out (its step
 * left 0), the same bits whatever the pool's threads (NULL: this one). A stop (boids_should_stop:
 * a signal, or *stop set) ends it within a few thousand boids: BOIDS_E_INTERRUPTED. */
boids_status boids_field_compute(const boids_boid *b, uint32_t n, const boids_field_setup *setup,
                                 boids_pool *pool, const int *stop, boids_field *out);

/* The smallest eigenvalue's unit eigenvector of the symmetric d x d matrix m (d = 2: m[0] m[1] /
 * m[1] m[2]; d = 3: the upper triangle m[0] m[1] m[2] / m[3] m[4] / m[5]), into w. Exposed for
 * its test. */
void boids_field_least_axis(const double *m, int d, double w[3]);

#endif
