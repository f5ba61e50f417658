/* What the flock measures read of a replica's boids, in id order, without a copy: each value an
 * array with a stride, so the same code reads a boids_boid array (the API's records) and a
 * world's columns (4 bytes a value: at 10^7 boids a 40-byte record each was 400 MB more). */
#ifndef BOIDS_CORE_FLOCK_VIEW_H
#define BOIDS_CORE_FLOCK_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "boids.h"

typedef struct boids_flock_view {
    const float *x, *y, *z;    /* z NULL in a flat world (reads 0) */
    const float *vx, *vy, *vz; /* vz likewise */
    const uint32_t *alive;     /* nonzero: living; NULL where every boid lives */
    size_t stride;             /* 32-bit words from one boid's value to the next */
} boids_flock_view;

/* Boid i's value in a column of v (x, y, ...: v->x, v->y, ...); 0 where the column is NULL. */
static inline float boids_view_at(const boids_flock_view *v, const float *column, uint32_t i)
{
    return column ? column[i * v->stride] : 0.0f;
}
static inline bool boids_view_alive(const boids_flock_view *v, uint32_t i)
{
    return !v->alive || v->alive[i * v->stride] != 0;
}

/* The boids b[0..) as a view (a flat world's z and vz read 0 there as well). */
static inline boids_flock_view boids_view_of_boids(const boids_boid *b)
{
    return (boids_flock_view){&b->x,  &b->y,  &b->z,     &b->vx,
                              &b->vy, &b->vz, &b->alive, sizeof *b / sizeof(float)};
}

/* The view of boids [first, ...) of v. */
static inline boids_flock_view boids_view_from(boids_flock_view v, uint32_t first)
{
    const size_t o = (size_t)first * v.stride;
    v.x += o, v.y += o, v.vx += o, v.vy += o;
    if (v.z) v.z += o;
    if (v.vz) v.vz += o;
    if (v.alive) v.alive += o;
    return v;
}

#endif
