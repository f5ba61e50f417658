/* The CPU backend's memory, as the system counts it (the resident set at its peak): a flat world
 * of 10^7 boids of the default model, made, stepped and summed up (the metrics a run ends with),
 * holds at most 80 bytes a boid above what the process held before, and the same world stepped
 * again after its summary takes back no more than its steps' own memory. (docs/bench.md, "Bytes
 * a boid", counts them array by array.) Skips where the system does not count resident pages. */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "base/memory.h"

#define BOIDS 10000000u
#define MOST_BYTES_A_BOID 80.0

static double bytes_a_boid(uint64_t peak, uint64_t before)
{
    return peak > before ? (double)(peak - before) / BOIDS : 0.0;
}

static void test_cpu_peak(void)
{
    const uint64_t before = boids_resident_bytes();
    if (before == 0 || !boids_resident_peak_reset()) {
        printf("SKIP: this system does not count the resident set\n");
        exit(77);
    }
    boids_world_def d = boids_default_world_def();
    d.backend = BOIDS_BACKEND_CPU;
    d.count = BOIDS;
    boids_world *w = NULL;
    REQUIRE_OK(boids_world_create(&d, &w));
    const double made = bytes_a_boid(boids_resident_peak_bytes(), before);
    REQUIRE_OK(boids_world_step(w, 2));
    const double stepped = bytes_a_boid(boids_resident_peak_bytes(), before);
    boids_metrics m;
    REQUIRE_OK(boids_world_metrics(w, &m, 1));
    const double summed = bytes_a_boid(boids_resident_peak_bytes(), before);
    REQUIRE_OK(boids_world_step(w, 1)); /* the step's pages, given back for the summary, again */
    const double again = bytes_a_boid(boids_resident_peak_bytes(), before);
    printf("  10^7 boids, bytes a boid at the peak: made %.1f, stepped %.1f, with the summary "
           "%.1f, stepped again %.1f\n",
           made, stepped, summed, again);
    CHECK_MSG(summed <= MOST_BYTES_A_BOID, "%.1f bytes a boid at the peak, the most is %.0f",
              summed, MOST_BYTES_A_BOID);
    CHECK_MSG(again <= summed,
              "stepping after the summary took %.1f bytes a boid, the peak with "
              "the summary %.1f: the summary's memory is kept beside the step's",
              again, summed);
    CHECK_MSG(m.alive == BOIDS && m.groups > 0 && m.mean_nn > 0, "the summary: %u alive, %u groups",
              m.alive, m.groups);
    boids_world_destroy(w);
}

TEST_MAIN(TEST(test_cpu_peak))
