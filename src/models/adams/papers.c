/* Adams' numbers as shiffman-per-second-model.md gives them, measured by simulation: the turn
 * time under maximal alignment (§6.2) and the separation's scaling (§4.1: a neighbour's push grows
 * with distance, where Shiffman's falls as 1/d). Both hold in the plane of a 3D world too. */
#include <stdio.h>
#include <stdlib.h>

#include "models/paper.h"

/* Adams turns exponentially, (v_bar - v) * matching each frame: §6.2's 20 frames is 2 v_max
 * over the first frame's change, 2 * 6 * 0.05 = 0.6 px/frame. Measured on the first frame. */
static double first_frame_turn(boids_model m, const boids_paper_run *run, double at)
{
    (void)at;
    boids_params p = boids_model_default_params(m);
    p.base.edges = BOIDS_EDGES_WRAP;
    p.adams.avoid_factor = 0;
    p.adams.centering_factor = 0;
    uint32_t n;
    boids_boid *b = boids_paper_turn_flock(p.base.max_speed, 400, 300, &n);
    double t = NAN;
    if (b && boids_paper_steps(run, m, &p, 400, 300, 1, b, n, 1)) {
        const double dv = p.base.max_speed - b[0].vx;
        t = 2.0 * p.base.max_speed / dv;
        printf("    first-frame change %.4g px/frame\n", dv);
    }
    free(b);
    return t;
}

/* One neighbour inside the protected range, d px to the right, pushes by avoid_factor * d: more
 * at the edge of the range than close by (§4.1). Alignment and cohesion off. */
static double push(boids_model m, const boids_paper_run *run, double d)
{
    boids_params p = boids_model_default_params(m);
    p.adams.matching_factor = 0;
    p.adams.centering_factor = 0;
    boids_boid b[2] = {boids_paper_boid(200, 200, 0, 4, 0),
                       boids_paper_boid(200 + (float)d, 200, 0, 4, 0)};
    if (!boids_paper_steps(run, m, &p, 400, 400, 1, b, 2, 1)) return NAN;
    return -b[0].vx; /* pushed to the left, away from the neighbour */
}

/* The steps of 2 -> 4 -> 6 px where the push does not grow. */
static double push_not_growing(boids_model m, const boids_paper_run *run, double at)
{
    (void)at;
    const double p2 = push(m, run, 2), p4 = push(m, run, 4), p6 = push(m, run, 6);
    printf("    push %.3f, %.3f, %.3f px/frame at 2, 4, 6 px\n", p2, p4, p6);
    return isnan(p2 + p4 + p6) ? NAN : !(p2 < p4) + !(p4 < p6);
}

static const boids_paper_case cases[] = {
    {"first-frame turn: 2 v_max over the first frame's change (§6.2)", "frames", 20, 0.02 * 20, 0,
     true, false, first_frame_turn},
    {"push of one neighbour at 2 px: 0.05 d (§4.1)", "px/frame", 0.05 * 2, 1e-4, 2, true, false,
     push},
    {"push of one neighbour at 4 px: 0.05 d (§4.1)", "px/frame", 0.05 * 4, 1e-4, 4, true, false,
     push},
    {"push of one neighbour at 6 px: 0.05 d (§4.1)", "px/frame", 0.05 * 6, 1e-4, 6, true, false,
     push},
    {"steps of 2, 4, 6 px where the push does not grow with d (§4.1)", "", 0, 0, 0, true, false,
     push_not_growing},
};

const boids_papers boids_papers_ADAMS = {cases, sizeof cases / sizeof cases[0], NULL, 0, 0};
