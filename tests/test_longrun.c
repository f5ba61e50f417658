/* 500 steps of 20000 boids from the same state on both backends, for every model (or the one
 * named on the command line): the flock's observables (polarization, mean nearest-neighbour
 * distance, mean speed) agree within 2 %. Trajectories of a chaotic system need not match after
 * many steps on a real GPU; observables must. For shiffman-per-second the flock must also have
 * flocked (polarization grew), or the comparison would say little. `test_longrun --list` names
 * the models of the manifest: ctest registers one test per model from it (tests/discover.cmake).
 *
 * A model whose preset is its paper's small world (kit: 35 boids in 4000^2 px, view radius 950 px)
 * would see every boid of a 20000-boid flock; such a model ships a scenario for flocks at scale,
 * scenarios/<model>-flock.ini, and where one exists its parameters, dt and layout are the ones
 * compared here. */
#include "test.h"

static boids_model model_under_test;
static boids_world_def def_under_test; /* the model's preset, or its -flock.ini scenario's */

static void run(boids_backend backend, uint32_t swarms, boids_metrics *start, boids_metrics *end)
{
    boids_world_def d = test_def(backend, 20000);
    d.model = model_under_test;
    d.params = def_under_test.params;
    d.dt = def_under_test.dt;
    d.layout = def_under_test.layout;
    d.swarms = swarms;
    d.seed = 2026;
    boids_world *w;
    REQUIRE_OK(boids_world_create(&d, &w));
    boids_boid *b = malloc(sizeof *b * d.count);
    REQUIRE_OK(boids_world_metrics(w, start, 1));
    REQUIRE_OK(boids_world_step(w, 500));
    REQUIRE_OK(boids_world_read(w, b, d.count));
    CHECK(test_state_finite(b, d.count));
    REQUIRE_OK(boids_world_metrics(w, end, 1));
    printf("  %-19s %s, %u swarm%s: polarization %.4f -> %.4f, mean NN %.3f -> %.3f px, mean speed "
           "%.3f\n",
           boids_model_name(d.model), backend == BOIDS_BACKEND_GPU ? "gpu" : "cpu", swarms,
           swarms == 1 ? " " : "s", start->polarization, end->polarization, start->mean_nn,
           end->mean_nn, end->mean_speed);
    free(b);
    boids_world_destroy(w);
}

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(a), fabs(b)); }

static void compare(uint32_t swarms)
{
    boids_metrics gs, ge, cs, ce;
    run(BOIDS_BACKEND_GPU, swarms, &gs, &ge);
    run(BOIDS_BACKEND_CPU, swarms, &cs, &ce);
    CHECK_MSG(rel(ge.polarization, ce.polarization) <= 0.02, "polarization %g vs %g",
              ge.polarization, ce.polarization);
    CHECK_MSG(rel(ge.mean_nn, ce.mean_nn) <= 0.02, "mean NN %g vs %g", ge.mean_nn, ce.mean_nn);
    CHECK_MSG(rel(ge.mean_speed, ce.mean_speed) <= 0.02, "mean speed %g vs %g", ge.mean_speed,
              ce.mean_speed);
    const boids_params p = def_under_test.params;
    /* Speeds stay within the model's limits (priority and mean: only the maximum). */
    CHECK(ce.max_speed <= p.base.max_speed * (1 + 1e-5) &&
          ge.max_speed <= p.base.max_speed * (1 + 1e-5));
    CHECK(ce.min_speed >= p.base.min_speed * (1 - 1e-5) - 1e-6);
    if (model_under_test == BOIDS_MODEL_SHIFFMAN_PER_SECOND) /* random headings became groups */
        CHECK_MSG(ce.polarization > 5 * cs.polarization, "no flocking: polarization %g -> %g",
                  cs.polarization, ce.polarization);
}

static void test_one_swarm(void) { compare(1); }
static void test_three_swarms(void) { compare(3); }

int main(int argc, char **argv)
{
    static const test_case tests[] = {TEST(test_one_swarm), TEST(test_three_swarms)};
    int first = 0, last = BOIDS_MODEL_COUNT - 1;
    if (argc > 1 && strcmp(argv[1], "--list") == 0) { /* ctest's test list: one test per model */
        for (int m = 0; m < BOIDS_MODEL_COUNT; ++m)
            printf("%s\n", boids_model_name((boids_model)m));
        return 0;
    }
    if (argc > 1) {
        boids_model m;
        if (boids_model_from_name(argv[1], &m) != BOIDS_OK) {
            fprintf(stderr, "%s\n", boids_last_error());
            return 2;
        }
        first = last = (int)m;
    }
    int status = 0;
    for (int m = first; m <= last; ++m) {
        model_under_test = (boids_model)m;
        def_under_test = boids_default_world_def();
        def_under_test.model = model_under_test;
        def_under_test.params = boids_model_default_params(model_under_test);
        char flock[256];
        snprintf(flock, sizeof flock, "%s-flock.ini", boids_model_name(model_under_test));
        if (test_scenario_def(flock, &def_under_test))
            printf("model %s, with the parameters of scenarios/%s\n",
                   boids_model_name(model_under_test), flock);
        else
            printf("model %s\n", boids_model_name(model_under_test));
        status |= test_run(tests, 2);
    }
    return status;
}
