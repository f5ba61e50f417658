/* The models' papers' own numbers, measured by simulation: each folder's papers.c registers, per
 * model of its rows, the cases its paper states (a turn time, a speed at a frame rate, the push of
 * one neighbour) and the paper's parameter values, as boids_papers_<ID> (found by the model's enum
 * id: boids_papers_of); a folder without one registers none, which is fine (test_papers lists
 * such models; their paper checks live in their own tests). test_papers holds every model to its
 * own cases on both backends, flat and, where a case says so, in the middle plane of a 3D world.
 *
 * Test code, as the oracles are: the library never links it. The helpers below are the worlds
 * the folders' measurements share. */
#ifndef BOIDS_MODELS_PAPER_H
#define BOIDS_MODELS_PAPER_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "boids.h"

/* Where a case is measured: on a backend (with the test's GL context for the GPU's), in a flat
 * world or (in_plane) with every boid in the middle plane z = D / 2 of a 3D world (D the larger
 * of W and H) with vz = 0. */
typedef struct boids_paper_run {
    boids_backend backend;
    boids_gl *gl;
    bool in_plane;
} boids_paper_run;

/* A number of the model's paper, measured by simulation. */
typedef struct boids_paper_case {
    const char *what; /* "T_180 under maximal alignment at 60 fps (... §6.5)" */
    const char *unit; /* "s", "frames", "px/frame" ("": a ratio or a count) */
    double paper;     /* the paper's number */
    double tolerance; /* |measured - paper| <= tolerance (absolute, in unit) */
    double at;        /* the case's own setting, handed to measure (a frame rate, a distance) */
    bool plane;       /* it holds in the middle plane of a 3D world too: measured there as well */
    bool rules;       /* measured by the rules alone, in no world: once, on no backend */
    /* Measures it for model m (NAN where the world could not be made); may print a detail
     * line. */
    double (*measure)(boids_model m, const boids_paper_run *run, double at);
} boids_paper_case;

/* A value of the paper's parameter table: name, value, unit as boids_model_param gives it. */
typedef struct boids_paper_value {
    const char *name;
    double value;
    const char *unit;
} boids_paper_value;

typedef struct boids_papers {
    const boids_paper_case *cases;
    uint32_t count;
    const boids_paper_value *values; /* checked against boids_model_default_params */
    uint32_t value_count;
    uint32_t rows; /* the number of parameter rows the paper's table makes (0: not stated) */
} boids_papers;

/* The papers of model m, NULL where its folder registers none. */
const boids_papers *boids_papers_of(boids_model m);

/* A flat boid: at (x, y), velocity (vx, vy), of swarm s, its attributes 0. */
static inline boids_boid boids_paper_boid(float x, float y, float vx, float vy, uint32_t s)
{
    return (boids_boid){.x = x, .y = y, .vx = vx, .vy = vy, .swarm = s};
}

/* The world definition of n boids of model m on run's backend (2 threads, the test's context). */
boids_world_def boids_paper_def(const boids_paper_run *run, boids_model m, uint32_t n);

/* A W x H world of model m at p (dt, two swarms) holding the n boids b, flat or in the plane as
 * run says; NULL (the error printed) where it could not be made. */
boids_world *boids_paper_world(const boids_paper_run *run, boids_model m, const boids_params *p,
                               float W, float H, float dt, const boids_boid *b, uint32_t n);

/* Such a world stepped `steps` times, b read back: false (printed) where it could not be. */
bool boids_paper_steps(const boids_paper_run *run, boids_model m, const boids_params *p, float W,
                       float H, float dt, boids_boid *b, uint32_t n, uint32_t steps);

/* Boid 0 heading +x at v; the rest a square lattice (spacing 10 px) filling a wrapped world, all
 * heading -x at v: wherever boid 0 goes, its neighbours fly the other way. (malloc'd) */
boids_boid *boids_paper_turn_flock(float v, float W, float H, uint32_t *n);

/* A head-on turn under alignment alone (a Reynolds-block model): boid 0 at +v_max among
 * neighbours at -v_max. Returns the turn time 2 v_max / F_eff from the first step's change of
 * velocity, in steps; *full gets the steps until vx reached -v_max (within 1e-4), or -1. */
double boids_paper_turn_steps(const boids_paper_run *run, boids_model m, boids_params p, float dt,
                              double *full);

#endif
