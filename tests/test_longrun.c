/* 500 steps of 20000 boids from the same state on both backends: the flock's observables
 * (polarization, mean nearest-neighbour distance, mean speed) agree within 2 %. Trajectories of
 * a chaotic system need not match after many steps on a real GPU; observables must. The flock
 * must also have actually flocked (polarization grew), or the comparison would say little. */
#include "core/metrics.h"
#include "test.h"

static void run(boids_backend backend, uint32_t swarms, boids_metrics *start, boids_metrics *end)
{
    boids_world_def d = test_def(backend, 20000);
    d.swarms = swarms;
    d.seed = 2026;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_world_info info;
    boids_world_get_info(w, &info);
    boids_boid *b = malloc(sizeof *b * d.count);
    REQUIRE_OK(boids_world_read(w, b, d.count));
    REQUIRE_OK(boids_metrics_compute(b, d.count, info.width, info.height, start));
    REQUIRE_OK(boids_world_step(w, 500));
    REQUIRE_OK(boids_world_read(w, b, d.count));
    CHECK(test_state_finite(b, d.count));
    REQUIRE_OK(boids_metrics_compute(b, d.count, info.width, info.height, end));
    printf("  %s, %u swarm%s: polarization %.4f -> %.4f, mean NN %.3f -> %.3f px, mean speed %.2f px/s\n",
           backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", swarms, swarms == 1 ? " " : "s",
           start->polarization, end->polarization, start->mean_nn, end->mean_nn, end->mean_speed);
    free(b);
    boids_world_destroy(w);
}

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(a), fabs(b)); }

static void compare(uint32_t swarms)
{
    boids_metrics gs, ge, cs, ce;
    run(BOIDS_BACKEND_GPU, swarms, &gs, &ge);
    run(BOIDS_BACKEND_CPU, swarms, &cs, &ce);
    CHECK_MSG(rel(ge.polarization, ce.polarization) <= 0.02, "polarization %g vs %g", ge.polarization,
              ce.polarization);
    CHECK_MSG(rel(ge.mean_nn, ce.mean_nn) <= 0.02, "mean NN %g vs %g", ge.mean_nn, ce.mean_nn);
    CHECK_MSG(rel(ge.mean_speed, ce.mean_speed) <= 0.02, "mean speed %g vs %g", ge.mean_speed,
              ce.mean_speed);
    /* The flock formed: random headings (polarization ~ 1/sqrt(N)) became aligned groups. */
    CHECK_MSG(ce.polarization > 5 * cs.polarization, "no flocking: polarization %g -> %g",
              cs.polarization, ce.polarization);
    /* Every boid within [v_min, v_max] (per-behaviour clamps, then the speed limits). */
    CHECK(ce.min_speed >= 54.0 - 1e-3 && ce.max_speed <= 180.0 + 1e-3);
    CHECK(ge.min_speed >= 54.0 - 1e-3 && ge.max_speed <= 180.0 + 1e-3);
}

static void test_one_swarm(void) { compare(1); }
static void test_three_swarms(void) { compare(3); }

TEST_MAIN(TEST(test_one_swarm), TEST(test_three_swarms))
