/* The models' oracles: each model's step written from its paper's formulas in double precision,
 * brute force over every pair, independent of both backends (no grid, no lanes, no float), which
 * the tests hold the CPU and the GPU to. Each folder's oracle.c registers one per model of its
 * rows, as boids_oracle_<ID> (a model's oracle is found by its enum id: boids_oracle_of); a model
 * without one is named by the tests that loop over the models ("no oracle for <name>").
 *
 * An oracle also declares what the tests may assume of the model: the values at which it draws
 * no random number (noiseless: a world in a plane then stays in it), and those at which it is the
 * same in every direction (isotropic: turning the axes turns the results). Test code only: the
 * library never links it. The helpers below are the double-precision geometry the oracles
 * share. */
#ifndef BOIDS_MODELS_ORACLE_H
#define BOIDS_MODELS_ORACLE_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "boids.h"

/* A world as an oracle sees it: the state before the step, and what the step reads. */
typedef struct boids_oracle_world {
    boids_model model;
    const boids_params *params;
    double width, height, depth; /* depth 0: a flat world */
    double dt;                   /* the step's time: dt, or 1 for a frame-based model */
    uint64_t seed;               /* the world's seed: the rules' noise draws of step 0 */
    uint32_t nearest;            /* the world's nearest:K (0: metric neighbours) */
    const boids_boid *boids;
    uint32_t count;
    const boids_predator *predators; /* (a model with predators) */
    uint32_t predator_count;
    const boids_obstacle *obstacles;
    uint32_t obstacle_count;
    const boids_tool *tool; /* the mouse tool (NULL: none) */
} boids_oracle_world;

typedef struct boids_oracle {
    /* Boid i after the step: its velocity and its position. *near is set where the float
     * backends may fairly take the other branch of a comparison the formulas make (a boid at a
     * zone's edge within rounding): the tests leave such boids out. NULL near: not asked. */
    boids_boid (*step)(const boids_oracle_world *w, uint32_t i, bool *near);
    /* Predator i after the step (a model with predators; else NULL). */
    boids_predator (*predator_step)(const boids_oracle_world *w, uint32_t i);
    /* Sets the values at which the model draws no random number (NULL: it never does). */
    void (*noiseless)(boids_params *p);
    /* Sets the values at which it is the same in every direction, after noiseless (NULL: it is
     * at any values). */
    void (*isotropic)(boids_params *p);
    /* Sets values at the scale of the tests' worlds, hundreds of px wide holding hundreds of
     * boids (reaches of tens of px, speeds of a few px a step), for a model whose paper's are at
     * another scale (Vicsek's unit lengths); NULL: its values are at that scale. */
    void (*px_scale)(boids_params *p);
    /* Whether an ulp grows to a visible difference within ten steps (a branch on a rounded value:
     * kit's catches and attacks, Couzin's turn limit): tests that hold two runs together over
     * many steps do so only where the rounding is IEEE's. */
    bool amplifies;
    /* Whether it handles the external forces, the obstacles' push and the mouse tool (else the
     * tests give it neither). */
    bool external;
} boids_oracle;

/* The oracle of model m, NULL where its folder registers none. */
const boids_oracle *boids_oracle_of(boids_model m);

/* Vectors of doubles. */
typedef struct boids_d3 {
    double x, y, z;
} boids_d3;
static inline boids_d3 boids_d3_of(double x, double y, double z) { return (boids_d3){x, y, z}; }
static inline boids_d3 boids_d3_add(boids_d3 a, boids_d3 b)
{
    return boids_d3_of(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline boids_d3 boids_d3_sub(boids_d3 a, boids_d3 b)
{
    return boids_d3_of(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline boids_d3 boids_d3_mul(boids_d3 a, double s)
{
    return boids_d3_of(a.x * s, a.y * s, a.z * s);
}
static inline double boids_d3_dot(boids_d3 a, boids_d3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline double boids_d3_len(boids_d3 a) { return sqrt(boids_d3_dot(a, a)); }
/* a at length m (zero stays zero: Processing's normalize) */
static inline boids_d3 boids_d3_at(boids_d3 a, double m)
{
    return boids_d3_len(a) > 0 ? boids_d3_mul(a, m / boids_d3_len(a)) : a;
}
static inline boids_d3 boids_d3_unit(boids_d3 a) { return boids_d3_at(a, 1); }
static inline boids_d3 boids_d3_trunc(boids_d3 a, double m)
{
    return boids_d3_len(a) > m ? boids_d3_at(a, m) : a;
}
/* Reynolds' speed limits: above vmax cut to it, below vmin (not at rest) raised to it. */
static inline boids_d3 boids_d3_limits(boids_d3 v, double vmin, double vmax)
{
    const double s = boids_d3_len(v);
    return s > vmax ? boids_d3_at(v, vmax) : s < vmin && s > 0 ? boids_d3_at(v, vmin) : v;
}
static inline boids_d3 boids_oracle_velocity(const boids_boid *b)
{
    return boids_d3_of(b->vx, b->vy, b->vz);
}
static inline boids_d3 boids_oracle_position(const boids_boid *b)
{
    return boids_d3_of(b->x, b->y, b->z);
}

/* d brought within [-size/2, size/2] (the minimum image on a torus of that size; 0: none). */
static inline double boids_oracle_wrap(double d, double size)
{
    return size <= 0 ? 0 : d > size / 2 ? d - size : d < -size / 2 ? d + size : d;
}

/* Whether the world's edges wrap. */
static inline bool boids_oracle_wraps(const boids_oracle_world *w)
{
    return w->params->base.edges == BOIDS_EDGES_WRAP;
}

/* The offset from a to b: the minimum image where the edges wrap; z 0 in a flat world. */
boids_d3 boids_oracle_offset(const boids_oracle_world *w, boids_d3 a, boids_d3 b);

/* Boid i moved by velocity v over the step through the world's edges (wrap, bounded or
 * Processing's borders), as boids_boid with v and the new position. */
boids_boid boids_oracle_move(const boids_oracle_world *w, uint32_t i, boids_d3 v);

/* The Reynolds walk's sums for boid i, brute force: separation over every swarm within rs (each
 * neighbour's -offset / d^2, or its -offset where raw), alignment (the velocities) and cohesion
 * (the offsets) over its own swarm within ra and rc. Coincident boids count in none. */
typedef struct boids_oracle_sums {
    boids_d3 sep, ali, coh;
    uint32_t ns, na, nc;
} boids_oracle_sums;
boids_oracle_sums boids_oracle_reynolds_sums(const boids_oracle_world *w, uint32_t i, double rs,
                                             double ra, double rc, bool raw);

/* The external force on boid i (the integrate_force hook's e): the obstacles' push,
 * obstacle_factor along the unit vector from each centre within obstacle_radius (left out for a
 * model that has an obstacle rule of its own), and the mouse tool's pull or push. */
boids_d3 boids_oracle_external(const boids_oracle_world *w, uint32_t i);

/* v turned by the external forces on boid i, for a model that sets its velocity at speed s
 * itself (vicsek, couzin, gregoire-chate): s Theta[v + e dt], v where there are none (the rules'
 * external_turn). */
boids_d3 boids_oracle_external_turn(const boids_oracle_world *w, uint32_t i, boids_d3 v, double s);

/* A candidate for an oracle's nearest:K: boid j at distance dist and offset off. */
typedef struct boids_oracle_far {
    double dist;
    uint32_t j;
    boids_d3 off;
} boids_oracle_far;

/* Puts the k nearest of far[0, n) first, nearest first (by distance, then index: the backends'
 * order), and returns how many there are (k, or n where fewer); sets *near where the k-th and the
 * next are within eps of each other (either may be chosen). */
uint32_t boids_oracle_nearest(boids_oracle_far *far, uint32_t n, uint32_t k, double eps,
                              bool *near);

/* Draw k of boid id in step 0 of a world seeded `seed`: the rules' own noise (rules/common.h),
 * which an oracle takes as given (test_noise holds it equal on both backends). */
double boids_oracle_draw(uint64_t seed, uint32_t id, uint32_t k);

#endif
