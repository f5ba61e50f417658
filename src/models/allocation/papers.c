/* Priority allocation's numbers (docs/models.md (priority, mean)): the alpha formula of
 * priority_allocate (rules.h, the rules of both backends) on random and hand-made cases, and in
 * the simulation, on both backends, no boid's acceleration beyond max_accel. Flat worlds only:
 * the simulated case starts from the model's own random layout. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/rng.h"
#include "models/allocation/rules.h"
#include "models/paper.h"

/* priority_allocate of one case, in every lane; the first lane's result. */
static void allocate(const float x[2], const float y[2], const float z[2], float m, float a[2])
{
    const lane_vec r = priority_allocate(
        VEC(boids_vf_all(x[0]), boids_vf_all(x[1]), boids_vf_all(0.0f)),
        VEC(boids_vf_all(y[0]), boids_vf_all(y[1]), boids_vf_all(0.0f)),
        VEC(boids_vf_all(z[0]), boids_vf_all(z[1]), boids_vf_all(0.0f)), boids_vf_all(m));
    a[0] = r.x[0];
    a[1] = r.y[0];
}

/* 20000 random cases: how many exceed the maximum (at 0), how many do not keep the first vector
 * whole where it fits (at 1). */
static double random_cases(boids_model m_, const boids_paper_run *run, double at)
{
    (void)m_, (void)run;
    boids_rng rng = boids_rng_seeded(12);
    int exceeded = 0, not_whole = 0, trials = 20000;
    for (int t = 0; t < trials; ++t) {
        float m = 1.0f + boids_rng_float(&rng) * 100.0f, x[2], y[2], z[2], a[2];
        for (int i = 0; i < 2; ++i) {
            x[i] = (boids_rng_float(&rng) - 0.5f) * 2.0f * m;
            y[i] = (boids_rng_float(&rng) - 0.5f) * 2.0f * m;
            z[i] = (boids_rng_float(&rng) - 0.5f) * 2.0f * m;
        }
        allocate(x, y, z, m, a);
        exceeded += hypotf(a[0], a[1]) > m * (1.0f + 1e-5f);
        if (hypotf(x[0], x[1]) <= m) {
            /* x is kept whole and y added in a part alpha in [0, 1]: a - x = alpha y */
            const float zero[2] = {0, 0};
            allocate(x, y, zero, m, a);
            float rx = a[0] - x[0], ry = a[1] - x[1], yy = y[0] * y[0] + y[1] * y[1];
            float alpha = (rx * y[0] + ry * y[1]) / yy, cross = rx * y[1] - ry * y[0];
            not_whole += alpha < -1e-4f || alpha > 1.0f + 1e-4f || fabsf(cross) > 1e-3f * yy;
        }
    }
    return at == 0 ? exceeded : not_whole;
}

/* The hand-made cases that come out wrong. */
static double hand_cases(boids_model m, const boids_paper_run *run, double at)
{
    (void)m, (void)run, (void)at;
    int wrong = 0;
    /* Everything fits: the sum whole. The first vector alone too long: rescaled to m. */
    float x[2] = {1, 0}, y[2] = {0, 1}, z[2] = {-0.5f, 0}, a[2];
    allocate(x, y, z, 10, a);
    wrong += !(a[0] == 0.5f && a[1] == 1.0f);
    float big[2] = {30, 40};
    allocate(big, y, z, 10, a);
    wrong += !(fabsf(a[0] - 6) < 1e-5f && fabsf(a[1] - 8) < 1e-5f);
    /* The first fits, the second does not: x + alpha y has length m exactly. */
    float y2[2] = {0, 100};
    allocate(x, y2, z, 10, a);
    wrong += !(a[0] == 1.0f && fabsf(hypotf(a[0], a[1]) - 10.0f) < 1e-4f);
    /* Only one vector non-zero: the same direction as mean allocation's (which truncates it). */
    float zero[2] = {0, 0}, only[2] = {300, -400};
    allocate(zero, only, zero, 50, a);
    const lane_vec t = limit_length(
        VEC(boids_vf_all(only[0]), boids_vf_all(only[1]), boids_vf_all(0.0f)), boids_vf_all(50.0f));
    wrong += !(fabsf(a[0] - t.x[0]) < 1e-3f && fabsf(a[1] - t.y[0]) < 1e-3f);
    return wrong;
}

/* The largest acceleration of 4000 boids over one step after 20, at the model's values with
 * max_speed out of the way (only the allocation limits the change of velocity): in px/s^2 (at
 * 0), or beyond max_accel in ulps of the fastest speed over dt (at 1). */
static double largest_acceleration(boids_model m, const boids_paper_run *run, double at)
{
    boids_world_def d = boids_paper_def(run, m, 4000);
    d.params.base.max_speed = 40000;
    d.width = 1200;
    d.height = 900;
    boids_world *w = NULL;
    boids_boid *b0 = malloc(sizeof *b0 * 4000), *b1 = malloc(sizeof *b1 * 4000);
    double worst = 0, fastest = 0, out = NAN;
    if (b0 && b1 && boids_world_create(&d, &w) == BOIDS_OK && boids_world_step(w, 20) == BOIDS_OK &&
        boids_world_read(w, b0, 4000) == BOIDS_OK && boids_world_step(w, 1) == BOIDS_OK &&
        boids_world_read(w, b1, 4000) == BOIDS_OK) {
        for (int i = 0; i < 4000; ++i) {
            worst = fmax(worst, hypot(b1[i].vx - b0[i].vx, b1[i].vy - b0[i].vy) / d.dt);
            fastest = fmax(fastest, fmax(hypot(b0[i].vx, b0[i].vy), hypot(b1[i].vx, b1[i].vy)));
        }
        /* The acceleration is read from two float velocities: each is rounded (and a GPU's may
         * be an ulp off more), so it may exceed max_accel by a few ulps of the fastest speed,
         * over dt: 4 ulps (the case's tolerance). */
        const double ulp = fastest * FLT_EPSILON / d.dt, max_accel = d.params.allocation.max_accel;
        printf("    largest acceleration %.3f px/s^2 (max_accel %g; + %.3f for 4 ulps of %.0f "
               "px/s)\n",
               worst, max_accel, 4 * ulp, fastest);
        out = at == 0 ? worst : fmax(0, worst - max_accel) / ulp;
    } else {
        fprintf(stderr, "%s: %s\n", boids_model_name(m), boids_last_error());
    }
    free(b0), free(b1);
    boids_world_destroy(w);
    return out;
}

static const boids_paper_case cases[] = {
    {"random cases (20000) whose allocation exceeds the maximum", "", 0, 0, 0, false, true,
     random_cases},
    {"random cases whose allocation does not keep the first vector whole", "", 0, 0, 1, false, true,
     random_cases},
    {"hand cases (all fits, first too long, second in part, one alone) wrong", "", 0, 0, 0, false,
     true, hand_cases},
    /* the limit is reached, not avoided: above 0.9 max_accel (the next case bounds it above) */
    {"largest acceleration in the simulation: max_accel", "px/s^2", 180, 0.1 * 180, 0, false, false,
     largest_acceleration},
    {"largest acceleration beyond max_accel", "ulps", 0, 4, 1, false, false, largest_acceleration},
};
static const boids_paper_value values[] = {{"max_accel", 180, "px/s^2"}};

const boids_papers boids_papers_PRIORITY = {cases, sizeof cases / sizeof cases[0], values, 1, 0};
